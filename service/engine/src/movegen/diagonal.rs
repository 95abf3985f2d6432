//! The diagonal family (Dama Italiana, Dama Triestina): one generator, generic over the board.
//!
//! Men step and capture diagonally forward only and cannot capture kings; kings step and capture
//! one square in all four diagonals. Captured pieces leave at once, a man stops when it reaches
//! the last row, and sequences are ranked by RULES.md 2.8 (see [`super::sink`]).

use super::sink::Recorder;
use crate::geometry::DiagonalGeometry;
use crate::{Color, Move, Position, Square};

/// The side to move's pieces as the generators need them, for one call.
struct Sides {
    /// Our men if they move up the board (White's), else none.
    men_up: u64,
    /// Our men if they move down the board (Black's), else none.
    men_down: u64,
    /// Our kings.
    kings: u64,
    /// The opponent's pieces.
    enemy: u64,
    /// The opponent's men: the only pieces our men may capture.
    enemy_men: u64,
    /// Empty squares of the board.
    empty: u64,
    /// Our men's two forward steps.
    forward: [i32; 2],
    /// The row where our men promote.
    promotion: u64,
}

/// Splitting men by direction keeps every whole-board shift below a compile-time constant.
fn sides<G: DiagonalGeometry>(position: &Position) -> Sides {
    let us = position.turn();
    let own = position.pieces_of(us).0;
    let enemy = position.pieces_of(us.opposite()).0;
    let all_kings = position.kings().0;
    let men = own & !all_kings;
    let (men_up, men_down, forward, promotion) = match us {
        Color::White => (men, 0, G::UP, G::TOP_ROW),
        Color::Black => (0, men, G::DOWN, G::BOTTOM_ROW),
    };
    Sides {
        men_up,
        men_down,
        kings: own & all_kings,
        enemy,
        enemy_men: enemy & !all_kings,
        empty: G::VALID & !(own | enemy),
        forward,
        promotion,
    }
}

#[inline]
fn shift(bits: u64, offset: i32) -> u64 {
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// Reports every capture sequence of the pieces in `capturers` (see [`capturers`]).
pub(super) fn captures<G: DiagonalGeometry, R: Recorder>(position: &Position, capturers: u64, rec: &mut R) {
    let s = sides::<G>(position);
    let all_kings = position.kings().0;
    for from in crate::Bitboard(capturers) {
        let f = from.index();
        let empty = s.empty | 1 << f; // the capturing piece has left its square
        let is_king = s.kings >> f & 1 != 0;
        rec.begin(from, is_king);
        if is_king {
            king_jumps::<G, R>(f, empty, s.enemy, all_kings, rec);
        } else {
            man_jumps(f, empty, s.enemy_men, &s, rec);
        }
    }
}

/// The jump from `at` in direction `d` over a piece in `targets` onto `empty`: (taken, landing).
///
/// Index arithmetic wraps modulo 64: a step off the top lands on bits 58-63, a step off the bottom
/// on bits 36-40 (8x8) or 55-60 (10x10), and a step off a side on a ghost bit. None of these is a
/// square of the board, so none is in `targets` or `empty`, and no bounds check is needed.
#[inline]
fn jump(at: u32, d: i32, targets: u64, empty: u64) -> Option<(u32, u32)> {
    let taken = (at as i32 + d) as u32 & 63;
    if targets >> taken & 1 == 0 {
        return None;
    }
    let landing = (taken as i32 + d) as u32 & 63;
    (empty >> landing & 1 != 0).then_some((taken, landing))
}

fn man_jumps<R: Recorder>(at: u32, empty: u64, enemy_men: u64, s: &Sides, rec: &mut R) {
    if rec.started() && s.promotion >> at & 1 != 0 {
        // RULES.md 2.7: a man reaching the last row stops there and is promoted.
        rec.record(true);
        return;
    }
    let mut extended = false;
    for &d in &s.forward {
        let Some((taken, landing)) = jump(at, d, enemy_men, empty) else { continue };
        extended = true;
        rec.push(landing, taken, false);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        man_jumps(landing, empty_after, enemy_men & !(1 << taken), s, rec);
        rec.pop(taken, false);
    }
    if rec.started() && (!extended || rec.wants_prefixes()) {
        rec.record(false);
    }
}

fn king_jumps<G: DiagonalGeometry, R: Recorder>(at: u32, empty: u64, enemy: u64, kings: u64, rec: &mut R) {
    let mut extended = false;
    for &d in &G::ALL {
        let Some((taken, landing)) = jump(at, d, enemy, empty) else { continue };
        extended = true;
        let taken_is_king = kings >> taken & 1 != 0;
        rec.push(landing, taken, taken_is_king);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        king_jumps::<G, R>(landing, empty_after, enemy & !(1 << taken), kings, rec);
        rec.pop(taken, taken_is_king);
    }
    if rec.started() && (!extended || rec.wants_prefixes()) {
        rec.record(false);
    }
}

/// Appends the quiet moves of the side to move: men, then kings, each direction in turn.
pub(super) fn quiet_moves<G: DiagonalGeometry>(position: &Position, out: &mut Vec<Move>) {
    let s = sides::<G>(position);
    let mut steps = |pieces: u64, d: i32, promotion: u64| {
        for to in crate::Bitboard(shift(pieces, d) & s.empty) {
            let from = Square::new((to.index() as i32 - d) as u8);
            out.push(Move::quiet(from, to, promotion >> to.index() & 1 != 0));
        }
    };
    // Constant directions, so that each whole-board shift compiles to one instruction.
    steps(s.men_up, G::UP[0], s.promotion);
    steps(s.men_up, G::UP[1], s.promotion);
    steps(s.men_down, G::DOWN[0], s.promotion);
    steps(s.men_down, G::DOWN[1], s.promotion);
    if s.kings != 0 {
        for d in G::ALL {
            steps(s.kings, d, 0);
        }
    }
}

/// The number of quiet moves, by shifting whole bitboards.
pub(super) fn count_quiet_moves<G: DiagonalGeometry>(position: &Position) -> u64 {
    let s = sides::<G>(position);
    let up = s.men_up | s.kings;
    let down = s.men_down | s.kings;
    let count = |pieces: u64, d: i32| (shift(pieces, d) & s.empty).count_ones();
    u64::from(count(up, G::UP[0]) + count(up, G::UP[1]) + count(down, G::DOWN[0]) + count(down, G::DOWN[1]))
}

/// The pieces of the side to move that have a jump: a man next to an enemy man, a king next to
/// any enemy piece, with an empty square behind it. Whole-board shifts, no search; the kings'
/// four shifts are skipped when there are no kings, as in most openings.
#[inline]
pub(super) fn capturers<G: DiagonalGeometry>(position: &Position) -> u64 {
    let s = sides::<G>(position);
    let by_men = men_jumping::<G>(&s, s.men_up | s.men_down, position.turn()).into_iter().fold(0, |a, b| a | b);
    if s.kings == 0 {
        return by_men;
    }
    G::ALL.iter().fold(by_men, |acc, &d| acc | jumpers(&s, s.kings, s.enemy, d))
}

/// The pieces among `pieces` with an enemy in `targets` one step in direction `d` and an empty
/// square right behind it.
#[inline]
fn jumpers(s: &Sides, pieces: u64, targets: u64, d: i32) -> u64 {
    pieces & shift(targets & shift(s.empty, -d), -d)
}

/// The squares among `men` (of colour `turn`) that can jump in each forward direction.
#[inline]
fn men_jumping<G: DiagonalGeometry>(s: &Sides, men: u64, turn: Color) -> [u64; 2] {
    let [d0, d1] = match turn {
        Color::White => G::UP,
        Color::Black => G::DOWN,
    };
    [jumpers(s, men, s.enemy_men, d0), jumpers(s, men, s.enemy_men, d1)]
}

/// The number of legal captures when only men can capture and none can jump twice, by whole-board
/// shifts; `None` when some man can jump again, and a search must count.
///
/// A man's later jumps all go forward, beyond the square its first jump emptied and the man it
/// took, so whether it can jump again is decided by the board as it stands. Each single jump is
/// then a legal move of its own (all have the longest length, one).
pub(super) fn count_single_man_jumps<G: DiagonalGeometry>(position: &Position) -> Option<u64> {
    let s = sides::<G>(position);
    let turn = position.turn();
    let forward = match turn {
        Color::White => G::UP,
        Color::Black => G::DOWN,
    };
    let jumping = men_jumping::<G>(&s, s.men_up | s.men_down, turn);
    let mut count = 0;
    for (men, d) in jumping.into_iter().zip(forward) {
        let landings = shift(men, 2 * d) & !s.promotion;
        if men_jumping::<G>(&s, landings, turn) != [0, 0] {
            return None;
        }
        count += men.count_ones();
    }
    Some(u64::from(count))
}
