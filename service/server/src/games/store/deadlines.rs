//! The referee's work list: the games that end by themselves if nobody acts, by deadline, and
//! whether the service was down before this replica joined it.
//!
//! "The service was down" means no replica was serving: on SQLite (one server) every start; on
//! PostgreSQL a replica holds a shared advisory lock on a connection of its own for as long as it
//! runs, and one that starts (or reconnects) and can take the lock exclusively knows that no
//! other replica held it. A killed replica's connection closes with it, so its lock goes at once.

use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::{Connection, PgConnection};
use tokio::sync::Mutex;

use super::{Backend, Store, StoreError};
use crate::games::host::now_ms;

/// The advisory lock every replica holds shared while it serves ("dami" in ASCII), with the
/// database's name as its second key.
const SERVICE_LOCK: i32 = 0x6461_6d69;

/// A replica's hold on the service.
#[derive(Default)]
pub(super) struct ServiceLock {
    /// PostgreSQL: the connection that holds the lock, once joined.
    connection: Mutex<Option<PgConnection>>,
    /// SQLite: whether this server has joined.
    sqlite_joined: AtomicBool,
    /// When this replica last found the service down and joined, until taken.
    outage_ended_at_ms: Mutex<Option<i64>>,
}

impl Store {
    /// Up to `limit` games with a deadline, the soonest first: `(id, deadline_ms)`.
    pub async fn next_deadlines(&self, limit: u32) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query_as(
            "SELECT id, deadline_ms FROM games WHERE deadline_ms IS NOT NULL ORDER BY deadline_ms, id LIMIT $1",
        )
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows)
    }

    /// The ids of every game with a deadline (ongoing, and ending by itself some day), after
    /// `after` in id order, at most `limit`.
    pub async fn games_with_deadline(&self, after: &str, limit: u32) -> Result<Vec<String>, StoreError> {
        let ids =
            sqlx::query_scalar("SELECT id FROM games WHERE deadline_ms IS NOT NULL AND id > $1 ORDER BY id LIMIT $2")
                .bind(after)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
        Ok(ids)
    }

    /// Makes sure this replica counts as serving: at start (before serving) and now and then
    /// after. On PostgreSQL it also notices a lost lock connection (a database restart) and joins
    /// again. When it finds that no other replica was serving (on SQLite: the first call), it
    /// notes the moment, for [`Store::take_outage`].
    pub async fn join_service(&self) -> Result<(), StoreError> {
        let was_down = match self.backend {
            Backend::Sqlite => !self.service_lock.sqlite_joined.swap(true, Ordering::SeqCst),
            Backend::Postgres => self.service_lock.join_postgres(&self.url).await?,
        };
        if was_down {
            *self.service_lock.outage_ended_at_ms.lock().await = Some(now_ms());
        }
        Ok(())
    }

    /// When this replica found the service down and brought it back, if it did since the last
    /// call: the clocks of games whose turn began before then are owed their turn afresh.
    pub async fn take_outage(&self) -> Option<i64> {
        self.service_lock.outage_ended_at_ms.lock().await.take()
    }
}

impl ServiceLock {
    async fn join_postgres(&self, url: &str) -> Result<bool, StoreError> {
        let mut held = self.connection.lock().await;
        if let Some(connection) = held.as_mut() {
            if connection.ping().await.is_ok() {
                return Ok(false);
            }
            *held = None;
        }
        let mut connection = PgConnection::connect(url).await?;
        // One lock per database: deployments on other databases of the cluster are not replicas.
        let alone: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1, hashtext(current_database()))")
            .bind(SERVICE_LOCK)
            .fetch_one(&mut connection)
            .await?;
        sqlx::query("SELECT 1 FROM (SELECT pg_advisory_lock_shared($1, hashtext(current_database()))) AS locked")
            .bind(SERVICE_LOCK)
            .execute(&mut connection)
            .await?;
        if alone {
            sqlx::query("SELECT pg_advisory_unlock($1, hashtext(current_database()))")
                .bind(SERVICE_LOCK)
                .execute(&mut connection)
                .await?;
        }
        *held = Some(connection);
        Ok(alone)
    }
}
