//! [`Tables`]: transposition tables kept ready for the searches, allocated and mapped when the
//! server starts, so that a short search spends its time searching instead of allocating a table
//! and faulting its pages in.
//!
//! There is one table per search thread: every running search holds at least one thread, so a
//! search always finds a ready table.
//! A taken table is fitted to the size the search asked for and cleared by its generation (no
//! memset), and answers exactly like a new table of that size. A search that asks for more than
//! the ready tables' size, or finds none free, gets a new table allocated on its own search
//! thread, within the server's cap: it pays the allocation alone, nobody else waits for it.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use damiera_engine::search::TranspositionTable;

/// The ready tables.
pub struct Tables {
    /// Tables free to take.
    free: Mutex<Vec<TranspositionTable>>,
    /// Their size in MiB: the most a search can ask of a ready table.
    mib: u32,
}

/// A table a search holds: a ready one goes back to the [`Tables`] when dropped.
pub struct Table {
    /// The table; `None` only while it goes back.
    table: Option<TranspositionTable>,
    /// Where it goes back to; `None` for a table allocated for one search.
    home: Option<Arc<Tables>>,
}

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let free = self.free.lock().unwrap_or_else(PoisonError::into_inner).len();
        f.debug_struct("Tables").field("free", &free).field("mib", &self.mib).finish()
    }
}

impl Tables {
    /// `count` tables of `mib` MiB, allocated and mapped now.
    pub fn new(count: u32, mib: u32) -> Tables {
        let free: Vec<_> = (0..count).map(|_| TranspositionTable::new(mib as usize)).collect();
        let bytes: usize = free.iter().map(TranspositionTable::capacity_bytes).sum();
        metrics::gauge!("damiera_tables_ready_bytes").set(bytes as f64);
        metrics::gauge!("damiera_tables_free").set(free.len() as f64);
        Tables { free: Mutex::new(free), mib }
    }

    /// The ready tables' size in MiB.
    pub fn mib(&self) -> u32 {
        self.mib
    }

    /// A cleared table of `mib` MiB: a ready one if one is free and large enough, else a new one
    /// (allocated here, on the caller's thread: call it from the search thread).
    pub fn take(self: &Arc<Self>, mib: u32) -> Table {
        if mib <= self.mib {
            let ready = self.free.lock().unwrap_or_else(PoisonError::into_inner).pop();
            if let Some(mut table) = ready {
                metrics::gauge!("damiera_tables_free").decrement(1.0);
                table.fit(mib as usize);
                table.clear();
                return Table { table: Some(table), home: Some(Arc::clone(self)) };
            }
        }
        let reason = if mib > self.mib { "larger" } else { "none_free" };
        metrics::counter!("damiera_tables_allocated_total", "reason" => reason).increment(1);
        Table { table: Some(TranspositionTable::new(mib as usize)), home: None }
    }
}

impl Deref for Table {
    type Target = TranspositionTable;

    fn deref(&self) -> &TranspositionTable {
        self.table.as_ref().expect("a table until dropped")
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        if let (Some(table), Some(home)) = (self.table.take(), &self.home) {
            home.free.lock().unwrap_or_else(PoisonError::into_inner).push(table);
            metrics::gauge!("damiera_tables_free").increment(1.0);
        }
    }
}
