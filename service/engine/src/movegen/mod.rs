//! Move generation: legal moves, capture sequences and bulk counts, dispatched by rule family.
//!
//! Each family has one generator ([`diagonal`], [`orthogonal`]); the diagonal one is generic over
//! the board's shape. Both report complete capture sequences to a [`CaptureSink`], which applies
//! the variant's choice rule as it goes (it keeps only the best priority key seen so far), and
//! [`legal_moves`] then merges paths that are the same move.

mod diagonal;
mod orthogonal;
mod sink;

use crate::geometry::{Board10, Board8};
use crate::{Move, Position, Variant};
pub(crate) use sink::CaptureSink;

/// Fills `out` with the legal moves: the capture rule applied, duplicate paths merged.
pub(crate) fn legal_moves(position: &Position, out: &mut Vec<Move>) {
    legal_paths(position, out);
    merge_duplicate_paths(out);
}

/// Fills `out` with every legal capture path (not merged), or the quiet moves if there is none.
pub(crate) fn legal_paths(position: &Position, out: &mut Vec<Move>) {
    out.clear();
    captures(position, &mut CaptureSink::legal(out));
    if out.is_empty() {
        quiet_moves(position, out);
    }
}

/// Fills `out` with every capture sequence and every prefix of one, whatever the capture rule
/// says: the moves a Turkish player can make when he commits a capture fault (RULES.md 3.11).
pub(crate) fn all_capture_sequences(position: &Position, out: &mut Vec<Move>) {
    out.clear();
    captures(position, &mut CaptureSink::everything(out));
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
    match position.variant() {
        Variant::Italian => diagonal::has_capture::<Board8>(position),
        Variant::Triestina => diagonal::has_capture::<Board10>(position),
        Variant::Turkish => orthogonal::has_capture(position),
    }
}

/// The number of legal moves, counted without building quiet moves: perft's last ply.
pub(crate) fn count_legal_moves(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    if has_capture(position) {
        legal_moves(position, scratch);
        return scratch.len() as u64;
    }
    match position.variant() {
        Variant::Italian => diagonal::count_quiet_moves::<Board8>(position),
        Variant::Triestina => diagonal::count_quiet_moves::<Board10>(position),
        Variant::Turkish => orthogonal::count_quiet_moves(position),
    }
}

fn captures(position: &Position, sink: &mut CaptureSink<'_>) {
    match position.variant() {
        Variant::Italian => diagonal::captures::<Board8>(position, sink),
        Variant::Triestina => diagonal::captures::<Board10>(position, sink),
        Variant::Turkish => orthogonal::captures(position, sink),
    }
}

/// Keeps the first path of each (start, end, captured set), in generation order.
fn merge_duplicate_paths(moves: &mut Vec<Move>) {
    if moves.len() < 2 || !moves[0].is_capture() {
        return;
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
