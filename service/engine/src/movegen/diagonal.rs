//! The diagonal family (Dama Italiana, Dama Triestina): one generator, generic over the board.
//!
//! Men step and capture diagonally forward only and cannot capture kings; kings step and capture
//! one square in all four diagonals. Captured pieces leave at once, a man stops when it reaches
//! the last row, and sequences are ranked by RULES.md 2.8 (see [`super::sink`]).
//!
//! Each entry point looks at the side to move once and runs a body generic over it
//! (`WHITE`), so every whole-board shift is by a compile-time constant.

use super::sink::{Recorder, Tally};
use crate::geometry::{shift, DiagonalGeometry};
use crate::{Bitboard, Color, Move, Position, Square};

/// The side to move's pieces as the generators need them, for one call.
struct Sides {
    /// Our men.
    men: u64,
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

fn sides<G: DiagonalGeometry, const WHITE: bool>(position: &Position) -> Sides {
    let (us, forward, promotion) =
        if WHITE { (Color::White, G::UP, G::TOP_ROW) } else { (Color::Black, G::DOWN, G::BOTTOM_ROW) };
    let own = position.pieces_of(us).0;
    let enemy = position.pieces_of(us.opposite()).0;
    let all_kings = position.kings().0;
    Sides {
        men: own & !all_kings,
        kings: own & all_kings,
        enemy,
        enemy_men: enemy & !all_kings,
        empty: G::VALID & !(own | enemy),
        forward,
        promotion,
    }
}

/// Runs `$body::<G, WHITE>(args)` for the side to move of `$position`.
macro_rules! for_side_to_move {
    ($body:ident::<$g:ident>($position:expr $(, $arg:expr)*)) => {
        match $position.turn() {
            Color::White => $body::<$g, true>($position $(, $arg)*),
            Color::Black => $body::<$g, false>($position $(, $arg)*),
        }
    };
}

/// The pieces among `pieces` with an enemy in `targets` one step in direction `d` and an empty
/// square right behind it.
#[inline(always)]
fn jumpers(s: &Sides, pieces: u64, targets: u64, d: i32) -> u64 {
    pieces & shift(targets & shift(s.empty, -d), -d)
}

/// The squares among `men` that can jump in each forward direction.
#[inline(always)]
fn men_jumping(s: &Sides, men: u64) -> [u64; 2] {
    [jumpers(s, men, s.enemy_men, s.forward[0]), jumpers(s, men, s.enemy_men, s.forward[1])]
}

/// The kings of the side to move that can jump.
#[inline(always)]
fn kings_jumping<G: DiagonalGeometry>(s: &Sides) -> u64 {
    if s.kings == 0 {
        return 0; // most openings: skip four shifts
    }
    G::ALL.iter().fold(0, |acc, &d| acc | jumpers(s, s.kings, s.enemy, d))
}

/// The pieces of the side to move that have a jump: a man next to an enemy man, a king next to
/// any enemy piece, with an empty square behind it. Whole-board shifts, no search.
#[inline]
pub(super) fn capturers<G: DiagonalGeometry>(position: &Position) -> u64 {
    for_side_to_move!(capturers_of::<G>(position))
}

#[inline(always)]
fn capturers_of<G: DiagonalGeometry, const WHITE: bool>(position: &Position) -> u64 {
    let s = sides::<G, WHITE>(position);
    let [a, b] = men_jumping(&s, s.men);
    a | b | kings_jumping::<G>(&s)
}

/// Reports every capture sequence of the pieces in `capturers` (see [`capturers`]).
pub(super) fn captures<G: DiagonalGeometry, R: Recorder>(position: &Position, capturers: u64, rec: &mut R) {
    match position.turn() {
        Color::White => captures_of::<G, R, true>(position, capturers, rec),
        Color::Black => captures_of::<G, R, false>(position, capturers, rec),
    }
}

fn captures_of<G: DiagonalGeometry, R: Recorder, const WHITE: bool>(position: &Position, capturers: u64, rec: &mut R) {
    let s = sides::<G, WHITE>(position);
    let all_kings = position.kings().0;
    for from in Bitboard(capturers) {
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
    for_side_to_move!(quiet_moves_of::<G>(position, out))
}

fn quiet_moves_of<G: DiagonalGeometry, const WHITE: bool>(position: &Position, out: &mut Vec<Move>) {
    let s = sides::<G, WHITE>(position);
    let mut steps = |pieces: u64, d: i32, promotion: u64| {
        for to in Bitboard(shift(pieces, d) & s.empty) {
            let from = Square::new((to.index() as i32 - d) as u8);
            out.push(Move::quiet(from, to, promotion >> to.index() & 1 != 0));
        }
    };
    steps(s.men, s.forward[0], s.promotion);
    steps(s.men, s.forward[1], s.promotion);
    if s.kings != 0 {
        for d in G::ALL {
            steps(s.kings, d, 0);
        }
    }
}

/// Whether the side to move has a quiet move: a man with an empty square diagonally ahead, or a
/// king with one on any diagonal.
pub(super) fn has_quiet_move<G: DiagonalGeometry>(position: &Position) -> bool {
    for_side_to_move!(has_quiet_move_of::<G>(position))
}

fn has_quiet_move_of<G: DiagonalGeometry, const WHITE: bool>(position: &Position) -> bool {
    let s = sides::<G, WHITE>(position);
    let by_men = (shift(s.men, s.forward[0]) | shift(s.men, s.forward[1])) & s.empty;
    by_men != 0 || (s.kings != 0 && G::ALL.iter().any(|&d| shift(s.kings, d) & s.empty != 0))
}

/// The number of legal moves, for perft's last ply, from one look at the board: quiet moves and
/// men's single jumps by whole-board shifts, men's longer captures by a counting search, and the
/// move list only when a king can capture (its paths may need merging).
///
/// A diagonal man's jumps each advance two rows, beyond the square its first jump emptied and the
/// man it took: so the board as it stands decides whether it can jump again, and its captured set
/// fixes its path, so no two of its sequences are one move.
pub(super) fn count_legal_moves<G: DiagonalGeometry>(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    for_side_to_move!(count_legal_moves_of::<G>(position, scratch))
}

fn count_legal_moves_of<G: DiagonalGeometry, const WHITE: bool>(position: &Position, scratch: &mut Vec<Move>) -> u64 {
    let s = sides::<G, WHITE>(position);
    let kings = kings_jumping::<G>(&s);
    let jumping = men_jumping(&s, s.men);
    if kings != 0 {
        return super::count_legal_captures(position, jumping[0] | jumping[1] | kings, scratch);
    }
    if jumping == [0, 0] {
        let count = |pieces: u64, d: i32| (shift(pieces, d) & s.empty).count_ones();
        let by_men = count(s.men, s.forward[0]) + count(s.men, s.forward[1]);
        let by_kings = if s.kings == 0 { 0 } else { G::ALL.iter().map(|&d| count(s.kings, d)).sum() };
        return u64::from(by_men + by_kings);
    }
    let landings = shift(jumping[0], 2 * s.forward[0]) | shift(jumping[1], 2 * s.forward[1]);
    if men_jumping(&s, landings & !s.promotion) == [0, 0] {
        return u64::from(jumping[0].count_ones() + jumping[1].count_ones());
    }
    let mut tally = Tally::default();
    captures_of::<G, Tally, WHITE>(position, jumping[0] | jumping[1], &mut tally);
    tally.count()
}
