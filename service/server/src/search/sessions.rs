//! [`Sessions`]: analysis sessions, the transposition tables that `Analyze` keeps between calls
//! that name the same session, so that analysing the next move of a game starts from what the
//! last analysis found.
//!
//! A session is a key the client chooses (its game's name, say). After a call, the session keeps
//! the call's table for [`Sessions::idle_for`]; the next call with the key and the same table size
//! searches on it without clearing it (entries of other positions are simply not probed, and
//! those of the positions the two analyses share are what makes the next one start warm). At most
//! [`Sessions::max`] sessions are kept: a call that would pass that ends the one idle longest.
//! Kept tables are ready tables held out of the pool; a dropped session's table goes back to it.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::Table;

/// The longest session key, in bytes.
pub const MAX_KEY_BYTES: usize = 128;

/// The kept tables, by session key.
pub struct Sessions {
    /// Idle sessions: their table, its size and when it was last used.
    idle: Mutex<HashMap<String, Kept>>,
    /// The most sessions kept.
    max: usize,
    /// How long an idle session is kept.
    idle_for: Duration,
}

/// A session's table between calls.
struct Kept {
    /// The table.
    table: Table,
    /// Its size in MiB.
    mib: u32,
    /// When the last call ended.
    since: Instant,
}

impl std::fmt::Debug for Sessions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sessions").field("max", &self.max).field("idle_for", &self.idle_for).finish_non_exhaustive()
    }
}

impl Sessions {
    /// At most `max` sessions, each kept `idle_for` after its last call.
    pub fn new(max: usize, idle_for: Duration) -> Sessions {
        Sessions { idle: Mutex::new(HashMap::new()), max, idle_for }
    }

    /// How long an idle session is kept.
    pub fn idle_for(&self) -> Duration {
        self.idle_for
    }

    /// The most sessions kept.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Session `key`'s table, if it is kept and of `mib` MiB; it is the caller's until
    /// [`Sessions::keep`] gives it back.
    pub fn take(&self, key: &str, mib: u32) -> Option<Table> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let kept = idle.remove(key)?;
        let fresh = kept.since.elapsed() <= self.idle_for && kept.mib == mib;
        fresh.then_some(kept.table)
    }

    /// Ends the sessions idle for longer than [`Sessions::idle_for`]: their tables go back to
    /// the pool.
    pub fn end_expired(&self) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        idle.retain(|_, kept| kept.since.elapsed() <= self.idle_for);
        metrics::gauge!("damiera_analysis_sessions").set(idle.len() as f64);
    }

    /// Ends session `key` now: its table goes back to the pool.
    pub fn end(&self, key: &str) {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        idle.remove(key);
        metrics::gauge!("damiera_analysis_sessions").set(idle.len() as f64);
    }

    /// Keeps `table` (of `mib` MiB) for session `key`, ending expired sessions and, if there are
    /// too many, the one idle longest.
    pub fn keep(&self, key: &str, table: Table, mib: u32) {
        if self.max == 0 {
            return;
        }
        self.end_expired();
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        while idle.len() >= self.max && !idle.contains_key(key) {
            let Some(oldest) = idle.iter().min_by_key(|(_, kept)| kept.since).map(|(key, _)| key.clone()) else {
                break;
            };
            idle.remove(&oldest);
        }
        idle.insert(key.to_owned(), Kept { table, mib, since: Instant::now() });
        metrics::gauge!("damiera_analysis_sessions").set(idle.len() as f64);
    }
}
