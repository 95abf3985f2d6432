//! A real `damiera serve` process on free ports, and helpers to read gRPC errors' details.
//!
//! Each test starts its own server, so tests run in parallel and never share state; the process
//! is killed when the [`TestServer`] is dropped.

#![allow(dead_code)] // each test binary uses its own part of the support code

pub mod play;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

use damiera_server::proto::engine_service_client::EngineServiceClient;
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::rules_service_client::RulesServiceClient;
use tonic::transport::Channel;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// A server process for one test.
pub struct TestServer {
    /// The process; killed on drop.
    child: Child,
    /// Where it serves gRPC.
    pub grpc: SocketAddr,
    /// Where it serves metrics.
    pub metrics: SocketAddr,
    /// Its log, for a failing test to show.
    pub log: PathBuf,
}

impl TestServer {
    /// Starts `damiera serve` on free loopback ports and a scratch SQLite database with `args`
    /// added, and waits until it listens.
    pub fn start(args: &[&str]) -> TestServer {
        TestServer::start_on(&scratch_sqlite(), args)
    }

    /// Starts `damiera serve` on free loopback ports with games stored at `database`.
    pub fn start_on(database: &str, args: &[&str]) -> TestServer {
        let log = scratch_path("serve", "log");
        let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .args(["serve", "--listen", "127.0.0.1:0", "--metrics-listen", "127.0.0.1:0", "--log", "info"])
            .args(["--database", database])
            // No databases but those a test gives: a developer's own folder must not change results.
            .env("DAMIERA_EGTB", scratch_path("no-egtb", "d"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).expect("the log file can be created"))
            .spawn()
            .expect("the damiera binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout is piped")).read_line(&mut line).expect("stdout is readable");
        let address = |key: &str| -> SocketAddr {
            let field = line.split_whitespace().find_map(|word| word.strip_prefix(key));
            let log_text = std::fs::read_to_string(&log).unwrap_or_default();
            field
                .and_then(|a| a.parse().ok())
                .unwrap_or_else(|| panic!("no {key} address in {line:?}; log:\n{log_text}"))
        };
        let (grpc, metrics) = (address("grpc="), address("metrics="));
        TestServer { child, grpc, metrics, log }
    }

    /// The gRPC address as a URL.
    pub fn url(&self) -> String {
        format!("http://{}", self.grpc)
    }

    /// A connected channel.
    pub async fn channel(&self) -> Channel {
        Channel::from_shared(self.url()).expect("a valid URL").connect().await.expect("the server accepts connections")
    }

    /// A rules client.
    pub async fn rules(&self) -> RulesServiceClient<Channel> {
        RulesServiceClient::new(self.channel().await)
    }

    /// An engine client.
    pub async fn engine(&self) -> EngineServiceClient<Channel> {
        EngineServiceClient::new(self.channel().await)
    }

    /// A game client.
    pub async fn games(&self) -> GameServiceClient<Channel> {
        GameServiceClient::new(self.channel().await)
    }

    /// The server's log so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Kills the process at once (SIGKILL), as a crash would.
    pub fn kill(&mut self) {
        self.child.kill().expect("the server can be killed");
        self.child.wait().expect("the process can be waited for");
    }

    /// The metrics page.
    pub async fn metrics_text(&self) -> String {
        let url = format!("http://{}/metrics", self.metrics);
        reqwest::get(&url).await.expect("metrics answer").text().await.expect("metrics are text")
    }

    /// The value of one metric line (name with its labels, exactly as printed), if present.
    pub async fn metric(&self, series: &str) -> Option<f64> {
        let text = self.metrics_text().await;
        text.lines().find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.trim().parse().ok())
    }

    /// The process's resident memory (VmRSS), in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).expect("/proc is readable");
        let line = status.lines().find_map(|line| line.strip_prefix("VmRSS:")).expect("a VmRSS line");
        line.trim().trim_end_matches("kB").trim().parse().expect("a number of kB")
    }

    /// Sends a signal to the server process.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill").args(["-s", signal, &self.child.id().to_string()]).status();
        assert!(status.expect("kill runs").success(), "kill -s {signal} failed");
    }

    /// Waits for the process to exit and answers its exit code.
    pub fn wait(&mut self) -> Option<i32> {
        self.child.wait().expect("the process can be waited for").code()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A request carrying a seat's token (`authorization: Bearer <token>`).
pub fn as_seat<T>(token: &str, message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse().expect("a valid header"));
    request
}

/// A path for a scratch file of this test run, unique to the call.
pub fn scratch_path(stem: &str, extension: &str) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{stem}-{}-{n}.{extension}", std::process::id()))
}

/// A new, empty SQLite database for one test.
pub fn scratch_sqlite() -> String {
    format!("sqlite://{}", scratch_path("games", "db").display())
}

/// A new, empty PostgreSQL database for one test, on the server `DAMIERA_TEST_POSTGRES` names
/// (an administrator's URL). Without that variable the test is skipped with a loud line, except
/// under CI (`CI=true`), where PostgreSQL must be there and its absence fails the test.
pub async fn scratch_postgres() -> Option<String> {
    use sqlx::Connection;
    let Ok(admin) = std::env::var("DAMIERA_TEST_POSTGRES") else {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true but DAMIERA_TEST_POSTGRES is not set");
        eprintln!("SKIPPED: PostgreSQL test: set DAMIERA_TEST_POSTGRES to an administrator's URL to run it");
        return None;
    };
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().subsec_nanos();
    let name = format!("damiera_api_{}_{}_{nanos}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed));
    let mut connection = sqlx::PgConnection::connect(&admin).await.expect("DAMIERA_TEST_POSTGRES accepts connections");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut connection)
        .await
        .expect("a test database can be created");
    let (base, _) = admin.rsplit_once('/').expect("the URL names a database");
    Some(format!("{base}/{name}"))
}

/// Runs each named test, an `async fn(Backend)` of the test file, once per store: in modules
/// `sqlite` and `postgres` (which skips without `DAMIERA_TEST_POSTGRES`, see [`scratch_postgres`]).
/// The test file declares `#[macro_use] mod support;` and imports [`Backend`].
#[allow(unused_macros, reason = "used by the test files that run on both stores, not by all")]
macro_rules! on_both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Backend::Sqlite).await })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $name() { super::$name(super::Backend::Postgres).await })*
        }
    };
}

/// Game `name` as GetGame answers it (the whole game).
pub async fn get_game(games: &mut GameServiceClient<Channel>, name: &str) -> damiera_server::proto::Game {
    let request = damiera_server::proto::GetGameRequest { name: name.to_string(), ..Default::default() };
    games.get_game(request).await.expect("the game reads").into_inner().game.expect("a game")
}

/// Reads game `name` again until `done` holds of it, for up to 60 seconds.
pub async fn wait_until(
    games: &mut GameServiceClient<Channel>,
    name: &str,
    done: impl Fn(&damiera_server::proto::Game) -> bool,
) -> damiera_server::proto::Game {
    for _ in 0..600 {
        let game = get_game(games, name).await;
        if done(&game) {
            return game;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{name} did not reach the expected state: {:?}", get_game(games, name).await.state);
}

/// Where a test's games are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// A scratch SQLite file.
    Sqlite,
    /// A scratch PostgreSQL database.
    Postgres,
}

impl Backend {
    /// A new, empty database of this kind; `None` when PostgreSQL is not available (skipped).
    pub async fn scratch(self) -> Option<String> {
        match self {
            Backend::Sqlite => Some(scratch_sqlite()),
            Backend::Postgres => scratch_postgres().await,
        }
    }
}

/// The parts of an AIP-193 error a client checks.
#[derive(Debug)]
pub struct ApiFailure {
    /// The status code.
    pub code: Code,
    /// The message for people.
    pub message: String,
    /// The `ErrorInfo` reason.
    pub reason: String,
    /// The `ErrorInfo` metadata.
    pub metadata: std::collections::HashMap<String, String>,
    /// The fields named by `BadRequest`.
    pub fields: Vec<String>,
    /// The `RetryInfo` delay.
    pub retry_delay: Option<std::time::Duration>,
    /// The subjects `QuotaFailure` names.
    pub quota_subjects: Vec<String>,
}

/// Reads a failed call's status and its details; panics if the call succeeded or the error has no
/// `ErrorInfo` in the Damiera domain.
pub fn failure<T: std::fmt::Debug>(result: Result<T, Status>) -> ApiFailure {
    let status = result.expect_err("the call must fail");
    let details: ErrorDetails = status.get_error_details();
    let info = details.error_info().unwrap_or_else(|| panic!("no ErrorInfo in {status:?}"));
    assert_eq!(info.domain, "damiera.dev", "{status:?}");
    ApiFailure {
        code: status.code(),
        message: status.message().to_string(),
        reason: info.reason.clone(),
        metadata: info.metadata.clone(),
        fields: details
            .bad_request()
            .map(|b| b.field_violations.iter().map(|v| v.field.clone()).collect())
            .unwrap_or_default(),
        retry_delay: details.retry_info().and_then(|r| r.retry_delay),
        quota_subjects: details
            .quota_failure()
            .map(|q| q.violations.iter().map(|v| v.subject.clone()).collect())
            .unwrap_or_default(),
    }
}

impl TestServer {
    /// Waits up to `limit` for the process to exit and answers how it exited; `None` if it is
    /// still running then (the process is killed on drop, so a hung server cannot hang the test).
    pub async fn exit_within(&mut self, limit: std::time::Duration) -> Option<std::process::ExitStatus> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("the process can be waited for") {
                return Some(status);
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }
}

/// The version an etag names, the number it begins with (`"3-9f2c41d0"`: 3); panics unless the
/// etag is in the server's form, a quoted version and eight hexadecimal digits.
pub fn etag_version(etag: &str) -> u64 {
    let inner = etag.strip_prefix('"').and_then(|rest| rest.strip_suffix('"'));
    let (version, digest) = inner.and_then(|inner| inner.split_once('-')).unwrap_or_else(|| panic!("etag {etag}"));
    assert!(digest.len() == 8 && digest.bytes().all(|b| b.is_ascii_hexdigit()), "etag {etag}");
    version.parse().unwrap_or_else(|_| panic!("etag {etag}"))
}

/// A person's seat, named `name`.
pub fn person(name: &str) -> Option<damiera_server::proto::Seat> {
    use damiera_server::proto::{seat::Player, Person, Seat};
    Some(Seat { player: Some(Player::Person(Person { display_name: name.to_string() })) })
}
