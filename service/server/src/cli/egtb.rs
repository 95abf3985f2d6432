//! `damiera egtb`: builds a variant's endgame databases into a folder (`build`), with a progress
//! bar, and looks a position up in them (`probe`).
//!
//! The folder is `--dir`, else `DAMIERA_EGTB`, else the default (`$XDG_DATA_HOME/damiera/egtb`,
//! `~/.local/share/damiera/egtb`), the same that `serve` and `bestmove` read.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use damiera_engine::egtb::{self, Tablebase, Wdl, MAX_PIECES};
use damiera_engine::Variant;
use damiera_server::search::tablebases;
use indicatif::{ProgressBar, ProgressStyle};

use super::{Failure, PositionArgs};

/// Arguments of `damiera egtb`.
#[derive(Debug, Args)]
pub struct EgtbArgs {
    /// What to do with the databases.
    #[command(subcommand)]
    command: EgtbCommand,
}

/// The `egtb` subcommands.
#[derive(Debug, Subcommand)]
enum EgtbCommand {
    /// Solve every balance up to a number of pieces; balances already built are skipped.
    Build(BuildArgs),
    /// Print a position's database value: win, draw or loss for the side to move.
    Probe(ProbeArgs),
}

/// The databases' folder, as `serve` and `bestmove` also take it.
#[derive(Debug, Args)]
pub struct DirArgs {
    /// The databases' folder (default: $XDG_DATA_HOME/damiera/egtb, or ~/.local/share/damiera/egtb).
    #[arg(long = "dir", env = "DAMIERA_EGTB")]
    dir: Option<PathBuf>,
}

impl DirArgs {
    /// The folder given, or the default one.
    fn dir(&self) -> Result<PathBuf, Failure> {
        tablebases::folder(self.dir.as_deref()).ok_or_else(|| {
            Failure::BadInput("no databases folder: give --dir or set DAMIERA_EGTB (HOME is not set)".into())
        })
    }
}

/// Arguments of `damiera egtb build`.
#[derive(Debug, Args)]
struct BuildArgs {
    /// italian, triestina or turkish.
    #[arg(long)]
    variant: Variant,
    /// The most pieces on the board, 2 to 8 (Italian 5 takes minutes; see docs/benchmarks.md).
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=i64::from(MAX_PIECES)))]
    pieces: u32,
    /// Where to write.
    #[command(flatten)]
    dir: DirArgs,
    /// Building threads (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Option<u64>,
}

/// Arguments of `damiera egtb probe`.
#[derive(Debug, Args)]
struct ProbeArgs {
    /// The position.
    #[command(flatten)]
    position: PositionArgs,
    /// Where to read.
    #[command(flatten)]
    dir: DirArgs,
}

/// Runs `damiera egtb`.
pub fn run(args: &EgtbArgs, out: &mut impl Write) -> Result<(), Failure> {
    match &args.command {
        EgtbCommand::Build(build) => run_build(build, out),
        EgtbCommand::Probe(probe) => run_probe(probe, out),
    }
}

fn run_build(args: &BuildArgs, out: &mut impl Write) -> Result<(), Failure> {
    let dir = args.dir.dir()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0) as usize)
        .build()
        .map_err(|e| Failure::Internal(e.to_string()))?;
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {percent:>3}% {msg} (eta {eta})")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    let started = Instant::now();
    let (mut solved, mut skipped) = (0, 0);
    let result = pool.install(|| {
        egtb::build(args.variant, args.pieces, Some(&dir), |event| {
            bar.set_length(event.total_entries);
            bar.inc(event.entries);
            bar.set_message(format!("{}/{} balance {}", event.done, event.total, event.material));
            if event.skipped {
                skipped += 1;
            } else {
                solved += 1;
            }
            if event.replaced_corrupt {
                bar.println(format!("{}: a damaged file, solved again", event.material));
            }
        })
    });
    bar.finish_and_clear();
    let tablebase = result.map_err(|e| Failure::Startup(e.to_string()))?;
    writeln!(
        out,
        "{} up to {} pieces in {}: {} balances ({solved} solved, {skipped} already built), {} bytes of values, {:.1} s",
        args.variant,
        args.pieces,
        dir.display(),
        tablebase.materials().len(),
        tablebase.data_bytes(),
        started.elapsed().as_secs_f64(),
    )?;
    Ok(())
}

fn run_probe(args: &ProbeArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = args.position.position()?;
    let dir = args.dir.dir()?;
    let tablebase = open(&dir, position.variant())?;
    match (tablebase.probe(&position), tablebase.distance(&position)) {
        (Some(Wdl::Draw), _) => writeln!(out, "database draw")?,
        (Some(value), Some(1)) => writeln!(out, "database {value}, conversion in 1 ply")?,
        (Some(value), Some(plies)) => writeln!(out, "database {value}, conversion in {plies} plies")?,
        (Some(value), None) => {
            writeln!(out, "database {value} (no distances to conversion: build the folder again to add them)")?
        }
        (None, _) => writeln!(out, "not in the database")?,
    }
    Ok(())
}

/// The databases of `variant` in `dir`: a damaged file is a failure that names it.
pub fn open(dir: &std::path::Path, variant: Variant) -> Result<Tablebase, Failure> {
    Tablebase::open(dir, variant).map_err(|e| Failure::Startup(e.to_string()))
}
