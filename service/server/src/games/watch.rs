//! [`Hub`]: live watching. Each watched game has one latest snapshot, shared by all its watchers:
//! a change announced by the store (on PostgreSQL, from any replica) is read once and handed to
//! every watcher, who sends only what is new to it.
//!
//! Announcements can be missed (a lost database connection), so the hub also re-reads every
//! watched game at each keep-alive interval: a watcher is never stuck on an old state for longer.
//! A watched game found gone was deleted: its watchers' streams end with [`WatchEvent::Deleted`].
//!
//! Each watcher has a bounded buffer. A watcher whose buffer stays full for its patience (its
//! client reads nothing) is let go: its stream ends, after what is buffered, with
//! [`WatchEvent::TooSlow`] and the ply to resume from, so that a client that never reads holds no
//! more than a buffer's worth of the server's memory.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc::error::SendTimeoutError;
use tokio::sync::{broadcast, mpsc, watch};
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::{Stream, StreamExt};

use super::error::HostError;
use super::host::{now_ms, Host};
use super::record::StoredGame;
use super::replay::Replayed;
use crate::tenants::TenantId;

/// Messages buffered for a slow watcher before it holds up nobody but itself.
const WATCHER_BUFFER: usize = 16;

/// A watched game as last read, shared by all its watchers.
#[derive(Debug)]
pub struct Snapshot {
    /// The game as stored.
    pub stored: StoredGame,
    /// `stored`, replayed.
    pub replayed: Replayed,
}

impl Snapshot {
    fn version(&self) -> u64 {
        self.stored.version()
    }

    fn ply(&self) -> usize {
        self.replayed.game.ply()
    }

    fn is_over(&self) -> bool {
        self.replayed.is_over()
    }
}

/// What a watcher is told.
#[derive(Clone, Debug)]
pub enum WatchEvent {
    /// The whole game: the first message of a watch from the start.
    Game(Arc<Snapshot>),
    /// The moves of `snapshot` from ply `from_ply` on, and how it stands.
    Update {
        /// The game as it is now.
        snapshot: Arc<Snapshot>,
        /// The first move the watcher has not seen.
        from_ply: usize,
    },
    /// Nothing changed for a while; the watch is alive.
    KeepAlive {
        /// Now, in milliseconds since the Unix epoch.
        at_ms: i64,
    },
    /// The server is shutting down: the last message, telling the watcher where to resume.
    Closing {
        /// The moves the watcher has: the `from_ply` of its next watch.
        from_ply: usize,
    },
    /// The game was deleted: the last message.
    Deleted {
        /// The game's id.
        id: String,
    },
    /// The watcher's buffer stayed full for its patience: the last message, telling it where to
    /// resume.
    TooSlow {
        /// The moves the watcher has: the `from_ply` of its next watch.
        from_ply: usize,
        /// How long its buffer stayed full.
        patience: Duration,
    },
}

/// A watcher's events, ending with the game, or with [`WatchEvent::Closing`],
/// [`WatchEvent::Deleted`] or [`WatchEvent::TooSlow`].
pub type WatchEvents = Pin<Box<dyn Stream<Item = WatchEvent> + Send>>;

/// How a watch is paced.
#[derive(Clone, Copy, Debug)]
pub struct WatchPace {
    /// How long a quiet watch waits before a keep-alive.
    pub keep_alive: Duration,
    /// How long a watcher's buffer may stay full before the watch ends with
    /// [`WatchEvent::TooSlow`].
    pub patience: Duration,
}

/// The watched games of this server.
#[derive(Debug)]
pub struct Hub {
    /// Where games are read.
    host: Arc<Host>,
    /// The latest snapshot of each watched game; `None` once it is found deleted.
    games: Mutex<HashMap<String, watch::Sender<Latest>>>,
    /// Set when the server stops: every stream ends, telling its client to resume elsewhere.
    closing: watch::Sender<bool>,
}

impl Hub {
    /// A hub reading from `host`.
    pub fn new(host: Arc<Host>) -> Hub {
        Hub { host, games: Mutex::new(HashMap::new()), closing: watch::Sender::new(false) }
    }

    /// Ends every stream with [`WatchEvent::Closing`] and the ply to resume from; new watches
    /// are refused.
    pub fn close(&self) {
        self.closing.send_replace(true);
    }

    /// Follows the store's announcements until it closes; re-reads every watched game each
    /// `refresh` interval as well.
    pub async fn run(self: Arc<Self>, refresh: Duration) {
        let mut changes = self.host.store().subscribe();
        let mut ticks = tokio::time::interval(refresh);
        loop {
            tokio::select! {
                change = changes.recv() => match change {
                    Ok(change) => self.refresh(&change.game_id).await,
                    Err(broadcast::error::RecvError::Lagged(_)) => self.refresh_all().await,
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                _ = ticks.tick() => self.refresh_all().await,
            }
        }
    }

    /// A stream of game `id` if it is `tenant`'s (a game's tenant never changes, so the check at
    /// the start holds for the whole stream): the whole game (or the moves from `from_ply`), then every change,
    /// with a keep-alive after each quiet interval; it ends once the game is over.
    pub async fn watch(
        self: &Arc<Self>,
        tenant: &TenantId,
        id: &str,
        from_ply: Option<u32>,
        pace: WatchPace,
    ) -> Result<WatchEvents, HostError> {
        if *self.closing.borrow() {
            return Err(HostError::ShuttingDown);
        }
        let (stored, replayed) = self.host.load_as(tenant, id).await?;
        let ply = replayed.game.ply();
        if let Some(from_ply) = from_ply.filter(|&from| from as usize > ply) {
            return Err(HostError::ResumeBeyondEnd { ply, from_ply });
        }
        let snapshot = Arc::new(Snapshot { stored, replayed });
        let latest = self.follow(id, Arc::clone(&snapshot));
        // A change stored between the read above and following it reached no watcher: read again.
        self.refresh(id).await;
        let first = match from_ply {
            None => WatchEvent::Game(Arc::clone(&snapshot)),
            Some(from) => WatchEvent::Update { snapshot: Arc::clone(&snapshot), from_ply: from as usize },
        };
        let (sender, receiver) = mpsc::channel(WATCHER_BUFFER);
        let (end, last) = mpsc::channel(1);
        let outbox = Outbox { sender, end, patience: pace.patience, ply: from_ply.unwrap_or(0) as usize };
        tokio::spawn(relay(latest, self.closing.subscribe(), snapshot, first, outbox, pace.keep_alive));
        metrics::gauge!("damiera_game_watchers").increment(1.0);
        Ok(Box::pin(ReceiverStream::new(receiver).chain(ReceiverStream::new(last))))
    }

    /// A receiver of game `id`'s snapshots, which starts at `snapshot` or a newer one.
    fn follow(&self, id: &str, snapshot: Arc<Snapshot>) -> watch::Receiver<Latest> {
        let mut games = self.games.lock().expect("the hub's lock is never poisoned");
        let sender = games.entry(id.to_string()).or_insert_with(|| watch::Sender::new(Some(Arc::clone(&snapshot))));
        publish(sender, snapshot);
        let mut receiver = sender.subscribe();
        // The hub may already hold a newer snapshot than the caller read: have the relay look.
        receiver.mark_changed();
        receiver
    }

    async fn refresh(&self, id: &str) {
        let sender = {
            let games = self.games.lock().expect("the hub's lock is never poisoned");
            match games.get(id) {
                Some(sender) if sender.receiver_count() > 0 => sender.clone(),
                _ => return,
            }
        };
        match self.host.load(id).await {
            Ok((stored, replayed)) => publish(&sender, Arc::new(Snapshot { stored, replayed })),
            // Ids are never reused: a watched game gone was deleted, for good.
            Err(HostError::NotFound(_)) => _ = sender.send_replace(None),
            Err(error) => tracing::warn!(game = id, %error, "cannot read a watched game"),
        }
    }

    async fn refresh_all(&self) {
        let ids: Vec<String> = {
            let mut games = self.games.lock().expect("the hub's lock is never poisoned");
            games.retain(|_, sender| sender.receiver_count() > 0);
            games.keys().cloned().collect()
        };
        for id in ids {
            self.refresh(&id).await;
        }
    }
}

/// A watched game as the hub last read it: `None` once it was found deleted.
type Latest = Option<Arc<Snapshot>>;

/// Hands `snapshot` to the watchers if it is newer than what they have (and the game was not
/// found deleted meanwhile).
fn publish(sender: &watch::Sender<Latest>, snapshot: Arc<Snapshot>) {
    sender.send_if_modified(|current| match current {
        Some(current) if snapshot.version() > current.version() => {
            *current = snapshot;
            true
        }
        _ => false,
    });
}

/// Where one watcher's events go: its bounded buffer, and the last word once the watch must end
/// (read after the buffer, so it never waits for room).
struct Outbox {
    sender: mpsc::Sender<WatchEvent>,
    end: mpsc::Sender<WatchEvent>,
    patience: Duration,
    /// The moves the watcher has been given: where it would resume.
    ply: usize,
}

impl Outbox {
    /// Buffers `event`, which brings the watcher to `ply`. False when the watch is over: the
    /// watcher left, or its buffer stayed full for the patience (then it is told so, last).
    async fn put(&mut self, event: WatchEvent, ply: usize) -> bool {
        match self.sender.send_timeout(event, self.patience).await {
            Ok(()) => {
                self.ply = ply;
                true
            }
            Err(SendTimeoutError::Closed(_)) => false,
            Err(SendTimeoutError::Timeout(_)) => {
                metrics::counter!("damiera_game_watchers_too_slow_total").increment(1);
                self.finish(WatchEvent::TooSlow { from_ply: self.ply, patience: self.patience });
                false
            }
        }
    }

    /// Ends the watch with `event`, after what is buffered.
    fn finish(&self, event: WatchEvent) {
        // The channel holds one event and this is the only one sent.
        let _ = self.end.try_send(event);
    }
}

/// One watcher: sends `first`, then what is new in each snapshot, until the game is over or the
/// watcher leaves (or is let go).
async fn relay(
    mut latest: watch::Receiver<Latest>,
    mut closing: watch::Receiver<bool>,
    start: Arc<Snapshot>,
    first: WatchEvent,
    mut outbox: Outbox,
    keep_alive: Duration,
) {
    let mut version = start.version();
    let mut ply = start.ply();
    let mut over = start.is_over();
    if !outbox.put(first, ply).await {
        over = true;
    }
    while !over {
        let event = tokio::select! {
            changed = tokio::time::timeout(keep_alive, latest.changed()) => match changed {
                Ok(Ok(())) => {
                    let Some(snapshot) = latest.borrow_and_update().clone() else {
                        outbox.finish(WatchEvent::Deleted { id: start.stored.header.id.clone() });
                        break;
                    };
                    if snapshot.version() <= version {
                        continue;
                    }
                    let from_ply = ply;
                    (version, ply, over) = (snapshot.version(), snapshot.ply(), snapshot.is_over());
                    WatchEvent::Update { snapshot, from_ply }
                }
                Ok(Err(_)) => break, // the hub is gone: the server is stopping
                Err(_) => WatchEvent::KeepAlive { at_ms: now_ms() },
            },
            () = outbox.sender.closed() => break,
            true = wait_closing(&mut closing) => {
                outbox.finish(WatchEvent::Closing { from_ply: outbox.ply });
                break;
            }
        };
        if !outbox.put(event, ply).await {
            break;
        }
    }
    metrics::gauge!("damiera_game_watchers").decrement(1.0);
}

/// Completes with true once the hub closes (false if it is gone).
async fn wait_closing(closing: &mut watch::Receiver<bool>) -> bool {
    closing.wait_for(|closing| *closing).await.is_ok()
}
