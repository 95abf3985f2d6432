//! Several `damiera serve` processes on one PostgreSQL, as replicas behind a load balancer run:
//! a watcher on one replica sees moves made through another, and an engine seat is moved exactly
//! once however many replicas could move it.
//!
//! Needs `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

mod support;

use std::time::Duration;

use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{
    self as pb, seat::Player, CreateGameRequest, MakeMoveRequest, Seat, Variant, WatchGameRequest,
};
use support::{as_seat, get_game, scratch_postgres, TestServer};
use tokio_stream::StreamExt;

fn person() -> Option<Seat> {
    Some(Seat { player: Some(Player::Person(pb::Person { display_name: "Anna".into() })) })
}

fn engine() -> Option<Seat> {
    let limits = pb::SearchLimits { depth: 4, ..Default::default() };
    Some(Seat { player: Some(Player::Engine(pb::EngineSeat { level: 20, limits: Some(limits) })) })
}

/// The next update on a watch stream, skipping keep-alives.
async fn next_update(stream: &mut tonic::Streaming<pb::WatchGameResponse>) -> pb::GameUpdate {
    loop {
        let message = tokio::time::timeout(Duration::from_secs(20), stream.next()).await.expect("an update in time");
        match message.expect("the stream goes on").expect("no error").event {
            Some(Event::Update(update)) => return update,
            Some(Event::KeepAlive(_)) => continue,
            other => panic!("expected an update, got {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_on_one_replica_sees_moves_made_through_another() {
    let Some(database) = scratch_postgres().await else { return };
    let a = TestServer::start_on(&database, &[]);
    let b = TestServer::start_on(&database, &[]);
    let mut on_a = a.games().await;
    let mut on_b = b.games().await;
    let request =
        CreateGameRequest { variant: Variant::Italian as i32, white: person(), black: person(), ..Default::default() };
    let created = on_a.create_game(request).await.unwrap().into_inner();
    let name = created.game.unwrap().name;

    let mut watching =
        on_b.watch_game(WatchGameRequest { name: name.clone(), from_ply: None }).await.unwrap().into_inner();
    let Some(Ok(pb::WatchGameResponse { event: Some(Event::Game(first)) })) = watching.next().await else {
        panic!("B knows the game A created")
    };
    assert_eq!(first.name, name);

    for (token, notation) in [(&created.white_token, "22-18"), (&created.black_token, "10-14")] {
        let request = MakeMoveRequest { name: name.clone(), notation: notation.into(), ..Default::default() };
        on_a.make_move(as_seat(token, request)).await.unwrap();
        let update = next_update(&mut watching).await;
        assert_eq!(update.moves.iter().map(|m| m.notation.as_str()).collect::<Vec<_>>(), [notation]);
    }
    // A move through B reaches a watcher on A, too.
    let mut watching_a =
        on_a.watch_game(WatchGameRequest { name: name.clone(), from_ply: Some(2) }).await.unwrap().into_inner();
    watching_a.next().await.unwrap().unwrap();
    let game = get_game(&mut on_b, &name).await;
    let capture = legal_white_move(&game.state.unwrap().position.unwrap().fen, &[]);
    let request = MakeMoveRequest { name: name.clone(), notation: capture.clone(), ..Default::default() };
    on_b.make_move(as_seat(&created.white_token, request)).await.unwrap();
    assert_eq!(next_update(&mut watching_a).await.moves[0].notation, capture);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_replicas_move_an_engine_seat_exactly_once() {
    let Some(database) = scratch_postgres().await else { return };
    let replicas: Vec<TestServer> = (0..3).map(|_| TestServer::start_on(&database, &[])).collect();
    let mut games = replicas[0].games().await;
    let request =
        CreateGameRequest { variant: Variant::Italian as i32, white: person(), black: engine(), ..Default::default() };
    let created = games.create_game(request).await.unwrap().into_inner();
    let name = created.game.unwrap().name;
    let opening = ["22-18", "21-17", "23-19", "24-20", "22-19"];
    let mut ply = 0;
    for replica in &replicas {
        // White moves through a different replica each round; the engine answers once.
        let mut client = replica.games().await;
        let game = get_game(&mut client, &name).await;
        let legal = game.state.unwrap().position.unwrap();
        let notation = legal_white_move(&legal.fen, &opening);
        let request = MakeMoveRequest { name: name.clone(), notation, expected_ply: Some(ply), ..Default::default() };
        client.make_move(as_seat(&created.white_token, request)).await.unwrap();
        ply += 2;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let game = get_game(&mut client, &name).await;
            if game.moves.len() as i32 >= ply {
                break;
            }
            assert!(tokio::time::Instant::now() < deadline, "the engine did not answer: {:?}", game.moves);
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Give every replica time to (wrongly) move again, then look.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let game = get_game(&mut games, &name).await;
    let colors: Vec<i32> = game.moves.iter().map(|m| m.color).collect();
    let white = pb::Color::White as i32;
    let black = pb::Color::Black as i32;
    assert_eq!(colors, [white, black, white, black, white, black], "{:?}", game.moves);
}

/// The first of `candidates` that is legal for White in `fen`, else White's first legal move.
fn legal_white_move(fen: &str, candidates: &[&str]) -> String {
    let position = damiera_engine::fen::parse(damiera_engine::Variant::Italian, fen).unwrap();
    let legal: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|mv| damiera_engine::notation::write(damiera_engine::Variant::Italian, mv))
        .collect();
    candidates.iter().map(|c| c.to_string()).find(|c| legal.contains(c)).unwrap_or_else(|| legal[0].clone())
}
