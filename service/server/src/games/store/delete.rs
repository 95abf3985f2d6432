//! Deleting games: one game and its log at a version (a seat's `DeleteGame`), and finding the
//! games over for longer than the retention keeps them.

use super::{Store, StoreError};
use crate::games::record::GameStateKind;

impl Store {
    /// Deletes game `id` with its log if it is still at `version`; false when it moved on or is
    /// gone. The deletion is announced as a change to `version + 1`, so that every replica's
    /// watchers of the game hear of it (and find it gone).
    pub async fn delete(&self, id: &str, version: u64) -> Result<bool, StoreError> {
        let Some(next) = i64::try_from(version).ok().and_then(|version| version.checked_add(1)) else {
            return Ok(false);
        };
        let mut transaction = self.begin_write().await?;
        // Compare-and-set first, as an append does: it takes the row's lock, so an append racing
        // this deletion either comes first (and this finds the version moved on) or fails after.
        let bumped = sqlx::query("UPDATE games SET version = $3 WHERE id = $1 AND version = $2")
            .bind(id)
            .bind(next - 1)
            .bind(next)
            .execute(&mut *transaction)
            .await?;
        if bumped.rows_affected() == 0 {
            transaction.rollback().await?;
            return Ok(false);
        }
        sqlx::query("DELETE FROM events WHERE game_id = $1").bind(id).execute(&mut *transaction).await?;
        sqlx::query("DELETE FROM games WHERE id = $1").bind(id).execute(&mut *transaction).await?;
        self.commit(transaction, id, version + 1, None).await?;
        Ok(true)
    }

    /// Up to `limit` games, of any tenant, over (won, drawn or aborted) and unchanged since before
    /// `before_ms`, each with its version; the longest over first.
    pub async fn finished_before(&self, before_ms: i64, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        let rows: Vec<(String, i64)> = sqlx::query_as(
            "SELECT id, version FROM games WHERE state <> $1 AND updated_at_ms < $2 ORDER BY updated_at_ms, id LIMIT $3",
        )
        .bind(GameStateKind::Ongoing.name())
        .bind(before_ms)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|(id, version)| match u64::try_from(version) {
                Ok(version) => Ok((id, version)),
                Err(_) => Err(StoreError::Corrupt(format!("game {id}: version {version}"))),
            })
            .collect()
    }
}
