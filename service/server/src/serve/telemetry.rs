//! Logs and metrics: the tracing subscriber, and Prometheus metrics served at `/metrics`.

use std::io::IsTerminal;
use std::time::Duration;

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use tokio::net::TcpListener;
use tracing_subscriber::EnvFilter;

use super::config::LogFormat;

/// Histogram buckets of call latencies, in seconds: from a rules call (well under a millisecond)
/// to a long search.
const LATENCY_BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0, 30.0];

/// How often histograms are folded into the exported state.
const UPKEEP_INTERVAL: Duration = Duration::from_secs(5);

/// Starts writing logs to standard error, filtered by `filter`.
pub fn init_logs(format: LogFormat, filter: &str) -> Result<(), String> {
    let filter = EnvFilter::try_new(filter).map_err(|error| format!("--log {filter}: {error}"))?;
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal());
    let result = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).with_current_span(true).try_init(),
    };
    result.map_err(|error| format!("cannot start logging: {error}"))
}

/// Installs the process's metrics recorder, which every `metrics::` call reports to.
pub fn init_metrics() -> Result<PrometheusHandle, String> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".to_string()), &LATENCY_BUCKETS)
        .and_then(PrometheusBuilder::install_recorder)
        .map_err(|error| format!("cannot start metrics: {error}"))
}

/// Serves the metrics at `/metrics` on `listener` until the process ends.
pub async fn serve_metrics(listener: TcpListener, handle: PrometheusHandle) {
    let upkeep = handle.clone();
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(UPKEEP_INTERVAL);
        loop {
            interval.tick().await;
            upkeep.run_upkeep();
        }
    });
    let app = axum::Router::new().route("/metrics", axum::routing::get(move || async move { handle.render() }));
    if let Err(error) = axum::serve(listener, app).await {
        tracing::error!(%error, "the metrics endpoint stopped");
    }
}
