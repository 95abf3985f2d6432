//! SQLite specifics: how the file is opened, and the settings that make a commit durable and let
//! writers wait for each other instead of failing with SQLITE_BUSY.

use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyConnection, Connection, Executor};

use super::StoreError;

/// Per connection: a commit returns once it is on disk (FULL syncs the WAL at every commit);
/// a writer waits up to 10 s for the lock; and the events' reference to their game is enforced.
const CONNECTION_PRAGMAS: &str = "PRAGMA synchronous = FULL; PRAGMA busy_timeout = 10000; PRAGMA foreign_keys = ON;";

/// The connect options of `url`, which create the file if it is missing.
pub(super) fn connect_options(url: &str) -> Result<AnyConnectOptions, StoreError> {
    let url = if is_memory(url) || url.contains("mode=") {
        url.to_owned()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    };
    url.parse().map_err(|error| StoreError::bad_url(&url, error))
}

/// Sets up a newly opened database, on its first connection: the write-ahead log, so that readers
/// never wait for the writer. The setting stays with the file.
pub(super) async fn prepare(connection: &mut AnyConnection) -> Result<(), StoreError> {
    connection.execute("PRAGMA journal_mode = WAL").await?;
    Ok(())
}

/// The pool for `url`. An in-memory database is one connection, kept open for good: every
/// connection to `sqlite::memory:` has a database of its own, lost when it closes.
///
/// A file's connection is closed rather than reused when it comes back still in a transaction.
/// That happens when a COMMIT fails on a full disk: SQLite rolls the transaction back itself,
/// so the ROLLBACK sqlx then sends fails too, and sqlx 0.8 still counts the transaction as open;
/// every later BEGIN on that connection would fail ("non-zero transaction depth") for good. The
/// ping waits for the ROLLBACK that a dropped transaction queued before it.
pub(super) fn pool_options(url: &str) -> AnyPoolOptions {
    let options = AnyPoolOptions::new().after_connect(|connection, _| {
        Box::pin(async move {
            connection.execute(CONNECTION_PRAGMAS).await?;
            Ok(())
        })
    });
    if is_memory(url) {
        options.max_connections(1).min_connections(1).idle_timeout(None::<Duration>).max_lifetime(None::<Duration>)
    } else {
        options.after_release(|connection, _| {
            Box::pin(async move {
                connection.ping().await?;
                let reusable = !connection.is_in_transaction();
                if !reusable {
                    tracing::warn!("a SQLite connection still in a transaction after a failed write: closed");
                }
                Ok(reusable)
            })
        })
    }
}

fn is_memory(url: &str) -> bool {
    url.contains(":memory:") || url.contains("mode=memory")
}
