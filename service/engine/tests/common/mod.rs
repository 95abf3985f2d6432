//! Shared by the integration tests: a seeded PRNG, sources of random positions, and fresh
//! temporary folders.
//!
//! The PRNG is written here rather than taken from a crate so that the positions a test checks
//! depend only on its seed: the same run fails the same way on every machine and every build.

#![allow(dead_code)] // each test crate uses a different part of this module

use std::collections::HashSet;

use damiera_engine::{Color, Piece, PieceKind, Position, Square, Variant};

/// xorshift64*: small, fast and good enough to pick moves and squares.
pub struct Rng(u64);

impl Rng {
    /// A generator for `seed`; any seed works, zero included.
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n`; `n` must not be zero.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent as usize
    }
}

/// Positions in the order they were first met, each once.
#[derive(Default)]
pub struct Distinct {
    seen: HashSet<Position>,
    /// The positions kept, in first-seen order.
    pub positions: Vec<Position>,
}

impl Distinct {
    /// Keeps `position` unless it is already kept; says whether it was new.
    pub fn add(&mut self, position: Position) -> bool {
        let new = self.seen.insert(position);
        if new {
            self.positions.push(position);
        }
        new
    }

    /// How many positions are kept.
    pub fn len(&self) -> usize {
        self.positions.len()
    }
}

/// Plays random games from the start position, each at most `max_plies` long, keeping every
/// position met (the final one too, even without legal moves) until `target` positions are kept.
pub fn add_random_games(out: &mut Distinct, variant: Variant, rng: &mut Rng, target: usize, max_plies: usize) {
    while out.len() < target {
        let mut position = Position::start(variant);
        for _ in 0..max_plies {
            out.add(position);
            if out.len() >= target {
                return;
            }
            let moves = position.legal_moves();
            if moves.is_empty() {
                break;
            }
            position = position.play_unchecked(&moves[rng.below(moves.len())]);
        }
    }
}

/// A random legal set-up: 1..=`max_per_side` pieces a side on random squares, each a king with
/// probability `king_percent` (and always a king where a man would stand on its promotion row),
/// either side to move. Kings are rare in random games; these positions are where kings are
/// tested.
pub fn random_setup(variant: Variant, rng: &mut Rng, max_per_side: u32, king_percent: u32) -> Position {
    let mut squares: Vec<Square> = variant.board().collect();
    let mut pieces = Vec::new();
    for color in Color::ALL {
        let count = 1 + rng.below(max_per_side.min(variant.men_per_side()) as usize);
        for _ in 0..count {
            let square = squares.swap_remove(rng.below(squares.len()));
            let on_promotion_row = variant.promotion_row(color).contains(square);
            let king = on_promotion_row || rng.chance(king_percent);
            let kind = if king { PieceKind::King } else { PieceKind::Man };
            pieces.push((square, Piece { color, kind }));
        }
    }
    let turn = if rng.chance(50) { Color::White } else { Color::Black };
    Position::from_pieces(variant, turn, pieces).expect("random set-ups follow the set-up rules")
}

/// Adds `count` new random set-ups to `out`, cycling through sparse and dense boards and few and
/// many kings so that long king captures and king-against-king choices both come up.
pub fn add_random_setups(out: &mut Distinct, variant: Variant, rng: &mut Rng, count: usize) {
    const SHAPES: [(u32, u32); 6] = [(4, 90), (6, 50), (8, 30), (12, 60), (16, 20), (16, 70)];
    let target = out.len() + count;
    let mut i = 0;
    while out.len() < target {
        let (max_per_side, king_percent) = SHAPES[i % SHAPES.len()];
        out.add(random_setup(variant, rng, max_per_side, king_percent));
        i += 1;
    }
}

/// A fresh folder under the system's temporary one, named for the test and the process.
pub fn temporary_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damiera-egtb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
