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

use crate::{Bitboard, Square};

/// The longest capture sequence any variant allows: Triestina's 20 pieces.
pub const MAX_CAPTURES: usize = 20;

/// A move: where the piece starts, where it lands at each jump, what it captures, whether it promotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The square the moving piece starts from.
    from: Square,
    /// How many entries of `path` are used: 1 for a quiet move, the capture count for a capture.
    len: u8,
    /// Landing squares in order; the last one is where the piece ends.
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
        let mut path = [from; MAX_CAPTURES];
        path[0] = to;
        Move { from, len: 1, path, captured: Bitboard::EMPTY, promotes }
    }

    /// A capture through `landings` (at least one) taking the pieces on `captured`.
    #[must_use]
    pub fn capture(from: Square, landings: &[Square], captured: Bitboard, promotes: bool) -> Move {
        let mut path = [from; MAX_CAPTURES];
        path[..landings.len()].copy_from_slice(landings);
        Move { from, len: landings.len() as u8, path, captured, promotes }
    }

    /// The start square.
    #[must_use]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The square where the piece ends.
    #[must_use]
    pub fn to(&self) -> Square {
        self.path[self.len as usize - 1]
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
}
