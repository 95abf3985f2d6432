//! The orthogonal family (Dama Turca): men step and capture forward and sideways, kings fly.
//!
//! Captured pieces leave at once, a sequence never turns 180 degrees between two jumps, a man that
//! reaches the last rank mid-capture goes on as a man (promoted when the move ends), and sequences
//! are ranked by the number of pieces through [`Sequence::turkish_key`].

use super::sink::{CaptureSink, Sequence};
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

/// Reports every complete capture sequence of the side to move.
pub(super) fn captures(position: &Position, sink: &mut CaptureSink<'_>) {
    let s = sides(position);
    for from in Bitboard(s.own) {
        let f = from.index();
        let empty = s.empty | 1 << f; // the capturing piece has left its square
        let is_king = s.kings >> f & 1 != 0;
        let mut seq = Sequence::new(from, is_king);
        if is_king {
            king_jumps(f, NONE, empty, s.enemy, s.kings, &mut seq, sink);
        } else {
            man_jumps(f, NONE, empty, s.enemy, &s, &mut seq, sink);
        }
    }
}

fn man_jumps(
    at: u32,
    previous: usize,
    empty: u64,
    enemy: u64,
    s: &Sides,
    seq: &mut Sequence,
    sink: &mut CaptureSink<'_>,
) {
    let mut extended = false;
    for d in s.man_directions {
        if previous != NONE && d == reverse(previous) {
            continue;
        }
        let Some(taken) = neighbour(at, d).filter(|t| enemy >> t & 1 != 0) else { continue };
        let Some(landing) = neighbour(taken, d).filter(|l| empty >> l & 1 != 0) else { continue };
        extended = true;
        let taken_is_king = s.kings >> taken & 1 != 0;
        seq.push(landing, taken, taken_is_king);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        man_jumps(landing, d, empty_after, enemy & !(1 << taken), s, seq, sink);
        seq.pop(taken, taken_is_king);
    }
    if seq.started() && (!extended || sink.wants_prefixes()) {
        sink.report(seq, seq.turkish_key(), s.promotion >> at & 1 != 0);
    }
}

fn king_jumps(
    at: u32,
    previous: usize,
    empty: u64,
    enemy: u64,
    kings: u64,
    seq: &mut Sequence,
    sink: &mut CaptureSink<'_>,
) {
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
            seq.push(l, taken, taken_is_king);
            let empty_after = (empty | 1 << at | 1 << taken) & !(1 << l);
            king_jumps(l, d, empty_after, enemy & !(1 << taken), kings, seq, sink);
            seq.pop(taken, taken_is_king);
            landing = neighbour(l, d);
        }
    }
    if seq.started() && (!extended || sink.wants_prefixes()) {
        sink.report(seq, seq.turkish_key(), false);
    }
}

/// Appends the quiet moves of the side to move, by start square, then direction.
pub(super) fn quiet_moves(position: &Position, out: &mut Vec<Move>) {
    let s = sides(position);
    for from in Bitboard(s.own) {
        let f = from.index();
        if s.kings >> f & 1 != 0 {
            for d in [NORTH, SOUTH, EAST, WEST] {
                let mut next = neighbour(f, d);
                while let Some(to) = next.filter(|t| s.empty >> t & 1 != 0) {
                    out.push(Move::quiet(from, Square::new(to as u8), false));
                    next = neighbour(to, d);
                }
            }
        } else {
            for d in s.man_directions {
                if let Some(to) = neighbour(f, d).filter(|t| s.empty >> t & 1 != 0) {
                    out.push(Move::quiet(from, Square::new(to as u8), s.promotion >> to & 1 != 0));
                }
            }
        }
    }
}

/// The number of quiet moves: men by shifting whole bitboards, kings ray by ray.
pub(super) fn count_quiet_moves(position: &Position) -> u64 {
    let s = sides(position);
    let men = s.own & !s.kings;
    let forward = if s.man_directions[0] == NORTH { men << 8 } else { men >> 8 };
    let east = (men & !FILE_H) << 1;
    let west = (men & !FILE_A) >> 1;
    let by_men = (forward & s.empty).count_ones()
        + (east & s.empty).count_ones()
        + (west & s.empty).count_ones();
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
    u64::from(by_men + by_kings)
}

/// Whether any piece of the side to move can jump.
pub(super) fn has_capture(position: &Position) -> bool {
    let s = sides(position);
    let men = s.own & !s.kings;
    let empty = s.empty;
    let enemy = s.enemy;
    let forward = if s.man_directions[0] == NORTH {
        ((men << 8 & enemy) << 8) & empty
    } else {
        ((men >> 8 & enemy) >> 8) & empty
    };
    let east = ((((men & !FILE_H) << 1) & enemy & !FILE_H) << 1) & empty;
    let west = ((((men & !FILE_A) >> 1) & enemy & !FILE_A) >> 1) & empty;
    if forward | east | west != 0 {
        return true;
    }
    Bitboard(s.own & s.kings).any(|king| {
        [NORTH, SOUTH, EAST, WEST].into_iter().any(|d| {
            let mut next = neighbour(king.index(), d);
            while let Some(sq) = next.filter(|sq| empty >> sq & 1 != 0) {
                next = neighbour(sq, d);
            }
            next.filter(|t| enemy >> t & 1 != 0)
                .and_then(|t| neighbour(t, d))
                .is_some_and(|l| empty >> l & 1 != 0)
        })
    })
}
