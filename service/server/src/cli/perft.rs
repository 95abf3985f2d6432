//! `damiera perft`: counts the move sequences of a given length, as text or as one JSON object.
//!
//! The text form ends with `nodes N` on its last line, so scripts can read the count with
//! `tail -n 1`; the JSON form carries the same numbers plus the canonical FEN that was counted.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use damiera_engine::{notation, perft, Move, Position};
use serde::Serialize;

use super::{Failure, PositionArgs};

/// The deepest perft the command accepts: deeper runs would take days, so they are surely typos.
const MAX_DEPTH: i64 = 20;

/// Arguments of `damiera perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position to count from.
    #[command(flatten)]
    position: PositionArgs,
    /// Plies to count, 1 to 20.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH))]
    depth: u32,
    /// Also print the count below each legal move, in the engine's move order.
    #[arg(long)]
    divide: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A finished count, ready to print either way.
struct Count {
    /// Leaves at the requested depth.
    nodes: u64,
    /// Wall-clock time of the count alone, without parsing or printing.
    seconds: f64,
    /// Each first move with the leaves below it, when `--divide` asked for them.
    divide: Option<Vec<(Move, u64)>>,
}

/// The JSON form; its field order is the order callers see.
#[derive(Serialize)]
struct Report {
    /// The variant's command-line name: `italian`, `triestina`, `turkish`.
    variant: &'static str,
    /// The counted position in canonical FEN, so a caller can tell what it got even from a range.
    fen: String,
    /// Plies counted.
    depth: u32,
    /// Leaves at that depth.
    nodes: u64,
    /// Time of the count alone.
    seconds: f64,
    /// Nodes per second, rounded down.
    nps: u64,
    /// The count below each first move, present only with `--divide`.
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<Branch>>,
}

/// One first move of a divide and its count.
#[derive(Serialize)]
struct Branch {
    /// The move in full notation.
    #[serde(rename = "move")]
    notation: String,
    /// Leaves below it.
    nodes: u64,
}

/// Runs `damiera perft`.
pub fn run(args: &PerftArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = args.position.position()?;
    let count = count(&position, args.depth, args.divide);
    if args.json {
        write_json(&position, args.depth, &count, out)
    } else {
        write_text(&position, &count, out)
    }
}

fn count(position: &Position, depth: u32, divide: bool) -> Count {
    let started = Instant::now();
    let (nodes, divide) = if divide {
        let branches = perft::divide(position, depth);
        (branches.iter().map(|(_, nodes)| nodes).sum(), Some(branches))
    } else {
        (perft::perft(position, depth), None)
    };
    Count { nodes, seconds: started.elapsed().as_secs_f64(), divide }
}

fn nodes_per_second(count: &Count) -> u64 {
    if count.seconds > 0.0 {
        (count.nodes as f64 / count.seconds) as u64
    } else {
        0 // a count too fast for the clock has no meaningful rate
    }
}

fn write_text(position: &Position, count: &Count, out: &mut impl Write) -> Result<(), Failure> {
    if let Some(branches) = &count.divide {
        for (mv, nodes) in branches {
            writeln!(out, "{}: {nodes}", notation::write(position.variant(), mv))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "seconds {:.6}", count.seconds)?;
    writeln!(out, "nps {}", nodes_per_second(count))?;
    writeln!(out, "nodes {}", count.nodes)?;
    Ok(())
}

fn write_json(position: &Position, depth: u32, count: &Count, out: &mut impl Write) -> Result<(), Failure> {
    let variant = position.variant();
    let divide = count.divide.as_ref().map(|branches| {
        let branch = |(mv, nodes): &(Move, u64)| Branch { notation: notation::write(variant, mv), nodes: *nodes };
        branches.iter().map(branch).collect()
    });
    let report = Report {
        variant: variant.name(),
        fen: position.to_fen(),
        depth,
        nodes: count.nodes,
        seconds: count.seconds,
        nps: nodes_per_second(count),
        divide,
    };
    serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}
