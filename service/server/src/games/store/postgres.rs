//! PostgreSQL specifics: telling every replica of a change with NOTIFY, and hearing them with
//! LISTEN on a connection of its own.
//!
//! A notification is sent inside the appending transaction, so it is delivered exactly when the
//! change commits, and never for a change that rolled back. When the listening connection is
//! lost, the listener reconnects, but what was sent in between is gone and cannot be asked for:
//! subscribers re-read their games on timers of their own.

use std::time::Duration;

use sqlx::postgres::PgListener;
use sqlx::AnyConnection;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;

use super::{Change, StoreError};

/// The NOTIFY channel; the payload is `<game id> <version> <deadline ms or ->`.
const CHANNEL: &str = "damiera_games";

/// How long the listener waits before it tries to connect again.
const RECONNECT_DELAY: Duration = Duration::from_secs(1);

/// Announces `change` when the transaction on `connection` commits.
pub(super) async fn notify(connection: &mut AnyConnection, change: &Change) -> Result<(), StoreError> {
    let deadline = change.deadline_ms.map_or_else(|| "-".to_string(), |ms| ms.to_string());
    // pg_notify returns `void`, which the Any driver cannot decode: select a number instead.
    sqlx::query("SELECT 1 FROM (SELECT pg_notify($1, $2)) AS notified")
        .bind(CHANNEL)
        .bind(format!("{} {} {deadline}", change.game_id, change.version))
        .execute(connection)
        .await?;
    Ok(())
}

/// The task that hears the changes and passes them on to the store's subscribers; it stops
/// when this is dropped.
pub(super) struct Listener {
    /// The task, aborted on drop.
    task: JoinHandle<()>,
}

impl Listener {
    /// Listens on `url`; returns once listening, so no change committed afterwards is missed.
    pub(super) async fn start(url: &str, changes: broadcast::Sender<Change>) -> Result<Listener, StoreError> {
        let listener = listen(url).await?;
        let task = tokio::spawn(pass_on(listener, url.to_owned(), changes));
        Ok(Listener { task })
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn listen(url: &str) -> Result<PgListener, StoreError> {
    let mut listener = PgListener::connect(url).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

async fn pass_on(mut listener: PgListener, url: String, changes: broadcast::Sender<Change>) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => match parse(notification.payload()) {
                // An error only means that nobody is subscribed.
                Some(change) => _ = changes.send(change),
                None => tracing::warn!(payload = notification.payload(), "ignoring a malformed {CHANNEL} notification"),
            },
            // PgListener reconnects by itself at the next call.
            Ok(None) => tracing::warn!("lost the LISTEN connection: changes made until it is back are not announced"),
            Err(error) => {
                tracing::warn!(%error, "the LISTEN connection failed: reconnecting; changes made meanwhile are not announced");
                listener = reconnect(&url).await;
            }
        }
    }
}

/// A new listener on `url`, trying until there is one.
async fn reconnect(url: &str) -> PgListener {
    loop {
        tokio::time::sleep(RECONNECT_DELAY).await;
        match listen(url).await {
            Ok(listener) => {
                tracing::info!("listening for game changes again");
                return listener;
            }
            Err(error) => tracing::warn!(%error, "cannot listen for game changes yet"),
        }
    }
}

/// The change in a notification's payload, `<game id> <version> <deadline or ->`. The id comes
/// first and may hold spaces; the version and the deadline are the last two words.
fn parse(payload: &str) -> Option<Change> {
    let (rest, deadline) = payload.rsplit_once(' ')?;
    let (game_id, version) = rest.rsplit_once(' ')?;
    let deadline_ms = match deadline {
        "-" => None,
        ms => Some(ms.parse().ok()?),
    };
    Some(Change { game_id: game_id.to_owned(), version: version.parse().ok()?, deadline_ms })
}
