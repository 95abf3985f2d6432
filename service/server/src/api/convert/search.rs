//! A `SearchRequest` read into a [`SearchJob`]: the position and its moves replayed through a
//! [`Game`] (so that repetitions count), the limits and options read and checked against the caps.

use std::time::Duration;

use damiera_engine::search::Clock;
use damiera_engine::{Game, Outcome, Variant};

use super::{duration, non_negative, non_negative_64, parse_move, position, variant};
use crate::api::ApiError;
use crate::proto as pb;
use crate::search::{Asked, Caps, SearchJob, Tablebases};

/// The prefix of every field name in a search's errors.
const PREFIX: &str = "search.";

/// How long a search runs when its request sets no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unlimited {
    /// The server's default move time.
    DefaultTime,
    /// Until cancelled, at most the server's longest move time (an infinite analysis).
    UntilCancelled,
}

/// Reads and checks a search request against `caps`; it probes `tablebases`.
pub fn search_job(
    request: Option<&pb::SearchRequest>,
    unlimited: Unlimited,
    caps: &Caps,
    tablebases: &Tablebases,
) -> Result<SearchJob, ApiError> {
    let request = request.ok_or_else(|| ApiError::invalid("search", "the search must be given"))?;
    let variant = variant(&format!("{PREFIX}variant"), request.variant)?;
    let game = replay(variant, PREFIX, &request.fen, &request.moves)?;
    let count = |name: &str, value: i32| non_negative(&format!("{PREFIX}{name}"), value);
    let mut asked = Asked {
        threads: given(count("threads", request.threads)?),
        multipv: given(count("multipv", request.multipv)?),
        hash_mib: given(count("hash_mib", request.hash_mib)?),
        level: count("level", request.level)?,
        // Any 64 bits make a seed: a negative one is as good as any other.
        seed: request.seed as u64,
        ..limits(&format!("{PREFIX}limits"), request.limits.as_ref())?
    };
    if unlimited == Unlimited::UntilCancelled {
        if request.limits.as_ref().is_some_and(|limits| *limits != pb::SearchLimits::default()) {
            return Err(ApiError::invalid("infinite", "an infinite analysis takes no search.limits"));
        }
        asked.move_time = Some(caps.max_move_time);
    }
    SearchJob::new(&game, &asked, caps, tablebases).map_err(|error| ApiError::search(PREFIX, error))
}

/// Reads `SearchLimits` (of a search, or of an engine seat at `field`) into the limits of
/// [`Asked`]; everything else is left unset.
pub fn limits(field: &str, limits: Option<&pb::SearchLimits>) -> Result<Asked, ApiError> {
    let Some(limits) = limits else { return Ok(Asked::default()) };
    let move_time =
        limits.move_time.as_ref().map(|value| duration(&format!("{field}.move_time"), value)).transpose()?;
    let nodes = non_negative_64(&format!("{field}.nodes"), limits.nodes)?;
    Ok(Asked {
        depth: given(non_negative(&format!("{field}.depth"), limits.depth)?),
        nodes: (nodes > 0).then_some(nodes),
        move_time,
        clock: limits.clock.as_ref().map(|c| clock(&format!("{field}.clock"), c)).transpose()?,
        ..Asked::default()
    })
}

/// The game of `moves` played from `fen` (empty: the start), fields named after `prefix`.
pub fn replay(variant: Variant, prefix: &str, fen: &str, moves: &[String]) -> Result<Game, ApiError> {
    let start = position(variant, &format!("{prefix}fen"), fen)?;
    let mut game = Game::from_position(start);
    for (index, text) in moves.iter().enumerate() {
        let field = format!("{prefix}moves[{index}]");
        if let outcome @ (Outcome::Win { .. } | Outcome::Draw { .. }) = game.outcome() {
            return Err(ApiError::invalid(field, format!("the game was already over ({outcome}) before this move")));
        }
        let mv = parse_move(game.position(), &field, text)?;
        game.play_move(&mv).map_err(|error| ApiError::invalid(field, error.to_string()))?;
    }
    Ok(game)
}

fn clock(field: &str, clock: &pb::GameClock) -> Result<Clock, ApiError> {
    let read = |name: &str, value: &Option<prost_types::Duration>| -> Result<Duration, ApiError> {
        value.as_ref().map_or(Ok(Duration::ZERO), |v| duration(&format!("{field}.{name}"), v))
    };
    let remaining = read("remaining", &clock.remaining)?;
    if remaining.is_zero() {
        return Err(ApiError::invalid(format!("{field}.remaining"), "a clock needs time left"));
    }
    Ok(Clock { remaining, increment: read("increment", &clock.increment)? })
}

/// A field where 0 means "not given".
fn given(value: u32) -> Option<u32> {
    (value > 0).then_some(value)
}
