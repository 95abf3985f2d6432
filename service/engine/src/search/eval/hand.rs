//! The hand-written evaluation, per variant: material, advancement, back-rank guard, centre, king
//! mobility and runaway men, from the point of view of the side to move.
//!
//! The weights are tuned per variant by `examples/tune.rs` (Texel tuning on self-play positions)
//! where a tuning run has beaten the hand-set start; each set says where it came from. The learned
//! evaluation ([`super::learned`]) reads its whole-board terms from here ([`counts`]).

use std::sync::OnceLock;

use crate::geometry::{shift, Board10, Board8, DiagonalGeometry};
use crate::{Color, Position, Variant};

/// What each feature is worth, in hundredths of a man. A man is the unit and stays 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// A man on each rank counted from its own side (rank 0 is its base row).
    pub advance: [i32; 10],
    /// A man still on its own base row while the opponent has men: it guards promotion squares.
    pub back_rank: i32,
    /// A piece on the central squares.
    pub centre: i32,
    /// Each square a king could step to.
    pub king_mobility: i32,
    /// A man on the last two ranks before promotion with an empty square in front.
    pub runaway: i32,
}

impl Weights {
    /// The weights the engine plays with in `variant`.
    #[must_use]
    pub fn of(variant: Variant) -> Weights {
        *weights(variant)
    }

    /// Every weight but the man's (the unit), as a list a tuner can vary: king, advance by rank,
    /// back rank, centre, king mobility, runaway.
    #[must_use]
    pub fn tunable(&self) -> Vec<i32> {
        let mut list = vec![self.king];
        list.extend_from_slice(&self.advance);
        list.extend([self.back_rank, self.centre, self.king_mobility, self.runaway]);
        list
    }

    /// These weights with the tunable ones replaced by `list`, in [`Weights::tunable`]'s order.
    #[must_use]
    pub fn with_tunable(&self, list: &[i32]) -> Weights {
        let mut advance = [0; 10];
        advance.copy_from_slice(&list[1..11]);
        Weights {
            man: self.man,
            king: list[0],
            advance,
            back_rank: list[11],
            centre: list[12],
            king_mobility: list[13],
            runaway: list[14],
        }
    }
}

/// Tuned by `examples/tune.rs` (depth 4, 42,497 quiet positions from 400 self-play games); the new
/// weights beat the hand-set ones (king 300, advance up to 16, back rank 8) by +108 =29 -63 at depth 4
/// and by +93 =75 -32 (65.2%) at 20 ms a move.
const ITALIAN: Weights = Weights {
    man: 100,
    king: 249,
    advance: [8, 32, 41, 44, 49, 61, 98, 0, 0, 0],
    back_rank: 47,
    centre: 5,
    king_mobility: 7,
    runaway: 30,
};

/// Hand-set. A depth-4 tuning (king 261, advance about 100 on every rank) beat these by 57.0% at
/// depth 4 but lost at 20 ms a move (48.0% and 45.8% in two 200-game matches), so it was not adopted.
const TRIESTINA: Weights = Weights {
    man: 100,
    king: 300,
    advance: [0, 0, 1, 2, 4, 6, 9, 12, 16, 0],
    back_rank: 6,
    centre: 5,
    king_mobility: 3,
    runaway: 30,
};

/// Tuned by `examples/tune.rs` (depth 4, 35,455 quiet positions from 400 self-play games); the new
/// weights beat the hand-set ones (king 550, advance up to 20, king mobility 2, runaway 40) by
/// +106 =14 -80 at depth 4 and by +106 =38 -56 (62.5%) at 20 ms a move. The negative king mobility,
/// centre and rank-5 advance are what the fit found, unexplained; the matches are why they stay.
const TURKISH: Weights = Weights {
    man: 100,
    king: 936,
    advance: [0, 50, 42, 43, 94, -42, 171, 0, 0, 0],
    back_rank: 4,
    centre: -17,
    king_mobility: -139,
    runaway: 171,
};

/// Square sets the evaluation needs, per variant, computed once.
struct Masks {
    /// `ranks[color][r]`: the squares on rank `r` counted from `color`'s own side; ranks past
    /// the board's are empty, so every board sums all ten.
    ranks: [[u64; 10]; 2],
    /// `near_promotion[color]`: the two ranks before `color`'s promotion row.
    near_promotion: [u64; 2],
    /// The central squares.
    centre: u64,
}

fn masks(variant: Variant) -> &'static Masks {
    static MASKS: OnceLock<[Masks; 3]> = OnceLock::new();
    let all = MASKS.get_or_init(|| Variant::ALL.map(build_masks));
    &all[variant as usize]
}

fn build_masks(variant: Variant) -> Masks {
    let n = variant.board_size();
    let mut ranks = [[0u64; 10]; 2];
    let mut centre = 0u64;
    for square in variant.board() {
        let (file, rank) = variant.coordinates(square);
        ranks[Color::White.index()][rank as usize] |= 1 << square.index();
        ranks[Color::Black.index()][(n - 1 - rank) as usize] |= 1 << square.index();
        let middle = |c: u32| (n / 2 - 2..n / 2 + 2).contains(&c);
        if middle(file) && middle(rank) {
            centre |= 1 << square.index();
        }
    }
    let n = n as usize;
    let near_promotion = [0, 1].map(|c| ranks[c][n - 2] | ranks[c][n - 3]);
    Masks { ranks, near_promotion, centre }
}

pub(super) fn weights(variant: Variant) -> &'static Weights {
    match variant {
        Variant::Italian => &ITALIAN,
        Variant::Triestina => &TRIESTINA,
        Variant::Turkish => &TURKISH,
    }
}

/// The position's full evaluation with other `weights`: what a tuner measures. Every term is
/// ours less theirs, the advance's ranks for both sides in one pass.
#[must_use]
pub fn evaluate_with_weights(position: &Position, w: &Weights) -> i32 {
    let board = Board::of(position);
    let (ours, theirs) = board.sides();
    let advance: i32 =
        (0..10).map(|r| w.advance[r] * (count(ours.men & ours.ranks[r]) - count(theirs.men & theirs.ranks[r]))).sum();
    // A man on its base row guards it only while the other side has men to promote.
    let guards = |side: &Side, other: &Side| if other.men != 0 { count(side.men & side.ranks[0]) } else { 0 };
    let centre = |side: &Side| count((side.men | side.kings) & board.masks.centre);
    material(&ours, &theirs, w)
        + advance
        + w.back_rank * (guards(&ours, &theirs) - guards(&theirs, &ours))
        + w.centre * (centre(&ours) - centre(&theirs))
        + w.king_mobility * (board.king_steps(&ours) - board.king_steps(&theirs))
        + w.runaway * (board.runaways(&ours) - board.runaways(&theirs))
}

/// Men, kings, king steps and runaway men, each the side to move's less the other's: the
/// whole-board terms of the learned evaluation, counted as the weights above count them.
pub(super) fn term_differences(position: &Position) -> [i32; 4] {
    let board = Board::of(position);
    let (ours, theirs) = board.sides();
    [
        count(ours.men) - count(theirs.men),
        count(ours.kings) - count(theirs.kings),
        board.king_steps(&ours) - board.king_steps(&theirs),
        board.runaways(&ours) - board.runaways(&theirs),
    ]
}

/// Men and kings at their values, the side to move's less the other's.
pub(super) fn material_balance(position: &Position, w: &Weights) -> i32 {
    let (ours, theirs) = Board::of(position).sides();
    material(&ours, &theirs, w)
}

fn material(ours: &Side, theirs: &Side, w: &Weights) -> i32 {
    w.man * (count(ours.men) - count(theirs.men)) + w.king * (count(ours.kings) - count(theirs.kings))
}

/// The squares of `bits`, as a term counts them.
fn count(bits: u64) -> i32 {
    bits.count_ones() as i32
}

/// One side's pieces, as the terms read them.
struct Side {
    /// Its colour.
    color: Color,
    /// Its men.
    men: u64,
    /// Its kings.
    kings: u64,
    /// The ranks counted from its own base row.
    ranks: &'static [u64; 10],
}

/// What both sides' values are computed from, looked up once per evaluation.
struct Board<'a> {
    /// The position valued.
    position: &'a Position,
    /// Its variant's square sets.
    masks: &'static Masks,
    /// Its empty squares.
    empty: u64,
}

impl Board<'_> {
    fn of(position: &Position) -> Board<'_> {
        Board { position, masks: masks(position.variant()), empty: position.empty().0 }
    }

    /// The side to move's pieces, then the other side's.
    fn sides(&self) -> (Side, Side) {
        let us = self.position.turn();
        (self.side(us), self.side(us.opposite()))
    }

    fn side(&self, color: Color) -> Side {
        let own = self.position.pieces_of(color).0;
        let kings = self.position.kings().0;
        Side { color, men: own & !kings, kings: own & kings, ranks: &self.masks.ranks[color.index()] }
    }

    /// Empty squares next to `side`'s kings, counted once per king and direction.
    #[inline]
    fn king_steps(&self, side: &Side) -> i32 {
        if side.kings == 0 {
            return 0;
        }
        king_steps(self.position.variant(), side.kings, self.empty) as i32
    }

    /// Runaways: `side`'s men on the two ranks before promotion with an empty square ahead
    /// (straight ahead in Turkish, on either forward diagonal otherwise): close to a king, not
    /// yet stopped.
    #[inline]
    fn runaways(&self, side: &Side) -> i32 {
        let near = side.men & self.masks.near_promotion[side.color.index()];
        if near == 0 {
            return 0;
        }
        (near & open_ahead(self.position.variant(), side.color, self.empty)).count_ones() as i32
    }
}

/// Empty squares next to `kings`, counted once per king and direction: a cheap mobility.
fn king_steps(variant: Variant, kings: u64, empty: u64) -> u32 {
    match variant {
        Variant::Italian => Board8::ALL.iter().map(|&d| (shift(kings, d) & empty).count_ones()).sum(),
        Variant::Triestina => Board10::ALL.iter().map(|&d| (shift(kings, d) & empty).count_ones()).sum(),
        Variant::Turkish => {
            let east_west =
                ((kings & !FILE_H) << 1 & empty).count_ones() + ((kings & !FILE_A) >> 1 & empty).count_ones();
            east_west + (kings << 8 & empty).count_ones() + (kings >> 8 & empty).count_ones()
        }
    }
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// The squares from which a man of `color` has an empty square ahead: one step of the men's
/// forward move, on either diagonal or straight ahead in Turkish.
fn open_ahead(variant: Variant, color: Color, empty: u64) -> u64 {
    let diagonal = |forward: [i32; 2]| shift(empty, -forward[0]) | shift(empty, -forward[1]);
    match (variant, color) {
        (Variant::Italian, Color::White) => diagonal(Board8::UP),
        (Variant::Italian, Color::Black) => diagonal(Board8::DOWN),
        (Variant::Triestina, Color::White) => diagonal(Board10::UP),
        (Variant::Triestina, Color::Black) => diagonal(Board10::DOWN),
        (Variant::Turkish, Color::White) => empty >> 8,
        (Variant::Turkish, Color::Black) => empty << 8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::evaluate_with;

    #[test]
    fn tunable_weights_round_trip_and_evaluate_alike() {
        for variant in Variant::ALL {
            let weights = Weights::of(variant);
            assert_eq!(weights.with_tunable(&weights.tunable()), weights);
            let position = Position::start(variant).play_unchecked(&Position::start(variant).legal_moves()[0]);
            let own = evaluate_with(&position, crate::search::Evaluation::Hand);
            assert_eq!(evaluate_with_weights(&position, &weights), own);
            assert_eq!(evaluate_with(&position, crate::search::Evaluation::Weights(weights)), own);
        }
    }
}
