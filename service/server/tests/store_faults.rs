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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damiera_engine::{notation, Position, Variant};
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::{self as pb, CreateGameRequest, GetGameRequest, MakeMoveRequest};
use support::{as_seat, failure, TestServer};
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

/// Generous bounds for what must happen "soon": never a timing assertion, only a hang guard.
const PATIENCE: Duration = Duration::from_secs(90);

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

/// One game and what its player saw acknowledged.
struct Player {
    name: String,
    tokens: [String; 2],
    acknowledged: Mutex<Vec<String>>,
    /// Every failure seen: code and reason.
    failures: Mutex<Vec<(Code, String)>>,
}

/// Plays the first legal move again and again (each retried with its own request id until it is
/// acknowledged), as long as fewer than `limit` are acknowledged; a `limit` of 0 ends it.
async fn play(mut games: GameServiceClient<Channel>, player: Arc<Player>, limit: Arc<AtomicUsize>) {
    let mut position = Position::start(Variant::Italian);
    loop {
        let ply = player.acknowledged.lock().unwrap().len();
        match limit.load(Ordering::SeqCst) {
            0 => return,
            limit if ply >= limit => {
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
            _ => {}
        }
        let Some(mv) = position.legal_moves().first().copied() else { return };
        let written = notation::write(Variant::Italian, &mv);
        let message = MakeMoveRequest {
            name: player.name.clone(),
            notation: written.clone(),
            expected_ply: Some(ply as u32),
            request_id: format!("ply-{ply}"),
            ..Default::default()
        };
        match games.make_move(as_seat(&player.tokens[ply % 2], message)).await {
            Ok(_) => {
                player.acknowledged.lock().unwrap().push(written);
                position = position.play(&mv).expect("a legal move");
            }
            Err(status) => {
                let seen = failure::<()>(Err(status));
                player.failures.lock().unwrap().push((seen.code, seen.reason));
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

async fn game_health(health: &mut HealthClient<Channel>) -> Option<ServingStatus> {
    let request = HealthCheckRequest { service: "damiera.v1.GameService".to_string() };
    let answer = health.check(request).await.ok()?;
    ServingStatus::try_from(answer.into_inner().status).ok()
}

/// Waits (at most [`PATIENCE`]) until `done` holds.
async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !done().await {
        assert!(tokio::time::Instant::now() < deadline, "not within {PATIENCE:?}: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

fn moves_of(players: &[Arc<Player>]) -> Vec<usize> {
    players.iter().map(|p| p.acknowledged.lock().unwrap().len()).collect()
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
    let mut players = Vec::new();
    let limit = Arc::new(AtomicUsize::new(MOVES_EACH_WAY));
    let mut tasks = Vec::new();
    for _ in 0..GAMES {
        let person = || Some(pb::Seat { player: Some(pb::seat::Player::Person(pb::Person::default())) });
        let request = CreateGameRequest {
            variant: pb::Variant::Italian as i32,
            white: person(),
            black: person(),
            ..Default::default()
        };
        let made = games.create_game(request).await.expect("a game is created").into_inner();
        let player = Arc::new(Player {
            name: made.game.expect("a game").name,
            tokens: [made.white_token, made.black_token],
            acknowledged: Mutex::new(Vec::new()),
            failures: Mutex::new(Vec::new()),
        });
        tasks.push(tokio::spawn(play(server.games().await, Arc::clone(&player), Arc::clone(&limit))));
        players.push(player);
    }
    until("every game plays its first moves", async || moves_of(&players).iter().all(|&n| n >= MOVES_EACH_WAY)).await;

    postgres.stop();
    limit.store(2 * MOVES_EACH_WAY, Ordering::SeqCst);
    until("GameService turns NOT_SERVING", async || game_health(&mut health).await == Some(ServingStatus::NotServing))
        .await;
    let down = failure(games.get_game(GetGameRequest { name: players[0].name.clone(), ..Default::default() }).await);
    assert_eq!((down.code, down.reason.as_str()), (Code::Unavailable, "STORE_UNAVAILABLE"), "{}", down.message);
    let failed = || players.iter().map(|p| p.failures.lock().unwrap().len()).sum::<usize>();
    until("the players' moves fail while the database is down", async || failed() > 0).await;

    postgres.start();
    until("GameService is SERVING again", async || game_health(&mut health).await == Some(ServingStatus::Serving))
        .await;
    until("every game plays on", async || moves_of(&players).iter().all(|&n| n == 2 * MOVES_EACH_WAY)).await;
    limit.store(0, Ordering::SeqCst);
    for task in tasks {
        task.await.expect("a player ends without panicking");
    }

    eprintln!("{} calls failed while the database was down", failed());
    for player in &players {
        let failures = player.failures.lock().unwrap().clone();
        assert!(
            failures.iter().all(|(code, reason)| (*code, reason.as_str()) == (Code::Unavailable, "STORE_UNAVAILABLE")),
            "{failures:?}"
        );
        let stored = games
            .get_game(GetGameRequest { name: player.name.clone(), ..Default::default() })
            .await
            .expect("the game loads");
        let stored: Vec<String> =
            stored.into_inner().game.expect("a game").moves.into_iter().map(|m| m.notation).collect();
        assert_eq!(
            stored,
            *player.acknowledged.lock().unwrap(),
            "{}: the stored moves are not those acknowledged",
            player.name
        );
    }
}
