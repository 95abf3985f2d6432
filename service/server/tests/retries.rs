//! Retries and concurrency on every `GameService` call that changes a game, each once on SQLite
//! and once on PostgreSQL: a call retried with its `request_id` answers the stored result and
//! stores nothing more (even once the game has moved on), the id reused for another request is
//! refused, a stale `etag` or `expected_ply` answers ABORTED, a CreateGame or ImportGame retry
//! answers the same game without tokens, and etags are RFC 7232 entity tags that the server takes
//! back as it gave them. (MakeMove's own are in `games_api.rs`.)
//!
//! PostgreSQL tests need `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

#[macro_use]
mod support;

use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::{
    self as pb, AbortGameRequest, AnswerDrawRequest, AnswerTakebackRequest, CreateGameRequest, GameOptions,
    ImportGameRequest, MakeMoveRequest, OfferDrawRequest, OfferTakebackRequest, RequestMoveCountRequest, ResignRequest,
    Variant,
};
use support::{as_seat, etag_version, failure, get_game, person, Backend, TestServer};
use tonic::transport::Channel;
use tonic::{Code, Status};

type Games = GameServiceClient<Channel>;

const ITALIAN: i32 = Variant::Italian as i32;

/// Request ids (UUIDs, as the server wants them).
const FIRST: &str = "9b7e0c1a-5d2f-4e6a-8b3c-000000000001";
const CREATE: &str = "9b7e0c1a-5d2f-4e6a-8b3c-000000000002";
const IMPORT: &str = "9b7e0c1a-5d2f-4e6a-8b3c-000000000003";

on_both_stores!(
    every_seat_action_answers_its_retry_and_refuses_a_stale_state,
    a_retried_create_answers_the_same_game_without_tokens,
    a_retried_import_answers_the_same_game_without_tokens,
    etags_are_quoted_and_taken_back_as_given,
);

/// A call that acts for a seat, other than a move.
#[derive(Clone, Copy, Debug)]
enum Call {
    Resign,
    OfferDraw,
    AnswerDraw(bool),
    RequestMoveCount,
    Abort,
    OfferTakeback,
    AnswerTakeback(bool),
}

/// The state a call insists on, and its request id.
#[derive(Clone, Copy, Debug)]
struct Checks<'a> {
    expected_ply: Option<i32>,
    etag: &'a str,
    request_id: &'a str,
}

/// Sends `call` for the seat of `token` in game `name`: the game it answers.
async fn send(games: &mut Games, call: Call, token: &str, name: &str, checks: Checks<'_>) -> Result<pb::Game, Status> {
    let (name, expected_ply) = (name.to_string(), checks.expected_ply);
    let (etag, request_id) = (checks.etag.to_string(), checks.request_id.to_string());
    let game = match call {
        Call::Resign => {
            let request = ResignRequest { name, expected_ply, etag, request_id, ..Default::default() };
            games.resign(as_seat(token, request)).await?.into_inner().game
        }
        Call::OfferDraw => {
            let request = OfferDrawRequest { name, expected_ply, etag, request_id, ..Default::default() };
            games.offer_draw(as_seat(token, request)).await?.into_inner().game
        }
        Call::AnswerDraw(accept) => {
            let request = AnswerDrawRequest { name, accept, expected_ply, etag, request_id, ..Default::default() };
            games.answer_draw(as_seat(token, request)).await?.into_inner().game
        }
        Call::RequestMoveCount => {
            let request = RequestMoveCountRequest { name, expected_ply, etag, request_id, ..Default::default() };
            games.request_move_count(as_seat(token, request)).await?.into_inner().game
        }
        Call::Abort => {
            let request = AbortGameRequest { name, expected_ply, etag, request_id, ..Default::default() };
            games.abort_game(as_seat(token, request)).await?.into_inner().game
        }
        Call::OfferTakeback => {
            let request = OfferTakebackRequest { name, expected_ply, etag, request_id, ..Default::default() };
            games.offer_takeback(as_seat(token, request)).await?.into_inner().game
        }
        Call::AnswerTakeback(accept) => {
            let request = AnswerTakebackRequest { name, accept, expected_ply, etag, request_id, ..Default::default() };
            games.answer_takeback(as_seat(token, request)).await?.into_inner().game
        }
    };
    Ok(game.expect("an action answers the game"))
}

/// A game between two people, with its tokens.
struct Created {
    name: String,
    white: String,
    black: String,
}

async fn create(games: &mut Games, fen: &str, takebacks: bool) -> Created {
    let request = CreateGameRequest {
        variant: ITALIAN,
        fen: fen.to_string(),
        white: person("Anna"),
        black: person("Bruno"),
        options: Some(GameOptions { takebacks, ..Default::default() }),
        ..Default::default()
    };
    let response = games.create_game(request).await.expect("the game is created").into_inner();
    Created { name: response.game.expect("a game").name, white: response.white_token, black: response.black_token }
}

async fn play(games: &mut Games, name: &str, token: &str, notation: &str) {
    let request = MakeMoveRequest { name: name.to_string(), notation: notation.into(), ..Default::default() };
    games.make_move(as_seat(token, request)).await.unwrap_or_else(|e| panic!("{notation}: {e:?}"));
}

fn state(game: &pb::Game) -> &pb::GameState {
    game.state.as_ref().expect("a game has a state")
}

/// A game set up for `call`, and which seat makes it (true: White).
async fn set_up(games: &mut Games, call: Call) -> (Created, bool) {
    let none = Checks { expected_ply: None, etag: "", request_id: "" };
    match call {
        Call::Resign | Call::OfferDraw | Call::Abort => (create(games, "", false).await, true),
        Call::RequestMoveCount => (create(games, "W:WK29,K32:BK1,K4", false).await, true),
        Call::AnswerDraw(_) => {
            let game = create(games, "", false).await;
            send(games, Call::OfferDraw, &game.white, &game.name, none).await.expect("White offers a draw");
            (game, false)
        }
        Call::OfferTakeback => {
            let game = create(games, "", true).await;
            play(games, &game.name, &game.white, "22-18").await;
            (game, true)
        }
        Call::AnswerTakeback(_) => {
            let game = create(games, "", true).await;
            play(games, &game.name, &game.white, "22-18").await;
            send(games, Call::OfferTakeback, &game.white, &game.name, none).await.expect("White offers a takeback");
            (game, false)
        }
    }
}

/// The same call by the other seat, or with the other answer: what a reused request id must not
/// be taken for.
fn another(call: Call, white: bool) -> (Call, bool) {
    match call {
        Call::AnswerDraw(accept) => (Call::AnswerDraw(!accept), white),
        Call::AnswerTakeback(accept) => (Call::AnswerTakeback(!accept), white),
        call => (call, !white),
    }
}

// Tests

async fn every_seat_action_answers_its_retry_and_refuses_a_stale_state(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let calls = [
        Call::Resign,
        Call::OfferDraw,
        Call::AnswerDraw(true),
        Call::AnswerDraw(false),
        Call::RequestMoveCount,
        Call::Abort,
        Call::OfferTakeback,
        Call::AnswerTakeback(true),
        Call::AnswerTakeback(false),
    ];
    for call in calls {
        let (game, white) = set_up(&mut games, call).await;
        let token = |white| if white { &game.white } else { &game.black };
        let before = get_game(&mut games, &game.name).await;
        let (ply, etag) = (state(&before).ply, state(&before).etag.clone());

        // A stale state is refused, whichever way it is named, and changes nothing.
        let stale_etag = format!("\"{}-00000000\"", etag_version(&etag) + 1);
        let checks = Checks { expected_ply: None, etag: &stale_etag, request_id: FIRST };
        let stale = failure(send(&mut games, call, token(white), &game.name, checks).await);
        assert_eq!(
            (stale.code, stale.reason.as_str(), stale.fields),
            (Code::Aborted, "STALE_STATE", vec!["etag".into()])
        );
        let checks = Checks { expected_ply: Some(ply + 1), etag: "", request_id: FIRST };
        let stale = failure(send(&mut games, call, token(white), &game.name, checks).await);
        assert_eq!((stale.code, stale.fields), (Code::Aborted, vec!["expected_ply".to_string()]), "{call:?}");
        // An etag not in the form the server gives them is a mistake, not a stale state.
        for malformed in [etag.trim_matches('"').to_string(), format!("W/{etag}")] {
            let checks = Checks { expected_ply: None, etag: &malformed, request_id: FIRST };
            let refused = failure(send(&mut games, call, token(white), &game.name, checks).await);
            assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["etag".to_string()]), "{call:?}");
        }
        assert_eq!(state(&get_game(&mut games, &game.name).await).etag, etag, "{call:?}: refusals store nothing");

        // The call as the state it names, then its retry: the same answer, nothing stored twice,
        // though the etag and ply it names are now stale.
        let checks = Checks { expected_ply: Some(ply), etag: &etag, request_id: FIRST };
        let first = send(&mut games, call, token(white), &game.name, checks).await.unwrap();
        assert_eq!(etag_version(&state(&first).etag), etag_version(&etag) + 1, "{call:?}");
        let again = send(&mut games, call, token(white), &game.name, checks).await.unwrap();
        assert_eq!(
            (state(&again).etag.as_str(), &state(&again).status),
            (state(&first).etag.as_str(), &state(&first).status)
        );
        assert_eq!(state(&get_game(&mut games, &game.name).await).etag, state(&first).etag, "{call:?}");

        // The id reused for another request is refused, never answered as if it had worked.
        let (other, other_white) = another(call, white);
        let checks = Checks { expected_ply: None, etag: "", request_id: FIRST };
        let reused = failure(send(&mut games, other, token(other_white), &game.name, checks).await);
        assert_eq!((reused.code, reused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]), "{call:?}");
        assert_eq!(state(&get_game(&mut games, &game.name).await).etag, state(&first).etag, "{call:?}");
    }
}

async fn a_retried_create_answers_the_same_game_without_tokens(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let request = CreateGameRequest {
        variant: ITALIAN,
        white: person("Anna"),
        black: person("Bruno"),
        request_id: CREATE.into(),
        ..Default::default()
    };
    let first = games.create_game(request.clone()).await.unwrap().into_inner();
    assert!(!first.tokens_already_issued);
    assert_eq!((first.white_token.len(), first.black_token.len()), (64, 64));
    let name = first.game.as_ref().unwrap().name.clone();

    let second = games.create_game(request.clone()).await.unwrap().into_inner();
    assert_eq!(second.game.as_ref().unwrap().name, name);
    assert!(second.tokens_already_issued);
    assert_eq!((second.white_token.as_str(), second.black_token.as_str()), ("", ""));
    // The first answer's tokens still hold the seats: the retry took nothing from them.
    play(&mut games, &name, &first.white_token, "22-18").await;
    play(&mut games, &name, &first.black_token, "10-14").await;
    // Once play has begun, a retry still answers the game (as it now stands) and no tokens.
    let late = games.create_game(request).await.unwrap().into_inner();
    assert_eq!((late.game.unwrap().state.unwrap().ply, late.tokens_already_issued), (2, true));
    assert_eq!(games.list_games(pb::ListGamesRequest::default()).await.unwrap().into_inner().games.len(), 1);

    // Another request under the same id is refused, not handed someone else's game.
    let other = CreateGameRequest { variant: Variant::Turkish as i32, request_id: CREATE.into(), ..Default::default() };
    let refused = failure(games.create_game(other).await);
    assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]));
}

async fn a_retried_import_answers_the_same_game_without_tokens(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let request = ImportGameRequest {
        pdn: "[White \"Anna\"]\n[Black \"Bruno\"]\n1. 23-19 10-14 2. 19x10 5x14 *\n".into(),
        variant: ITALIAN,
        request_id: IMPORT.into(),
        ..Default::default()
    };
    let first = games.import_game(request.clone()).await.unwrap().into_inner();
    assert!(!first.tokens_already_issued && !first.white_token.is_empty());
    let again = games.import_game(request.clone()).await.unwrap().into_inner();
    assert_eq!(again.game.unwrap().name, first.game.as_ref().unwrap().name);
    assert_eq!((again.white_token.as_str(), again.black_token.as_str(), again.tokens_already_issued), ("", "", true));
    play(&mut games, &first.game.unwrap().name, &first.white_token, "22-18").await;

    // Another record under the same id is refused, though its players are the same.
    let other = ImportGameRequest { pdn: "[White \"Anna\"]\n[Black \"Bruno\"]\n1. 22-18 *\n".into(), ..request };
    let refused = failure(games.import_game(other).await);
    assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]));
}

async fn etags_are_quoted_and_taken_back_as_given(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let (a, b) = (create(&mut games, "", false).await, create(&mut games, "", false).await);
    let etag = |game: &pb::Game| state(game).etag.clone();
    let (a_etag, b_etag) = (etag(&get_game(&mut games, &a.name).await), etag(&get_game(&mut games, &b.name).await));
    // A strong entity tag: a quoted version and digest (etag_version checks the form).
    assert_eq!((etag_version(&a_etag), etag_version(&b_etag)), (0, 0));
    assert_ne!(a_etag, b_etag, "the same version of two games has two etags");

    // Another game's etag is stale here, though it names the same version.
    let move_request = |game: &Created, notation: &str, etag: &str| MakeMoveRequest {
        name: game.name.clone(),
        notation: notation.into(),
        etag: etag.into(),
        ..Default::default()
    };
    let stale = failure(games.make_move(as_seat(&a.white, move_request(&a, "23-19", &b_etag))).await);
    assert_eq!((stale.code, stale.fields), (Code::Aborted, vec!["etag".to_string()]));
    // Each answer's etag is taken back as it was given, move after move.
    let mut current = a_etag;
    for (token, notation) in [(&a.white, "23-19"), (&a.black, "10-14"), (&a.white, "19x10")] {
        let played = games.make_move(as_seat(token, move_request(&a, notation, &current))).await.unwrap().into_inner();
        let next = etag(played.game.as_ref().unwrap());
        assert_eq!(etag_version(&next), etag_version(&current) + 1);
        current = next;
    }
    assert_eq!(etag(&get_game(&mut games, &a.name).await), current);
}
