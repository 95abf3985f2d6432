//! Players that keep moving through faults: each plays the first legal move of its own game again
//! and again, retrying every move (with its own request id) until it is acknowledged, and records
//! what was acknowledged and every failure seen. The fault tests compare the stored games with it.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damiera_engine::{notation, Position, Variant};
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::{self as pb, CreateGameRequest, GetGameRequest, MakeMoveRequest};
use tokio::task::JoinHandle;
use tonic::transport::Channel;
use tonic::Code;

use super::{as_seat, failure, TestServer};

/// Generous bounds for what must happen "soon": never a timing assertion, only a hang guard.
pub const PATIENCE: Duration = Duration::from_secs(90);

/// One game and what its player saw acknowledged.
pub struct Player {
    /// The game's resource name.
    pub name: String,
    tokens: [String; 2],
    /// The moves acknowledged, in order.
    pub acknowledged: Mutex<Vec<String>>,
    /// Every failure seen: code and reason.
    pub failures: Mutex<Vec<(Code, String)>>,
}

impl Player {
    /// Creates a game of two people (Italian) and its player.
    pub async fn create(games: &mut GameServiceClient<Channel>) -> Arc<Player> {
        let person = || Some(pb::Seat { player: Some(pb::seat::Player::Person(pb::Person::default())) });
        let request = CreateGameRequest {
            variant: pb::Variant::Italian as i32,
            white: person(),
            black: person(),
            ..Default::default()
        };
        let made = games.create_game(request).await.expect("a game is created").into_inner();
        Arc::new(Player {
            name: made.game.expect("a game").name,
            tokens: [made.white_token, made.black_token],
            acknowledged: Mutex::new(Vec::new()),
            failures: Mutex::new(Vec::new()),
        })
    }

    /// The moves acknowledged so far.
    pub fn moves(&self) -> usize {
        self.acknowledged.lock().unwrap().len()
    }

    /// The failures seen so far.
    pub fn failures(&self) -> Vec<(Code, String)> {
        self.failures.lock().unwrap().clone()
    }

    /// Asserts that the game's stored moves, as `games` reads them, are exactly those acknowledged.
    pub async fn assert_stored(&self, games: &mut GameServiceClient<Channel>) {
        let stored = games
            .get_game(GetGameRequest { name: self.name.clone(), ..Default::default() })
            .await
            .expect("the game loads");
        let stored: Vec<String> =
            stored.into_inner().game.expect("a game").moves.into_iter().map(|m| m.notation).collect();
        assert_eq!(
            stored,
            *self.acknowledged.lock().unwrap(),
            "{}: the stored moves are not those acknowledged",
            self.name
        );
    }
}

/// Players, each in a task of its own, moving as long as they have fewer moves acknowledged than
/// the table's limit.
pub struct Table {
    /// The players.
    pub players: Vec<Arc<Player>>,
    tasks: Vec<JoinHandle<()>>,
    limit: Arc<AtomicUsize>,
}

impl Table {
    /// `count` players of new games made through `server`, moving up to `limit` moves each.
    pub async fn new_games(server: &TestServer, count: usize, limit: usize) -> Table {
        let mut games = server.games().await;
        let mut players = Vec::new();
        for _ in 0..count {
            players.push(Player::create(&mut games).await);
        }
        Table::seat(server, players, limit).await
    }

    /// `players` moving through `server`, up to `limit` moves each.
    pub async fn seat(server: &TestServer, players: Vec<Arc<Player>>, limit: usize) -> Table {
        let limit = Arc::new(AtomicUsize::new(limit));
        let mut tasks = Vec::new();
        for player in &players {
            tasks.push(tokio::spawn(play(server.games().await, Arc::clone(player), Arc::clone(&limit))));
        }
        Table { players, tasks, limit }
    }

    /// Lets the players move on up to `limit` moves each.
    pub fn allow(&self, limit: usize) {
        self.limit.store(limit, Ordering::SeqCst);
    }

    /// Waits until every player has `moves` moves acknowledged.
    pub async fn until_each_has(&self, moves: usize) {
        until(&format!("every game has {moves} moves"), async || self.players.iter().all(|p| p.moves() == moves)).await;
    }

    /// The failures the players have seen.
    pub fn failed(&self) -> usize {
        self.players.iter().map(|p| p.failures().len()).sum()
    }

    /// Stops the players and answers them.
    pub async fn stop(self) -> Vec<Arc<Player>> {
        self.limit.store(0, Ordering::SeqCst);
        for task in self.tasks {
            task.await.expect("a player ends without panicking");
        }
        self.players
    }
}

/// Asserts that every failure each of `players` saw was `code` with `reason`, and that each
/// game's stored moves, as `games` reads them, are exactly those acknowledged.
pub async fn assert_only_failures(
    players: &[Arc<Player>],
    code: Code,
    reason: &str,
    games: &mut GameServiceClient<Channel>,
) {
    for player in players {
        let failures = player.failures();
        assert!(failures.iter().all(|(c, r)| (*c, r.as_str()) == (code, reason)), "{}: {failures:?}", player.name);
        player.assert_stored(games).await;
    }
}

/// Plays the first legal move again and again (each retried with its own request id until it is
/// acknowledged), as long as fewer than `limit` are acknowledged; a `limit` of 0 ends it.
pub async fn play(mut games: GameServiceClient<Channel>, player: Arc<Player>, limit: Arc<AtomicUsize>) {
    // From the moves already acknowledged: a player may be started again, on another server.
    let mut position = Position::start(Variant::Italian);
    for text in player.acknowledged.lock().unwrap().iter() {
        let mv = notation::parse(&position, text).expect("an acknowledged move reads");
        position = position.play(&mv).expect("an acknowledged move is legal");
    }
    loop {
        let ply = player.moves();
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
            expected_ply: Some(ply as i32),
            request_id: format!("00000000-0000-4000-8000-{ply:012x}"),
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

/// Waits (at most [`PATIENCE`]) until `done` holds.
pub async fn until(what: &str, mut done: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !done().await {
        assert!(tokio::time::Instant::now() < deadline, "not within {PATIENCE:?}: {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
