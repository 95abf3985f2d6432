//! The orthogonal family (Dama Turca): men step and capture forward and sideways, kings fly.
//!
//! Captured pieces leave at once, a sequence never turns 180 degrees between two jumps, a man that
//! reaches the last rank mid-capture goes on as a man (promoted when the move ends), and sequences
//! are ranked by the number of pieces (see [`super::sink`]).

use super::sink::Recorder;
use crate::geometry::{reverse, EAST, FILE_A, FILE_H, NEIGHBOUR, NORTH, RANK_1, RANK_8, SOUTH, WEST};
use crate::{Bitboard, Color, Move, Position, Square};

/// No square: the edge of the board in [`NEIGHBOUR`].
const EDGE: u8 = 64;
/// No previous jump direction.
const NONE: usize = 4;

struct Sides {
    own: u64,
    enemy: u64,
    kings: u64,
    empty: u64,
    /// Forward, then the two sideways directions.
    man_directions: [usize; 3],
    promotion: u64,
}

fn sides(position: &Position) -> Sides {
    let us = position.turn();
    let own = position.pieces_of(us).0;
    let enemy = position.pieces_of(us.opposite()).0;
    let (forward, promotion) = match us {
        Color::White => (NORTH, RANK_8),
        Color::Black => (SOUTH, RANK_1),
    };
    Sides {
        own,
        enemy,
        kings: position.kings().0,
        empty: !(own | enemy),
        man_directions: [forward, EAST, WEST],
        promotion,
    }
}

#[inline]
fn neighbour(square: u32, direction: usize) -> Option<u32> {
    let next = NEIGHBOUR[square as usize][direction];
    (next != EDGE).then_some(u32::from(next))
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
        let mut next = neighbour(at, d);
        while let Some(sq) = next.filter(|sq| empty >> sq & 1 != 0) {
            next = neighbour(sq, d);
        }
        let Some(taken) = next.filter(|t| enemy >> t & 1 != 0) else { continue };
        let taken_is_king = kings >> taken & 1 != 0;
        let mut landing = neighbour(taken, d);
        while let Some(l) = landing.filter(|l| empty >> l & 1 != 0) {
            extended = true;
            rec.push(l, taken, taken_is_king);
            let empty_after = (empty | 1 << at | 1 << taken) & !(1 << l);
            king_jumps(l, d, empty_after, enemy & !(1 << taken), kings, rec);
            rec.pop(taken, taken_is_king);
            landing = neighbour(l, d);
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
    let (forward, offset) = if s.man_directions[0] == NORTH { (men << 8, 8) } else { (men >> 8, -8) };
    let steps = [(forward, offset), ((men & !FILE_H) << 1, 1), ((men & !FILE_A) >> 1, -1)];
    for (targets, offset) in steps {
        for to in Bitboard(targets & s.empty) {
            let from = Square::new((to.index() as i32 - offset) as u8);
            out.push(Move::quiet(from, to, s.promotion >> to.index() & 1 != 0));
        }
    }
    for king in Bitboard(s.own & s.kings) {
        for d in [NORTH, SOUTH, EAST, WEST] {
            let mut next = neighbour(king.index(), d);
            while let Some(to) = next.filter(|t| s.empty >> t & 1 != 0) {
                out.push(Move::quiet(king, Square::new(to as u8), false));
                next = neighbour(to, d);
            }
        }
    }
}

/// The number of legal moves, for perft's last ply: quiet moves counted without building them,
/// captures from the move list (a flying king's paths may need merging).
pub(super) fn count_legal_moves(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    if capturers(position) != 0 {
        super::legal_moves(position, scratch);
        return scratch.len() as u64;
    }
    let s = sides(position);
    let men = s.own & !s.kings;
    let forward = if s.man_directions[0] == NORTH { men << 8 } else { men >> 8 };
    let sideways = ((men & !FILE_H) << 1 & s.empty).count_ones() + ((men & !FILE_A) >> 1 & s.empty).count_ones();
    let mut by_kings = 0;
    for king in Bitboard(s.own & s.kings) {
        for d in [NORTH, SOUTH, EAST, WEST] {
            let mut next = neighbour(king.index(), d);
            while let Some(sq) = next.filter(|sq| s.empty >> sq & 1 != 0) {
                by_kings += 1;
                next = neighbour(sq, d);
            }
        }
    }
    u64::from((forward & s.empty).count_ones() + sideways + by_kings)
}

/// The pieces of the side to move that have a jump: men by whole-board shifts, kings ray by ray.
pub(super) fn capturers(position: &Position) -> u64 {
    let s = &sides(position);
    let men = s.own & !s.kings;
    let (empty, enemy) = (s.empty, s.enemy);
    let forward =
        if s.man_directions[0] == NORTH { men & (enemy & empty >> 8) >> 8 } else { men & (enemy & empty << 8) << 8 };
    let east = men & !FILE_H & (enemy & !FILE_H & empty >> 1) >> 1;
    let west = men & !FILE_A & (enemy & !FILE_A & empty << 1) << 1;
    let kings = Bitboard(s.own & s.kings).filter(|king| {
        [NORTH, SOUTH, EAST, WEST].into_iter().any(|d| {
            let mut next = neighbour(king.index(), d);
            while let Some(sq) = next.filter(|sq| empty >> sq & 1 != 0) {
                next = neighbour(sq, d);
            }
            next.filter(|t| enemy >> t & 1 != 0).and_then(|t| neighbour(t, d)).is_some_and(|l| empty >> l & 1 != 0)
        })
    });
    forward | east | west | kings.fold(0, |acc, king| acc | 1 << king.index())
}
