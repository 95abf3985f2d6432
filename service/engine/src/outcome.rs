//! [`Outcome`]: how a game stands, and what the position alone decides ([`Position::status`]).
//!
//! ```
//! use damiera_engine::{fen, Color, Outcome, Variant, WinReason};
//! // Turkish: a lone man against a king loses at once (RULES.md 3.9).
//! let position = fen::parse(Variant::Turkish, "W:Wa2:BKh8,h7").unwrap();
//! assert_eq!(position.status(), Outcome::Win { winner: Color::Black, reason: WinReason::LoneManAgainstKing });
//! ```

use std::fmt;

use crate::{Color, Position, Variant};

/// How a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Play goes on.
    Ongoing,
    /// One player has won.
    Win {
        /// The winner.
        winner: Color,
        /// Why the game ended.
        reason: WinReason,
    },
    /// The game is drawn.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left (RULES.md 2.10, 3.9).
    NoPieces,
    /// The loser, to move, has no legal move (RULES.md 2.10, 3.9).
    NoMoves,
    /// Turkish: the loser has a single man and the winner a king (RULES.md 3.9).
    LoneManAgainstKing,
    /// The loser resigned.
    Resignation,
    /// Turkish, with the forfeit option: the loser did not capture, or captured too few (RULES.md 3.11).
    CaptureFault,
    /// The loser's clock ran out (hosted games with a time control).
    Time,
    /// The loser, to move, left the game: no move for the time a host allows (hosted games).
    Abandonment,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// The same position with the same player to move: fourth time (Italian, Triestina) or third (Turkish).
    Repetition,
    /// Italian and Triestina: 40 king moves each under the move count (RULES.md 2.11).
    MoveCount,
    /// Turkish: one piece each of the same kind (RULES.md 3.10).
    OnePieceEach,
    /// The players agreed.
    Agreement,
}

impl Outcome {
    /// Whether the game is over.
    #[must_use]
    pub fn is_over(self) -> bool {
        self != Outcome::Ongoing
    }
}

impl WinReason {
    /// A stable lower-case name, for logs and APIs.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            WinReason::NoPieces => "no_pieces",
            WinReason::NoMoves => "no_moves",
            WinReason::LoneManAgainstKing => "lone_man_against_king",
            WinReason::Resignation => "resignation",
            WinReason::CaptureFault => "capture_fault",
            WinReason::Time => "time",
            WinReason::Abandonment => "abandonment",
        }
    }
}

impl DrawReason {
    /// A stable lower-case name, for logs and APIs.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
            DrawReason::MoveCount => "move_count",
            DrawReason::OnePieceEach => "one_piece_each",
            DrawReason::Agreement => "agreement",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Win { winner, reason } => write!(f, "{winner} wins ({})", reason.name()),
            Outcome::Draw { reason } => write!(f, "draw ({})", reason.name()),
        }
    }
}

impl Position {
    /// What this position decides on its own, without the game's history: a side without pieces
    /// or (to move) without moves has lost; in Turkish, a lone man against a king has lost and one
    /// piece each of the same kind is a draw. Repetitions and the move count need a [`crate::Game`].
    #[must_use]
    pub fn status(&self) -> Outcome {
        if let Some(outcome) = self.material_outcome() {
            return outcome;
        }
        if self.legal_moves().is_empty() {
            return Outcome::Win { winner: self.turn().opposite(), reason: WinReason::NoMoves };
        }
        Outcome::Ongoing
    }

    /// What the pieces alone decide, without generating a move: a side without pieces has lost,
    /// and the Turkish material endings (RULES.md 3.9, 3.10). The search asks this at every node.
    #[must_use]
    pub fn material_outcome(&self) -> Option<Outcome> {
        // Every rule below needs a side with one piece or none: with two or more each, the
        // search's usual case, nothing is decided.
        let several = |color: Color| {
            let pieces = self.pieces_of(color).0;
            pieces & pieces.wrapping_sub(1) != 0
        };
        if several(Color::White) && several(Color::Black) {
            return None;
        }
        for color in [self.turn(), self.turn().opposite()] {
            if self.pieces_of(color).is_empty() {
                return Some(Outcome::Win { winner: color.opposite(), reason: WinReason::NoPieces });
            }
        }
        if self.variant() == Variant::Turkish {
            return self.turkish_material_outcome();
        }
        None
    }

    /// RULES.md 3.9 (a lone man against a king loses) and 3.10 (one piece each of a kind draws).
    fn turkish_material_outcome(&self) -> Option<Outcome> {
        let lone = |color: Color| {
            let pieces = self.pieces_of(color);
            (pieces.count() == 1).then(|| (pieces & self.kings()).is_nonempty())
        };
        let has_king = |color: Color| (self.pieces_of(color) & self.kings()).is_nonempty();
        match (lone(Color::White), lone(Color::Black)) {
            (Some(white_king), Some(black_king)) if white_king == black_king => {
                Some(Outcome::Draw { reason: DrawReason::OnePieceEach })
            }
            _ => Color::ALL.into_iter().find_map(|color| {
                (lone(color) == Some(false) && has_king(color.opposite()))
                    .then_some(Outcome::Win { winner: color.opposite(), reason: WinReason::LoneManAgainstKing })
            }),
        }
    }
}
