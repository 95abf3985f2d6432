//! Deleting hosted games: a seat's `DeleteGame`, and the retention, a task that deletes the games
//! over for longer than the server keeps them. Either way the game and its log are gone from the
//! store; its watchers' streams end ([`super::WatchEvent::Deleted`]), and reads find no game.

use std::sync::Arc;
use std::time::Duration;

use super::auth::seat_of_token;
use super::error::HostError;
use super::host::{check_expected, now_ms, Expected, Host, MAX_ATTEMPTS};
use crate::tenants::TenantId;

/// How many games one retention query finds.
const BATCH: u32 = 100;

/// The longest wait between two retention sweeps.
const MAX_SWEEP_INTERVAL: Duration = Duration::from_secs(3600);

impl Host {
    /// Deletes game `id` for a caller of `tenant` holding a seat's `token`, if the game is at the
    /// state `expected` names. Another tenant's game is not found, exactly as a missing one.
    pub async fn delete(&self, tenant: &TenantId, id: &str, token: &str, expected: &Expected) -> Result<(), HostError> {
        for _ in 0..MAX_ATTEMPTS {
            let (stored, replayed) = self.load_as(tenant, id).await?;
            let seat = seat_of_token(&stored.header, token).ok_or(HostError::WrongToken)?;
            check_expected(expected, &stored, &replayed)?;
            if self.store().delete(id, stored.version()).await? {
                self.forget(id);
                tracing::info!(game = id, %seat, "a seat deleted a game");
                metrics::counter!("damiera_games_deleted_total", "by" => "seat").increment(1);
                return Ok(());
            }
            // Changed meanwhile: read it again (gone, it is not found; moved on, the state is
            // checked anew).
        }
        Err(HostError::Contended { id: id.to_string(), attempts: MAX_ATTEMPTS })
    }

    /// Deletes every game, of any tenant, over and unchanged for longer than `keep`: answers how
    /// many. A game that changed or went meanwhile (another replica sweeping too) is left alone.
    pub async fn delete_finished(&self, keep: Duration) -> Result<usize, HostError> {
        let before_ms = now_ms().saturating_sub(i64::try_from(keep.as_millis()).unwrap_or(i64::MAX));
        let mut deleted = 0;
        loop {
            let found = self.store().finished_before(before_ms, BATCH).await?;
            let mut progress = false;
            for (id, version) in &found {
                if self.store().delete(id, *version).await? {
                    self.forget(id);
                    deleted += 1;
                    progress = true;
                }
            }
            if found.len() < BATCH as usize || !progress {
                break;
            }
        }
        if deleted > 0 {
            tracing::info!(games = deleted, keep = %humantime::format_duration(keep), "the retention deleted games over");
            metrics::counter!("damiera_games_deleted_total", "by" => "retention").increment(deleted as u64);
        }
        Ok(deleted)
    }
}

/// Deletes the games over for longer than `keep`, now and then for as long as the server runs:
/// every `keep` (at most every hour). Every replica may sweep; a game is deleted once.
pub async fn run_retention(host: Arc<Host>, keep: Duration) {
    let mut sweeps = tokio::time::interval(keep.min(MAX_SWEEP_INTERVAL).max(Duration::from_millis(100)));
    sweeps.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        sweeps.tick().await;
        if let Err(error) = host.delete_finished(keep).await {
            tracing::warn!(%error, "the retention cannot delete the games over");
        }
    }
}
