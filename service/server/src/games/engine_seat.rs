//! [`EngineSeats`]: the server plays the engine's seats. When an engine seat is to move, or a
//! draw offer to it stands, one replica takes the game's lease in the store, searches on the
//! shared search pool (queued fairly with every other search), and stores the move or the answer
//! like any other action, so watchers see it like any other.
//!
//! Exactly once, however many replicas run: the lease keeps the others away while one thinks,
//! and the store appends an action only at the version it was decided on. A replica that dies
//! while thinking loses its lease when it expires, and another takes the game over.

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damiera_engine::search::Score;
use damiera_engine::Color;
use tokio::sync::{Notify, Semaphore};

use super::error::HostError;
use super::host::{now_ms, Action, Actor, Expected, Host, Said};
use super::record::{EventKind, SeatSpec, StoredGame};
use super::replay::{answer_text, Replayed};
use crate::search::{Asked, Caps, JobError, PoolError, SearchJob, SearchPool, Tablebases};

/// How often the store is asked for games the engine must act in, besides every announced change.
const POLL: Duration = Duration::from_secs(2);

/// Games taken per look at the store.
const BATCH: u32 = 32;

/// How long a lease outlasts the longest search, for storing the result.
const LEASE_MARGIN: Duration = Duration::from_secs(15);

/// The engine's seats of every game in the store.
#[derive(Debug)]
pub struct EngineSeats {
    /// Games and their store.
    host: Arc<Host>,
    /// Limits for the searches.
    caps: Arc<Caps>,
    /// The endgame databases the seats' searches probe, the same as `BestMove`'s.
    tablebases: Tablebases,
    /// Where searches run.
    pool: Arc<SearchPool>,
    /// Rung when a local action leaves the engine something to do.
    bell: Arc<Notify>,
    /// Games this replica is thinking about now.
    thinking: Mutex<HashSet<String>>,
    /// One permit per search thread: engine seats never hold more searches than the pool has
    /// threads, so requests for `BestMove` always find room in the queue.
    slots: Arc<Semaphore>,
}

impl EngineSeats {
    /// The engine seats, woken by `bell`.
    pub fn new(
        host: Arc<Host>,
        caps: Arc<Caps>,
        tablebases: Tablebases,
        pool: Arc<SearchPool>,
        bell: Arc<Notify>,
    ) -> EngineSeats {
        let slots = Arc::new(Semaphore::new(pool.thread_count() as usize));
        EngineSeats { host, caps, tablebases, pool, bell, thinking: Mutex::new(HashSet::new()), slots }
    }

    /// Looks for work at each bell, each announced change and every [`POLL`], forever.
    pub async fn run(self: Arc<Self>) {
        let mut changes = self.host.store().subscribe();
        loop {
            tokio::select! {
                () = self.bell.notified() => {}
                _ = changes.recv() => {}
                () = tokio::time::sleep(POLL) => {}
            }
            // One look at the store answers for every change announced so far.
            while changes.try_recv().is_ok() {}
            if let Err(error) = self.take_due_games().await {
                tracing::warn!(%error, "cannot look for engine moves");
            }
        }
    }

    async fn take_due_games(self: &Arc<Self>) -> Result<(), SeatError> {
        let now = now_ms();
        let store = self.host.store();
        for id in store.engine_due(now, BATCH).await.map_err(HostError::from)? {
            let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() else {
                break; // every slot is thinking; the next look takes the rest
            };
            if !self.thinking.lock().expect("never poisoned").insert(id.clone()) {
                continue;
            }
            let seats = Arc::clone(self);
            tokio::spawn(async move {
                if let Err(error) = seats.act_in(&id).await {
                    tracing::warn!(game = %id, %error, "the engine could not act");
                }
                seats.thinking.lock().expect("never poisoned").remove(&id);
                drop(slot);
                // The game may be due again at once (the other seat is an engine too).
                seats.bell.notify_one();
            });
        }
        Ok(())
    }

    /// Takes game `id`'s lease and acts for its engine seat.
    async fn act_in(&self, id: &str) -> Result<(), SeatError> {
        let (stored, replayed) = self.host.load(id).await?;
        // The lease first: a game this replica cannot act in (not due after all, a failed search)
        // then waits out the lease instead of heading every replica's list.
        let now = now_ms();
        let lease_until = now + (self.caps.max_move_time + LEASE_MARGIN).as_millis() as i64;
        let store = self.host.store();
        if !store.claim_engine(id, stored.version(), now, lease_until).await.map_err(HostError::from)? {
            return Ok(()); // another replica has it
        }
        if !replayed.engine_due(&stored.header) {
            return Ok(());
        }
        let to_move = replayed.game.position().turn();
        let offered_to = replayed.draw_offer.map(Color::opposite);
        let engine = if stored.header.seat(to_move).is_engine() { to_move } else { offered_to.unwrap_or(to_move) };
        let search = self.search(&stored, &replayed, engine).await?;
        let expected = |ply| Expected { ply: Some(ply), etag: None };
        let ply = replayed.game.ply() as u32;
        if offered_to == Some(engine) {
            // The score is the side to move's; the engine accepts when it is not ahead.
            let own = if to_move == engine { search.score } else { negate(search.score) };
            let accept = own.rank() <= 0;
            let answer = Action {
                kind: EventKind::AnswerDraw,
                said: Said::Text(answer_text(accept).to_string()),
                expected: expected(ply),
                request_id: None,
            };
            self.host.act(id, Actor::Engine(engine), &answer).await?;
            if accept {
                return Ok(());
            }
        }
        if to_move == engine {
            let Some(best) = search.best else { return Ok(()) };
            let action =
                Action { kind: EventKind::Move, said: Said::Move(best), expected: expected(ply), request_id: None };
            self.host.act(id, Actor::Engine(engine), &action).await?;
        }
        Ok(())
    }

    /// Searches the game's position with the limits of `engine`'s seat, on the search pool.
    async fn search(&self, stored: &StoredGame, replayed: &Replayed, engine: Color) -> Result<Found, SeatError> {
        let SeatSpec::Engine { level, depth, nodes, move_time_ms } = stored.header.seat(engine) else {
            return Err(SeatError::NotEngine(engine));
        };
        let asked = Asked {
            depth: *depth,
            nodes: *nodes,
            move_time: move_time_ms.map(Duration::from_millis),
            threads: Some(1),
            level: *level,
            seed: seed(&stored.header.id, replayed.game.ply()),
            ..Asked::default()
        };
        let job = SearchJob::new(&replayed.game, &asked, &self.caps, &self.tablebases)?;
        // An engine seat never gives up its move: when the queue is full it waits its turn.
        let result = loop {
            let job = job.clone();
            let stop = AtomicBool::new(false);
            match self.pool.run(job.threads(), move || job.run(&stop, |_| {})).await {
                Err(PoolError::Overloaded { retry_after, .. }) => tokio::time::sleep(retry_after).await,
                result => break result?,
            }
        };
        metrics::counter!("damiera_search_nodes_total").increment(result.nodes);
        Ok(Found { best: result.best_move, score: result.score })
    }
}

/// Why the engine could not act in a game; logged, never answered to a client.
#[derive(Debug, thiserror::Error)]
enum SeatError {
    /// The host refused or failed.
    #[error(transparent)]
    Host(#[from] HostError),
    /// The seat's search could not be set up.
    #[error(transparent)]
    Search(#[from] JobError),
    /// The search pool failed.
    #[error(transparent)]
    Pool(#[from] PoolError),
    /// The game is due for a seat that is not the engine's.
    #[error("{0} is not an engine seat")]
    NotEngine(Color),
}

/// What a search found.
struct Found {
    /// The best move, if the side to move has one.
    best: Option<damiera_engine::Move>,
    /// Its score for the side to move.
    score: Score,
}

/// The score for the other side.
fn negate(score: Score) -> Score {
    match score {
        Score::Value(value) => Score::Value(-value),
        Score::WinIn(plies) => Score::LossIn(plies),
        Score::LossIn(plies) => Score::WinIn(plies),
        Score::Database(value) => Score::Database(value.opposite()),
    }
}

/// A seed for the engine's human-like choices: the same game and ply give the same choice.
fn seed(id: &str, ply: usize) -> u64 {
    id.bytes()
        .chain(ply.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}
