//! The game store: headers and event logs in SQLite or PostgreSQL, the feed of changes, and the
//! API keys that share the database.
//!
//! One implementation over [`sqlx::AnyPool`]: every statement is written once, with `$n`
//! placeholders, which both drivers accept. What differs is small and kept apart: how a SQLite
//! file is opened ([`sqlite`]) and how PostgreSQL tells every replica of a change ([`postgres`]).
//! Appends are compare-and-set on the game's version, so two servers (or two calls) that act on
//! the same game cannot both win.
//!
//! ```no_run
//! # async fn example() -> Result<(), damiera_server::games::store::StoreError> {
//! use damiera_server::games::store::Store;
//!
//! let store = Store::open("sqlite://games.db").await?;
//! let mut changes = store.subscribe();
//! if let Some(game) = store.load("abc").await? {
//!     println!("abc has {} events", game.version());
//! }
//! # Ok(()) }
//! ```

mod deadlines;
mod delete;
mod engine;
mod error;
mod keys;
mod postgres;
mod read;
mod rows;
mod sqlite;
mod write;

use std::time::Duration;

use damiera_engine::Variant;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, ConnectOptions, Connection};
use tokio::sync::broadcast;

pub use error::StoreError;
pub use keys::StoredKey;
pub use read::Since;

use super::record::{GameStateKind, StoredGame};
use crate::tenants::TenantId;

/// How long a call waits for a connection before it reports the database unavailable.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);

/// How many changes a slow subscriber may fall behind before it misses some (it then re-reads).
const CHANGE_BUFFER: usize = 1024;

/// The hosted games, in one database.
pub struct Store {
    /// The connections; driver-neutral, so that each query is written once.
    pool: AnyPool,
    /// Which database it is, for the few statements that differ.
    backend: Backend,
    /// Where changes are announced: by the writes themselves on SQLite, by the LISTEN task on
    /// PostgreSQL (which also hears the other replicas).
    changes: broadcast::Sender<Change>,
    /// The PostgreSQL LISTEN task, stopped when the store is dropped.
    _listener: Option<postgres::Listener>,
    /// The database's URL (it may hold a password: never shown).
    url: String,
    /// This replica's hold on the service ([`Store::join_service`]).
    service_lock: deadlines::ServiceLock,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store").field("backend", &self.backend).finish_non_exhaustive()
    }
}

/// The database behind a [`Store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file: one server.
    Sqlite,
    /// PostgreSQL: any number of servers.
    Postgres,
}

/// A game reached a new version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game's id.
    pub game_id: String,
    /// Its version (number of events) after the change.
    pub version: u64,
    /// When it ends by itself after the change, if it does; `None` also when the change did not
    /// touch its deadline (a released lease).
    pub deadline_ms: Option<i64>,
}

/// What [`Store::create`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant, reason = "one value per call, moved once: a Box would only cost")]
pub enum Created {
    /// The game is stored.
    New,
    /// The request id was used already, by this game; nothing was stored.
    Existing(StoredGame),
}

/// What [`Store::append`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    /// The event is stored.
    Done,
    /// The game is not at the expected version (or does not exist); nothing was stored.
    Conflict,
    /// The request id was used already, by this game's event number `seq` (1-based).
    Duplicate(u64),
}

/// Which games [`Store::list`] returns: one tenant's; `None` matches any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// Only this tenant's games (always: a tenant sees no other's).
    pub tenant: TenantId,
    /// Only games of this variant.
    pub variant: Option<Variant>,
    /// Only games in this state.
    pub state: Option<GameStateKind>,
    /// Only games that ended for this reason (a win, draw or abort reason's name).
    pub reason: Option<String>,
}

/// Where a page of [`Store::list`] ends: the last game it holds. Games are listed by creation
/// time, newest first, ties broken by id (descending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageCursor {
    /// The last game's creation time.
    pub created_at_ms: i64,
    /// The last game's id.
    pub id: String,
}

impl Store {
    /// Opens the database at `url`, brings its tables up to date, and (PostgreSQL) starts
    /// listening for changes.
    ///
    /// `sqlite://path.db` opens a file, created if missing (WAL journal, `synchronous=FULL`, so a
    /// stored change survives a crash); `sqlite::memory:` a private database that lives as long
    /// as the store; `postgres://user:password@host/database` a PostgreSQL database.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = backend_of(url)?;
        let options = match backend {
            Backend::Sqlite => sqlite::connect_options(url)?,
            Backend::Postgres => url.parse().map_err(|error| StoreError::bad_url(url, error))?,
        };
        // One connection first: its error says why the database cannot be reached, where the
        // pool would only time out; and it sets the journal mode before the pool opens more.
        let mut first = options.connect().await.map_err(StoreError::from)?;
        if backend == Backend::Sqlite {
            sqlite::prepare(&mut first).await?;
        }
        first.close().await?;
        let pool_options = match backend {
            Backend::Sqlite => sqlite::pool_options(url),
            Backend::Postgres => AnyPoolOptions::new(),
        };
        let pool = pool_options.acquire_timeout(ACQUIRE_TIMEOUT).connect_with(options).await?;
        // Through the pool: each connection to `sqlite::memory:` is a database of its own.
        sqlx::migrate!("./migrations").run(&pool).await?;
        let (changes, _) = broadcast::channel(CHANGE_BUFFER);
        let listener = match backend {
            Backend::Sqlite => None,
            Backend::Postgres => Some(postgres::Listener::start(url, changes.clone()).await?),
        };
        Ok(Store {
            pool,
            backend,
            changes,
            _listener: listener,
            url: url.to_owned(),
            service_lock: deadlines::ServiceLock::default(),
        })
    }

    /// The database behind this store.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Every change stored through any [`Store`] on this database, as it commits (PostgreSQL:
    /// from every replica). A change can be missed: when the receiver lags, or when the
    /// PostgreSQL listener reconnects (it cannot know what it missed), so a watcher re-reads its
    /// game on a timer of its own too.
    pub fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.changes.subscribe()
    }
}

fn backend_of(url: &str) -> Result<Backend, StoreError> {
    let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
    match scheme {
        "sqlite" => Ok(Backend::Sqlite),
        "postgres" | "postgresql" => Ok(Backend::Postgres),
        _ => Err(StoreError::BadUrl(format!(
            "unsupported database URL scheme {scheme:?}: expected sqlite://path.db, sqlite::memory: or postgres://..."
        ))),
    }
}
