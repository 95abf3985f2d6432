//! Zobrist keys: one random word per (piece, square) and one for the side to move.
//!
//! The keys are fixed at compile time (splitmix64 from a constant seed), so a position's hash is the
//! same in every process and every build: tests, repetition records and stored games can rely on it.

use crate::{Color, Piece, Square};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Indexed by piece index * 64 + square, flat so the index needs no bounds check.
const PIECE_KEYS: [u64; 256] = {
    let mut keys = [0u64; 256];
    let mut state = 0x00DA_31E2_A000_2026;
    let mut piece = 0;
    while piece < 4 {
        let mut square = 0;
        while square < 64 {
            let (next, key) = splitmix64(state);
            state = next;
            keys[piece * 64 + square] = key;
            square += 1;
        }
        piece += 1;
    }
    keys
};

/// The key that flips with the side to move: present when Black is to move.
pub(crate) const SIDE_TO_MOVE: u64 = splitmix64(0x0B1A_C4D0_0000_0001).1;

/// The key of `piece` standing on `square`.
#[inline]
#[must_use]
pub fn piece_key(piece: Piece, square: Square) -> u64 {
    PIECE_KEYS[(piece.index() << 6 | square.index() as usize) & 255]
}

/// The key added when `color` is to move (zero for White).
#[inline]
#[must_use]
pub fn turn_key(color: Color) -> u64 {
    match color {
        Color::White => 0,
        Color::Black => SIDE_TO_MOVE,
    }
}
