//! [`EngineSeats`]: the server plays the engine's seats. When an engine seat is to move, or a
//! draw offer to it stands, one replica takes the game's lease in the store, searches on the
//! shared search pool (queued fairly with every other search), and stores the move or the answer
//! like any other action, so watchers see it like any other.
//!
//! Exactly once, however many replicas run: the lease keeps the others away while one thinks,
//! and the store appends an action only at the version it was decided on. A replica that dies
//! while thinking loses its lease when it expires, and another takes the game over.
//!
//! A replica that stops gracefully hands its seats over ([`EngineSeats::drain`]): it takes no new
//! turn from the shutdown signal on; a search that will end within the time the shutdown leaves
//! runs to its end and its move is stored; any other search is stopped at once and its lease
//! released (announced to every replica), so that another replica takes the turn straight away
//! instead of after the lease. A search still running when the shutdown time is up is handed over
//! the same way.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use damiera_engine::search::{Clock, Score};
use damiera_engine::Color;
use tokio::sync::{Notify, Semaphore};

use super::clock::TimeControl;
use super::error::HostError;
use super::host::{now_ms, Action, Actor, Expected, Host, Said};
use super::record::{EventKind, SeatSpec, StoredGame};
use super::replay::{answer_text, Replayed};
use crate::search::{Asked, Caps, JobError, PoolError, SearchJob, SearchPool, Tablebases};

/// How often the store is asked for games the engine must act in, besides every announced change.
const POLL: Duration = Duration::from_secs(2);

/// How long a stopped search may take to release its lease at shutdown.
const HAND_OVER_TIME: Duration = Duration::from_secs(2);

/// What an engine seat under a clock keeps back for storing its move and for a busy machine.
const CLOCK_MARGIN: Duration = Duration::from_millis(250);

/// The least an engine seat thinks under a clock, however little is left.
const MIN_THINK: Duration = Duration::from_millis(10);

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
    /// Games this replica is thinking about now, by id.
    thinking: Mutex<HashMap<String, Arc<Think>>>,
    /// Set at the shutdown signal: no new turns are taken.
    draining: AtomicBool,
    /// Rung whenever a game leaves `thinking`.
    finished: Notify,
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
        EngineSeats {
            host,
            caps,
            tablebases,
            pool,
            bell,
            thinking: Mutex::new(HashMap::new()),
            draining: AtomicBool::new(false),
            finished: Notify::new(),
            slots,
        }
    }

    /// Hands the seats over for a shutdown that leaves `time_left`: takes no new turn, hands over
    /// at once every search that would not end in time, and waits (up to `time_left`) for the
    /// others to store their moves; whatever still runs then is handed over too.
    pub async fn drain(&self, time_left: Duration) {
        self.draining.store(true, Ordering::SeqCst);
        let deadline = Instant::now() + time_left;
        self.hand_over(|think| think.ends_by() > deadline);
        if tokio::time::timeout(time_left, self.all_done()).await.is_err() {
            self.hand_over(|_| true);
            let _ = tokio::time::timeout(HAND_OVER_TIME, self.all_done()).await;
        }
    }

    /// Completes when this replica thinks about no game.
    async fn all_done(&self) {
        loop {
            let finished = self.finished.notified();
            if self.thinking().is_empty() {
                return;
            }
            finished.await;
        }
    }

    /// Stops the searches of the games that `which` picks and has their leases released.
    fn hand_over(&self, which: impl Fn(&Think) -> bool) {
        for (id, think) in self.thinking().iter().filter(|(_, think)| which(think)) {
            tracing::info!(game = %id, "shutting down: handing the engine's turn over");
            think.handed_over.store(true, Ordering::SeqCst);
            think.stop.store(true, Ordering::SeqCst);
        }
    }

    fn thinking(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Think>>> {
        self.thinking.lock().unwrap_or_else(PoisonError::into_inner)
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
            if self.draining.load(Ordering::SeqCst) {
                break; // shutting down: the other replicas take the turns
            }
            let Ok(slot) = Arc::clone(&self.slots).try_acquire_owned() else {
                break; // every slot is thinking; the next look takes the rest
            };
            let think = Think::new(self.caps.max_move_time);
            let Some(think) = self.start_thinking(&id, think) else {
                continue;
            };
            let seats = Arc::clone(self);
            tokio::spawn(async move {
                if let Err(error) = seats.act_in(&id, &think).await {
                    tracing::warn!(game = %id, %error, "the engine could not act");
                }
                seats.thinking().remove(&id);
                seats.finished.notify_waiters();
                drop(slot);
                // The game may be due again at once (the other seat is an engine too).
                seats.bell.notify_one();
            });
        }
        Ok(())
    }

    /// Records that this replica thinks about game `id` now: the game's [`Think`], or `None` if
    /// it already does.
    fn start_thinking(&self, id: &str, think: Arc<Think>) -> Option<Arc<Think>> {
        match self.thinking().entry(id.to_owned()) {
            Entry::Occupied(_) => None,
            Entry::Vacant(place) => Some(Arc::clone(place.insert(think))),
        }
    }

    /// Takes game `id`'s lease and acts for its engine seat; hands the turn over instead if the
    /// server shuts down meanwhile ([`EngineSeats::drain`]).
    async fn act_in(&self, id: &str, think: &Think) -> Result<(), SeatError> {
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
        let search = self.search(&stored, &replayed, engine, think).await?;
        if think.handed_over.load(Ordering::SeqCst) {
            store.release_engine(id, stored.version()).await.map_err(HostError::from)?;
            return Ok(());
        }
        let expected = |ply| Expected { ply: Some(ply), etag: None };
        let ply = replayed.game.ply() as u32;
        if offered_to == Some(engine) {
            // The score is the side to move's; the engine accepts when it is not ahead.
            let own = if to_move == engine { search.score } else { search.score.negated() };
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
    async fn search(
        &self,
        stored: &StoredGame,
        replayed: &Replayed,
        engine: Color,
        think: &Think,
    ) -> Result<Found, SeatError> {
        let SeatSpec::Engine { level, depth, nodes, move_time_ms } = stored.header.seat(engine) else {
            return Err(SeatError::NotEngine(engine));
        };
        let (move_time, clock) = clock_limits(stored, replayed, engine, move_time_ms.map(Duration::from_millis));
        let asked = Asked {
            depth: *depth,
            nodes: *nodes,
            move_time,
            clock,
            threads: Some(1),
            level: *level,
            seed: seed(&stored.header.id, replayed.game.ply()),
            ..Asked::default()
        };
        let job = SearchJob::new(&replayed.game, &asked, &self.caps, &self.tablebases)?;
        if let Some(time) = job.limits.move_time {
            think.set_ends_by(Instant::now() + time);
        }
        // An engine seat never gives up its move: when the queue is full it waits its turn.
        let result = loop {
            match self.pool.search(job.clone(), None, Arc::clone(&think.stop), |_| {}).await {
                Err(PoolError::Overloaded { retry_after, .. }) => tokio::time::sleep(retry_after).await,
                result => break result?,
            }
        };
        metrics::counter!("damiera_search_nodes_total").increment(result.nodes);
        Ok(Found { best: result.best_move, score: result.score })
    }
}

/// A search for an engine seat in progress, as [`EngineSeats::drain`] sees it.
#[derive(Debug)]
struct Think {
    /// The search's stop flag.
    stop: Arc<AtomicBool>,
    /// Set when the turn is handed over: the search's move is not stored, its lease is released.
    handed_over: AtomicBool,
    /// When the search will have ended at the latest.
    ends_by: Mutex<Instant>,
}

impl Think {
    /// A search that ends within `longest` from now.
    fn new(longest: Duration) -> Arc<Think> {
        Arc::new(Think {
            stop: Arc::new(AtomicBool::new(false)),
            handed_over: AtomicBool::new(false),
            ends_by: Mutex::new(Instant::now() + longest),
        })
    }

    fn ends_by(&self) -> Instant {
        *self.ends_by.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn set_ends_by(&self, when: Instant) {
        *self.ends_by.lock().unwrap_or_else(PoisonError::into_inner) = when;
    }
}

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

/// What the game's clock leaves `engine` for this move: its seat's move time, cut to the clock's
/// time left less [`CLOCK_MARGIN`]; under a base and increment, the clock itself, which the
/// engine's time management shares out over the game.
fn clock_limits(
    stored: &StoredGame,
    replayed: &Replayed,
    engine: Color,
    seat_move_time: Option<Duration>,
) -> (Option<Duration>, Option<Clock>) {
    let Some(left_ms) = replayed.clocks.left_at(engine, replayed.to_move(), now_ms()) else {
        return (seat_move_time, None);
    };
    let left = Duration::from_millis(left_ms as u64).saturating_sub(CLOCK_MARGIN).max(MIN_THINK);
    match stored.header.timing.control {
        TimeControl::Fischer { increment_ms, .. } => {
            let clock = Clock { remaining: left, increment: Duration::from_millis(increment_ms) };
            (seat_move_time.map(|time| time.min(left)), Some(clock))
        }
        _ => (Some(seat_move_time.map_or(left, |time| time.min(left))), None),
    }
}

/// A seed for the engine's human-like choices: the same game and ply give the same choice.
fn seed(id: &str, ply: usize) -> u64 {
    id.bytes()
        .chain(ply.to_le_bytes())
        .fold(0xcbf2_9ce4_8422_2325, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3))
}
