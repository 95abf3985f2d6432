//! [`SearchJob`]: a checked search request, ready to run on the search pool.
//!
//! Every field of `SearchRequest` is read here, against the server's [`Caps`]: a value over a cap
//! is refused, not cut, and the moves are replayed through a [`Game`] so that repetitions count.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use damiera_engine::search::{self, Clock, Iteration, Limits, Options, SearchResult, TranspositionTable};
use damiera_engine::{Game, Outcome, Position, Variant};

use super::convert::{duration, parse_move, position, variant};
use super::{ApiError, Caps};
use crate::proto as pb;

/// The prefix of every field name in a search's errors.
const FIELD: &str = "search";

/// A search, checked and ready to run.
#[derive(Clone, Debug)]
pub struct SearchJob {
    /// The position to search.
    pub position: Position,
    /// The positions before it, oldest first, for repetitions.
    pub history: Vec<Position>,
    /// When to stop.
    pub limits: Limits,
    /// Threads, lines, level, seed.
    pub options: Options,
    /// Transposition table size in MiB.
    pub hash_mib: u32,
}

impl SearchJob {
    /// Checks `request` against `caps`.
    pub fn new(request: Option<&pb::SearchRequest>, caps: &Caps) -> Result<SearchJob, ApiError> {
        let request = request.ok_or_else(|| ApiError::invalid(FIELD, "the search must be given"))?;
        let variant = variant(&format!("{FIELD}.variant"), request.variant)?;
        let game = replay(variant, request)?;
        if let outcome @ (Outcome::Win { .. } | Outcome::Draw { .. }) = game.outcome() {
            return Err(ApiError::GameOver(outcome.to_string()));
        }
        let (position, history) = game.positions().split_last().expect("a game has a position");
        Ok(SearchJob {
            position: *position,
            history: history.to_vec(),
            limits: limits(request.limits.as_ref(), caps)?,
            options: options(request, caps)?,
            hash_mib: capped(request.hash_mib, caps.max_hash_mib, "hash_mib")?.unwrap_or(caps.default_hash_mib),
        })
    }

    /// The variant searched.
    pub fn variant(&self) -> Variant {
        self.position.variant()
    }

    /// The search threads the job needs.
    pub fn threads(&self) -> u32 {
        self.options.threads as u32
    }

    /// Runs the search until a limit or `stop`; `report` hears of every completed iteration.
    pub fn run(&self, stop: &AtomicBool, report: impl FnMut(&Iteration)) -> SearchResult {
        let table = TranspositionTable::new(self.hash_mib as usize);
        search::search_with(&self.position, &self.history, &self.limits, &self.options, &table, stop, report)
    }
}

fn replay(variant: Variant, request: &pb::SearchRequest) -> Result<Game, ApiError> {
    let start = position(variant, &format!("{FIELD}.fen"), &request.fen)?;
    let mut game = Game::from_position(start);
    for (index, text) in request.moves.iter().enumerate() {
        let field = format!("{FIELD}.moves[{index}]");
        if let outcome @ (Outcome::Win { .. } | Outcome::Draw { .. }) = game.outcome() {
            return Err(ApiError::invalid(field, format!("the game was already over ({outcome}) before this move")));
        }
        let mv = parse_move(game.position(), &field, text)?;
        game.play_move(&mv).map_err(|error| ApiError::invalid(field, error.to_string()))?;
    }
    Ok(game)
}

fn limits(limits: Option<&pb::SearchLimits>, caps: &Caps) -> Result<Limits, ApiError> {
    let Some(limits) = limits else {
        return Ok(Limits::move_time(caps.default_move_time));
    };
    let depth = capped(limits.depth, caps.max_depth, "limits.depth")?;
    let nodes = (limits.nodes > 0).then_some(limits.nodes);
    let move_time = match &limits.move_time {
        Some(value) => {
            let time = duration(&format!("{FIELD}.limits.move_time"), value)?;
            if time > caps.max_move_time {
                return Err(ApiError::over_limit(
                    format!("{FIELD}.limits.move_time"),
                    format!("{time:?}"),
                    format!("{:?}", caps.max_move_time),
                ));
            }
            Some(time)
        }
        None => None,
    };
    let clock = limits.clock.as_ref().map(clock).transpose()?;
    let unlimited = depth.is_none() && nodes.is_none() && move_time.is_none() && clock.is_none();
    // Searches by depth, nodes or clock stop at the cap too: one request must not hold threads for hours.
    let move_time = if unlimited { caps.default_move_time } else { move_time.unwrap_or(caps.max_move_time) };
    Ok(Limits { depth, nodes, move_time: Some(move_time), clock })
}

fn clock(clock: &pb::GameClock) -> Result<Clock, ApiError> {
    let read = |name: &str, value: &Option<prost_types::Duration>| -> Result<Duration, ApiError> {
        value.as_ref().map_or(Ok(Duration::ZERO), |v| duration(&format!("{FIELD}.limits.clock.{name}"), v))
    };
    let remaining = read("remaining", &clock.remaining)?;
    if remaining.is_zero() {
        return Err(ApiError::invalid(format!("{FIELD}.limits.clock.remaining"), "a clock needs time left"));
    }
    Ok(Clock { remaining, increment: read("increment", &clock.increment)? })
}

fn options(request: &pb::SearchRequest, caps: &Caps) -> Result<Options, ApiError> {
    if request.level > u32::from(search::skill::FULL_STRENGTH) {
        return Err(ApiError::invalid(format!("{FIELD}.level"), "levels go from 1 to 20 (0 means 20)"));
    }
    let level = if request.level == 0 { search::skill::FULL_STRENGTH } else { request.level as u8 };
    Ok(Options {
        threads: capped(request.threads, caps.max_threads, "threads")?.unwrap_or(1) as usize,
        multipv: capped(request.multipv, caps.max_multipv, "multipv")?.unwrap_or(1) as usize,
        level,
        seed: request.seed,
        ..Options::default()
    })
}

/// A field where 0 means "not given", checked against its cap.
fn capped(value: u32, maximum: u32, name: &str) -> Result<Option<u32>, ApiError> {
    match value {
        0 => Ok(None),
        v if v > maximum => Err(ApiError::over_limit(format!("{FIELD}.{name}"), v, maximum)),
        v => Ok(Some(v)),
    }
}
