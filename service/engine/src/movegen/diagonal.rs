//! The diagonal family (Dama Italiana, Dama Triestina): one generator, generic over the board.
//!
//! Men step and capture diagonally forward only and cannot capture kings; kings step and capture
//! one square in all four diagonals. Captured pieces leave at once, a man stops when it reaches
//! the last row, and sequences are ranked by RULES.md 2.8 through [`Sequence::italian_key`].

use super::sink::{CaptureSink, Sequence};
use crate::geometry::{step, DiagonalGeometry};
use crate::{Color, Move, Position, Square};

/// The bits of the side to move, for one generator call.
struct Sides {
    own: u64,
    enemy: u64,
    kings: u64,
    empty: u64,
    forward: [i32; 2],
    promotion: u64,
}

fn sides<G: DiagonalGeometry>(position: &Position) -> Sides {
    let us = position.turn();
    let own = position.pieces_of(us).0;
    let enemy = position.pieces_of(us.opposite()).0;
    let (forward, promotion) = match us {
        Color::White => (G::UP, G::TOP_ROW),
        Color::Black => (G::DOWN, G::BOTTOM_ROW),
    };
    Sides { own, enemy, kings: position.kings().0, empty: G::VALID & !(own | enemy), forward, promotion }
}

#[inline]
fn shift(bits: u64, offset: i32) -> u64 {
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// Reports every complete capture sequence of the side to move.
pub(super) fn captures<G: DiagonalGeometry>(position: &Position, sink: &mut CaptureSink<'_>) {
    let s = sides::<G>(position);
    for from in crate::Bitboard(s.own) {
        let f = from.index();
        let empty = s.empty | 1 << f; // the capturing piece has left its square
        if s.kings >> f & 1 != 0 {
            let mut seq = Sequence::new(from, true);
            king_jumps::<G>(f, empty, s.enemy, s.kings, &mut seq, sink);
        } else {
            let mut seq = Sequence::new(from, false);
            man_jumps::<G>(f, empty, s.enemy & !s.kings, &s, &mut seq, sink);
        }
    }
}

fn man_jumps<G: DiagonalGeometry>(
    at: u32,
    empty: u64,
    enemy_men: u64,
    s: &Sides,
    seq: &mut Sequence,
    sink: &mut CaptureSink<'_>,
) {
    if seq.started() && s.promotion >> at & 1 != 0 {
        // RULES.md 2.7: a man reaching the last row stops there and is promoted.
        sink.report(seq, seq.italian_key(), true);
        return;
    }
    let mut extended = false;
    for d in s.forward {
        let Some(taken) = step(at, d, G::VALID).filter(|t| enemy_men >> t & 1 != 0) else { continue };
        let Some(landing) = step(taken, d, G::VALID).filter(|l| empty >> l & 1 != 0) else { continue };
        extended = true;
        seq.push(landing, taken, false);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        man_jumps::<G>(landing, empty_after, enemy_men & !(1 << taken), s, seq, sink);
        seq.pop(taken, false);
    }
    if seq.started() && (!extended || sink.wants_prefixes()) {
        sink.report(seq, seq.italian_key(), false);
    }
}

fn king_jumps<G: DiagonalGeometry>(
    at: u32,
    empty: u64,
    enemy: u64,
    kings: u64,
    seq: &mut Sequence,
    sink: &mut CaptureSink<'_>,
) {
    let mut extended = false;
    for d in G::ALL {
        let Some(taken) = step(at, d, G::VALID).filter(|t| enemy >> t & 1 != 0) else { continue };
        let Some(landing) = step(taken, d, G::VALID).filter(|l| empty >> l & 1 != 0) else { continue };
        extended = true;
        let taken_is_king = kings >> taken & 1 != 0;
        seq.push(landing, taken, taken_is_king);
        let empty_after = (empty | 1 << at | 1 << taken) & !(1 << landing);
        king_jumps::<G>(landing, empty_after, enemy & !(1 << taken), kings, seq, sink);
        seq.pop(taken, taken_is_king);
    }
    if seq.started() && (!extended || sink.wants_prefixes()) {
        sink.report(seq, seq.italian_key(), false);
    }
}

/// Appends the quiet moves of the side to move, by start square, then direction.
pub(super) fn quiet_moves<G: DiagonalGeometry>(position: &Position, out: &mut Vec<Move>) {
    let s = sides::<G>(position);
    for from in crate::Bitboard(s.own) {
        let f = from.index();
        let is_king = s.kings >> f & 1 != 0;
        let directions: &[i32] = if is_king { &G::ALL } else { &s.forward };
        for &d in directions {
            if let Some(to) = step(f, d, G::VALID).filter(|t| s.empty >> t & 1 != 0) {
                let promotes = !is_king && s.promotion >> to & 1 != 0;
                out.push(Move::quiet(from, Square::new(to as u8), promotes));
            }
        }
    }
}

/// The number of quiet moves, by shifting whole bitboards.
pub(super) fn count_quiet_moves<G: DiagonalGeometry>(position: &Position) -> u64 {
    let s = sides::<G>(position);
    let men = s.own & !s.kings;
    let kings = s.own & s.kings;
    let by_men: u32 = s.forward.iter().map(|&d| (shift(men, d) & s.empty).count_ones()).sum();
    let by_kings: u32 = G::ALL.iter().map(|&d| (shift(kings, d) & s.empty).count_ones()).sum();
    u64::from(by_men + by_kings)
}

/// Whether any piece of the side to move can jump, by shifting whole bitboards.
pub(super) fn has_capture<G: DiagonalGeometry>(position: &Position) -> bool {
    let s = sides::<G>(position);
    let men = s.own & !s.kings;
    let kings = s.own & s.kings;
    let enemy_men = s.enemy & !s.kings;
    let jumps = |pieces: u64, targets: u64, d: i32| shift(shift(pieces, d) & targets, d) & s.empty != 0;
    s.forward.iter().any(|&d| jumps(men, enemy_men, d)) || G::ALL.iter().any(|&d| jumps(kings, s.enemy, d))
}
