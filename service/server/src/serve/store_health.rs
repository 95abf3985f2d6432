//! Health follows the game store: `GameService` turns `NOT_SERVING` while its database does not
//! answer and `SERVING` again once it does, so that probes and load balancers see a database
//! outage that calls would otherwise only show one by one (`UNAVAILABLE`, `STORE_UNAVAILABLE`).
//! The rules and the engine need no database: their health does not change.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::MissedTickBehavior;
use tonic_health::server::HealthReporter;

use crate::api::GameApi;
use crate::games::Host;
use crate::proto::game_service_server::GameServiceServer;

/// How often the store is asked whether it answers.
pub const CHECK_INTERVAL: Duration = Duration::from_secs(1);

/// Pings the host's store every `every` and keeps `GameService`'s health in step; runs until aborted (the
/// shutdown aborts it before it turns every service `NOT_SERVING`).
pub async fn follow(host: Arc<Host>, health: HealthReporter, every: Duration) {
    let mut serving = true;
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let answer = host.store().ping().await;
        if answer.is_ok() == serving {
            continue;
        }
        serving = answer.is_ok();
        match answer {
            Ok(()) => {
                tracing::info!("the game store answers again: GameService is SERVING");
                health.set_serving::<GameServiceServer<GameApi>>().await;
            }
            Err(error) => {
                tracing::warn!(%error, "the game store does not answer: GameService is NOT_SERVING");
                health.set_not_serving::<GameServiceServer<GameApi>>().await;
            }
        }
    }
}
