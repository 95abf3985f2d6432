//! The engine's work list: games where the engine has to act, and the lease that lets one
//! server (of several on PostgreSQL) act at a time.
//!
//! A lease covers one version of a game: an append ends it. A server that crashed while holding
//! a lease only delays the engine's move until the lease runs out; one that stops gracefully
//! releases its leases, announced like a change, so that another takes the turn at once.

use super::{Store, StoreError};
use crate::games::record::GameStateKind;

impl Store {
    /// The ids of ongoing games where the engine has to act and nobody holds the engine's lease
    /// at `now_ms`, the longest waiting first; at most `limit`.
    pub async fn engine_due(&self, now_ms: i64, limit: u32) -> Result<Vec<String>, StoreError> {
        let ids = sqlx::query_scalar(
            "SELECT id FROM games WHERE engine_due = 1 AND state = $1 AND engine_lease_until_ms < $2 \
             ORDER BY updated_at_ms, id LIMIT $3",
        )
        .bind(GameStateKind::Ongoing.name())
        .bind(now_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(ids)
    }

    /// Takes the engine's lease of game `id` at `version` until `lease_until_ms`, if nobody holds
    /// it at `now_ms`. True if this call got it; false if another did, or the game moved on.
    pub async fn claim_engine(
        &self,
        id: &str,
        version: u64,
        now_ms: i64,
        lease_until_ms: i64,
    ) -> Result<bool, StoreError> {
        let Ok(version) = i64::try_from(version) else {
            return Ok(false);
        };
        let claimed = sqlx::query(
            "UPDATE games SET engine_lease_until_ms = $4 \
             WHERE id = $1 AND version = $2 AND engine_lease_until_ms < $3",
        )
        .bind(id)
        .bind(version)
        .bind(now_ms)
        .bind(lease_until_ms)
        .execute(&self.pool)
        .await?;
        Ok(claimed.rows_affected() == 1)
    }

    /// Gives up the engine's lease of game `id` at `version`, if the game is still there, and
    /// tells every replica, so that another takes the turn without waiting for the lease to end.
    pub async fn release_engine(&self, id: &str, version: u64) -> Result<(), StoreError> {
        let Ok(stored_version) = i64::try_from(version) else {
            return Ok(());
        };
        let mut transaction = self.begin_write().await?;
        let released = sqlx::query("UPDATE games SET engine_lease_until_ms = 0 WHERE id = $1 AND version = $2")
            .bind(id)
            .bind(stored_version)
            .execute(&mut *transaction)
            .await?;
        if released.rows_affected() == 1 {
            self.commit(transaction, id, version, None).await
        } else {
            Ok(transaction.rollback().await?)
        }
    }
}
