//! `damiera bestmove`: searches a position and prints the best move, as text or one JSON object.
//!
//! The position is a FEN (or the start) plus the moves played from it, so that repetitions count.
//! Text output gives one `info` line per completed iteration, then `bestmove <move>`. Skill
//! levels, threads and multi-PV are not there yet; the flags are refused, not ignored.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clap::Args;
use damiera_engine::search::{self, Iteration, Limits, Score, TranspositionTable};
use damiera_engine::{notation, Game, Move, Variant};
use serde::Serialize;

use super::{Failure, PositionArgs};

/// The search time when no limit is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

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
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=3_600_000), group = "limit")]
    movetime: Option<u64>,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A score as JSON: `{"value": 35}` in hundredths of a man, or `{"win_in": 7}` / `{"loss_in": 4}`
/// plies, from the side to move's point of view.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum JsonScore {
    Value(i32),
    WinIn(u32),
    LossIn(u32),
}

impl From<Score> for JsonScore {
    fn from(score: Score) -> JsonScore {
        match score {
            Score::Value(v) => JsonScore::Value(v),
            Score::WinIn(n) => JsonScore::WinIn(n),
            Score::LossIn(n) => JsonScore::LossIn(n),
        }
    }
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
        movetime: match (args.depth, args.nodes) {
            (None, None) => Some(Duration::from_millis(args.movetime.unwrap_or(DEFAULT_MOVETIME_MS))),
            _ => None,
        },
        clock: None,
    };
    let table = TranspositionTable::new(args.hash as usize);
    let stop = AtomicBool::new(false);
    let positions = game.positions();
    let (current, history) = positions.split_last().expect("a game has a position");
    let mut lines = Vec::new();
    let result = search::search(current, history, &limits, &table, &stop, |it| {
        if !args.json {
            lines.push(info_line(variant, it));
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

fn info_line(variant: Variant, it: &Iteration) -> String {
    let score = match it.score {
        Score::Value(v) => format!("value {v}"),
        Score::WinIn(n) => format!("win {n}"),
        Score::LossIn(n) => format!("loss {n}"),
    };
    let pv: Vec<String> = it.pv.iter().map(|m| notation::write(variant, m)).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} hashfull {} time {} pv {}",
        it.depth,
        it.seldepth,
        it.nodes,
        it.nps,
        it.hashfull,
        it.elapsed.as_millis(),
        pv.join(" ")
    )
}
