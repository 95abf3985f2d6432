//! `damiera keys add|list|revoke`: the API keys in the database, each bound to a tenant.
//!
//! `add` prints the new key once, alone on standard output (only its hash is stored: it cannot be
//! shown again); `list` prints every key's id, tenant, creation, last use and revocation;
//! `revoke` revokes a key by its id. Running servers on the database read the keys again every
//! `--keys-refresh` (5 s by default), so a change takes effect within that time.

use std::io::Write;
use std::time::{Duration, UNIX_EPOCH};

use clap::{Args, Subcommand};
use damiera_server::games::now_ms;
use damiera_server::games::store::{Store, StoredKey};
use damiera_server::tenants::key::NewKey;
use damiera_server::tenants::TenantId;

use super::Failure;

/// Arguments of `damiera keys`.
#[derive(Debug, Args)]
pub struct KeysArgs {
    /// Where the keys are stored: the server's --database (sqlite://FILE or postgres://...).
    #[arg(long, env = "DAMIERA_DATABASE", default_value = "sqlite://damiera.db", global = true)]
    database: String,
    /// What to do with the keys.
    #[command(subcommand)]
    action: Action,
}

/// What `damiera keys` does.
#[derive(Debug, Subcommand)]
enum Action {
    /// Make a key for a tenant and print it (once: only its hash is kept).
    Add {
        /// The tenant the key acts for: lower-case letters, digits, '-' and '_'.
        #[arg(long)]
        tenant: String,
    },
    /// List the keys: id, tenant, created, last used, revoked.
    List,
    /// Revoke a key: calls with it are refused from the servers' next refresh on.
    Revoke {
        /// The key's id (the 12 hex digits after `dmk_`, as `list` shows it).
        id: String,
    },
}

/// Runs the action on the database's keys.
pub fn run(args: &KeysArgs, out: &mut impl Write) -> Result<(), Failure> {
    // Checked before the database is opened (or created).
    let tenant = match &args.action {
        Action::Add { tenant } => Some(TenantId::parse(tenant).map_err(Failure::BadInput)?),
        _ => None,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Startup(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let store = Store::open(&args.database).await.map_err(|e| Failure::Startup(format!("--database: {e}")))?;
        let failed = |e| Failure::Startup(format!("--database: {e}"));
        match &args.action {
            Action::Add { .. } => {
                let tenant = tenant.expect("read above");
                let new = NewKey::generate();
                let key = StoredKey {
                    id: new.id,
                    tenant,
                    secret_hash: new.hash,
                    created_at_ms: now_ms(),
                    last_used_at_ms: None,
                    revoked_at_ms: None,
                };
                store.add_key(&key).await.map_err(failed)?;
                writeln!(out, "{}", new.text)?;
            }
            Action::List => {
                writeln!(out, "ID\tTENANT\tCREATED\tLAST_USED\tREVOKED")?;
                for key in store.keys().await.map_err(failed)? {
                    let (created, used, revoked) =
                        (time(Some(key.created_at_ms)), time(key.last_used_at_ms), time(key.revoked_at_ms));
                    writeln!(out, "{}\t{}\t{created}\t{used}\t{revoked}", key.id, key.tenant)?;
                }
            }
            Action::Revoke { id } => {
                if !store.revoke_key(id, now_ms()).await.map_err(failed)? {
                    return Err(Failure::BadInput(format!("no key {id:?} to revoke (see 'damiera keys list')")));
                }
                writeln!(out, "revoked {id}")?;
            }
        }
        Ok(())
    })
}

/// A stored time as RFC 3339 in UTC, to the second; `-` for none.
fn time(ms: Option<i64>) -> String {
    ms.map_or_else(
        || "-".to_string(),
        |ms| humantime::format_rfc3339_seconds(UNIX_EPOCH + Duration::from_millis(ms.max(0) as u64)).to_string(),
    )
}
