//! [`Host`]: what the server does with hosted games, apart from the wire format: create them,
//! act for a seat, read them back. The gRPC handlers and the engine's seats both go through it.
//!
//! Every action is checked by replaying the game and applying it ([`Replayed::apply`]), then
//! appended to the store only if the game is still at the version that was checked; a game that
//! moved on in between is read again (or, when the caller named the state it expected, the call
//! answers `ABORTED`).

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use damiera_engine::Color;
use tokio::sync::Notify;

use super::convert::{game_to_pb, moves_to_pb};
use super::record::{Event, EventKind, GameHeader, StoredGame};
use super::replay::{ActionError, Replayed};
use super::store::{Appended, Created, Store, StoreError};
use crate::api::ApiError;
use crate::proto as pb;

/// How often an action is retried when other actions keep changing the game under it.
const MAX_ATTEMPTS: usize = 8;

/// The longest client-chosen request id, in characters.
const MAX_REQUEST_ID: usize = 64;

/// The state an action insists on, from the request.
#[derive(Clone, Debug, Default)]
pub struct Expected {
    /// The ply the game must be at (`expected_ply`).
    pub ply: Option<u32>,
    /// The version the game must be at (`etag`).
    pub etag: Option<String>,
}

/// One seat's action.
#[derive(Clone, Debug)]
pub struct Action {
    /// What to do.
    pub kind: EventKind,
    /// The move text, or the draw answer.
    pub text: String,
    /// The state it insists on.
    pub expected: Expected,
    /// The client's id that makes a retry safe.
    pub request_id: Option<String>,
}

/// The game after an action, and the move it made (when it was a move).
#[derive(Clone, Debug)]
pub struct Acted {
    /// The game as stored after the action.
    pub game: pb::Game,
    /// The move the action played, for MakeMove's answer.
    pub played: Option<pb::GameMove>,
}

/// The hosted games of this server: the store, and a bell the engine's seats listen to.
#[derive(Debug)]
pub struct Host {
    /// Where games live.
    store: Store,
    /// Rung when an action leaves the engine something to do.
    engine_bell: Arc<Notify>,
}

impl Host {
    /// The host over `store`; `engine_bell` is rung whenever an engine seat has to act.
    pub fn new(store: Store, engine_bell: Arc<Notify>) -> Host {
        Host { store, engine_bell }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads and replays a game.
    pub async fn load(&self, id: &str) -> Result<(StoredGame, Replayed), ApiError> {
        let stored =
            self.store.load(id).await.map_err(store_error)?.ok_or_else(|| ApiError::GameNotFound(id.to_string()))?;
        let replayed = Replayed::from_stored(&stored).map_err(ApiError::Internal)?;
        Ok((stored, replayed))
    }

    /// Stores a new game with `events` already played (an import); a `request_id` used before
    /// answers that earlier game instead, marked as not new.
    pub async fn create(
        &self,
        header: GameHeader,
        events: Vec<Event>,
        request_id: Option<&str>,
    ) -> Result<(StoredGame, Replayed, bool), ApiError> {
        let stored = StoredGame { header, events };
        let replayed = Replayed::from_stored(&stored).map_err(ApiError::Internal)?;
        let summary = replayed.summary(&stored.header);
        match self.store.create(&stored.header, request_id, &summary, &stored.events).await.map_err(store_error)? {
            Created::New => {
                if summary.engine_due {
                    self.engine_bell.notify_one();
                }
                Ok((stored, replayed, true))
            }
            Created::Existing(existing) => {
                let replayed = Replayed::from_stored(&existing).map_err(ApiError::Internal)?;
                Ok((existing, replayed, false))
            }
        }
    }

    /// Acts for a seat of game `id`: the one `seat` finds from the game's header (the caller's
    /// token's seat, or the engine's).
    pub async fn act(
        &self,
        id: &str,
        seat: impl Fn(&GameHeader) -> Result<Color, ApiError>,
        action: &Action,
    ) -> Result<Acted, ApiError> {
        for _ in 0..MAX_ATTEMPTS {
            let (stored, mut replayed) = self.load(id).await?;
            let color = seat(&stored.header)?;
            if let Some(seq) = action.request_id.as_deref().and_then(|rid| find_request(&stored, rid)) {
                ensure_same_request(&stored, seq, color, action)?;
                return Ok(acted_at(&stored, &replayed, seq));
            }
            check_expected(&action.expected, &stored, &replayed)?;
            let at_ms = now_ms();
            let text = replayed.apply(action.kind, color, &action.text, at_ms).map_err(action_error)?;
            let event = Event { kind: action.kind, color, text, at_ms, request_id: action.request_id.clone() };
            let summary = replayed.summary(&stored.header);
            match self.store.append(id, stored.version(), &event, &summary).await.map_err(store_error)? {
                Appended::Done => {
                    if summary.engine_due {
                        self.engine_bell.notify_one();
                    }
                    let mut after = stored;
                    after.events.push(event);
                    return Ok(acted_at(&after, &replayed, after.events.len()));
                }
                // Read again: the stored duplicate answers, or the expected state is checked anew.
                Appended::Duplicate(_) | Appended::Conflict => continue,
            }
        }
        Err(ApiError::Refused {
            reason: "CONTENDED",
            message: format!("game {id} changed {MAX_ATTEMPTS} times while this call was being applied; retry"),
        })
    }
}

/// A client-chosen request id: up to 64 characters; empty: none.
pub fn request_id(field: &str, value: &str) -> Result<Option<String>, ApiError> {
    let value = bounded(field, value, MAX_REQUEST_ID)?;
    Ok((!value.is_empty()).then(|| value.to_string()))
}

/// `value`, if it has at most `max` characters: a field's size is checked before it is read, and
/// an error never echoes a huge value.
pub fn bounded<'a>(field: &str, value: &'a str, max: usize) -> Result<&'a str, ApiError> {
    if value.len() > max && value.chars().count() > max {
        return Err(ApiError::over_limit(
            field,
            format!("{} characters", value.chars().count()),
            format!("{max} characters"),
        ));
    }
    Ok(value)
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

/// The 1-based number of the event that carried `request_id`.
fn find_request(stored: &StoredGame, request_id: &str) -> Option<usize> {
    stored.events.iter().position(|e| e.request_id.as_deref() == Some(request_id)).map(|index| index + 1)
}

/// A retry must be the call that stored event `seq`: the same seat, the same action, the same
/// move (however written). Anything else reused the id by mistake and must not be told it worked.
fn ensure_same_request(stored: &StoredGame, seq: usize, color: Color, action: &Action) -> Result<(), ApiError> {
    let event = &stored.events[seq - 1];
    let same = event.color == color
        && event.kind == action.kind
        && (event.text == action.text.trim() || same_move_at(stored, seq, &action.text));
    if same {
        return Ok(());
    }
    Err(ApiError::invalid(
        "request_id",
        format!("this request id was used for another call on this game (event {seq}); use a new id for a new call"),
    ))
}

/// Whether `text` is the move event `seq` stored, written another way (a short capture, say).
fn same_move_at(stored: &StoredGame, seq: usize, text: &str) -> bool {
    let before = StoredGame { header: stored.header.clone(), events: stored.events[..seq - 1].to_vec() };
    let Ok(replayed) = Replayed::from_stored(&before) else { return false };
    damiera_engine::notation::parse(replayed.game.position(), text)
        .is_ok_and(|mv| damiera_engine::notation::write(replayed.game.variant(), &mv) == stored.events[seq - 1].text)
}

/// The game as it stands, and the move made by event number `seq` (1-based) if it was a move.
/// `replayed` is `stored` replayed: the caller has it already.
fn acted_at(stored: &StoredGame, replayed: &Replayed, seq: usize) -> Acted {
    let event = &stored.events[seq - 1];
    let played = (event.kind == EventKind::Move).then(|| {
        let ply = stored.events[..seq - 1].iter().filter(|e| e.kind == EventKind::Move).count();
        moves_to_pb(replayed, ply).into_iter().next().unwrap_or_else(|| forfeited_move(event, ply))
    });
    Acted { game: game_to_pb(stored, replayed), played }
}

/// A move that lost by a capture fault: as sent, with no structured form.
fn forfeited_move(event: &Event, ply: usize) -> pb::GameMove {
    pb::GameMove {
        ply: ply as u32,
        notation: event.text.clone(),
        color: crate::api::convert::color_to_pb(event.color).into(),
        time: Some(super::convert::timestamp(event.at_ms)),
        r#move: None,
    }
}

fn check_expected(expected: &Expected, stored: &StoredGame, replayed: &Replayed) -> Result<(), ApiError> {
    let ply = replayed.game.ply() as u32;
    if let Some(want) = expected.ply.filter(|&want| want != ply) {
        return Err(ApiError::Stale {
            field: "expected_ply".to_string(),
            expected: want.to_string(),
            actual: ply.to_string(),
        });
    }
    let etag = super::convert::etag(stored.version());
    if let Some(want) = expected.etag.as_ref().filter(|want| **want != etag) {
        return Err(ApiError::Stale { field: "etag".to_string(), expected: want.clone(), actual: etag });
    }
    Ok(())
}

fn action_error(error: ActionError) -> ApiError {
    use damiera_engine::GameError;
    let refused = |reason, error: &dyn std::fmt::Display| ApiError::Refused { reason, message: error.to_string() };
    match error {
        ActionError::NotYourTurn { .. } => refused("NOT_YOUR_TURN", &error),
        ActionError::DrawAlreadyOffered(_) => refused("DRAW_ALREADY_OFFERED", &error),
        ActionError::NoDrawOffer(_) => refused("NO_DRAW_OFFER", &error),
        ActionError::Game(GameError::Move(error)) => ApiError::Move { field: "notation".to_string(), error },
        ActionError::Game(GameError::Over(outcome)) => ApiError::GameOver(outcome.to_string()),
        ActionError::Game(error @ GameError::MoveCountRefused(_)) => refused("MOVE_COUNT_REFUSED", &error),
        ActionError::Game(error) => ApiError::Internal(error.to_string()),
    }
}

/// A store failure as the API reports it.
pub fn store_error(error: StoreError) -> ApiError {
    match error {
        StoreError::Unavailable(_) => ApiError::StoreUnavailable(error.to_string()),
        StoreError::Corrupt(_) | StoreError::BadUrl(_) | StoreError::IdTaken(_) => {
            ApiError::Internal(error.to_string())
        }
    }
}
