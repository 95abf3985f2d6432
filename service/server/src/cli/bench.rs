//! `damiera bench`: a fixed set of positions searched to a fixed depth, a fresh table each. With
//! one thread (the default) the total node count is the search's signature: it changes only when
//! the search does. Speed is the nodes per second it prints; with `--threads T`, the time to the
//! same depths against one thread's is the thread speed-up (the node count then varies). With
//! `--move-time MS` each position is searched for that long instead, and the run reports the
//! share of the move time the search used: the time manager's benchmark.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use damiera_engine::search::bench::{POSITIONS, TABLE_MIB};
use damiera_engine::search::{self, Limits, Options, TranspositionTable};
use damiera_engine::{fen, Variant};

use super::Failure;

/// Arguments of `damiera bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this variant's positions (all three by default).
    #[arg(long)]
    variant: Option<Variant>,
    /// Threads to search with; more than one gives up the deterministic node count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Search each position for this many milliseconds instead of to the bench depth, and report
    /// how much of it the search used (the node count is then no signature).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    move_time: Option<u64>,
}

pub fn run(args: &BenchArgs, out: &mut impl Write) -> Result<(), Failure> {
    let stop = AtomicBool::new(false);
    let move_time = args.move_time.map(Duration::from_millis);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    let (mut chosen, mut chosen_time) = (0u32, Duration::ZERO);
    for (variant, depth, fens) in POSITIONS.iter().filter(|(v, ..)| args.variant.is_none_or(|only| only == *v)) {
        let limits = move_time.map_or(Limits::depth(*depth), Limits::move_time);
        for text in *fens {
            let position =
                fen::parse(*variant, text).map_err(|e| Failure::Internal(format!("bench FEN {text}: {e}")))?;
            let table = TranspositionTable::new(TABLE_MIB);
            let started = Instant::now();
            let options = Options { threads: args.threads as usize, ..Options::default() };
            let result = search::search_with(&position, &[], &limits, &options, &table, &stop, |_| {});
            let used = started.elapsed();
            time += used;
            nodes += result.nodes;
            if position.legal_moves().len() > 1 {
                chosen += 1; // a forced move is answered at once: not a measure of the time manager
                chosen_time += used;
            }
            let reached = result.depth;
            match move_time {
                None => writeln!(out, "{variant} depth {depth} nodes {:>10} {text}", result.nodes)?,
                Some(_) => writeln!(
                    out,
                    "{variant} depth {reached:>2} nodes {:>10} ms {:>8.2} {text}",
                    result.nodes,
                    used.as_secs_f64() * 1e3
                )?,
            }
        }
    }
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "seconds {:.3}", time.as_secs_f64())?;
    if let Some(move_time) = move_time {
        let mean = chosen_time / chosen.max(1);
        let share = mean.as_secs_f64() / move_time.as_secs_f64() * 100.0;
        let ms = mean.as_secs_f64() * 1e3;
        let of = move_time.as_millis();
        writeln!(out, "time used per search {ms:.2} ms of {of} ms ({share:.1}%) over {chosen} with a choice")?;
    }
    writeln!(out, "nodes per second {nps}")?;
    writeln!(out, "nodes {nodes}")?;
    Ok(())
}
