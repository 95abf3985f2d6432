//! [`SearchJob`]: a search, checked and ready to run on the search pool.
//!
//! What a search is asked ([`Asked`]) is checked here against the server's [`Caps`], for the
//! API's searches and the engine seats' alike: a value over a cap is refused, not cut. The game
//! brings its history, so that repetitions count.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use damiera_engine::search::{self, skill, Clock, Iteration, Limits, Options, SearchResult, TranspositionTable};
use damiera_engine::{Game, Outcome, Position, Variant};

use super::{Cap, Caps, OverCap, Tablebases};

/// What a search is asked to do, before it is checked; `None` is "not given".
#[derive(Clone, Debug, Default)]
pub struct Asked {
    /// The deepest to search.
    pub depth: Option<u32>,
    /// The most nodes to search.
    pub nodes: Option<u64>,
    /// How long to think.
    pub move_time: Option<Duration>,
    /// The side to move's clock.
    pub clock: Option<Clock>,
    /// Search threads.
    pub threads: Option<u32>,
    /// Lines to report.
    pub multipv: Option<u32>,
    /// Transposition table size in MiB.
    pub hash_mib: Option<u32>,
    /// The skill level as asked: 0 is full strength ([`skill::level`]).
    pub level: u32,
    /// The seed of a weaker level's choices.
    pub seed: u64,
}

/// Why a search cannot run.
#[derive(Clone, Debug, thiserror::Error)]
pub enum JobError {
    /// A value over a cap.
    #[error(transparent)]
    OverCap(#[from] OverCap),
    /// A level outside [`skill::LEVELS`].
    #[error("levels go from 1 to {full} (0 means {full}); got {0}", full = skill::FULL_STRENGTH)]
    Level(u32),
    /// The game has ended: there is no move to search.
    #[error("the game is over: {0}")]
    GameOver(Outcome),
}

/// A search, checked and ready to run.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to search.
    pub position: Position,
    /// The positions before it, oldest first, for repetitions.
    pub history: Vec<Position>,
    /// When to stop.
    pub limits: Limits,
    /// Threads, lines, level, seed, the variant's endgame databases.
    pub options: Options,
    /// Transposition table size in MiB.
    pub hash_mib: u32,
}

impl Asked {
    /// Checks what was asked against `caps`: when to stop, the search's options and its table size.
    pub fn check(&self, caps: &Caps) -> Result<(Limits, Options, u32), JobError> {
        let limits = caps.limits(self.depth, self.nodes, self.move_time, self.clock)?;
        let level = skill::level(self.level).ok_or(JobError::Level(self.level))?;
        let options = Options {
            threads: caps.check_given(Cap::Threads, self.threads)?.unwrap_or(1) as usize,
            multipv: caps.check_given(Cap::MultiPv, self.multipv)?.unwrap_or(1) as usize,
            level,
            seed: self.seed,
            ..Options::default()
        };
        let hash_mib = caps.check_given(Cap::HashMib, self.hash_mib)?.unwrap_or(caps.default_hash_mib);
        Ok((limits, options, hash_mib))
    }
}

impl SearchJob {
    /// A search of `game`'s position, as `asked`, checked against `caps`, probing the variant's
    /// endgame databases among `tablebases` (at full strength).
    pub fn new(game: &Game, asked: &Asked, caps: &Caps, tablebases: &Tablebases) -> Result<SearchJob, JobError> {
        if let outcome @ (Outcome::Win { .. } | Outcome::Draw { .. }) = game.outcome() {
            return Err(JobError::GameOver(outcome));
        }
        let (limits, mut options, hash_mib) = asked.check(caps)?;
        options.tablebase = tablebases.get(game.variant());
        let (position, history) = game.positions().split_last().expect("a game has a position");
        Ok(SearchJob { position: *position, history: history.to_vec(), limits, options, hash_mib })
    }

    /// The variant searched.
    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The search threads the job needs.
    pub fn threads(&self) -> u32 {
        self.options.threads as u32
    }

    /// Runs the search on `table` until a limit or `stop`; `report` hears of every completed
    /// iteration.
    pub fn run(&self, table: &TranspositionTable, stop: &AtomicBool, report: impl FnMut(&Iteration)) -> SearchResult {
        search::search_with(&self.position, &self.history, &self.limits, &self.options, table, stop, report)
    }
}
