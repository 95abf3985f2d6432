//! The search AI: iterative deepening alpha-beta (PVS) on the rules engine, with a transposition
//! table, forced-capture quiescence and per-variant evaluation.
//!
//! [`search`] runs one search to the given [`Limits`] and reports each completed iteration as an
//! [`Iteration`]; another thread may set the stop flag at any time and gets the best move found so
//! far. With one thread and a depth or node limit the search is deterministic: the same move and
//! node count every run.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use damiera_engine::search::{search, Limits, TranspositionTable};
//! use damiera_engine::{fen, Variant};
//!
//! // White's man on 22 takes two men (22x13x6), the only legal move, then stays a man up.
//! let position = fen::parse(Variant::Italian, "W:W22,29:B18,10,4").unwrap();
//! let table = TranspositionTable::new(1);
//! let stop = AtomicBool::new(false);
//! let result = search(&position, &[], &Limits::depth(4), &table, &stop, |_| {});
//! assert_eq!(damiera_engine::notation::write(Variant::Italian, &result.best_move.unwrap()), "22x13x6");
//! ```

mod alphabeta;
pub mod bench;
mod eval;
mod path;
pub mod skill;
mod tablebase;
mod threads;
mod time;
mod tt;

use std::time::Duration;

pub use alphabeta::search;
pub use eval::learned::{self, LearnedWeights};
pub use eval::{evaluate, evaluate_with, evaluate_with_weights, Evaluation, Weights};
pub use threads::{search_with, Options, Techniques};
pub use tt::{Bound, Entry, TranspositionTable};

use crate::egtb::Wdl;
use crate::Move;

/// Where a search stops. Unset limits do not apply; with none set, only the stop flag ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most positions to visit.
    pub nodes: Option<u64>,
    /// The time for this move.
    pub move_time: Option<Duration>,
    /// The mover's clock, when the game is timed.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to `depth` plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search `nodes` positions at most.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Search for `time`.
    #[must_use]
    pub fn move_time(time: Duration) -> Limits {
        Limits { move_time: Some(time), ..Limits::default() }
    }
}

/// A player's clock: time left and the increment added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An estimate in hundredths of a man.
    Value(i32),
    /// The side to move wins in this many plies.
    WinIn(u32),
    /// The side to move loses in this many plies.
    LossIn(u32),
    /// The endgame databases hold the position (or the line's end): its value with best play,
    /// for the side to move, without a distance.
    Database(Wdl),
}

impl Score {
    /// The score as one number that orders scores from the side to move's point of view: an
    /// estimate as it is, a database win above every estimate, a forced win above that and the
    /// sooner the higher; losses the reverse.
    #[must_use]
    pub fn rank(self) -> i32 {
        match self {
            Score::Value(value) => value,
            Score::WinIn(plies) => 100_000 - plies as i32,
            Score::LossIn(plies) => -100_000 + plies as i32,
            Score::Database(Wdl::Win) => 50_000,
            Score::Database(Wdl::Draw) => 0,
            Score::Database(Wdl::Loss) => -50_000,
        }
    }

    /// The same score from the other side's point of view.
    #[must_use]
    pub fn negated(self) -> Score {
        match self {
            Score::Value(value) => Score::Value(-value),
            Score::WinIn(plies) => Score::LossIn(plies),
            Score::LossIn(plies) => Score::WinIn(plies),
            Score::Database(value) => Score::Database(value.opposite()),
        }
    }
}

/// What one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// The iteration's nominal depth, in plies.
    pub depth: u32,
    /// The deepest ply reached, forced captures included.
    pub selective_depth: u32,
    /// The score of the best line.
    pub score: Score,
    /// Positions visited so far in this search.
    pub nodes: u64,
    /// Positions per second so far.
    pub nps: u64,
    /// How full the transposition table is with this search's entries, in thousandths.
    pub hashfull: u32,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation: the best line, best move first.
    pub pv: Vec<Move>,
    /// The best lines, best first (more than one with multi-PV); the first is `score` and `pv`.
    pub lines: Vec<Line>,
}

/// One of the best lines of a multi-PV search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its score.
    pub score: Score,
    /// The line, its first move first.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move found; `None` only when the position has no legal move.
    pub best_move: Option<Move>,
    /// Its score.
    pub score: Score,
    /// The last completed iteration's depth (0 if none completed).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
    /// The best lines of the last completed iteration, best first.
    pub lines: Vec<Line>,
}
