//! The orthogonal family (Dama Turca): men step and capture forward and sideways, kings fly.
//!
//! Captured pieces leave at once, a sequence never turns 180 degrees between two jumps, a man that
//! reaches the last rank mid-capture goes on as a man (promoted when the move ends), and sequences
//! are ranked by the number of pieces (see [`super::sink`]).

use super::sink::Recorder;
use crate::geometry::{
    ascends, reverse, shift, EAST, FILE_A, FILE_H, NEIGHBOUR, NORTH, RANK_1, RANK_8, RAY, SOUTH, WEST,
};
use crate::{Bitboard, Color, Move, Position, Square};

/// No square: the edge of the board in [`NEIGHBOUR`].
const EDGE: u8 = 64;
/// No previous jump direction.
const NONE: usize = 4;

/// The side to move's pieces as the generators need them, for one call.
struct Sides {
    /// Our pieces.
    own: u64,
    /// The opponent's pieces.
    enemy: u64,
    /// Kings of both sides.
    kings: u64,
    /// Empty squares.
    empty: u64,
    /// Our men's forward direction, then the two sideways ones.
    man_directions: [usize; 3],
    /// Our men's forward step as a bit offset: +8 for White, -8 for Black.
    forward: i32,
    /// The rank where our men promote.
    promotion: u64,
}

fn sides(position: &Position) -> Sides {
    let us = position.turn();
    let own = position.pieces_of(us).0;
    let enemy = position.pieces_of(us.opposite()).0;
    let (direction, forward, promotion) = match us {
        Color::White => (NORTH, 8, RANK_8),
        Color::Black => (SOUTH, -8, RANK_1),
    };
    Sides {
        own,
        enemy,
        kings: position.kings().0,
        empty: !(own | enemy),
        man_directions: [direction, EAST, WEST],
        forward,
        promotion,
    }
}

#[inline]
fn neighbour(square: u32, direction: usize) -> Option<u32> {
    let next = NEIGHBOUR[square as usize][direction];
    (next != EDGE).then_some(u32::from(next))
}

/// The empty squares a flying king crosses from `from` (not included) in `direction`, in the order
/// it meets them: those before [`blocker`].
fn ray(from: u32, direction: usize, empty: u64) -> Walk {
    let line = RAY[direction][from as usize];
    let open = match blocker(from, direction, empty) {
        Some(stop) => line & !RAY[direction][stop as usize] & !(1 << stop),
        None => line,
    };
    Walk { squares: open, ascending: ascends(direction) }
}

/// The first square from `from` in `direction` that is not empty, unless the edge comes first.
#[inline]
fn blocker(from: u32, direction: usize, empty: u64) -> Option<u32> {
    let occupied = RAY[direction][from as usize] & !empty;
    (occupied != 0).then(|| if ascends(direction) { occupied.trailing_zeros() } else { 63 - occupied.leading_zeros() })
}

/// Squares on one line, handed out in the order of a walk along it: up the bit order or down.
struct Walk {
    /// The squares not yet handed out.
    squares: u64,
    /// Whether the walk goes up the bit order.
    ascending: bool,
}

impl Iterator for Walk {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.squares == 0 {
            return None;
        }
        let square = if self.ascending { self.squares.trailing_zeros() } else { 63 - self.squares.leading_zeros() };
        self.squares &= !(1 << square);
        Some(square)
    }

    fn count(self) -> usize {
        self.squares.count_ones() as usize
    }
}

/// Reports every capture sequence of the pieces in `capturers` (see [`capturers`]).
pub(super) fn captures<R: Recorder>(position: &Position, capturers: u64, rec: &mut R) {
    let s = sides(position);
    for from in Bitboard(capturers) {
        let f = from.index();
        let empty = s.empty | 1 << f; // the capturing piece has left its square
        let is_king = s.kings >> f & 1 != 0;
        rec.begin(from, is_king);
        if is_king {
            king_jumps(f, NONE, empty, s.enemy, s.kings, rec);
        } else {
            man_jumps(f, NONE, empty, s.enemy, &s, rec);
        }
    }
}

fn man_jumps<R: Recorder>(at: u32, previous: usize, empty: u64, enemy: u64, s: &Sides, rec: &mut R) {
    let mut extended = false;
    for d in s.man_directions {
        if previous != NONE && d == reverse(previous) {
            continue;
        }
        let Some(taken) = neighbour(at, d).filter(|t| enemy >> t & 1 != 0) else { continue };
        let Some(landing) = neighbour(taken, d).filter(|l| empty >> l & 1 != 0) else { continue };
        extended = true;
        let taken_is_king = s.kings >> taken & 1 != 0;
        rec.push(landing, taken, taken_is_king);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        man_jumps(landing, d, empty_after, enemy & !(1 << taken), s, rec);
        rec.pop(taken, taken_is_king);
    }
    if rec.started() && (!extended || rec.wants_prefixes()) {
        rec.record(s.promotion >> at & 1 != 0);
    }
}

fn king_jumps<R: Recorder>(at: u32, previous: usize, empty: u64, enemy: u64, kings: u64, rec: &mut R) {
    let mut extended = false;
    for d in [NORTH, SOUTH, EAST, WEST] {
        if previous != NONE && d == reverse(previous) {
            continue;
        }
        let Some(taken) = blocker(at, d, empty).filter(|t| enemy >> t & 1 != 0) else { continue };
        let taken_is_king = kings >> taken & 1 != 0;
        for l in ray(taken, d, empty) {
            extended = true;
            rec.push(l, taken, taken_is_king);
            let empty_after = (empty | 1 << at | 1 << taken) & !(1 << l);
            king_jumps(l, d, empty_after, enemy & !(1 << taken), kings, rec);
            rec.pop(taken, taken_is_king);
        }
    }
    if rec.started() && (!extended || rec.wants_prefixes()) {
        rec.record(false);
    }
}

/// Appends the quiet moves of the side to move: men by whole-board shifts, then kings ray by ray.
pub(super) fn quiet_moves(position: &Position, out: &mut Vec<Move>) {
    let s = sides(position);
    let men = s.own & !s.kings;
    let steps = [(shift(men, s.forward), s.forward), ((men & !FILE_H) << 1, 1), ((men & !FILE_A) >> 1, -1)];
    for (targets, offset) in steps {
        for to in Bitboard(targets & s.empty) {
            let from = Square::new((to.index() as i32 - offset) as u8);
            out.push(Move::quiet(from, to, s.promotion >> to.index() & 1 != 0));
        }
    }
    for king in Bitboard(s.own & s.kings) {
        for d in [NORTH, SOUTH, EAST, WEST] {
            for to in ray(king.index(), d, s.empty) {
                out.push(Move::quiet(king, Square::new(to as u8), false));
            }
        }
    }
}

/// The number of legal moves, for perft's last ply: quiet moves counted without building them,
/// captures from the move list (a flying king's paths may need merging).
pub(super) fn count_legal_moves(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    let capturers = capturers(position);
    if capturers != 0 {
        return super::count_legal_captures(position, capturers, scratch);
    }
    let s = sides(position);
    let men = s.own & !s.kings;
    let by_men = (shift(men, s.forward) & s.empty).count_ones()
        + ((men & !FILE_H) << 1 & s.empty).count_ones()
        + ((men & !FILE_A) >> 1 & s.empty).count_ones();
    let by_kings: usize = Bitboard(s.own & s.kings)
        .map(|king| {
            [NORTH, SOUTH, EAST, WEST].into_iter().map(|d| ray(king.index(), d, s.empty).count()).sum::<usize>()
        })
        .sum();
    u64::from(by_men) + by_kings as u64
}

/// Whether the side to move has a quiet move: a man with an empty square ahead or beside it, or a
/// king with an empty neighbour (a flying king's every move passes one).
pub(super) fn has_quiet_move(position: &Position) -> bool {
    let s = sides(position);
    let men = s.own & !s.kings;
    let movers = men | (s.own & s.kings);
    let sideways = (movers & !FILE_H) << 1 | (movers & !FILE_A) >> 1;
    let by_kings = s.own & s.kings;
    (shift(men, s.forward) | sideways | by_kings << 8 | by_kings >> 8) & s.empty != 0
}

/// The pieces of the side to move that have a jump: men by whole-board shifts, kings ray by ray.
pub(super) fn capturers(position: &Position) -> u64 {
    let s = &sides(position);
    let men = s.own & !s.kings;
    let (empty, enemy) = (s.empty, s.enemy);
    let forward = men & shift(enemy & shift(empty, -s.forward), -s.forward);
    let east = men & !FILE_H & (enemy & !FILE_H & empty >> 1) >> 1;
    let west = men & !FILE_A & (enemy & !FILE_A & empty << 1) << 1;
    let kings = Bitboard(s.own & s.kings).filter(|king| {
        [NORTH, SOUTH, EAST, WEST].into_iter().any(|d| {
            let taken = blocker(king.index(), d, empty).filter(|t| enemy >> t & 1 != 0);
            taken.and_then(|t| neighbour(t, d)).is_some_and(|l| empty >> l & 1 != 0)
        })
    });
    forward | east | west | kings.fold(0, |acc, king| acc | 1 << king.index())
}
