//! `damiera moves`: the legal moves of a position, one a line in full notation, or as JSON.
//!
//! The JSON form spells out what the notation leaves implicit, for clients that animate a move:
//! the path (every landing square, as the API's `Move.path`) and the captured pieces in the order
//! they are taken.

use std::io::Write;

use clap::Args;
use damiera_engine::{notation, Move, Square, Variant};
use serde::Serialize;

use super::{Failure, PositionArgs};

/// Arguments of `damiera moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The position whose moves to list.
    #[command(flatten)]
    position: PositionArgs,
    /// Print a JSON array instead of one move a line.
    #[arg(long)]
    json: bool,
}

/// One legal move in the JSON form; squares are written as the variant writes them.
#[derive(Serialize)]
struct MoveReport {
    /// The full notation, as in the text form: `22x13x6`.
    notation: String,
    /// The start square.
    from: String,
    /// The square where the piece ends.
    to: String,
    /// Every landing square, in order (the start square is `from`).
    path: Vec<String>,
    /// The captured pieces' squares, in the order they are taken.
    captures: Vec<String>,
    /// Whether a man ends the move on its promotion row.
    promotes: bool,
}

/// Runs `damiera moves`.
pub fn run(args: &MovesArgs, out: &mut impl Write) -> Result<(), Failure> {
    let position = args.position.position()?;
    let variant = position.variant();
    let moves = position.legal_moves();
    if !args.json {
        for mv in &moves {
            writeln!(out, "{}", notation::write(variant, mv))?;
        }
        return Ok(());
    }
    let reports = moves.iter().map(|mv| report(variant, mv)).collect::<Result<Vec<_>, _>>()?;
    serde_json::to_writer(&mut *out, &reports).map_err(std::io::Error::from)?;
    writeln!(out)?;
    Ok(())
}

fn report(variant: Variant, mv: &Move) -> Result<MoveReport, Failure> {
    let name = |square: &Square| variant.square_name(*square);
    let notation = notation::write(variant, mv);
    let captures = mv
        .captures_in_order(variant)
        .ok_or_else(|| Failure::Internal(format!("{notation}: its path does not match its captured pieces")))?;
    Ok(MoveReport {
        notation,
        from: name(&mv.from()),
        to: name(&mv.to()),
        path: mv.landings().iter().map(name).collect(),
        captures: captures.iter().map(name).collect(),
        promotes: mv.promotes(),
    })
}
