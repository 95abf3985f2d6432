//! Engine seats hand over on a graceful stop: two `damiera serve` replicas on one PostgreSQL, a
//! SIGTERM to the one thinking for an engine seat, and the engine's move arrives within the search
//! time plus two seconds, instead of after the lease (the longest move time plus 15 s).
//!
//! Needs `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

mod support;

use std::time::Duration;

use damiera_server::proto::{
    self as pb, seat::Player, CreateGameRequest, GetGameRequest, MakeMoveRequest, Seat, Variant,
};
use support::{scratch_postgres, TestServer};
use tokio::time::Instant;
use tonic::Request;

/// The engine seat's move time.
const MOVE_TIME: Duration = Duration::from_secs(3);

/// What the handover may add to the search time.
const HANDOVER: Duration = Duration::from_secs(2);

fn person() -> Option<Seat> {
    Some(Seat { player: Some(Player::Person(pb::Person { display_name: "Anna".into() })) })
}

fn engine() -> Option<Seat> {
    let move_time = prost_types::Duration { seconds: MOVE_TIME.as_secs() as i64, nanos: 0 };
    let limits = pb::SearchLimits { move_time: Some(move_time), ..Default::default() };
    Some(Seat { player: Some(Player::Engine(pb::EngineSeat { level: 20, limits: Some(limits) })) })
}

/// Creates a game on `server` with White a person and Black the engine, plays White's first
/// move, and answers the game's name once the server thinks about Black's answer.
async fn engine_thinking_on(server: &TestServer) -> String {
    let mut games = server.games().await;
    let request =
        CreateGameRequest { variant: Variant::Italian as i32, white: person(), black: engine(), ..Default::default() };
    let created = games.create_game(request).await.unwrap().into_inner();
    let name = created.game.unwrap().name;
    let mut request =
        Request::new(MakeMoveRequest { name: name.clone(), notation: "22-18".into(), ..Default::default() });
    request.metadata_mut().insert("authorization", format!("Bearer {}", created.white_token).parse().unwrap());
    games.make_move(request).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while server.metric("damiera_searches_running").await != Some(1.0) {
        assert!(Instant::now() < deadline, "the engine never started thinking; log:\n{}", server.log_text());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    name
}

/// Waits (up to `limit`) for the engine's answer in game `name`, asked through `server`; answers
/// the moves then.
async fn moves_within(server: &TestServer, name: &str, limit: Duration) -> Vec<String> {
    let mut games = server.games().await;
    let deadline = Instant::now() + limit;
    loop {
        let game = games
            .get_game(GetGameRequest { name: name.into(), ..Default::default() })
            .await
            .unwrap()
            .into_inner()
            .game
            .unwrap();
        if game.moves.len() >= 2 || Instant::now() >= deadline {
            return game.moves.into_iter().map(|m| m.notation).collect();
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A shutdown that leaves less time than the search needs: the thinking replica stops at once
/// and releases its lease; the other replica thinks afresh and moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_cannot_finish_in_time_hands_the_turn_over_at_once() {
    let Some(database) = scratch_postgres().await else { return };
    let mut a = TestServer::start_on(&database, &["--shutdown-timeout", "1s"]);
    let name = engine_thinking_on(&a).await;
    let b = TestServer::start_on(&database, &[]);
    a.signal("TERM");
    let moves = moves_within(&b, &name, MOVE_TIME + HANDOVER).await;
    assert_eq!(moves.len(), 2, "the engine's move within {:?}: {moves:?}", MOVE_TIME + HANDOVER);
    let exit = a.exit_within(Duration::from_secs(10)).await.expect("the stopped replica exits");
    assert!(exit.success(), "{exit:?}; log:\n{}", a.log_text());
    assert!(a.log_text().contains("handing the engine's turn over"), "{}", a.log_text());
}

/// A shutdown that leaves time enough: the thinking replica finishes its search, stores the move
/// and then exits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replica_that_can_finish_in_time_stores_its_move_before_it_exits() {
    let Some(database) = scratch_postgres().await else { return };
    let mut a = TestServer::start_on(&database, &["--shutdown-timeout", "20s"]);
    let name = engine_thinking_on(&a).await;
    let b = TestServer::start_on(&database, &[]);
    a.signal("TERM");
    let exit = a.exit_within(MOVE_TIME + HANDOVER).await.expect("the replica exits once its move is stored");
    assert!(exit.success(), "{exit:?}; log:\n{}", a.log_text());
    assert!(!a.log_text().contains("handing the engine's turn over"), "{}", a.log_text());
    let moves = moves_within(&b, &name, Duration::ZERO).await;
    assert_eq!(moves.len(), 2, "the move stored before the exit: {moves:?}");
    assert_eq!(moves[0], "22-18");
}
