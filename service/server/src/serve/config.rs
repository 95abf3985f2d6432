//! [`ServeArgs`]: the flags of `damiera serve`, each also read from a `DAMIERA_*` variable.
//!
//! Durations are written like "500ms", "2s" or "1m".

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use crate::search::Caps;

/// How `damiera serve` listens, logs and limits its work.
#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// Address for gRPC, gRPC-Web and health (port 0: any free port, printed at start).
    #[arg(long, env = "DAMIERA_LISTEN", default_value = "0.0.0.0:50051")]
    pub listen: SocketAddr,
    /// Address for Prometheus metrics at /metrics; none: no metrics endpoint.
    #[arg(long, env = "DAMIERA_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,
    /// Log format: human-readable lines or one JSON object per line.
    #[arg(long, env = "DAMIERA_LOG_FORMAT", value_enum, default_value_t = LogFormat::Human)]
    pub log_format: LogFormat,
    /// Which logs to write, as a tracing filter ("info", "damiera_server=debug,info").
    #[arg(long, env = "DAMIERA_LOG", default_value = "info")]
    pub log: String,
    /// PEM certificate chain: serve over TLS (needs --tls-key).
    #[arg(long, env = "DAMIERA_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,
    /// PEM private key of the certificate.
    #[arg(long, env = "DAMIERA_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,
    /// Origins browsers may call from with gRPC-Web, comma-separated; none: any origin.
    #[arg(long, env = "DAMIERA_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,
    /// Threads for searches and perft, shared by all requests; default: one per core.
    #[arg(long, env = "DAMIERA_SEARCH_THREADS")]
    pub search_threads: Option<u32>,
    /// Requests that may wait for search threads; beyond this, RESOURCE_EXHAUSTED.
    #[arg(long, env = "DAMIERA_SEARCH_QUEUE", default_value_t = 64)]
    pub search_queue: usize,
    /// Analysis sessions (Analyze calls that name a session) whose table is kept between calls.
    #[arg(long, env = "DAMIERA_ANALYSIS_SESSIONS", default_value_t = 16)]
    pub analysis_sessions: usize,
    /// How long an analysis session's table is kept after its last call.
    #[arg(long, env = "DAMIERA_ANALYSIS_SESSION_IDLE", value_parser = humantime::parse_duration, default_value = "60s")]
    pub analysis_session_idle: Duration,
    /// The largest request message, in bytes.
    #[arg(long, env = "DAMIERA_MAX_REQUEST_BYTES", default_value_t = 256 * 1024)]
    pub max_request_bytes: usize,
    /// How long health answers NOT_SERVING before the server stops taking calls at shutdown,
    /// so that load balancers move away first.
    #[arg(long, env = "DAMIERA_DRAIN_GRACE", value_parser = humantime::parse_duration, default_value = "0s")]
    pub drain_grace: Duration,
    /// How long calls in flight may go on once the server stops taking calls; streams still open
    /// then (health watches, long analyses) are cut.
    #[arg(long, env = "DAMIERA_SHUTDOWN_TIMEOUT", value_parser = humantime::parse_duration, default_value = "10s")]
    pub shutdown_timeout: Duration,
    /// How long a client connection may live before the server asks it to reconnect (HTTP/2
    /// GOAWAY), so that clients behind a load balancer spread over new replicas; 0s: forever.
    #[arg(long, env = "DAMIERA_MAX_CONNECTION_AGE", value_parser = humantime::parse_duration, default_value = "30m")]
    pub max_connection_age: Duration,
    /// How long calls on a connection past its age may go on before it is closed; WatchGame
    /// streams cut then resume with `from_ply` on a new connection.
    #[arg(long, env = "DAMIERA_MAX_CONNECTION_AGE_GRACE", value_parser = humantime::parse_duration, default_value = "1m")]
    pub max_connection_age_grace: Duration,
    /// How often the server pings an idle HTTP/2 connection, so that dead peers and silent load
    /// balancer timeouts are noticed; 0s: never.
    #[arg(long, env = "DAMIERA_KEEPALIVE_INTERVAL", value_parser = humantime::parse_duration, default_value = "30s")]
    pub keepalive_interval: Duration,
    /// How long a ping may go unanswered before the connection is closed.
    #[arg(long, env = "DAMIERA_KEEPALIVE_TIMEOUT", value_parser = humantime::parse_duration, default_value = "10s")]
    pub keepalive_timeout: Duration,
    /// How long a connection may send nothing (or take nothing it is sent) before it is closed: an
    /// abandoned connection, or one that stopped halfway through its first bytes; 0s: never. Must
    /// be longer than --keepalive-interval, whose pings keep live HTTP/2 clients talking.
    #[arg(long, env = "DAMIERA_IDLE_TIMEOUT", value_parser = humantime::parse_duration, default_value = "2m")]
    pub idle_timeout: Duration,
    /// How long a call may take until its answer starts (a unary call: all of it; a stream: until
    /// its first message is ready); a call past it, such as a request whose body never comes, ends
    /// with CANCELLED. A client's own deadline is kept when shorter.
    #[arg(long, env = "DAMIERA_REQUEST_TIMEOUT", value_parser = humantime::parse_duration, default_value = "5m")]
    pub request_timeout: Duration,
    /// Where hosted games are stored: sqlite://FILE (created if missing) or postgres://...;
    /// replicas that share one PostgreSQL share their games.
    #[arg(long, env = "DAMIERA_DATABASE", default_value = "sqlite://damiera.db")]
    pub database: String,
    /// A key calls to Damiera's services may carry as `x-api-key`, acting for the implicit tenant
    /// (health and reflection stay open). Once there is a key (this one, or any `damiera keys
    /// add` stored in the database), every call needs one; with none, no key is needed.
    #[arg(long, env = "DAMIERA_API_KEY", hide_env_values = true)]
    pub api_key: Option<String>,
    /// How often the server reads the database's API keys again: a key added or revoked with
    /// `damiera keys` takes effect on every replica within this time.
    #[arg(long, env = "DAMIERA_KEYS_REFRESH", value_parser = humantime::parse_duration, default_value = "5s")]
    pub keys_refresh: Duration,
    /// Calls per second each client address may make, with bursts of twice that; 0: no limit.
    /// Behind a proxy, list it in --trusted-proxies so that each client has its own address.
    #[arg(long, env = "DAMIERA_RATE_LIMIT", default_value_t = 0)]
    pub rate_limit: u32,
    /// Calls per second each API key may make, with bursts of twice that; 0: no limit.
    #[arg(long, env = "DAMIERA_KEY_RATE_LIMIT", default_value_t = 0)]
    pub key_rate_limit: u32,
    /// Proxies (addresses or CIDR blocks, comma-separated) whose `Forwarded` or `X-Forwarded-For`
    /// header names the client of a call they pass on, for the rate limit and
    /// --max-watches-per-client; the header of any other peer is ignored. None: the peer is the
    /// client.
    #[arg(long, env = "DAMIERA_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<String>,
    /// The largest PDN text ImportGame takes, in bytes.
    #[arg(long, env = "DAMIERA_MAX_PDN_BYTES", default_value_t = 1024 * 1024)]
    pub max_pdn_bytes: usize,
    /// How long a quiet WatchGame stream waits before sending a keep-alive message.
    #[arg(long, env = "DAMIERA_WATCH_KEEPALIVE", value_parser = humantime::parse_duration, default_value = "15s")]
    pub watch_keepalive: Duration,
    /// How long each side has for its first move in a timed game before the game is aborted
    /// (slower controls: one move's time, if longer; untimed games: --abandon-after).
    #[arg(long, env = "DAMIERA_FIRST_MOVE_TIME", value_parser = humantime::parse_duration, default_value = "60s")]
    pub first_move_time: Duration,
    /// How long the side to move of an untimed game may stay away before it loses by
    /// abandonment (aborted if it had not made its first move).
    #[arg(long, env = "DAMIERA_ABANDON_AFTER", value_parser = humantime::parse_duration, default_value = "7days")]
    pub abandon_after: Duration,
    /// How long games stay stored once over (won, drawn or aborted) before they are deleted, such
    /// as `30days`; unset: for good. Every replica may sweep; each game is deleted once.
    #[arg(long, env = "DAMIERA_RETENTION", value_parser = humantime::parse_duration)]
    pub retention: Option<Duration>,
    /// How long a WatchGame stream's buffer may stay full (its client reading nothing) before the
    /// stream ends with RESOURCE_EXHAUSTED (WATCH_TOO_SLOW) and the ply to resume from.
    #[arg(long, env = "DAMIERA_WATCH_PATIENCE", value_parser = humantime::parse_duration, default_value = "30s")]
    pub watch_patience: Duration,
    /// WatchGame streams one client address may have open at once; beyond, RESOURCE_EXHAUSTED
    /// (TOO_MANY_WATCHES); 0: no limit. Behind a proxy, list it in --trusted-proxies.
    #[arg(long, env = "DAMIERA_MAX_WATCHES_PER_CLIENT", default_value_t = 1000)]
    pub max_watches_per_client: usize,
    /// The endgame databases' folder (default: $XDG_DATA_HOME/damiera/egtb, or
    /// ~/.local/share/damiera/egtb; `damiera egtb build` writes there); without databases in it,
    /// searches go without.
    #[arg(long, env = "DAMIERA_EGTB")]
    pub egtb: Option<PathBuf>,
    /// The per-request caps.
    #[command(flatten)]
    pub caps: CapArgs,
}

/// The most one request may ask for.
#[derive(Clone, Debug, Args)]
pub struct CapArgs {
    /// The deepest perft a request may ask for.
    #[arg(long, env = "DAMIERA_MAX_PERFT_DEPTH", default_value_t = 8)]
    pub max_perft_depth: u32,
    /// The longest a search may think; searches by depth or nodes stop here too.
    #[arg(long, env = "DAMIERA_MAX_MOVE_TIME", value_parser = humantime::parse_duration, default_value = "30s")]
    pub max_move_time: Duration,
    /// How long a search thinks when the request sets no limit.
    #[arg(long, env = "DAMIERA_DEFAULT_MOVE_TIME", value_parser = humantime::parse_duration, default_value = "1s")]
    pub default_move_time: Duration,
    /// The deepest search a request may ask for.
    #[arg(long, env = "DAMIERA_MAX_DEPTH", default_value_t = 40)]
    pub max_depth: u32,
    /// The most threads one search may use; default: the search threads.
    #[arg(long, env = "DAMIERA_MAX_THREADS")]
    pub max_threads: Option<u32>,
    /// The largest transposition table one search may use, in MiB.
    #[arg(long, env = "DAMIERA_MAX_HASH", default_value_t = 256)]
    pub max_hash: u32,
    /// The transposition table size when a request does not say, in MiB.
    #[arg(long, env = "DAMIERA_DEFAULT_HASH", default_value_t = 16)]
    pub default_hash: u32,
    /// The most lines a multi-PV search may report.
    #[arg(long, env = "DAMIERA_MAX_MULTIPV", default_value_t = 16)]
    pub max_multipv: u32,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// For people reading a terminal.
    Human,
    /// One JSON object per line, for log collectors.
    Json,
}

impl ServeArgs {
    /// The search threads: as asked, or one per core.
    pub fn search_threads(&self) -> u32 {
        self.search_threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get() as u32)).max(1)
    }

    /// The idle timeout of connections (none: never), checked against the keep-alive pings that
    /// keep live clients talking.
    pub fn idle_timeout(&self) -> Result<Option<Duration>, String> {
        if self.idle_timeout.is_zero() {
            return Ok(None);
        }
        if self.keepalive_interval.is_zero() || self.keepalive_interval >= self.idle_timeout {
            return Err("--idle-timeout must be longer than --keepalive-interval (whose pings keep live clients \
                        talking), or 0s"
                .to_string());
        }
        Ok(Some(self.idle_timeout))
    }

    /// The per-request caps.
    pub fn caps(&self) -> Result<Caps, String> {
        let caps = &self.caps;
        if caps.default_move_time > caps.max_move_time {
            return Err("--default-move-time must not be longer than --max-move-time".to_string());
        }
        if self.request_timeout <= caps.max_move_time {
            return Err("--request-timeout must be longer than --max-move-time".to_string());
        }
        if caps.default_hash > caps.max_hash {
            return Err("--default-hash must not be larger than --max-hash".to_string());
        }
        Ok(Caps {
            max_perft_depth: caps.max_perft_depth,
            max_move_time: caps.max_move_time,
            default_move_time: caps.default_move_time,
            max_depth: caps.max_depth,
            max_threads: caps.max_threads.unwrap_or_else(|| self.search_threads()).clamp(1, self.search_threads()),
            max_hash_mib: caps.max_hash,
            default_hash_mib: caps.default_hash,
            max_multipv: caps.max_multipv.max(1),
        })
    }
}
