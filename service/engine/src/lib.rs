//! The rules of Dama Italiana, Dama Triestina and Dama Turca: positions, legal moves, notation,
//! FEN, PDN and game records. No async runtime, no network, no database: embed it anywhere.
//!
//! ```
//! use damiera_engine::{Position, Variant, perft};
//! let start = Position::start(Variant::Triestina);
//! assert_eq!(start.legal_moves().len(), 9);
//! assert_eq!(perft::perft(&start, 3), 658);
//! ```
#![warn(missing_docs)]

mod bitboard;
mod color;
pub mod egtb;
pub mod fen;
mod game;
mod geometry;
mod movegen;
mod moves;
pub mod notation;
mod outcome;
pub mod pdn;
pub mod perft;
mod position;
pub mod search;
mod square;
mod variant;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use color::{Color, Piece, PieceKind};
pub use fen::FenError;
pub use game::{FirstMover, Game, GameError, GameOptions, MoveCount, MoveResult, PlayedMove, Undone, MOVE_COUNT_LIMIT};
pub use moves::{Move, MAX_CAPTURES};
pub use notation::NotationError;
pub use outcome::{DrawReason, Outcome, WinReason};
pub use position::{IllegalMove, Position, SetupError};
pub use square::Square;
pub use variant::{RuleFamily, SquareError, UnknownVariant, Variant};
