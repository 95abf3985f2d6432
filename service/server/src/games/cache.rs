//! [`GameCache`]: this replica's replayed games, so that reading a game costs what is new in it
//! rather than its whole log.
//!
//! The cache is never trusted over the store. Every read asks the store for the game's header,
//! its version and the events after the cached version, in one statement
//! ([`Store::load_since`]), and replays only those events, on a copy of the cached game. A game
//! that another replica (or another [`Store`] on the same database) changed is caught up the same
//! way; one the store holds at an older version than the cache (which an append-only log cannot
//! do) is read and replayed whole. So every answer is the stored game replayed through the rules:
//! the cache only spares replaying what this replica replayed before. A deleted game is not
//! found, cached or not; the replica that deleted it also drops it from its cache.
//!
//! Bounded by weight, an estimate of each entry's bytes ([`weight`]), to [`CAPACITY_BYTES`];
//! when full, `quick_cache` evicts by CLOCK-Pro, which keeps the games read often and lets a game
//! read once (a listing, a finished game opened once) go first. Two reads of one game can put
//! their versions in either order: an older one left in the cache is caught up by the next read.

use std::mem::size_of;
use std::sync::Arc;

use damiera_engine::{MoveCount, PlayedMove, Position};
use quick_cache::sync::Cache;
use quick_cache::Weighter;

use super::error::HostError;
use super::record::{Event, StoredGame};
use super::replay::Replayed;
use super::store::Store;

/// The most the cached games weigh together: about 64 MiB (some 4,000 games of 60 moves).
pub const CAPACITY_BYTES: u64 = 64 << 20;

/// How many games the table is first sized for.
const ESTIMATED_GAMES: usize = 4096;

/// A game as this replica last read or wrote it.
#[derive(Debug)]
struct Entry {
    /// The game as stored at its version.
    stored: Arc<StoredGame>,
    /// `stored`, replayed.
    replayed: Arc<Replayed>,
    /// [`weight`] of `stored`, computed once.
    weight: u64,
}

/// Weighs an entry by its estimated bytes.
#[derive(Clone, Debug)]
struct ByWeight;

impl Weighter<String, Arc<Entry>> for ByWeight {
    fn weight(&self, id: &String, entry: &Arc<Entry>) -> u64 {
        id.len() as u64 + entry.weight
    }
}

/// Replayed games by id, bounded by their estimated bytes.
#[derive(Debug)]
pub struct GameCache {
    games: Cache<String, Arc<Entry>, ByWeight>,
}

impl GameCache {
    /// An empty cache that holds games of up to `capacity_bytes` (estimated) together.
    pub fn new(capacity_bytes: u64) -> GameCache {
        GameCache { games: Cache::with_weighter(ESTIMATED_GAMES, capacity_bytes, ByWeight) }
    }

    /// Game `id` as stored now, replayed: from the cached replay and the events after it when
    /// this replica has the game, else read and replayed whole; the answer is cached.
    pub async fn load(&self, store: &Store, id: &str) -> Result<(StoredGame, Replayed), HostError> {
        if let Some(entry) = self.games.get(id) {
            let cached = entry.stored.version();
            let since = store.load_since(id, cached).await?.ok_or_else(|| HostError::NotFound(id.to_string()))?;
            if since.version >= cached {
                metrics::counter!("damiera_game_cache_hits_total").increment(1);
                let mut replayed = Replayed::clone(&entry.replayed);
                replayed.replay(id, entry.stored.events.len(), &since.events).map_err(HostError::Corrupt)?;
                let changed = !since.events.is_empty();
                let mut events = Vec::with_capacity(entry.stored.events.len() + since.events.len());
                events.extend_from_slice(&entry.stored.events);
                events.extend(since.events);
                let stored = StoredGame { header: since.header, events };
                if changed {
                    self.put(Arc::new(stored.clone()), Arc::new(replayed.clone()));
                }
                return Ok((stored, replayed));
            }
        }
        metrics::counter!("damiera_game_cache_misses_total").increment(1);
        let stored = store.load(id).await?.ok_or_else(|| HostError::NotFound(id.to_string()))?;
        let replayed = Replayed::from_stored(&stored).map_err(HostError::Corrupt)?;
        self.put(Arc::new(stored.clone()), Arc::new(replayed.clone()));
        Ok((stored, replayed))
    }

    /// Drops game `id`, which was deleted.
    pub fn forget(&self, id: &str) {
        self.games.remove(id);
        metrics::gauge!("damiera_game_cache_bytes").set(self.games.weight() as f64);
    }

    /// Keeps `stored` and its replay, which the caller read or just wrote (and may share).
    pub fn put(&self, stored: Arc<StoredGame>, replayed: Arc<Replayed>) {
        let (id, weight) = (stored.header.id.clone(), weight(&stored));
        self.games.insert(id, Arc::new(Entry { stored, replayed, weight }));
        metrics::gauge!("damiera_game_cache_bytes").set(self.games.weight() as f64);
    }
}

/// An estimate of an entry's bytes: the fixed parts, and per event the event, the replay's
/// position, move, move count and time, and their text (each move's text is kept twice: as
/// stored and as played).
fn weight(stored: &StoredGame) -> u64 {
    let fixed = size_of::<Entry>() + 2 * size_of::<Position>() + stored.header.start_fen.len() + 512;
    let per_event = size_of::<Event>()
        + size_of::<Position>()
        + size_of::<PlayedMove>()
        + size_of::<Option<MoveCount>>()
        + size_of::<i64>();
    let text: usize =
        stored.events.iter().map(|event| 2 * event.text.len() + event.request_id.as_ref().map_or(0, String::len)).sum();
    (fixed + stored.events.len() * per_event + text) as u64
}
