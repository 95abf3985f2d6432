//! [`Referee`]: ends games when time is up, with nobody asking. It sleeps until the soonest
//! deadline in the store (a clock running out, a first move not made, an untimed game abandoned)
//! and ends the games whose deadline has passed, through the [`Host`] like any other action, so
//! watchers see it like any other change. A change with an earlier deadline (announced by the
//! store, from any replica) wakes it sooner; nothing runs per game while nobody moves.
//!
//! Several replicas each run one; an ending is appended at the version it was decided on, so
//! exactly one of them stores it and the others find the game over.
//!
//! When the service was down (every replica stopped, or the database gone), the time it was
//! down is nobody's: before it ends anything, the first replica back gives the side to move of
//! every game on a real-time clock its turn afresh ([`EventKind::Resume`]), with the time it had
//! when the turn began. Games counted in days (correspondence, an untimed game's abandonment) are
//! resumed only when their deadline passed meanwhile: an outage of minutes is nothing to them,
//! and resuming them at every restart would put their deadlines off for ever. Nobody loses on
//! time for the server's downtime.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{broadcast, Mutex};
use tokio::time::Instant;

use super::host::{now_ms, Action, Actor, Expected, Host, Said};
use super::record::EventKind;
use super::HostError;

/// Games looked at per query.
const BATCH: u32 = 64;

/// How often the referee looks at the store even when told nothing: a safety net for missed
/// announcements, and the moment a lost service lock (a database restart) is noticed.
const LOOK_AGAIN: Duration = Duration::from_secs(10);

/// How long the referee waits after the store failed.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Ends games at their deadlines.
#[derive(Debug)]
pub struct Referee {
    /// Games and their store.
    host: Arc<Host>,
    /// When the service was found down and came back, until every clock owed has resumed.
    outage_ended_at_ms: Mutex<Option<i64>>,
}

impl Referee {
    /// The referee of `host`'s games.
    pub fn new(host: Arc<Host>) -> Referee {
        Referee { host, outage_ended_at_ms: Mutex::new(None) }
    }

    /// Joins the service (resuming every clock if it was down), then ends games at their
    /// deadlines, forever.
    pub async fn run(self: Arc<Self>) {
        let mut changes = self.host.store().subscribe();
        loop {
            let next = match self.round().await {
                Ok(next) => next,
                Err(error) => {
                    tracing::warn!(%error, "the referee cannot read the deadlines");
                    tokio::time::sleep(RETRY_AFTER).await;
                    continue;
                }
            };
            let look_again = Instant::now() + LOOK_AGAIN;
            let wake = next.map_or(look_again, |at_ms| instant_at(at_ms).min(look_again));
            self.sleep_until(wake, &mut changes).await;
        }
    }

    /// One look: joins the service (resuming if it was down), ends every game past its deadline,
    /// and answers the next deadline to come.
    async fn round(&self) -> Result<Option<i64>, HostError> {
        let store = self.host.store();
        store.join_service().await?;
        let mut pending = self.outage_ended_at_ms.lock().await;
        if let Some(at_ms) = store.take_outage().await {
            *pending = Some(pending.map_or(at_ms, |earlier: i64| earlier.min(at_ms)));
        }
        if let Some(at_ms) = *pending {
            self.resume_all(at_ms).await?;
            *pending = None;
        }
        drop(pending);
        loop {
            let deadlines = self.host.store().next_deadlines(BATCH).await?;
            let now = now_ms();
            let full = deadlines.len() == BATCH as usize;
            let mut failed = false;
            for (id, at_ms) in deadlines {
                if at_ms > now {
                    return Ok(Some(at_ms));
                }
                if let Err(error) = self.host.enforce(&id).await {
                    tracing::warn!(game = %id, %error, "cannot end a game at its deadline");
                    failed = true;
                }
            }
            if failed {
                return Ok(Some(now + RETRY_AFTER.as_millis() as i64));
            }
            if !full {
                return Ok(None);
            }
        }
    }

    /// Sleeps until `wake`, or until a change brings a deadline before it.
    async fn sleep_until(&self, wake: Instant, changes: &mut broadcast::Receiver<super::store::Change>) {
        let sleep = tokio::time::sleep_until(wake);
        tokio::pin!(sleep);
        loop {
            tokio::select! {
                () = &mut sleep => return,
                change = changes.recv() => match change {
                    Ok(change) => {
                        if change.deadline_ms.is_some_and(|at_ms| instant_at(at_ms) < wake) {
                            return;
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => return,
                    Err(broadcast::error::RecvError::Closed) => return sleep.await,
                },
            }
        }
    }

    /// The service was down until `came_back_ms`: every game on a real-time clock whose turn
    /// began before then, and every other game past its deadline, gets its side to move's turn
    /// afresh. A game whose turn began later (made or moved since) owes nothing.
    async fn resume_all(&self, came_back_ms: i64) -> Result<(), HostError> {
        let mut after = String::new();
        let mut resumed = 0_u64;
        loop {
            let ids = self.host.store().games_with_deadline(&after, BATCH).await?;
            let Some(last) = ids.last() else { break };
            after = last.clone();
            for id in &ids {
                let (_, replayed) = match self.host.load(id).await {
                    Ok(game) => game,
                    Err(HostError::NotFound(_)) => continue, // deleted meanwhile
                    Err(error) => return Err(error),
                };
                if replayed.clocks.turn_began_ms() >= came_back_ms {
                    continue; // its turn began after the outage
                }
                if !replayed.clocks.timing.control.is_real_time() && replayed.overdue(now_ms()).is_none() {
                    continue; // days away: an outage of minutes does not matter
                }
                let resume = Action {
                    kind: EventKind::Resume,
                    said: Said::Text(String::new()),
                    expected: Expected::default(),
                    request_id: None,
                };
                match self.host.act(id, Actor::Server, &resume).await {
                    Ok(_) => resumed += 1,
                    // Over meanwhile (ended by a seat): nothing to resume.
                    Err(HostError::Refused(_)) => {}
                    Err(error) => return Err(error),
                }
            }
        }
        tracing::info!(games = resumed, "the service was down: every running clock resumed its turn afresh");
        Ok(())
    }
}

/// The instant of `at_ms` (milliseconds since the Unix epoch) on the monotonic clock.
fn instant_at(at_ms: i64) -> Instant {
    let from_now = Duration::from_millis(u64::try_from(at_ms - now_ms()).unwrap_or(0));
    Instant::now() + from_now
}
