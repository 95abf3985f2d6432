//! Perft: the number of move sequences of a given length, counted as RULES.md section 1 says.
//!
//! Moves are counted once per (start, end, captured set), and only leaves at the requested depth
//! count. The last ply is counted in bulk, without playing the moves.
//!
//! ```
//! use damiera_engine::{perft, Position, Variant};
//! assert_eq!(perft::perft(&Position::start(Variant::Italian), 4), 1469);
//! ```

use crate::{movegen, Move, Position};

/// The number of leaves `depth` plies below `position`.
#[must_use]
pub fn perft(position: &Position, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(64); depth as usize + 1];
    count(position, depth, &mut buffers)
}

/// Perft split by first move: each legal move with the leaves below it, in move order.
#[must_use]
pub fn divide(position: &Position, depth: u32) -> Vec<(Move, u64)> {
    assert!(depth >= 1, "divide needs a depth of at least 1");
    let mut buffers = vec![Vec::with_capacity(64); depth as usize];
    position
        .legal_moves()
        .into_iter()
        .map(|mv| (mv, count(&position.play_unchecked(&mv), depth - 1, &mut buffers)))
        .collect()
}

fn count(position: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    match depth {
        0 => 1,
        1 => movegen::count_legal_moves(position, moves),
        2 => {
            // The last two plies in one loop: most of the work is here, and a call per child costs.
            movegen::legal_moves(position, moves);
            let scratch = &mut rest[0];
            moves.iter().map(|mv| movegen::count_legal_moves(&position.play_unchecked(mv), scratch)).sum()
        }
        _ => {
            movegen::legal_moves(position, moves);
            moves.iter().map(|mv| count(&position.play_unchecked(mv), depth - 1, rest)).sum()
        }
    }
}
