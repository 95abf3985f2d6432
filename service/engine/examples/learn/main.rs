//! The learned evaluation's pipeline: self-play positions, the fit, and the weights file the
//! engine embeds (`data/eval/<variant>.bin`). docs/search.md explains the evaluation.
//!
//! Run from the repository root; `all` does both steps, by default with the settings the
//! embedded weights were made with (`Recipe`; up to an hour a variant on 2 cores):
//!
//! ```text
//! cargo run --release -p damiera-engine --example learn -- all --variant turkish
//! # or step by step:
//! cargo run --release -p damiera-engine --example learn -- generate --variant turkish
//! cargo run --release -p damiera-engine --example learn -- fit --variant turkish
//! ```
//!
//! The positions go to `target/learn/<variant>.positions` (appended to, so a second `generate`
//! with `--first-game` after the first adds new games) and the weights to
//! `service/engine/data/eval/<variant>.bin`. The self-play uses the engine as built, so a second
//! round learns from games the first round's weights played. A new set is adopted only after a
//! match against the engine before it (`damiera match`, docs/benchmarks.md).

mod fit;
mod records;
mod selfplay;
#[path = "../common/suite.rs"]
mod suite;

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};
use damiera_engine::Variant;

#[derive(Parser)]
#[command(about = "Generates self-play positions and fits the learned evaluation to them")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays self-play games and appends their quiet positions to the positions file.
    Generate(Generate),
    /// Fits the weights to the positions file and writes the weights file.
    Fit(FitArgs),
    /// Both: `generate` into a fresh positions file, then `fit`.
    All {
        #[command(flatten)]
        generate: Generate,
        #[command(flatten)]
        fit: FitSettings,
    },
}

#[derive(Args)]
struct Generate {
    #[command(flatten)]
    files: Files,
    /// Games to play [default: the variant's recipe].
    #[arg(long)]
    games: Option<u64>,
    /// The first game's number (each number seeds its game's random moves).
    #[arg(long, default_value_t = 0)]
    first_game: u64,
    /// Nodes a move.
    #[arg(long, default_value_t = 2_000)]
    nodes: u64,
    /// Random moves after the opening's, to make the games differ.
    #[arg(long, default_value_t = 4)]
    random_plies: usize,
}

#[derive(Args)]
struct FitArgs {
    #[command(flatten)]
    files: Files,
    #[command(flatten)]
    settings: FitSettings,
}

#[derive(Args)]
struct FitSettings {
    /// Passes over the positions [default: the variant's recipe].
    #[arg(long)]
    epochs: Option<usize>,
    /// The game result's share of each position's target; the search score's is the rest.
    #[arg(long, default_value_t = 0.5)]
    result_share: f64,
    /// Adam's first step, in hundredths of a man [default: the variant's recipe].
    #[arg(long)]
    rate: Option<f64>,
    /// How much every window weight is pulled toward 0 each pass.
    #[arg(long, default_value_t = 0.0005)]
    decay: f64,
    /// The prior on the window weights, in positions: an arrangement seen this many times keeps
    /// about half the weight its positions alone would give it (0: no prior) [default: the
    /// variant's recipe].
    #[arg(long)]
    prior: Option<f64>,
}

/// The settings a variant's embedded weights were made with, the defaults of those not given
/// (docs/benchmarks.md, "Learned evaluation" and "A prior on the window weights").
struct Recipe {
    games: u64,
    epochs: usize,
    rate: f64,
    prior: f64,
}

impl Recipe {
    fn of(variant: Variant) -> Self {
        match variant {
            // Generated with --games 20000 and stopped after 1.29 M positions, about 9,900 games.
            Variant::Italian => Recipe { games: 20_000, epochs: 200, rate: 2.0, prior: 0.0 },
            Variant::Turkish => Recipe { games: 12_000, epochs: 200, rate: 2.0, prior: 100.0 },
            // No weights embedded: the Turkish settings, with the games its first try used.
            Variant::Triestina => Recipe { games: 6_000, epochs: 200, rate: 2.0, prior: 100.0 },
        }
    }
}

#[derive(Args)]
struct Files {
    /// italian, triestina or turkish.
    #[arg(long)]
    variant: Variant,
    /// The positions file (default: target/learn/VARIANT.positions).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// The weights file written (default: service/engine/data/eval/VARIANT.bin).
    #[arg(long)]
    weights: Option<PathBuf>,
}

impl Files {
    fn positions(&self) -> PathBuf {
        self.positions.clone().unwrap_or_else(|| format!("target/learn/{}.positions", self.variant.name()).into())
    }

    fn weights(&self) -> PathBuf {
        self.weights.clone().unwrap_or_else(|| format!("service/engine/data/eval/{}.bin", self.variant.name()).into())
    }
}

fn generate(args: &Generate) -> std::io::Result<()> {
    let out = args.files.positions();
    if let Some(folder) = out.parent() {
        std::fs::create_dir_all(folder)?;
    }
    let settings = selfplay::SelfPlay {
        variant: args.files.variant,
        games: args.games.unwrap_or(Recipe::of(args.files.variant).games),
        first_game: args.first_game,
        nodes: args.nodes,
        random_plies: args.random_plies,
    };
    let count = selfplay::generate(&settings, &out)?;
    eprintln!("{count} positions appended to {}", out.display());
    Ok(())
}

fn fit(files: &Files, settings: &FitSettings) -> std::io::Result<()> {
    let records = records::read(&files.positions())?;
    let recipe = Recipe::of(files.variant);
    let fit = fit::Fit {
        variant: files.variant,
        epochs: settings.epochs.unwrap_or(recipe.epochs),
        result_share: settings.result_share,
        rate: settings.rate.unwrap_or(recipe.rate),
        decay: settings.decay,
        prior: settings.prior.unwrap_or(recipe.prior),
    };
    let weights = fit::fit(&fit, &records);
    let out = files.weights();
    std::fs::write(&out, weights.to_bytes())?;
    eprintln!("weights written to {}", out.display());
    Ok(())
}

fn main() -> std::io::Result<()> {
    match Cli::parse().command {
        Command::Generate(args) => generate(&args),
        Command::Fit(args) => fit(&args.files, &args.settings),
        Command::All { generate: args, fit: settings } => {
            let positions = args.files.positions();
            if positions.exists() {
                std::fs::remove_file(&positions)?;
            }
            generate(&args)?;
            fit(&args.files, &settings)
        }
    }
}
