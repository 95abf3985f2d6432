//! Graceful shutdown: on SIGINT or SIGTERM, health turns `NOT_SERVING`, the drain grace passes
//! (load balancers notice and stop sending), and then the server stops taking calls; the calls in
//! flight get up to the shutdown timeout to finish. The engine seats hand over from the signal on
//! ([`crate::games::EngineSeats::drain`]).

use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::AbortHandle;
use tonic_health::server::HealthReporter;
use tonic_health::ServingStatus;

use crate::api::{EngineApi, GameApi, RulesApi};
use crate::proto::engine_service_server::EngineServiceServer;
use crate::proto::game_service_server::GameServiceServer;
use crate::proto::rules_service_server::RulesServiceServer;

/// The shutdown signals, caught from the moment this value exists: it is made before the server
/// says it listens, so that a signal sent as soon as it is ready is never the default, fatal one.
pub struct Signals {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Signals {
    /// Starts catching SIGINT and SIGTERM (Ctrl-C elsewhere).
    pub fn catch() -> io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{signal, SignalKind};
            Ok(Signals { interrupt: signal(SignalKind::interrupt())?, terminate: signal(SignalKind::terminate())? })
        }
        #[cfg(not(unix))]
        Ok(Signals {})
    }

    async fn received(mut self) {
        #[cfg(unix)]
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
        #[cfg(not(unix))]
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Completes when the server should stop taking calls; then notifies `stopping`, from which the
/// calls in flight have the shutdown timeout to finish. Notifies `signalled` at the signal.
/// The task that keeps `GameService`'s health in step with the store is stopped first, so that it
/// cannot turn it back to `SERVING`.
pub async fn drain(
    signals: Signals,
    health: HealthReporter,
    store_health: AbortHandle,
    grace: Duration,
    signalled: Arc<Notify>,
    stopping: Arc<Notify>,
) {
    signals.received().await;
    store_health.abort();
    signalled.notify_one();
    tracing::info!(grace_ms = grace.as_millis() as u64, "shutdown signal: health is NOT_SERVING, draining");
    health.set_not_serving::<RulesServiceServer<RulesApi>>().await;
    health.set_not_serving::<EngineServiceServer<EngineApi>>().await;
    health.set_not_serving::<GameServiceServer<GameApi>>().await;
    health.set_service_status("", ServingStatus::NotServing).await;
    tokio::time::sleep(grace).await;
    tracing::info!("no longer taking calls; finishing the calls in flight");
    stopping.notify_one();
}

/// Completes `timeout` after `stopping` is notified: calls still open then (a health watch never
/// ends by itself) are cut, so that a shutdown always ends.
pub async fn deadline(stopping: Arc<Notify>, timeout: Duration) {
    stopping.notified().await;
    tokio::time::sleep(timeout).await;
}
