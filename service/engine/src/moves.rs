//! [`Move`]: one legal move (start square, landing squares, captured set, promotion).
//!
//! A capture stores the landing square of every jump; two paths with the same start, end and
//! captured set are one move (RULES.md section 1), and the generator keeps the first path it finds.
//!
//! ```
//! use damiera_engine::{Position, Variant};
//! let moves = Position::start(Variant::Italian).legal_moves();
//! assert_eq!(moves.len(), 7);
//! assert!(moves.iter().all(|m| !m.is_capture()));
//! ```

use crate::{Bitboard, Square, Variant};

/// The longest capture sequence any variant allows: Triestina's 20 pieces.
pub const MAX_CAPTURES: usize = 20;

/// What the unused entries of a move's path hold.
const UNUSED: Square = Square::new(0);

/// A move: where the piece starts, where it lands at each jump, what it captures, whether it promotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the moving piece starts from.
    from: Square,
    /// Where the piece ends: the last landing square, kept apart because the search asks often.
    to: Square,
    /// How many entries of `path` are used: 1 for a quiet move, the capture count for a capture.
    len: u8,
    /// Landing squares in order, then unused entries holding square 0 (a constant fill is cheaper
    /// to make than one of the start square).
    path: [Square; MAX_CAPTURES],
    /// The squares of the captured pieces.
    captured: Bitboard,
    /// Whether the moving man ends on its promotion row and becomes a king.
    promotes: bool,
}

impl Move {
    /// A quiet (non-capturing) move.
    #[must_use]
    pub fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        let mut path = [UNUSED; MAX_CAPTURES];
        path[0] = to;
        Move { from, to, len: 1, path, captured: Bitboard::EMPTY, promotes }
    }

    /// A capture through `landings` taking the pieces on `captured`.
    ///
    /// # Panics
    ///
    /// If `landings` is empty or longer than [`MAX_CAPTURES`]: no capture of any variant is.
    #[must_use]
    pub fn capture(from: Square, landings: &[Square], captured: Bitboard, promotes: bool) -> Move {
        assert!(
            (1..=MAX_CAPTURES).contains(&landings.len()),
            "a capture has 1 to {MAX_CAPTURES} landing squares, not {}",
            landings.len()
        );
        let mut path = [UNUSED; MAX_CAPTURES];
        path[..landings.len()].copy_from_slice(landings);
        Move { from, to: landings[landings.len() - 1], len: landings.len() as u8, path, captured, promotes }
    }

    /// The start square.
    #[must_use]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square where the piece ends.
    #[must_use]
    pub fn to(&self) -> Square {
        self.to
    }

    /// The landing squares, in order (for a quiet move, just the destination).
    #[must_use]
    pub fn landings(&self) -> &[Square] {
        &self.path[..self.len as usize]
    }

    /// The squares of the captured pieces.
    #[must_use]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the move captures.
    #[must_use]
    pub fn is_capture(&self) -> bool {
        self.captured.is_nonempty()
    }

    /// Whether a man ends the move on its promotion row.
    #[must_use]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Whether two moves are the same move: same start, end and captured set.
    #[must_use]
    pub fn same_move(&self, other: &Move) -> bool {
        self.from == other.from && self.to() == other.to() && self.captured == other.captured
    }

    /// The start square, then every landing square: the squares the notation writes.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        std::iter::once(self.from).chain(self.landings().iter().copied())
    }

    /// The captured squares in capture order (empty for a quiet move): the captured set read
    /// along the path, for clients that show a capture jump by jump.
    ///
    /// Every jump, diagonal or orthogonal, short or flying, passes over exactly one piece still on
    /// the board, so one walk serves both families. `None` means the path and the captured set
    /// disagree, which a move from [`crate::Position::legal_moves`] never does.
    #[must_use]
    pub fn captures_in_order(&self, variant: Variant) -> Option<Vec<Square>> {
        if !self.is_capture() {
            return Some(Vec::new());
        }
        let mut on_board = self.captured();
        let mut order = Vec::with_capacity(on_board.count() as usize);
        let mut from = self.from();
        for &to in self.landings() {
            // A flying king may cross the square of a piece it took earlier: only untaken ones count.
            let jumped = squares_between(variant, from, to)?.into_iter().find(|&sq| on_board.contains(sq))?;
            on_board = on_board.without(jumped);
            order.push(jumped);
            from = to;
        }
        on_board.is_empty().then_some(order)
    }
}

/// The squares strictly between `a` and `b`, from `a` on, if the two share a rank, file or diagonal.
fn squares_between(variant: Variant, a: Square, b: Square) -> Option<Vec<Square>> {
    let (file_a, rank_a) = signed(variant.coordinates(a));
    let (file_b, rank_b) = signed(variant.coordinates(b));
    let (files, ranks) = (file_b - file_a, rank_b - rank_a);
    let on_a_line = files == 0 || ranks == 0 || files.abs() == ranks.abs();
    if !on_a_line || a == b {
        return None;
    }
    let steps = files.abs().max(ranks.abs());
    (1..steps)
        .map(|i| {
            let (file, rank) = (file_a + i * files.signum(), rank_a + i * ranks.signum());
            variant.square_at(file as u32, rank as u32)
        })
        .collect()
}

fn signed((file, rank): (u32, u32)) -> (i32, i32) {
    (file as i32, rank as i32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Square, Variant};

    fn squares(variant: Variant, names: &[&str]) -> Vec<Square> {
        names.iter().map(|name| variant.parse_square(name).expect("a square of the board")).collect()
    }

    fn names(variant: Variant, squares: &[Square]) -> Vec<String> {
        squares.iter().map(|&sq| variant.square_name(sq)).collect()
    }

    /// A capture from `path[0]` through the rest of `path`, taking `captured` (in any order).
    fn capture(variant: Variant, path: &[&str], captured: &[&str]) -> Move {
        let path = squares(variant, path);
        let captured = squares(variant, captured).into_iter().collect();
        Move::capture(path[0], &path[1..], captured, false)
    }

    #[test]
    fn a_quiet_move_captures_nothing() {
        let v = Variant::Italian;
        let mv = Move::quiet(v.parse_square("22").unwrap(), v.parse_square("18").unwrap(), false);
        assert_eq!(mv.captures_in_order(v), Some(vec![]));
    }

    #[test]
    fn a_diagonal_sequence_takes_its_pieces_jump_by_jump() {
        let v = Variant::Italian;
        let mv = capture(v, &["22", "13", "6"], &["10", "18"]); // the set in the "wrong" order
        assert_eq!(names(v, &mv.captures_in_order(v).unwrap()), ["18", "10"]);
    }

    #[test]
    fn a_sequence_on_the_10x10_board_is_read_the_same_way() {
        let v = Variant::Triestina;
        // 33 (e4) over 27 (d5) to 22 (c6), then over 17 (d7) to 13 (e8).
        let mv = capture(v, &["33", "22", "13"], &["17", "27"]);
        assert_eq!(names(v, &mv.captures_in_order(v).unwrap()), ["27", "17"]);
    }

    #[test]
    fn a_flying_king_crossing_a_taken_square_takes_the_next_piece() {
        let v = Variant::Turkish;
        // From W:WKa3:Be3,h2,Kf1,e5: the last jump, e1 to e6, crosses e3 (taken by the first
        // jump, now empty) before it reaches e5.
        let mv = capture(v, &["a3", "h3", "h1", "e1", "e6"], &["e3", "e5", "f1", "h2"]);
        assert_eq!(names(v, &mv.captures_in_order(v).unwrap()), ["e3", "h2", "f1", "e5"]);
    }

    #[test]
    fn a_path_that_misses_its_captures_is_reported() {
        let v = Variant::Turkish;
        assert_eq!(capture(v, &["a1", "a3"], &["b2"]).captures_in_order(v), None);
        assert_eq!(capture(v, &["a1", "b3"], &["a2"]).captures_in_order(v), None);
    }
}
