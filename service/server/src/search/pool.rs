//! [`SearchPool`]: searches and other long computations run here, on threads off the async runtime.
//!
//! The pool owns a number of search threads. A job asks for some of them and waits in a bounded
//! queue while they are busy; beyond the queue it is refused at once ([`PoolError::Overloaded`]), so
//! an overloaded server answers quickly instead of piling up work it cannot finish in time.
//! Searches ([`SearchPool::search`]) take their transposition table from the pool's ready
//! [`Tables`] on their search thread.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use damiera_engine::search::{Iteration, SearchResult};
use tokio::sync::{Semaphore, TryAcquireError};

use super::{SearchJob, Sessions, Tables};

/// Why a job did not run to its end.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PoolError {
    /// Every search thread is busy and the queue is full.
    #[error("every search slot is taken and {queued} requests are waiting")]
    Overloaded {
        /// Jobs waiting when this one was refused.
        queued: usize,
        /// A suggested delay before trying again.
        retry_after: Duration,
    },
    /// The pool is closed, or the job panicked.
    #[error("{0}")]
    Failed(String),
}

/// The search threads and their queue.
#[derive(Debug)]
pub struct SearchPool {
    /// One permit per search thread; a job holds as many as it runs threads.
    threads: Arc<Semaphore>,
    /// The number of threads, the most one job can get.
    thread_count: u32,
    /// Jobs waiting for threads now.
    queued: AtomicUsize,
    /// The most jobs that may wait.
    max_queued: usize,
    /// What an overloaded answer suggests as the delay before retrying.
    retry_after: Duration,
    /// The transposition tables kept ready for searches.
    tables: Arc<Tables>,
    /// The tables analysis sessions keep between calls.
    sessions: Arc<Sessions>,
}

impl SearchPool {
    /// A pool of `threads` search threads (at least one) with room for `max_queued` waiting jobs,
    /// a ready table of `table_mib` MiB for each thread (allocated now), and `sessions`.
    pub fn new(
        threads: u32,
        max_queued: usize,
        retry_after: Duration,
        table_mib: u32,
        sessions: Sessions,
    ) -> SearchPool {
        let thread_count = threads.max(1);
        SearchPool {
            threads: Arc::new(Semaphore::new(thread_count as usize)),
            thread_count,
            queued: AtomicUsize::new(0),
            max_queued,
            retry_after,
            tables: Arc::new(Tables::new(thread_count, table_mib)),
            sessions: Arc::new(sessions),
        }
    }

    /// Ends analysis session `key`, if it is kept: its table goes back to the ready tables.
    pub fn end_session(&self, key: &str) {
        self.sessions.end(key);
    }

    /// Runs `job` like [`SearchPool::run`], on a table of the size it asks for, until its limits
    /// or `stop`; `report` hears of every completed iteration, on the search thread. With a
    /// `session` key, the search uses the session's table as the last call left it, if it is
    /// kept, and the session keeps the table afterwards ([`Sessions`]).
    pub async fn search(
        &self,
        job: SearchJob,
        session: Option<String>,
        stop: Arc<AtomicBool>,
        report: impl FnMut(&Iteration) + Send + 'static,
    ) -> Result<SearchResult, PoolError> {
        let (tables, sessions) = (Arc::clone(&self.tables), Arc::clone(&self.sessions));
        self.run(job.threads(), move || {
            sessions.end_expired();
            let mib = job.hash_mib;
            let kept = session.as_deref().and_then(|key| sessions.take(key, mib));
            if session.is_some() {
                let found = if kept.is_some() { "kept" } else { "new" };
                metrics::counter!("damiera_analysis_session_searches_total", "table" => found).increment(1);
            }
            let table = kept.unwrap_or_else(|| tables.take(mib));
            let result = job.run(&table, &stop, report);
            if let Some(key) = &session {
                sessions.keep(key, table, mib);
            }
            result
        })
        .await
    }

    /// The number of search threads.
    pub fn thread_count(&self) -> u32 {
        self.thread_count
    }

    /// Runs `job` on `threads` search threads once they are free, and answers what it returns.
    ///
    /// Dropping the returned future while the job waits leaves the queue; once the job runs, it
    /// runs to its end (searches end early through their stop flag) and then frees its threads.
    pub async fn run<T, F>(&self, threads: u32, job: F) -> Result<T, PoolError>
    where
        T: Send + 'static,
        F: FnOnce() -> T + Send + 'static,
    {
        let wanted = threads.clamp(1, self.thread_count);
        let permit = match Arc::clone(&self.threads).try_acquire_many_owned(wanted) {
            Ok(permit) => permit,
            Err(TryAcquireError::NoPermits) => {
                let _waiting = Waiting::enter(self)?;
                Arc::clone(&self.threads).acquire_many_owned(wanted).await.map_err(internal)?
            }
            Err(closed @ TryAcquireError::Closed) => return Err(internal(closed)),
        };
        tokio::task::spawn_blocking(move || {
            let _running = Gauge::raise("damiera_searches_running");
            let value = job();
            drop(permit);
            value
        })
        .await
        .map_err(|error| PoolError::Failed(format!("a search failed: {error}")))
    }
}

fn internal(error: impl std::fmt::Display) -> PoolError {
    PoolError::Failed(format!("the search pool is closed: {error}"))
}

/// A place in the queue, given up when dropped (the job starts, or the caller goes away).
struct Waiting<'a> {
    pool: &'a SearchPool,
    _gauge: Gauge,
}

impl<'a> Waiting<'a> {
    fn enter(pool: &'a SearchPool) -> Result<Waiting<'a>, PoolError> {
        let before = pool.queued.fetch_add(1, Ordering::SeqCst);
        if before >= pool.max_queued {
            pool.queued.fetch_sub(1, Ordering::SeqCst);
            metrics::counter!("damiera_searches_refused_total").increment(1);
            return Err(PoolError::Overloaded { queued: before, retry_after: pool.retry_after });
        }
        Ok(Waiting { pool, _gauge: Gauge::raise("damiera_searches_queued") })
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.pool.queued.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A gauge raised by one while this value lives.
struct Gauge(&'static str);

impl Gauge {
    fn raise(name: &'static str) -> Gauge {
        metrics::gauge!(name).increment(1.0);
        Gauge(name)
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}
