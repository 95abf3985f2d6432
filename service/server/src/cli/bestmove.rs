//! `damiera bestmove`: searches a position and prints the best move, as text or one JSON object.
//!
//! The position is a FEN (or the start) plus the moves played from it, so that repetitions count.
//! Text output gives one `info` line per completed iteration (one per line with `--multipv`), then
//! `bestmove <move>`.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use damiera_engine::search::{self, Iteration, Limits, Line, Options, Score, TranspositionTable};
use damiera_engine::{notation, Game, Move, Variant};
use serde::Serialize;

use super::{EgtbFolder, Failure, PositionArgs};

/// The search time when no limit is given.
const DEFAULT_MOVE_TIME_MS: u64 = 1000;

/// Arguments of `damiera bestmove`.
#[derive(Debug, Args)]
pub struct BestmoveArgs {
    /// The position to search from.
    #[command(flatten)]
    position: PositionArgs,
    /// Moves played from that position, space separated, e.g. "23-19 10-14".
    #[arg(long, default_value = "")]
    moves: String,
    /// Search to this many plies (deterministic).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100), group = "limit")]
    depth: Option<u32>,
    /// Search this many positions at most (deterministic).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), group = "limit")]
    nodes: Option<u64>,
    /// Search for this many milliseconds (the default: 1000).
    #[arg(long, alias = "movetime", value_parser = clap::value_parser!(u64).range(1..=3_600_000), group = "limit")]
    move_time: Option<u64>,
    /// Skill level, 1 (weakest) to 20 (full strength, the default).
    #[arg(long, default_value_t = search::skill::FULL_STRENGTH, value_parser = clap::value_parser!(u8).range(1..=i64::from(search::skill::FULL_STRENGTH)))]
    level: u8,
    /// The seed of a weaker level's choices: the same seed plays the same moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads to search with (more than one is not deterministic).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Report the best K moves with their scores and lines.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=32))]
    multipv: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Where the endgame databases are.
    #[command(flatten)]
    egtb: EgtbFolder,
}

/// A score as JSON: `{"value": 35}` in hundredths of a man, `{"win_in": 7}` / `{"loss_in": 4}`
/// plies, or `{"database": "win"}` (or "draw", "loss"), from the side to move's point of view.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum JsonScore {
    Value(i32),
    WinIn(u32),
    LossIn(u32),
    Database(&'static str),
}

impl From<Score> for JsonScore {
    fn from(score: Score) -> JsonScore {
        match score {
            Score::Value(v) => JsonScore::Value(v),
            Score::WinIn(n) => JsonScore::WinIn(n),
            Score::LossIn(n) => JsonScore::LossIn(n),
            Score::Database(value) => JsonScore::Database(value.name()),
        }
    }
}

/// One line of a multi-PV answer.
#[derive(Serialize)]
struct JsonLine {
    /// Its first move.
    #[serde(rename = "move")]
    first: String,
    /// Its score.
    score: JsonScore,
    /// The line.
    pv: Vec<String>,
}

/// The JSON form.
#[derive(Serialize)]
struct Report {
    /// The best move in full notation; null when the side to move has no legal move.
    #[serde(rename = "move")]
    best: Option<String>,
    /// Its score.
    score: JsonScore,
    /// The last completed iteration's depth.
    depth: u32,
    /// Positions searched.
    nodes: u64,
    /// Time spent.
    seconds: f64,
    /// The principal variation, best move first.
    pv: Vec<String>,
    /// With `--multipv`: the best lines, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    multipv: Option<Vec<JsonLine>>,
}

pub fn run(args: &BestmoveArgs, out: &mut impl Write) -> Result<(), Failure> {
    let variant = args.position.variant;
    let mut game = Game::from_position(args.position.position()?);
    for text in args.moves.split_whitespace() {
        game.play(text).map_err(|e| Failure::BadInput(format!("--moves: {e}")))?;
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        move_time: match (args.depth, args.nodes) {
            (None, None) => Some(Duration::from_millis(args.move_time.unwrap_or(DEFAULT_MOVE_TIME_MS))),
            _ => None,
        },
        clock: None,
    };
    let table = TranspositionTable::new(args.hash as usize);
    let stop = AtomicBool::new(false);
    let positions = game.positions();
    let (current, history) = positions.split_last().expect("a game has a position");
    let mut lines = Vec::new();
    let options = Options {
        threads: args.threads as usize,
        multipv: args.multipv.unwrap_or(1) as usize,
        level: args.level,
        seed: args.seed,
        tablebase: args.egtb.tablebase(variant),
        ..Options::default()
    };
    let result = search::search_with(current, history, &limits, &options, &table, &stop, |it| {
        if !args.json {
            lines.extend(info_lines(variant, it));
        }
    });
    let write_line = |mv: &Move| notation::write(variant, mv);
    if args.json {
        let report = Report {
            best: result.best_move.as_ref().map(write_line),
            score: result.score.into(),
            depth: result.depth,
            nodes: result.nodes,
            seconds: result.elapsed.as_secs_f64(),
            pv: result.pv.iter().map(write_line).collect(),
            multipv: args.multipv.map(|_| {
                let line = |l: &Line| JsonLine {
                    first: l.pv.first().map(write_line).unwrap_or_default(),
                    score: l.score.into(),
                    pv: l.pv.iter().map(write_line).collect(),
                };
                result.lines.iter().map(line).collect()
            }),
        };
        serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        for line in lines {
            writeln!(out, "{line}")?;
        }
        writeln!(out, "bestmove {}", result.best_move.as_ref().map_or("(none)".to_string(), write_line))?;
    }
    Ok(())
}

/// The `info` lines of one iteration: one per line of a multi-PV search.
fn info_lines(variant: Variant, it: &Iteration) -> Vec<String> {
    it.lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let score = match line.score {
                Score::Value(v) => format!("value {v}"),
                Score::WinIn(n) => format!("win {n}"),
                Score::LossIn(n) => format!("loss {n}"),
                Score::Database(value) => format!("database {value}"),
            };
            let pv: Vec<String> = line.pv.iter().map(|m| notation::write(variant, m)).collect();
            let multipv = if it.lines.len() > 1 { format!(" multipv {}", i + 1) } else { String::new() };
            format!(
                "info depth {} seldepth {}{multipv} score {score} nodes {} nps {} hashfull {} time {} pv {}",
                it.depth,
                it.selective_depth,
                it.nodes,
                it.nps,
                it.hashfull,
                it.elapsed.as_millis(),
                pv.join(" ")
            )
        })
        .collect()
}
