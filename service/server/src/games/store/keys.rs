//! The API keys (`damiera keys`): added, listed, revoked, and marked as used. Only the secret's
//! hash is stored ([`crate::tenants::key`]); every server reads the whole table again now and
//! then ([`crate::tenants::keyring`]), so a revocation reaches every replica.

use sqlx::Row;

use super::{Store, StoreError};
use crate::tenants::TenantId;

/// An API key as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredKey {
    /// The public id, the part of the key between `dmk_` and the secret.
    pub id: String,
    /// The tenant the key acts for.
    pub tenant: TenantId,
    /// The SHA-256 of the secret, as hex.
    pub secret_hash: String,
    /// When it was added, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// When a server last let a call through with it, to within the keyring's refresh interval.
    pub last_used_at_ms: Option<i64>,
    /// When it was revoked, if it was.
    pub revoked_at_ms: Option<i64>,
}

impl Store {
    /// Stores a new key.
    pub async fn add_key(&self, key: &StoredKey) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO api_keys (id, tenant, secret_hash, created_at_ms, last_used_at_ms, revoked_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(key.id.as_str())
        .bind(key.tenant.as_str())
        .bind(key.secret_hash.as_str())
        .bind(key.created_at_ms)
        .bind(key.last_used_at_ms)
        .bind(key.revoked_at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Every key, revoked or not, oldest first.
    pub async fn keys(&self) -> Result<Vec<StoredKey>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, tenant, secret_hash, created_at_ms, last_used_at_ms, revoked_at_ms FROM api_keys \
             ORDER BY created_at_ms, id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(StoredKey {
                    id: row.try_get("id")?,
                    tenant: TenantId::stored(row.try_get("tenant")?),
                    secret_hash: row.try_get("secret_hash")?,
                    created_at_ms: row.try_get("created_at_ms")?,
                    last_used_at_ms: row.try_get("last_used_at_ms")?,
                    revoked_at_ms: row.try_get("revoked_at_ms")?,
                })
            })
            .collect()
    }

    /// Revokes key `id` at `at_ms`; false when no key has that id or it was revoked already.
    pub async fn revoke_key(&self, id: &str, at_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE api_keys SET revoked_at_ms = $2 WHERE id = $1 AND revoked_at_ms IS NULL")
            .bind(id)
            .bind(at_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected() > 0)
    }

    /// Notes that key `id` let a call through at `at_ms` (never moving the time back).
    pub async fn touch_key(&self, id: &str, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE api_keys SET last_used_at_ms = $2 WHERE id = $1 AND \
             (last_used_at_ms IS NULL OR last_used_at_ms < $2)",
        )
        .bind(id)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
