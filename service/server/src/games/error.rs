//! [`HostError`]: every way the hosted games refuse or fail, in the domain's words. The API maps
//! it onto its reasons and codes in one `From`; nothing here knows of gRPC.

use super::replay::ActionError;
use super::store::StoreError;

/// Why the host could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// No game has this id.
    #[error("no game is called {0}")]
    NotFound(String),
    /// The token is not one of this game's seat tokens.
    #[error("the token is not a seat token of this game")]
    WrongToken,
    /// The game has changed since the state the call named.
    #[error("the game has moved on: expected {expected}, it is now {actual}; read it again")]
    Stale {
        /// Which state the call named.
        state: NamedState,
        /// What the call expected.
        expected: String,
        /// What the game is at.
        actual: String,
    },
    /// The rules or the game's state refuse the action.
    #[error(transparent)]
    Refused(#[from] ActionError),
    /// A request id used before for another call on this game.
    #[error("this request id was used for another call on this game (event {event}); use a new id for a new call")]
    RequestIdReused {
        /// The 1-based number of the event the id made.
        event: usize,
    },
    /// Takebacks asked for a game with an engine seat.
    #[error("takebacks are between two people: both seats must be persons")]
    TakebacksNeedTwoPeople,
    /// A request id used before to make another game.
    #[error("this request id made another game; use a new id for a new game")]
    RequestIdMadeAnotherGame,
    /// Other calls kept changing the game while this one was being applied.
    #[error("game {id} changed {attempts} times while this call was being applied; retry")]
    Contended {
        /// The game.
        id: String,
        /// How often the action was tried.
        attempts: usize,
    },
    /// A watch asked to resume after the last move.
    #[error("the game has {ply} moves; cannot resume from {from_ply}")]
    ResumeBeyondEnd {
        /// The moves the game has.
        ply: usize,
        /// Where the watch asked to resume.
        from_ply: u32,
    },
    /// The server is shutting down and takes no new watches.
    #[error("the server is shutting down")]
    ShuttingDown,
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game the rules do not accept: a bug or a hand-edited database.
    #[error("{0}")]
    Corrupt(String),
}

/// The state an action can insist on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedState {
    /// The number of moves played.
    Ply,
    /// The game's version.
    Etag,
}
