//! [`Host`]: what the server does with hosted games, apart from the wire format: create them,
//! act for a seat, read them back. The gRPC handlers and the engine's seats both go through it.
//!
//! Every action is checked by replaying the game and applying it ([`Replayed::apply`]), then
//! appended to the store only if the game is still at the version that was checked; a game that
//! moved on in between is read again (or, when the caller named the state it expected, refused
//! as [`HostError::Stale`]). It answers domain values; the API writes them as messages.
//!
//! Reads go through this replica's [`GameCache`]: checked against the stored version, they read
//! and replay only the events this replica has not replayed yet; a stored action is cached as is.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use damiera_engine::{notation, Color, Move};
use tokio::sync::Notify;

use super::auth::seat_of_token;
use super::cache::{GameCache, CAPACITY_BYTES};
use super::clock::{Deadline, TimingPolicy};
use super::error::{HostError, NamedState};
use super::record::{Event, EventKind, GameHeader, StoredGame};
use super::replay::{ActionError, Replayed};
use super::store::{Appended, Created, ListFilter, PageCursor, Store};
use crate::tenants::TenantId;

/// How often an action is retried when other actions keep changing the game under it.
pub(super) const MAX_ATTEMPTS: usize = 8;

/// The state an action insists on, from the request.
#[derive(Clone, Debug, Default)]
pub struct Expected {
    /// The ply the game must be at (`expected_ply`).
    pub ply: Option<u32>,
    /// The version the game must be at (`etag`).
    pub etag: Option<String>,
}

/// What an action says: text from a client, or the move an engine seat chose.
#[derive(Clone, Debug)]
pub enum Said {
    /// A move as written (short or full), a draw answer, or nothing.
    Text(String),
    /// A move as a value, played as it is: no round trip through its text.
    Move(Move),
}

/// One seat's action.
#[derive(Clone, Debug)]
pub struct Action {
    /// What to do.
    pub kind: EventKind,
    /// The move, or the draw answer.
    pub said: Said,
    /// The state it insists on.
    pub expected: Expected,
    /// The client's id that makes a retry safe.
    pub request_id: Option<String>,
}

/// Who acts: the holder of a seat's token, the engine for its seat, or the server itself.
#[derive(Clone, Copy, Debug)]
pub enum Actor<'a> {
    /// A caller of `tenant` with this secret token, which names its seat; another tenant's game
    /// is not found, exactly as a missing one.
    Seat {
        /// The tenant the call acts for.
        tenant: &'a TenantId,
        /// The seat's token.
        token: &'a str,
    },
    /// The engine, for the seat of this colour.
    Engine(Color),
    /// The server, for the side to move (a fallen flag, an abort, a resumption).
    Server,
}

/// The game after an action, and which event was the action.
#[derive(Clone, Debug)]
pub struct Acted {
    /// The game as stored after the action (shared with the cache: not copied at every move).
    pub stored: Arc<StoredGame>,
    /// `stored`, replayed.
    pub replayed: Arc<Replayed>,
    /// The 1-based number of the event that carried the action.
    pub event: usize,
}

impl Acted {
    /// The event that carried the action.
    pub fn action(&self) -> &Event {
        &self.stored.events[self.event - 1]
    }

    /// The ply of the move the action played (or sent, when it forfeited the game), when it was
    /// a move. Counting the move events before it would not do: a takeback undoes moves.
    pub fn played_ply(&self) -> Option<usize> {
        if self.action().kind != EventKind::Move {
            return None;
        }
        if self.event == self.stored.events.len() {
            // The last event: the game's last move, unless it forfeited (no move was made).
            let forfeited = self.replayed.game.faulty_move().is_some();
            return Some(self.replayed.game.ply() - usize::from(!forfeited));
        }
        // A retry answered from the log: the game as it was before the action.
        let before =
            StoredGame { header: self.stored.header.clone(), events: self.stored.events[..self.event - 1].to_vec() };
        Replayed::from_stored(&before).ok().map(|replayed| replayed.game.ply())
    }
}

/// The hosted games of this server: the store, and a bell the engine's seats listen to.
#[derive(Debug)]
pub struct Host {
    /// Where games live.
    store: Store,
    /// Rung when an action leaves the engine something to do.
    engine_bell: Arc<Notify>,
    /// The waiting times new games get.
    timing_policy: TimingPolicy,
    /// The games this replica replayed.
    cache: GameCache,
}

impl Host {
    /// The host over `store`; `engine_bell` is rung whenever an engine seat has to act; new games
    /// get the waiting times of `timing_policy`.
    pub fn new(store: Store, engine_bell: Arc<Notify>, timing_policy: TimingPolicy) -> Host {
        Host { store, engine_bell, timing_policy, cache: GameCache::new(CAPACITY_BYTES) }
    }

    /// The store.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The waiting times new games get.
    pub fn timing_policy(&self) -> TimingPolicy {
        self.timing_policy
    }

    /// Ends game `id` if its deadline has passed (a flag, a missing first move, abandonment):
    /// answers the deadline it ended the game for. Of several replicas trying at once, one stores
    /// the ending; the others find the game over.
    pub async fn enforce(&self, id: &str) -> Result<Option<Deadline>, HostError> {
        for _ in 0..MAX_ATTEMPTS {
            let (stored, replayed) = self.load(id).await?;
            let Some(deadline) = replayed.overdue(now_ms()) else {
                return Ok(None);
            };
            if self.end_overdue(id, &stored, replayed, deadline).await? {
                return Ok(Some(deadline));
            }
        }
        Err(HostError::Contended { id: id.to_string(), attempts: MAX_ATTEMPTS })
    }

    /// Stores the server's ending of a game past its `deadline`; false if the game moved on.
    async fn end_overdue(
        &self,
        id: &str,
        stored: &StoredGame,
        mut replayed: Replayed,
        deadline: Deadline,
    ) -> Result<bool, HostError> {
        let (kind, text) = Replayed::ending(deadline);
        let at_ms = now_ms().max(deadline.at_ms);
        replayed.apply(kind, deadline.color, text, at_ms)?;
        let event = Event { kind, color: deadline.color, text: text.to_string(), at_ms, request_id: None };
        let summary = replayed.summary(&stored.header);
        let appended = self.store.append(id, stored.version(), &event, &summary).await?;
        if appended == Appended::Done {
            tracing::info!(game = id, kind = kind.name(), color = %deadline.color, "the server ended a game at its deadline");
            metrics::counter!("damiera_games_ended_by_server_total", "kind" => kind.name()).increment(1);
        }
        Ok(appended == Appended::Done)
    }

    /// Drops game `id`, just deleted, from this replica's cache.
    pub(super) fn forget(&self, id: &str) {
        self.cache.forget(id);
    }

    /// Loads and replays a game (the events this replica has not replayed yet), whatever its
    /// tenant: for the server's own work (the referee, the engine's seats, the watchers' hub).
    /// A caller's read goes through [`Host::load_as`].
    pub async fn load(&self, id: &str) -> Result<(StoredGame, Replayed), HostError> {
        self.cache.load(&self.store, id).await
    }

    /// Game `id` as [`Host::load`] reads it, if it is `tenant`'s: another tenant's game is
    /// [`HostError::NotFound`], exactly as a missing one. (Ids are 128 random bits: a tenant cannot
    /// guess another's.)
    pub async fn load_as(&self, tenant: &TenantId, id: &str) -> Result<(StoredGame, Replayed), HostError> {
        let (stored, replayed) = self.load(id).await?;
        if stored.header.tenant != *tenant {
            return Err(HostError::NotFound(id.to_string()));
        }
        Ok((stored, replayed))
    }

    /// A page of the filter's tenant's games, newest first, from after `after`, each replayed.
    pub async fn list(
        &self,
        filter: &ListFilter,
        limit: u32,
        after: Option<&PageCursor>,
    ) -> Result<Vec<(StoredGame, Replayed)>, HostError> {
        let stored = self.store.list(filter, limit, after).await?;
        stored
            .into_iter()
            .map(|game| Replayed::from_stored(&game).map(|replayed| (game, replayed)).map_err(HostError::Corrupt))
            .collect()
    }

    /// Stores a new game with `events` already played (an import); a `request_id` its tenant
    /// used before answers that earlier game instead, marked as not new.
    pub async fn create(
        &self,
        header: GameHeader,
        events: Vec<Event>,
        request_id: Option<&str>,
    ) -> Result<(StoredGame, Replayed, bool), HostError> {
        let stored = StoredGame { header, events };
        let replayed = Replayed::from_stored(&stored).map_err(HostError::Corrupt)?;
        let summary = replayed.summary(&stored.header);
        match self.store.create(&stored.header, request_id, &summary, &stored.events).await? {
            Created::New => {
                if summary.engine_due {
                    self.engine_bell.notify_one();
                }
                Ok((stored, replayed, true))
            }
            Created::Existing(existing) => {
                let replayed = Replayed::from_stored(&existing).map_err(HostError::Corrupt)?;
                Ok((existing, replayed, false))
            }
        }
    }

    /// Acts for a seat of game `id`: the seat of `actor`'s token, or the engine's.
    pub async fn act(&self, id: &str, actor: Actor<'_>, action: &Action) -> Result<Acted, HostError> {
        for _ in 0..MAX_ATTEMPTS {
            let (stored, mut replayed) = match actor {
                Actor::Seat { tenant, .. } => self.load_as(tenant, id).await?,
                Actor::Engine(_) | Actor::Server => self.load(id).await?,
            };
            let color = match actor {
                Actor::Seat { token, .. } => seat_of_token(&stored.header, token).ok_or(HostError::WrongToken)?,
                Actor::Engine(color) => color,
                Actor::Server => replayed.to_move(),
            };
            if let Some(seq) = action.request_id.as_deref().and_then(|rid| find_request(&stored, rid)) {
                ensure_same_request(&stored, seq, color, action)?;
                return Ok(Acted { stored: Arc::new(stored), replayed: Arc::new(replayed), event: seq });
            }
            check_expected(&action.expected, &stored, &replayed)?;
            let at_ms = now_ms();
            let applied = match &action.said {
                Said::Text(text) => replayed.apply(action.kind, color, text, at_ms),
                Said::Move(mv) => replayed.play_move(color, mv, at_ms),
            };
            let text = match applied {
                Err(ActionError::Overdue(deadline)) => {
                    // Too late: the game ends now (here, or by whoever stores it first), and the
                    // action is refused. The refusal checked before changing `replayed`.
                    self.end_overdue(id, &stored, replayed, deadline).await?;
                    return Err(ActionError::Overdue(deadline).into());
                }
                applied => applied?,
            };
            let event = Event { kind: action.kind, color, text, at_ms, request_id: action.request_id.clone() };
            let summary = replayed.summary(&stored.header);
            match self.store.append(id, stored.version(), &event, &summary).await? {
                Appended::Done => {
                    if summary.engine_due {
                        self.engine_bell.notify_one();
                    }
                    let mut stored = stored;
                    stored.events.push(event);
                    let event = stored.events.len();
                    let (stored, replayed) = (Arc::new(stored), Arc::new(replayed));
                    self.cache.put(Arc::clone(&stored), Arc::clone(&replayed));
                    return Ok(Acted { stored, replayed, event });
                }
                // Read again: the stored duplicate answers, or the expected state is checked anew.
                Appended::Duplicate(_) | Appended::Conflict => continue,
            }
        }
        Err(HostError::Contended { id: id.to_string(), attempts: MAX_ATTEMPTS })
    }
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
fn ensure_same_request(stored: &StoredGame, seq: usize, color: Color, action: &Action) -> Result<(), HostError> {
    let event = &stored.events[seq - 1];
    let text = match &action.said {
        Said::Text(text) => text.trim().to_string(),
        Said::Move(mv) => notation::write(stored.header.variant, mv),
    };
    let same =
        event.color == color && event.kind == action.kind && (event.text == text || same_move_at(stored, seq, &text));
    if same {
        return Ok(());
    }
    Err(HostError::RequestIdReused { event: seq })
}

/// Whether `text` is the move event `seq` stored, written another way (a short capture, say).
fn same_move_at(stored: &StoredGame, seq: usize, text: &str) -> bool {
    let before = StoredGame { header: stored.header.clone(), events: stored.events[..seq - 1].to_vec() };
    let Ok(replayed) = Replayed::from_stored(&before) else { return false };
    notation::parse(replayed.game.position(), text)
        .is_ok_and(|mv| notation::write(replayed.game.variant(), &mv) == stored.events[seq - 1].text)
}

/// Refuses as [`HostError::Stale`] a game not at the ply or etag `expected` names.
pub(super) fn check_expected(expected: &Expected, stored: &StoredGame, replayed: &Replayed) -> Result<(), HostError> {
    let ply = replayed.game.ply() as u32;
    if let Some(want) = expected.ply.filter(|&want| want != ply) {
        return Err(HostError::Stale { state: NamedState::Ply, expected: want.to_string(), actual: ply.to_string() });
    }
    let etag = stored.etag();
    if let Some(want) = expected.etag.as_ref().filter(|want| **want != etag) {
        return Err(HostError::Stale { state: NamedState::Etag, expected: want.clone(), actual: etag });
    }
    Ok(())
}
