//! [`Keyring`]: the API keys a running server accepts, and the tenant each acts for.
//!
//! The keys live in the database (`damiera keys`); each server reads them all into memory at
//! start and again every refresh interval ([`Keyring::follow`]), so a call is checked without a
//! query, and a key added or revoked on any machine takes effect on every replica within that
//! interval. The times keys were last used are gathered in memory and written at each refresh.
//!
//! A server wants a key once it has one: `--api-key` (which acts for the implicit tenant), or any
//! key in the database, revoked or not (revoking the last key does not open the server). With
//! neither, every call acts for the implicit tenant.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use super::key::ApiKey;
use super::TenantId;
use crate::games::store::{Store, StoreError};
use crate::games::{now_ms, Host};

/// The name `--api-key` goes by where a key's id is shown (rate limits); no key id looks like it.
pub const SINGLE_KEY_ID: &str = "api-key";

/// Why a call's key was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The server wants a key and the call has none, or one it does not know.
    Unknown,
    /// The key was revoked.
    Revoked,
}

/// Who a call acts for, once its key is accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admitted {
    /// The tenant.
    pub tenant: TenantId,
    /// The key's id ([`SINGLE_KEY_ID`] for `--api-key`); none on a server without keys.
    pub key_id: Option<String>,
}

/// The keys this server accepts.
#[derive(Debug, Default)]
pub struct Keyring {
    /// The SHA-256 of `--api-key`, as hex, when there is one.
    single: Option<String>,
    /// The database's keys, as last read.
    table: RwLock<Table>,
    /// When each key last let a call through since the last refresh, to be written then.
    used: Mutex<HashMap<String, i64>>,
}

/// The database's keys by id.
#[derive(Debug, Default)]
struct Table {
    /// Every key, revoked or not.
    keys: HashMap<String, Entry>,
}

/// One stored key, as the check needs it.
#[derive(Debug)]
struct Entry {
    /// The tenant it acts for.
    tenant: TenantId,
    /// The SHA-256 of its secret, as hex.
    secret_hash: String,
    /// Whether it was revoked.
    revoked: bool,
}

impl Keyring {
    /// A keyring with `--api-key`'s key (if any) and, until the first refresh, no stored keys.
    pub fn new(single: Option<&str>) -> Keyring {
        Keyring { single: single.map(|key| hex::encode(Sha256::digest(key.as_bytes()))), ..Keyring::default() }
    }

    /// Whether calls need a key.
    fn wants_keys(&self, table: &Table) -> bool {
        self.single.is_some() || !table.keys.is_empty()
    }

    /// Who a call with key `given` (its `x-api-key`, if any) acts for.
    pub fn admit(&self, given: Option<&str>) -> Result<Admitted, Refusal> {
        let table = self.table.read().expect("the keyring's lock is never poisoned");
        if !self.wants_keys(&table) {
            return Ok(Admitted { tenant: TenantId::default(), key_id: None });
        }
        let given = given.ok_or(Refusal::Unknown)?;
        if let Some(single) = &self.single {
            let hash = hex::encode(Sha256::digest(given.as_bytes()));
            if bool::from(hash.as_bytes().ct_eq(single.as_bytes())) {
                return Ok(Admitted { tenant: TenantId::default(), key_id: Some(SINGLE_KEY_ID.to_string()) });
            }
        }
        let key = ApiKey::parse(given).ok_or(Refusal::Unknown)?;
        let entry = table.keys.get(key.id).filter(|entry| key.matches(&entry.secret_hash)).ok_or(Refusal::Unknown)?;
        if entry.revoked {
            return Err(Refusal::Revoked);
        }
        self.used.lock().expect("the keyring's lock is never poisoned").insert(key.id.to_string(), now_ms());
        Ok(Admitted { tenant: entry.tenant.clone(), key_id: Some(key.id.to_string()) })
    }

    /// Writes the times keys were last used, then reads every key again.
    pub async fn refresh(&self, store: &Store) -> Result<(), StoreError> {
        let used = std::mem::take(&mut *self.used.lock().expect("the keyring's lock is never poisoned"));
        for (id, at_ms) in used {
            store.touch_key(&id, at_ms).await?;
        }
        let keys = store
            .keys()
            .await?
            .into_iter()
            .map(|key| {
                let entry =
                    Entry { tenant: key.tenant, secret_hash: key.secret_hash, revoked: key.revoked_at_ms.is_some() };
                (key.id, entry)
            })
            .collect();
        *self.table.write().expect("the keyring's lock is never poisoned") = Table { keys };
        Ok(())
    }

    /// Refreshes every `every`, for as long as the keyring is in use. A refresh that fails keeps
    /// the keys read last (a store outage neither opens the server nor locks everyone out).
    pub async fn follow(self: Arc<Self>, host: Arc<Host>, every: Duration) {
        let weak = Arc::downgrade(&self);
        drop(self);
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            let Some(keyring) = weak.upgrade() else { return };
            if let Err(error) = keyring.refresh(host.store()).await {
                tracing::warn!(%error, "cannot read the API keys again: the keys read last still apply");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tenants::key::NewKey;

    fn keyring_with(single: Option<&str>, stored: &[(&NewKey, &str, bool)]) -> Keyring {
        let keyring = Keyring::new(single);
        let keys = stored
            .iter()
            .map(|(key, tenant, revoked)| {
                let entry = Entry {
                    tenant: TenantId::parse(tenant).unwrap(),
                    secret_hash: key.hash.clone(),
                    revoked: *revoked,
                };
                (key.id.clone(), entry)
            })
            .collect();
        *keyring.table.write().unwrap() = Table { keys };
        keyring
    }

    #[test]
    fn without_keys_every_call_acts_for_the_implicit_tenant() {
        let open = Keyring::new(None);
        let implicit = Admitted { tenant: TenantId::default(), key_id: None };
        assert_eq!(open.admit(None), Ok(implicit.clone()));
        assert_eq!(open.admit(Some("anything")), Ok(implicit));
    }

    #[test]
    fn the_single_key_acts_for_the_implicit_tenant() {
        let keyring = Keyring::new(Some("s3cret"));
        assert_eq!(keyring.admit(Some("s3cret")).unwrap().tenant, TenantId::default());
        assert_eq!(keyring.admit(Some("s3cret ")), Err(Refusal::Unknown));
        assert_eq!(keyring.admit(None), Err(Refusal::Unknown));
    }

    #[test]
    fn each_stored_key_acts_for_its_tenant_until_revoked() {
        let (a, b, gone) = (NewKey::generate(), NewKey::generate(), NewKey::generate());
        let keyring = keyring_with(None, &[(&a, "alpha", false), (&b, "beta", false), (&gone, "alpha", true)]);
        assert_eq!(keyring.admit(Some(&a.text)).unwrap().tenant.as_str(), "alpha");
        assert_eq!(keyring.admit(Some(&b.text)).unwrap().key_id.as_deref(), Some(b.id.as_str()));
        assert_eq!(keyring.admit(Some(&gone.text)), Err(Refusal::Revoked));
        assert_eq!(keyring.admit(None), Err(Refusal::Unknown));
        // Another key's secret under this key's id.
        let forged = format!("dmk_{}_{}", a.id, &b.text[17..]);
        assert_eq!(keyring.admit(Some(&forged)), Err(Refusal::Unknown));
        assert!(keyring.used.lock().unwrap().contains_key(&a.id));
    }

    #[test]
    fn a_revoked_last_key_keeps_the_server_closed() {
        let gone = NewKey::generate();
        let keyring = keyring_with(None, &[(&gone, "alpha", true)]);
        assert_eq!(keyring.admit(None), Err(Refusal::Unknown));
    }
}
