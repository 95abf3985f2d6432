//! `damiera serve`: the gRPC server, with health, reflection, gRPC-Web, HTTP/JSON, TLS, logs and
//! metrics.
//!
//! [`run`] binds the listeners, prints where it listens, and serves until SIGINT or SIGTERM; then
//! health turns `NOT_SERVING`, the drain grace passes, and calls in flight get the shutdown timeout
//! to finish before it returns.

mod client;
pub mod config;
mod guard;
mod idle;
mod observe;
mod shutdown;
mod size_limit;
mod store_health;
mod telemetry;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::Notify;
use tonic::transport::{Identity, Server, ServerTlsConfig};
use tonic_web::GrpcWebLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};

use crate::api::http::{Gateway, HttpJsonLayer};
use crate::api::{EngineApi, GameApi, GameSettings, RulesApi};
use crate::games::clock::TimingPolicy;
use crate::games::store::Store;
use crate::games::{run_retention, EngineSeats, Host, Hub, Referee};
use crate::proto::engine_service_server::EngineServiceServer;
use crate::proto::game_service_server::GameServiceServer;
use crate::proto::rules_service_server::RulesServiceServer;
use crate::search::{tablebases, Caps, SearchPool, Sessions, Tablebases};
use crate::tenants::keyring::Keyring;
pub use client::TrustedProxies;
pub use config::{LogFormat, ServeArgs};
use guard::GuardLayer;
use observe::ObserveLayer;
use size_limit::{RequestLimits, SizeLimitLayer};
pub use telemetry::init_logs;

/// The delay an overloaded answer suggests before retrying.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Calls one connection may have open at once (hyper's default is unlimited under tonic): a
/// client that wants more opens more connections, and one client cannot pile up without bound.
const MAX_STREAMS_PER_CONNECTION: u32 = 1000;

/// How long browsers may cache a CORS preflight answer.
const CORS_MAX_AGE: Duration = Duration::from_secs(24 * 3600);

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The flags contradict each other or name something unusable.
    #[error("{0}")]
    Config(String),
    /// A listener, a file or the transport failed.
    #[error("{0}")]
    Io(String),
}

/// Serves until a shutdown signal.
pub async fn run(args: ServeArgs) -> Result<(), ServeError> {
    let caps = Arc::new(args.caps().map_err(ServeError::Config)?);
    // Bad settings are refused before anything is opened or created.
    if args.api_key.as_deref().is_some_and(|key| key.trim().is_empty()) {
        return Err(ServeError::Config("--api-key must not be empty".to_string()));
    }
    let proxies = TrustedProxies::parse(&args.trusted_proxies).map_err(ServeError::Config)?;
    if args.keys_refresh.is_zero() {
        return Err(ServeError::Config("--keys-refresh must be longer than 0s".to_string()));
    }
    let cors = cors(&args.cors_origins)?;
    let idle = args.idle_timeout().map_err(ServeError::Config)?;
    let mut server = Server::builder()
        .accept_http1(true)
        .timeout(args.request_timeout)
        .http2_keepalive_interval((!args.keepalive_interval.is_zero()).then_some(args.keepalive_interval))
        .http2_keepalive_timeout(Some(args.keepalive_timeout))
        .max_concurrent_streams(Some(MAX_STREAMS_PER_CONNECTION));
    if !args.max_connection_age.is_zero() {
        server =
            server.max_connection_age(args.max_connection_age).max_connection_age_grace(args.max_connection_age_grace);
    }
    if let Some(tls) = tls_config(&args)? {
        server = server.tls_config(tls).map_err(|e| ServeError::Config(format!("TLS: {e}")))?;
    }
    let listener = bind(args.listen).await?;
    let grpc_address = listener.local_addr().map_err(|e| ServeError::Io(e.to_string()))?;
    let metrics_address = match args.metrics_listen {
        Some(address) => Some(start_metrics(address).await?),
        None => None,
    };
    // After the metrics start, so that they report the ready tables.
    let sessions = Sessions::new(args.analysis_sessions, args.analysis_session_idle);
    let threads = args.search_threads();
    let pool = Arc::new(SearchPool::new(threads, args.search_queue, RETRY_AFTER, caps.default_hash_mib, sessions));

    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<RulesServiceServer<RulesApi>>().await;
    health.set_serving::<EngineServiceServer<EngineApi>>().await;
    health.set_serving::<GameServiceServer<GameApi>>().await;
    let tablebases = Tablebases::open(tablebases::folder(args.egtb.as_deref()).as_deref());
    let limits = request_limits(&args);
    let (games, hub, host, seats) =
        game_service(&args, limits.of(GAMES_PATH), Arc::clone(&caps), tablebases.clone(), Arc::clone(&pool)).await?;
    // Read before serving, so that a server with keys never takes a call without one.
    let keyring = Arc::new(Keyring::new(args.api_key.as_deref()));
    keyring.refresh(host.store()).await.map_err(|e| ServeError::Config(format!("--database: API keys: {e}")))?;
    tokio::spawn(Arc::clone(&keyring).follow(Arc::clone(&host), args.keys_refresh));
    let store_health = tokio::spawn(store_health::follow(host, health.clone(), store_health::CHECK_INTERVAL));
    let rules = RulesServiceServer::new(RulesApi::new(Arc::clone(&caps), Arc::clone(&pool)))
        .max_decoding_message_size(args.max_request_bytes);
    let engine = EngineServiceServer::new(EngineApi::new(caps, tablebases, pool))
        .max_decoding_message_size(args.max_request_bytes);
    let (reflection, reflection_alpha) = reflection()?;
    // JSON is larger than the protobuf it becomes: a body may be twice the largest message.
    let gateway = Gateway::new(2 * limits.largest()).map_err(|e| ServeError::Io(format!("HTTP/JSON: {e}")))?;

    let signals = shutdown::Signals::catch().map_err(|e| ServeError::Io(format!("cannot catch signals: {e}")))?;
    let stopping = Arc::new(Notify::new());
    let signalled = Arc::new(Notify::new());
    // From the signal, the engine seats hand over within the time the shutdown leaves.
    let handover = tokio::spawn({
        let signalled = Arc::clone(&signalled);
        let time_left = args.drain_grace + args.shutdown_timeout;
        async move {
            signalled.notified().await;
            seats.drain(time_left).await;
        }
    });
    let metrics_text = metrics_address.map_or_else(|| "off".to_string(), |a| a.to_string());
    // The one line on standard output: scripts and tests read the addresses from it.
    println!("damiera listening: grpc={grpc_address} metrics={metrics_text}");
    tracing::info!(%grpc_address, metrics = %metrics_text, tls = args.tls_cert.is_some(), "serving");

    let serving = server
        .layer(cors)
        .layer(HttpJsonLayer::new(gateway))
        .layer(GrpcWebLayer::new())
        .layer(ObserveLayer)
        .layer(GuardLayer::new(keyring, proxies, args.rate_limit, args.key_rate_limit))
        .layer(SizeLimitLayer::new(limits))
        .add_service(health_service)
        .add_service(reflection)
        .add_service(reflection_alpha)
        .add_service(rules)
        .add_service(engine)
        .add_service(games)
        .serve_with_incoming_shutdown(idle::incoming(listener, idle), {
            let stopping = Arc::clone(&stopping);
            async move {
                let store_health = store_health.abort_handle();
                shutdown::drain(signals, health, store_health, args.drain_grace, signalled, stopping).await;
                // Watch streams never end by themselves: end them now, telling clients to resume.
                hub.close();
            }
        });
    tokio::select! {
        result = serving => result.map_err(|e| ServeError::Io(format!("the server stopped: {e}")))?,
        () = shutdown::deadline(stopping, args.shutdown_timeout) => {
            tracing::warn!(timeout_ms = args.shutdown_timeout.as_millis() as u64, "calls still open at the shutdown timeout: cut");
        }
    }
    // The seats' moves are stored or their turns handed over (a signal was received: the server
    // stops only after one).
    let _ = handover.await;
    tracing::info!("stopped");
    Ok(())
}

/// The path prefix of the game service's calls.
const GAMES_PATH: &str = "/damiera.v1.GameService/";

/// Each service's largest request message: `--max-request-bytes`, and for the game service enough
/// more for a PDN of `--max-pdn-bytes` (ImportGame, ReviewGame) with the rest of its request.
fn request_limits(args: &ServeArgs) -> RequestLimits {
    let games = args.max_request_bytes.max(args.max_pdn_bytes + 64 * 1024);
    RequestLimits { default: args.max_request_bytes, services: vec![(GAMES_PATH, games)] }
}

/// Opens the game store and starts the hub of watchers and the engine's seats; the service takes
/// requests of up to `max_request_bytes`.
async fn game_service(
    args: &ServeArgs,
    max_request_bytes: usize,
    caps: Arc<Caps>,
    tablebases: Tablebases,
    pool: Arc<SearchPool>,
) -> Result<(GameServiceServer<GameApi>, Arc<Hub>, Arc<Host>, Arc<EngineSeats>), ServeError> {
    let store = Store::open(&args.database).await.map_err(|e| ServeError::Config(format!("--database: {e}")))?;
    tracing::info!(backend = ?store.backend(), "game store open");
    // Joined before serving: a game made from now on owes nothing to an outage before it.
    store.join_service().await.map_err(|e| ServeError::Config(format!("--database: {e}")))?;
    let timing = TimingPolicy {
        first_move_ms: args.first_move_time.as_millis() as u64,
        abandon_after_ms: args.abandon_after.as_millis() as u64,
    };
    let settings = GameSettings {
        max_pdn_bytes: args.max_pdn_bytes,
        keep_alive: args.watch_keepalive,
        watch_patience: args.watch_patience,
        max_watches_per_client: args.max_watches_per_client,
        retention: args.retention,
        timing,
    };
    let (api, hub, host, seats) = start_games(store, caps, tablebases, pool, settings);
    Ok((GameServiceServer::new(api).max_decoding_message_size(max_request_bytes), hub, host, seats))
}

/// The game service over `store`, with its hub of watchers and the engine's seats running as
/// tasks of the current Tokio runtime (the fuzz target of the requests builds it this way too);
/// also the hub, the host it serves from and the engine's seats (which hand over on a drain).
pub fn start_games(
    store: Store,
    caps: Arc<Caps>,
    tablebases: Tablebases,
    pool: Arc<SearchPool>,
    settings: GameSettings,
) -> (GameApi, Arc<Hub>, Arc<Host>, Arc<EngineSeats>) {
    let bell = Arc::new(Notify::new());
    let host = Arc::new(Host::new(store, Arc::clone(&bell), settings.timing));
    let hub = Arc::new(Hub::new(Arc::clone(&host)));
    tokio::spawn(Arc::clone(&hub).run(settings.keep_alive));
    tokio::spawn(Arc::new(Referee::new(Arc::clone(&host))).run());
    if let Some(keep) = settings.retention {
        tokio::spawn(run_retention(Arc::clone(&host), keep));
    }
    let seats =
        Arc::new(EngineSeats::new(Arc::clone(&host), Arc::clone(&caps), tablebases.clone(), Arc::clone(&pool), bell));
    tokio::spawn(Arc::clone(&seats).run());
    let api = GameApi::new(Arc::clone(&host), Arc::clone(&hub), caps, settings, pool, tablebases);
    (api, hub, host, seats)
}

async fn bind(address: SocketAddr) -> Result<TcpListener, ServeError> {
    TcpListener::bind(address).await.map_err(|e| ServeError::Io(format!("cannot listen on {address}: {e}")))
}

async fn start_metrics(address: SocketAddr) -> Result<SocketAddr, ServeError> {
    let listener = bind(address).await?;
    let bound = listener.local_addr().map_err(|e| ServeError::Io(e.to_string()))?;
    let handle = telemetry::init_metrics().map_err(ServeError::Io)?;
    tokio::spawn(telemetry::serve_metrics(listener, handle));
    Ok(bound)
}

/// Reflection, in both versions clients use (grpcurl and grpcui ask for either).
fn reflection() -> Result<
    (
        tonic_reflection::server::v1::ServerReflectionServer<impl tonic_reflection::server::v1::ServerReflection>,
        tonic_reflection::server::v1alpha::ServerReflectionServer<
            impl tonic_reflection::server::v1alpha::ServerReflection,
        >,
    ),
    ServeError,
> {
    let builder = || {
        tonic_reflection::server::Builder::configure()
            .register_encoded_file_descriptor_set(crate::proto::FILE_DESCRIPTOR_SET)
            .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
    };
    let error = |e: tonic_reflection::server::Error| ServeError::Io(format!("reflection: {e}"));
    Ok((builder().build_v1().map_err(error)?, builder().build_v1alpha().map_err(error)?))
}

fn tls_config(args: &ServeArgs) -> Result<Option<ServerTlsConfig>, ServeError> {
    let (Some(cert), Some(key)) = (&args.tls_cert, &args.tls_key) else {
        return Ok(None);
    };
    let read = |path: &std::path::PathBuf| {
        std::fs::read(path).map_err(|e| ServeError::Config(format!("cannot read {}: {e}", path.display())))
    };
    Ok(Some(ServerTlsConfig::new().identity(Identity::from_pem(read(cert)?, read(key)?))))
}

/// CORS for gRPC-Web and HTTP/JSON: the listed origins (any when none), and the gRPC headers both
/// ways.
fn cors(origins: &[String]) -> Result<CorsLayer, ServeError> {
    let allow_origin = if origins.is_empty() {
        AllowOrigin::any()
    } else {
        let values = origins
            .iter()
            .map(|o| o.parse().map_err(|_| ServeError::Config(format!("--cors-origins: '{o}' is not an origin"))))
            .collect::<Result<Vec<http::HeaderValue>, _>>()?;
        AllowOrigin::list(values)
    };
    let header = http::HeaderName::from_static;
    Ok(CorsLayer::new()
        .allow_origin(allow_origin)
        .allow_methods([http::Method::GET, http::Method::POST, http::Method::DELETE, http::Method::OPTIONS])
        .allow_headers([
            header("content-type"),
            header("x-grpc-web"),
            header("x-user-agent"),
            header("grpc-timeout"),
            header("authorization"),
            header("x-api-key"),
            header("connect-protocol-version"),
            header("connect-timeout-ms"),
        ])
        .expose_headers([header("grpc-status"), header("grpc-message"), header("grpc-status-details-bin")])
        .max_age(CORS_MAX_AGE))
}
