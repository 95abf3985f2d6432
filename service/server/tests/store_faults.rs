//! Fault injection on the game store: PostgreSQL stops at once (as in a crash) in the middle of a
//! game load, then starts again, under one `damiera serve` that keeps running. While it is down,
//! calls fail with `UNAVAILABLE` / `STORE_UNAVAILABLE` and `GameService`'s health is
//! `NOT_SERVING`; once it is back, health is `SERVING`, play resumes, and every move the server
//! acknowledged is stored, in order, with nothing else.
//!
//! The cluster is a private one (`.ci/postgres` with a folder of the test's own), since the test
//! stops it; it runs where `DAMIERA_TEST_POSTGRES` says PostgreSQL is available (always on CI).

mod support;

use std::process::Command;

use damiera_server::proto::GetGameRequest;
use support::play::{assert_only_failures, until, Table};
use support::{failure, TestServer};
use tonic::transport::Channel;
use tonic::Code;
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

/// Games played at once, each by its own client.
const GAMES: usize = 4;

/// Moves each game plays before the database stops; the next as many are tried while it is down
/// and acknowledged once it is back.
const MOVES_EACH_WAY: usize = 4;

/// A PostgreSQL cluster of this test's own, removed at the end.
struct PrivatePostgres {
    folder: String,
}

impl PrivatePostgres {
    /// Starts (the first time: creates) the cluster and answers its administrator's URL.
    fn start(&self) -> String {
        let output = self.script(None);
        let line = String::from_utf8(output).expect("text");
        line.trim().strip_prefix("export DAMIERA_TEST_POSTGRES=").expect("the URL line").to_string()
    }

    /// Stops it at once.
    fn stop(&self) {
        self.script(Some("stop"));
    }

    fn script(&self, argument: Option<&str>) -> Vec<u8> {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.ci/postgres");
        let output = Command::new("bash")
            .arg(script)
            .args(argument)
            .env("DAMIERA_PG_DIR", &self.folder)
            .output()
            .expect("bash runs .ci/postgres");
        let log = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), ".ci/postgres {argument:?} failed:\n{log}");
        output.stdout
    }
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let _ = std::panic::catch_unwind(|| self.stop());
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

async fn game_health(health: &mut HealthClient<Channel>) -> Option<ServingStatus> {
    let request = HealthCheckRequest { service: "damiera.v1.GameService".to_string() };
    let answer = health.check(request).await.ok()?;
    ServingStatus::try_from(answer.into_inner().status).ok()
}

#[tokio::test]
async fn postgres_stopped_under_load_loses_nothing_acknowledged_and_play_resumes() {
    use sqlx::Connection;
    if std::env::var("DAMIERA_TEST_POSTGRES").is_err() {
        assert!(std::env::var("CI").as_deref() != Ok("true"), "CI=true but DAMIERA_TEST_POSTGRES is not set");
        eprintln!("SKIPPED: PostgreSQL fault test: set DAMIERA_TEST_POSTGRES (PostgreSQL is available) to run it");
        return;
    }
    let postgres = PrivatePostgres { folder: format!("/tmp/damiera-store-faults-{}", std::process::id()) };
    let admin = postgres.start();
    let mut connection = sqlx::PgConnection::connect(&admin).await.expect("the private cluster accepts connections");
    sqlx::query("CREATE DATABASE faults").execute(&mut connection).await.expect("a database is created");
    connection.close().await.expect("closed");
    let server =
        TestServer::start_on(&format!("{}/faults", admin.rsplit_once('/').expect("a database in the URL").0), &[]);
    let mut health = HealthClient::new(server.channel().await);
    assert_eq!(game_health(&mut health).await, Some(ServingStatus::Serving));

    let mut games = server.games().await;
    let table = Table::new_games(&server, GAMES, MOVES_EACH_WAY).await;
    table.until_each_has(MOVES_EACH_WAY).await;

    postgres.stop();
    table.allow(2 * MOVES_EACH_WAY);
    until("GameService turns NOT_SERVING", async || game_health(&mut health).await == Some(ServingStatus::NotServing))
        .await;
    let down =
        failure(games.get_game(GetGameRequest { name: table.players[0].name.clone(), ..Default::default() }).await);
    assert_eq!((down.code, down.reason.as_str()), (Code::Unavailable, "STORE_UNAVAILABLE"), "{}", down.message);
    until("the players' moves fail while the database is down", async || table.failed() > 0).await;

    postgres.start();
    until("GameService is SERVING again", async || game_health(&mut health).await == Some(ServingStatus::Serving))
        .await;
    table.until_each_has(2 * MOVES_EACH_WAY).await;
    eprintln!("{} calls failed while the database was down", table.failed());
    let players = table.stop().await;
    assert_only_failures(&players, Code::Unavailable, "STORE_UNAVAILABLE", &mut games).await;
}
