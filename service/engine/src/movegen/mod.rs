//! Move generation: legal moves, capture sequences and bulk counts, dispatched by rule family.
//!
//! Each family has one generator ([`diagonal`], [`orthogonal`]); the diagonal one is generic over
//! the board's shape. Their capture searches report to a [`Recorder`]: a [`CaptureSink`] applies
//! the variant's choice rule as sequences come (it keeps only the best priority key seen so far)
//! and [`legal_moves`] then merges paths that are the same move; a `Tally` only counts.

mod diagonal;
mod orthogonal;
mod sink;

use crate::geometry::{Board10, Board8};
use crate::{Move, Position, Variant};
use sink::{CaptureSink, Recorder};

/// Fills `out` with the legal moves: the capture rule applied, duplicate paths merged.
pub(crate) fn legal_moves(position: &Position, out: &mut Vec<Move>) {
    let capturers = capturers(position);
    if capturers == 0 {
        out.clear();
        quiet_moves(position, out);
    } else {
        legal_captures(position, capturers, out);
    }
}

/// Fills `out` with the legal captures of the pieces in `capturers` (every piece that can jump,
/// as [`capturers`] finds them; at least one).
pub(crate) fn legal_captures(position: &Position, capturers: u64, out: &mut Vec<Move>) {
    out.clear();
    captures(position, capturers, &mut CaptureSink::legal(out, position.variant().family()));
    merge_duplicate_paths(out);
}

/// The number of legal captures of the pieces in `capturers`, built in `scratch` and merged: the
/// counting functions' way when a king can capture, since its paths may be one move.
fn count_legal_captures(position: &Position, capturers: u64, scratch: &mut Vec<Move>) -> u64 {
    legal_captures(position, capturers, scratch);
    scratch.len() as u64
}

/// Fills `out` with every capture sequence and every prefix of one, whatever the capture rule
/// says: every real path a player can write, legal or a capture fault (RULES.md 3.11).
pub(crate) fn all_capture_sequences(position: &Position, out: &mut Vec<Move>) {
    out.clear();
    captures(position, capturers(position), &mut CaptureSink::everything(out, position.variant().family()));
}

/// Appends the quiet moves to `out`, as if captures were not mandatory.
pub(crate) fn quiet_moves(position: &Position, out: &mut Vec<Move>) {
    match position.variant() {
        Variant::Italian => diagonal::quiet_moves::<Board8>(position, out),
        Variant::Triestina => diagonal::quiet_moves::<Board10>(position, out),
        Variant::Turkish => orthogonal::quiet_moves(position, out),
    }
}

/// Whether the side to move has a capture.
pub(crate) fn has_capture(position: &Position) -> bool {
    capturers(position) != 0
}

/// Whether the side to move has a quiet move (legal when it has no capture): the search's horizon
/// asks this instead of building the moves.
pub(crate) fn has_quiet_move(position: &Position) -> bool {
    match position.variant() {
        Variant::Italian => diagonal::has_quiet_move::<Board8>(position),
        Variant::Triestina => diagonal::has_quiet_move::<Board10>(position),
        Variant::Turkish => orthogonal::has_quiet_move(position),
    }
}

/// The number of legal moves, counted without building quiet moves: perft's last ply.
pub(crate) fn count_legal_moves(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    match position.variant() {
        Variant::Italian => diagonal::count_legal_moves::<Board8>(position, scratch),
        Variant::Triestina => diagonal::count_legal_moves::<Board10>(position, scratch),
        Variant::Turkish => orthogonal::count_legal_moves(position, scratch),
    }
}

/// The pieces of the side to move that have at least one jump, as a bit set.
#[inline]
pub(crate) fn capturers(position: &Position) -> u64 {
    match position.variant() {
        Variant::Italian => diagonal::capturers::<Board8>(position),
        Variant::Triestina => diagonal::capturers::<Board10>(position),
        Variant::Turkish => orthogonal::capturers(position),
    }
}

/// Reports the capture sequences of the pieces in `capturers`.
fn captures<R: Recorder>(position: &Position, capturers: u64, rec: &mut R) {
    match position.variant() {
        Variant::Italian => diagonal::captures::<Board8, R>(position, capturers, rec),
        Variant::Triestina => diagonal::captures::<Board10, R>(position, capturers, rec),
        Variant::Turkish => orthogonal::captures(position, capturers, rec),
    }
}

/// Keeps the first path of each (start, end, captured set), in generation order.
fn merge_duplicate_paths(moves: &mut Vec<Move>) {
    if moves.len() < 2 {
        return; // most captures are the only one
    }
    let mut kept = 0;
    for i in 0..moves.len() {
        let candidate = moves[i];
        if !moves[..kept].iter().any(|m| m.same_move(&candidate)) {
            moves[kept] = candidate;
            kept += 1;
        }
    }
    moves.truncate(kept);
}
