//! Deleting hosted games against a real server, each test on SQLite and on PostgreSQL: a seat's
//! `DeleteGame` (AIP-135: its token, its etag, `allow_missing` for a retry), the watchers whose
//! streams end with GAME_DELETED, and the retention (`--retention`), which deletes the games over
//! and keeps the ones still played. (Another tenant's game is not found: `tenants.rs`.)
//!
//! PostgreSQL tests need `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

#[macro_use]
mod support;

use std::time::Duration;

use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{
    AbortGameRequest, CreateGameRequest, DeleteGameRequest, GetGameRequest, ListGamesRequest, MakeMoveRequest,
    ResignRequest, Variant, WatchGameRequest,
};
use support::{as_seat, failure, get_game, person, Backend, TestServer};
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Code;

type Games = GameServiceClient<Channel>;

on_both_stores!(a_seat_deletes_its_game_and_its_watchers_are_told, the_retention_deletes_only_games_over);

/// A game between two people: its name and tokens.
async fn create(games: &mut Games) -> (String, String, String) {
    let request = CreateGameRequest {
        variant: Variant::Italian as i32,
        white: person("Anna"),
        black: person("Bruno"),
        ..Default::default()
    };
    let made = games.create_game(request).await.expect("the game is created").into_inner();
    (made.game.expect("a game").name, made.white_token, made.black_token)
}

fn delete(name: &str, etag: &str, allow_missing: bool) -> DeleteGameRequest {
    DeleteGameRequest { name: name.to_string(), etag: etag.to_string(), allow_missing }
}

async fn listed(games: &mut Games) -> Vec<String> {
    let listed = games.list_games(ListGamesRequest::default()).await.expect("the games list").into_inner();
    listed.games.into_iter().map(|game| game.name).collect()
}

async fn a_seat_deletes_its_game_and_its_watchers_are_told(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let (name, white, black) = create(&mut games).await;
    let (other, _, _) = create(&mut games).await;
    let mv = MakeMoveRequest { name: name.clone(), notation: "22-18".into(), ..Default::default() };
    games.make_move(as_seat(&white, mv)).await.unwrap();
    let mut stream =
        games.watch_game(WatchGameRequest { name: name.clone(), from_ply: None }).await.unwrap().into_inner();
    let first = stream.next().await.expect("a first message").expect("no error").event;
    assert!(matches!(first, Some(Event::Game(_))), "{first:?}");

    // Only a seat of the game deletes it, and only in the state its etag names.
    let unsigned = failure(games.delete_game(delete(&name, "", false)).await);
    assert_eq!((unsigned.code, unsigned.reason.as_str()), (Code::Unauthenticated, "MISSING_TOKEN"));
    let stranger = failure(games.delete_game(as_seat(&"0".repeat(64), delete(&name, "", false))).await);
    assert_eq!((stranger.code, stranger.reason.as_str()), (Code::PermissionDenied, "WRONG_TOKEN"));
    let old = get_game(&mut games, &other).await.state.unwrap().etag;
    let stale = failure(games.delete_game(as_seat(&black, delete(&name, &old, false))).await);
    assert_eq!((stale.code, stale.reason.as_str(), stale.fields), (Code::Aborted, "STALE_STATE", vec!["etag".into()]));
    let bare = failure(games.delete_game(as_seat(&black, delete(&name, "1", false))).await);
    assert_eq!((bare.code, bare.fields), (Code::InvalidArgument, vec!["etag".to_string()]));
    assert_eq!(get_game(&mut games, &name).await.state.unwrap().ply, 1, "refusals delete nothing");

    let etag = get_game(&mut games, &name).await.state.unwrap().etag;
    games.delete_game(as_seat(&black, delete(&name, &etag, false))).await.unwrap();

    // The watcher's stream ends with the game's deletion.
    let ended = tokio::time::timeout(Duration::from_secs(10), stream.next()).await.expect("the watch ends in time");
    let ended = failure(ended.expect("a last message").map(|message| message.event));
    assert_eq!((ended.code, ended.reason.as_str()), (Code::NotFound, "GAME_DELETED"));
    assert!(ended.message.contains(&name), "{}", ended.message);
    assert!(stream.next().await.is_none(), "nothing after the end");

    // The game is gone for every call; the other game stays.
    let get = failure(games.get_game(GetGameRequest { name: name.clone(), ..Default::default() }).await);
    assert_eq!((get.code, get.reason.as_str()), (Code::NotFound, "GAME_NOT_FOUND"));
    let watch = failure(games.watch_game(WatchGameRequest { name: name.clone(), from_ply: None }).await);
    assert_eq!(watch.code, Code::NotFound);
    let mv = MakeMoveRequest { name: name.clone(), notation: "10-14".into(), ..Default::default() };
    assert_eq!(failure(games.make_move(as_seat(&black, mv)).await).code, Code::NotFound);
    assert_eq!(listed(&mut games).await, std::slice::from_ref(&other));

    // A retry after a lost answer finds no game: an error, or with allow_missing a success.
    let again = failure(games.delete_game(as_seat(&black, delete(&name, &etag, false))).await);
    assert_eq!((again.code, again.reason.as_str()), (Code::NotFound, "GAME_NOT_FOUND"));
    games.delete_game(as_seat(&black, delete(&name, &etag, true))).await.unwrap();
    assert_eq!(listed(&mut games).await, [other]);
}

async fn the_retention_deletes_only_games_over(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &["--retention", "2s"]);
    let mut games = server.games().await;
    let (resigned, white, _) = create(&mut games).await;
    let (aborted, _, black) = create(&mut games).await;
    let (ongoing, _, _) = create(&mut games).await;
    games.resign(as_seat(&white, ResignRequest { name: resigned.clone(), ..Default::default() })).await.unwrap();
    games.abort_game(as_seat(&black, AbortGameRequest { name: aborted.clone(), ..Default::default() })).await.unwrap();
    // Just over, the games are kept for the retention's time.
    let mut all = listed(&mut games).await;
    all.sort();
    let mut expected = vec![resigned.clone(), aborted.clone(), ongoing.clone()];
    expected.sort();
    assert_eq!(all, expected);

    for _ in 0..100 {
        if listed(&mut games).await == [ongoing.clone()] {
            // Four seconds more: still there, though it was made before the others ended.
            tokio::time::sleep(Duration::from_secs(4)).await;
            assert_eq!(listed(&mut games).await, std::slice::from_ref(&ongoing));
            assert_eq!(get_game(&mut games, &ongoing).await.state.unwrap().ply, 0);
            return;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the games over were not deleted: {:?}", listed(&mut games).await);
}
