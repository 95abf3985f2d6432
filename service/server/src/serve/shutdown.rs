//! Graceful shutdown: on SIGINT or SIGTERM, health turns `NOT_SERVING`, the drain grace passes
//! (load balancers notice and stop sending), and then the server stops taking calls.

use std::time::Duration;

use tonic_health::server::HealthReporter;
use tonic_health::ServingStatus;

use crate::api::{EngineApi, RulesApi};
use crate::proto::engine_service_server::EngineServiceServer;
use crate::proto::rules_service_server::RulesServiceServer;

/// Completes when the server should stop taking calls.
pub async fn drain(health: HealthReporter, grace: Duration) {
    signal().await;
    tracing::info!(grace_ms = grace.as_millis() as u64, "shutdown signal: health is NOT_SERVING, draining");
    health.set_not_serving::<RulesServiceServer<RulesApi>>().await;
    health.set_not_serving::<EngineServiceServer<EngineApi>>().await;
    health.set_service_status("", ServingStatus::NotServing).await;
    tokio::time::sleep(grace).await;
    tracing::info!("no longer taking calls; finishing the calls in flight");
}

#[cfg(unix)]
async fn signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut terminate = signal(SignalKind::terminate()).expect("a process can always listen for SIGTERM");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
    }
}

#[cfg(not(unix))]
async fn signal() {
    let _ = tokio::signal::ctrl_c().await;
}
