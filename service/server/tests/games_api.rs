//! `GameService` against a real server, each behaviour once on SQLite and once on PostgreSQL:
//! seats and tokens, moves and their checks, idempotency, draws and the move count, the Turkish
//! options, PDN, watching, the engine's seats, the API key and the rate limit.
//!
//! PostgreSQL tests need `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

#[macro_use]
mod support;

use std::collections::HashMap;
use std::time::Duration;

use damiera_engine::{Game, Variant as EngineVariant};
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{
    self as pb, position_status::State, seat::Player, AnswerDrawRequest, CreateGameRequest, DrawReason,
    ExportPdnRequest, GameOptions, GameView, GetGameRequest, ImportGameRequest, ListGamesRequest, MakeMoveRequest,
    OfferDrawRequest, RequestMoveCountRequest, ResignRequest, Seat, Variant, WatchGameRequest, WinReason,
};
use support::{as_seat, etag_version, failure, get_game, person, wait_until, Backend, TestServer};
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::{Code, Request};

const ITALIAN: i32 = Variant::Italian as i32;
const TURKISH: i32 = Variant::Turkish as i32;

/// Request ids (UUIDs, as the server wants them).
const MOVE_1: &str = "4a8e61c2-2b1d-4f0e-9c3a-000000000001";

on_both_stores!(
    a_created_game_reads_back_and_lists,
    moves_are_checked_and_stored,
    seats_act_only_with_their_own_token,
    a_stale_state_is_refused_and_retries_are_safe,
    twenty_racing_moves_store_exactly_one,
    resigning_ends_the_game,
    draw_offers_are_answered,
    the_fourth_repetition_draws,
    the_move_count_draws_after_forty_king_moves_each,
    the_turkish_options_apply,
    pdn_export_and_import_round_trip,
    endings_and_names_survive_the_pdn_round_trip,
    watchers_see_every_change_and_can_resume,
    watchers_see_every_move_once_in_order_however_fast_they_come,
    an_engine_seat_answers_a_move,
    an_engine_game_plays_itself_to_the_end,
    a_killed_server_keeps_every_answered_move,
    views_hold_the_moves_only_when_asked,
);

// Helpers

/// A server on a fresh database of `backend`; `None` when that store is not available here.
async fn start(backend: Backend, args: &[&str]) -> Option<TestServer> {
    let database = backend.scratch().await?;
    Some(TestServer::start_on(&database, args))
}

fn engine(level: i32, depth: i32) -> Option<Seat> {
    let limits = pb::SearchLimits { depth, ..Default::default() };
    Some(Seat { player: Some(Player::Engine(pb::EngineSeat { level, limits: Some(limits) })) })
}

/// A game between two people, with its tokens.
struct Created {
    name: String,
    white: String,
    black: String,
}

async fn create(games: &mut GameServiceClient<Channel>, variant: i32, fen: &str) -> Created {
    let request = CreateGameRequest {
        variant,
        fen: fen.to_string(),
        white: person("Anna"),
        black: person("Bruno"),
        ..Default::default()
    };
    let response = games.create_game(request).await.expect("the game is created").into_inner();
    Created { name: response.game.expect("a game").name, white: response.white_token, black: response.black_token }
}

async fn play(games: &mut GameServiceClient<Channel>, name: &str, token: &str, notation: &str) -> pb::MakeMoveResponse {
    let request = MakeMoveRequest { name: name.to_string(), notation: notation.to_string(), ..Default::default() };
    games.make_move(as_seat(token, request)).await.unwrap_or_else(|e| panic!("{notation}: {e:?}")).into_inner()
}

fn notations(game: &pb::Game) -> Vec<&str> {
    game.moves.iter().map(|m| m.notation.as_str()).collect()
}

fn status(game: &pb::Game) -> pb::PositionStatus {
    game.state.clone().and_then(|s| s.status).expect("a game has a status")
}

/// `game` without the moment its clocks were read, which differs from one answer to the next.
fn read_at_no_time(mut game: pb::Game) -> pb::Game {
    if let Some(clock) = game.state.as_mut().and_then(|state| state.clock.as_mut()) {
        clock.time = None;
    }
    game
}

// Tests

async fn a_created_game_reads_back_and_lists(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let first = create(&mut games, ITALIAN, "").await;
    // A name short enough to type: ten characters of Crockford's base 32, read in any case.
    let id = first.name.strip_prefix("games/").expect("a game's name");
    assert!(id.len() == 10 && id.bytes().all(|b| b"0123456789abcdefghjkmnpqrstvwxyz".contains(&b)), "{id}");
    let shouted = get_game(&mut games, &format!("games/{}", id.to_uppercase())).await;
    assert_eq!(shouted.name, first.name);
    for token in [&first.white, &first.black] {
        assert_eq!(token.len(), 64, "256 random bits as hex");
    }
    assert_ne!(first.white, first.black);
    let game = get_game(&mut games, &first.name).await;
    assert_eq!(game.variant, ITALIAN);
    assert_eq!(game.start_position.as_ref().unwrap().fen, EngineVariant::Italian.start_fen());
    assert_eq!(game.white, person("Anna"));
    assert_eq!(game.black, person("Bruno"));
    let state = game.state.clone().unwrap();
    assert_eq!((state.ply, etag_version(&state.etag), status(&game).state), (0, 0, State::Ongoing as i32));
    assert!(game.create_time.is_some() && state.update_time.is_some());

    // Creation times are milliseconds: games made within one are listed by id, not by age.
    tokio::time::sleep(Duration::from_millis(2)).await;
    let turkish = create(&mut games, TURKISH, "").await;
    tokio::time::sleep(Duration::from_millis(2)).await;
    let second_italian = create(&mut games, ITALIAN, "").await;
    let resign = ResignRequest { name: second_italian.name.clone(), ..Default::default() };
    games.resign(as_seat(&second_italian.black, resign)).await.unwrap();

    let list = |variant, state, page_size, page_token: &str| ListGamesRequest {
        variant,
        state: state as i32,
        page_size,
        page_token: page_token.to_string(),
        ..Default::default()
    };
    let names =
        |response: &pb::ListGamesResponse| response.games.iter().map(|g| g.name.clone()).collect::<Vec<String>>();
    let all = games.list_games(list(0, State::Unspecified, 0, "")).await.unwrap().into_inner();
    assert_eq!(
        names(&all),
        vec![second_italian.name.clone(), turkish.name.clone(), first.name.clone()],
        "newest first"
    );
    assert_eq!(all.next_page_token, "");
    let italian = games.list_games(list(ITALIAN, State::Unspecified, 0, "")).await.unwrap().into_inner();
    assert_eq!(names(&italian), vec![second_italian.name.clone(), first.name.clone()]);
    let won = games.list_games(list(ITALIAN, State::Won, 0, "")).await.unwrap().into_inner();
    assert_eq!(names(&won), vec![second_italian.name.clone()]);

    let page_one = games.list_games(list(0, State::Unspecified, 2, "")).await.unwrap().into_inner();
    assert_eq!(names(&page_one), vec![second_italian.name.clone(), turkish.name.clone()]);
    let page_two =
        games.list_games(list(0, State::Unspecified, 2, &page_one.next_page_token)).await.unwrap().into_inner();
    assert_eq!(names(&page_two), vec![first.name.clone()]);
    assert_eq!(page_two.next_page_token, "");

    // Page tokens are opaque (the cursor is not readable in them) and bound to their filters.
    assert!(!page_one.next_page_token.contains(&turkish.name[6..]), "{}", page_one.next_page_token);
    let page_size_changed =
        games.list_games(list(0, State::Unspecified, 5, &page_one.next_page_token)).await.unwrap().into_inner();
    assert_eq!(names(&page_size_changed), vec![first.name.clone()]);
    let hex_offset = "31373635303030303030303a6162"; // the old form: "<time>:<id>" as hex
    let mut altered = page_one.next_page_token.clone();
    altered.replace_range(..1, if altered.starts_with('A') { "B" } else { "A" });
    for token in ["zz", hex_offset, altered.as_str()] {
        let bad = failure(games.list_games(list(0, State::Unspecified, 2, token)).await);
        assert_eq!(
            (bad.code, bad.reason.as_str(), bad.fields),
            (Code::InvalidArgument, "INVALID_ARGUMENT", vec!["page_token".to_string()]),
            "{token}"
        );
    }
    for (variant, state) in [(ITALIAN, State::Unspecified), (0, State::Won)] {
        let other_filters = failure(games.list_games(list(variant, state, 2, &page_one.next_page_token)).await);
        assert_eq!((other_filters.code, other_filters.fields), (Code::InvalidArgument, vec!["page_token".to_string()]));
        assert!(other_filters.message.contains("other filters"), "{}", other_filters.message);
    }
    let unknown =
        failure(games.get_game(GetGameRequest { name: "games/0123456789abcdef".into(), ..Default::default() }).await);
    assert_eq!((unknown.code, unknown.reason.as_str()), (Code::NotFound, "GAME_NOT_FOUND"));
    let badly_named = failure(games.get_game(GetGameRequest { name: "game/1".into(), ..Default::default() }).await);
    assert_eq!((badly_named.code, badly_named.fields), (Code::InvalidArgument, vec!["name".to_string()]));
}

async fn moves_are_checked_and_stored(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let played = play(&mut games, &game.name, &game.white, "23-19").await;
    let stored = played.played_move.unwrap();
    assert_eq!((stored.ply, stored.notation.as_str(), stored.color), (0, "23-19", pb::Color::White as i32));
    assert_eq!(stored.structured.unwrap().to_square, "19");
    play(&mut games, &game.name, &game.black, "10-14").await;
    // A short capture is stored in full notation.
    let capture = play(&mut games, &game.name, &game.white, "19x10").await;
    assert_eq!(capture.played_move.unwrap().notation, "19x10");

    let request =
        |notation: &str| MakeMoveRequest { name: game.name.clone(), notation: notation.into(), ..Default::default() };
    let out_of_turn = failure(games.make_move(as_seat(&game.white, request("22-18"))).await);
    assert_eq!((out_of_turn.code, out_of_turn.reason.as_str()), (Code::FailedPrecondition, "NOT_YOUR_TURN"));
    let illegal = failure(games.make_move(as_seat(&game.black, request("12-16"))).await);
    assert_eq!((illegal.code, illegal.reason.as_str()), (Code::InvalidArgument, "ILLEGAL_MOVE"));
    assert_eq!(illegal.metadata["legalMoves"], "5x14 6x13", "the capture is mandatory");
    assert_eq!(illegal.fields, ["notation"]);

    let read = get_game(&mut games, &game.name).await;
    assert_eq!(notations(&read), ["23-19", "10-14", "19x10"]);
    assert_eq!(read.state.unwrap().ply, 3);
}

async fn seats_act_only_with_their_own_token(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let other = create(&mut games, ITALIAN, "").await;
    let request = || MakeMoveRequest { name: game.name.clone(), notation: "23-19".into(), ..Default::default() };
    let missing = failure(games.make_move(request()).await);
    assert_eq!((missing.code, missing.reason.as_str()), (Code::Unauthenticated, "MISSING_TOKEN"));
    let foreign = failure(games.make_move(as_seat(&other.white, request())).await);
    assert_eq!((foreign.code, foreign.reason.as_str()), (Code::PermissionDenied, "WRONG_TOKEN"));
    let made_up = failure(games.make_move(as_seat(&"0".repeat(64), request())).await);
    assert_eq!((made_up.code, made_up.reason.as_str()), (Code::PermissionDenied, "WRONG_TOKEN"));
    // Black's token cannot move White's men, nor resign for White.
    let wrong_seat = failure(games.make_move(as_seat(&game.black, request())).await);
    assert_eq!(wrong_seat.reason, "NOT_YOUR_TURN");
    games.resign(as_seat(&game.black, ResignRequest { name: game.name.clone(), ..Default::default() })).await.unwrap();
    assert_eq!(status(&get_game(&mut games, &game.name).await).winner, pb::Color::White as i32);
}

async fn a_stale_state_is_refused_and_retries_are_safe(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let request = |notation: &str, expected_ply, etag: &str, request_id: &str| MakeMoveRequest {
        name: game.name.clone(),
        notation: notation.into(),
        expected_ply,
        etag: etag.into(),
        request_id: request_id.into(),
        ..Default::default()
    };
    let stale = failure(games.make_move(as_seat(&game.white, request("23-19", Some(1), "", ""))).await);
    assert_eq!(
        (stale.code, stale.reason.as_str(), stale.fields),
        (Code::Aborted, "STALE_STATE", vec!["expected_ply".to_string()])
    );
    let stale = failure(games.make_move(as_seat(&game.white, request("23-19", None, "\"7-00000000\"", ""))).await);
    assert_eq!((stale.code, stale.fields), (Code::Aborted, vec!["etag".to_string()]));

    let etag = get_game(&mut games, &game.name).await.state.unwrap().etag;
    let first =
        games.make_move(as_seat(&game.white, request("23-19", Some(0), &etag, MOVE_1))).await.unwrap().into_inner();
    // The same request again (a retry after a lost answer) answers the stored move, not an error.
    let retry = MakeMoveRequest { view: GameView::Full as i32, ..request("23-19", Some(0), &etag, MOVE_1) };
    let again = games.make_move(as_seat(&game.white, retry)).await.unwrap().into_inner();
    assert_eq!(first.played_move, again.played_move);
    assert_eq!(notations(&again.game.unwrap()), ["23-19"]);
    // The id reused for another call is refused, never answered as if it had worked.
    let reused = failure(games.make_move(as_seat(&game.black, request("10-14", None, "", MOVE_1))).await);
    assert_eq!((reused.code, reused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]));
    let reused = failure(games.make_move(as_seat(&game.white, request("zz-yy", None, "", MOVE_1))).await);
    assert_eq!(reused.fields, ["request_id"]);
    assert_eq!(etag_version(&get_game(&mut games, &game.name).await.state.unwrap().etag), 1);
}

async fn twenty_racing_moves_store_exactly_one(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let opening = ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"];
    let mut calls = Vec::new();
    for i in 0..20 {
        let mut client = server.games().await;
        let request = MakeMoveRequest {
            name: game.name.clone(),
            notation: opening[i % opening.len()].into(),
            expected_ply: Some(0),
            ..Default::default()
        };
        let token = game.white.clone();
        calls.push(tokio::spawn(async move { client.make_move(as_seat(&token, request)).await }));
    }
    let mut codes: HashMap<Code, usize> = HashMap::new();
    for call in calls {
        let code = match call.await.unwrap() {
            Ok(_) => Code::Ok,
            Err(status) => status.code(),
        };
        *codes.entry(code).or_default() += 1;
    }
    assert_eq!(codes, HashMap::from([(Code::Ok, 1), (Code::Aborted, 19)]));
    assert_eq!(get_game(&mut games, &game.name).await.moves.len(), 1);
}

async fn resigning_ends_the_game(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    play(&mut games, &game.name, &game.white, "22-18").await;
    let over = games
        .resign(as_seat(&game.black, ResignRequest { name: game.name.clone(), ..Default::default() }))
        .await
        .unwrap()
        .into_inner();
    let status = status(&over.game.unwrap());
    assert_eq!(
        (status.state, status.winner, status.win_reason),
        (State::Won as i32, pb::Color::White as i32, WinReason::Resignation as i32)
    );
    let request = MakeMoveRequest { name: game.name.clone(), notation: "10-14".into(), ..Default::default() };
    let after = failure(games.make_move(as_seat(&game.black, request)).await);
    assert_eq!((after.code, after.reason.as_str()), (Code::FailedPrecondition, "GAME_OVER"));
}

async fn draw_offers_are_answered(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let name = || game.name.clone();
    let answer = |accept| AnswerDrawRequest { name: name(), accept, ..Default::default() };
    let none = failure(games.answer_draw(as_seat(&game.black, answer(true))).await);
    assert_eq!((none.code, none.reason.as_str()), (Code::FailedPrecondition, "NO_DRAW_OFFER"));

    let offered = games
        .offer_draw(as_seat(&game.white, OfferDrawRequest { name: name(), ..Default::default() }))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(offered.game.unwrap().state.unwrap().draw_offer, pb::Color::White as i32);
    let twice =
        failure(games.offer_draw(as_seat(&game.white, OfferDrawRequest { name: name(), ..Default::default() })).await);
    assert_eq!(twice.reason, "DRAW_ALREADY_OFFERED");
    // The offerer cannot accept its own offer.
    assert_eq!(failure(games.answer_draw(as_seat(&game.white, answer(true))).await).reason, "NO_DRAW_OFFER");
    let declined = games.answer_draw(as_seat(&game.black, answer(false))).await.unwrap().into_inner().game.unwrap();
    assert_eq!((declined.state.as_ref().unwrap().draw_offer, status(&declined).state), (0, State::Ongoing as i32));

    // An offer is declined by moving on.
    play(&mut games, &game.name, &game.white, "22-18").await;
    games.offer_draw(as_seat(&game.white, OfferDrawRequest { name: name(), ..Default::default() })).await.unwrap();
    let moved = play(&mut games, &game.name, &game.black, "10-14").await.game.unwrap();
    assert_eq!(moved.state.unwrap().draw_offer, 0);

    games.offer_draw(as_seat(&game.black, OfferDrawRequest { name: name(), ..Default::default() })).await.unwrap();
    let drawn = games.answer_draw(as_seat(&game.white, answer(true))).await.unwrap().into_inner().game.unwrap();
    let status = status(&drawn);
    assert_eq!((status.state, status.draw_reason), (State::Drawn as i32, DrawReason::Agreement as i32));
}

async fn the_fourth_repetition_draws(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "W:WK29,K32:BK1,K4").await;
    let cycle = [(&game.white, "29-25"), (&game.black, "1-5"), (&game.white, "25-29"), (&game.black, "5-1")];
    let mut last = None;
    for (token, notation) in cycle.iter().cycle().take(12) {
        last = play(&mut games, &game.name, token, notation).await.game;
    }
    let status = status(&last.unwrap());
    assert_eq!((status.state, status.draw_reason), (State::Drawn as i32, DrawReason::Repetition as i32));
}

async fn the_move_count_draws_after_forty_king_moves_each(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let fen = "W:WK29,K32:BK1,K4";
    let game = create(&mut games, ITALIAN, fen).await;
    let turkish = create(&mut games, TURKISH, "").await;
    let refused = failure(
        games
            .request_move_count(as_seat(
                &turkish.white,
                RequestMoveCountRequest { name: turkish.name, ..Default::default() },
            ))
            .await,
    );
    assert_eq!((refused.code, refused.reason.as_str()), (Code::FailedPrecondition, "MOVE_COUNT_REFUSED"));

    let counted = games
        .request_move_count(as_seat(
            &game.white,
            RequestMoveCountRequest { name: game.name.clone(), ..Default::default() },
        ))
        .await;
    let count = counted.unwrap().into_inner().game.unwrap().state.unwrap().move_count.unwrap();
    assert_eq!((count.requested_by, count.started_at_ply, count.limit), (pb::Color::White as i32, 0, 40));

    // 80 king moves that never repeat a position four times and never allow a capture.
    let mut local = Game::from_position(damiera_engine::fen::parse(EngineVariant::Italian, fen).unwrap());
    let mut last = None;
    for ply in 0..80 {
        let position = *local.position();
        let choice = position
            .legal_moves()
            .into_iter()
            .filter(|mv| !mv.is_capture() && !position.play(mv).unwrap().must_capture())
            .min_by_key(|mv| {
                let next = position.play(mv).unwrap();
                local.positions().iter().filter(|p| **p == next).count()
            })
            .expect("a quiet move that offers no capture");
        let text = damiera_engine::notation::write(EngineVariant::Italian, &choice);
        local.play(&text).unwrap();
        let token = if ply % 2 == 0 { &game.white } else { &game.black };
        let answer = play(&mut games, &game.name, token, &text).await.game.unwrap();
        if ply < 79 {
            assert_eq!(status(&answer).state, State::Ongoing as i32, "after ply {ply}");
        }
        last = Some(answer);
    }
    let last = last.unwrap();
    let count = last.state.clone().unwrap().move_count.unwrap();
    assert_eq!((count.white_king_moves, count.black_king_moves), (40, 40));
    let status = status(&last);
    assert_eq!((status.state, status.draw_reason), (State::Drawn as i32, DrawReason::MoveCount as i32));
}

async fn the_turkish_options_apply(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let options = |first_mover: pb::FirstMover, forfeit| {
        Some(GameOptions { first_mover: first_mover as i32, forfeit_on_capture_fault: forfeit, ..Default::default() })
    };
    let black_first =
        CreateGameRequest { variant: TURKISH, options: options(pb::FirstMover::Black, false), ..Default::default() };
    let game = games.create_game(black_first).await.unwrap().into_inner().game.unwrap();
    assert_eq!(game.state.unwrap().position.unwrap().side_to_move, pb::Color::Black as i32);
    assert_eq!(game.options.unwrap().first_mover, pb::FirstMover::Black as i32);
    let italian_black_first =
        CreateGameRequest { variant: ITALIAN, options: options(pb::FirstMover::Black, false), ..Default::default() };
    let refused = failure(games.create_game(italian_black_first).await);
    assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["options.first_mover".to_string()]));

    // White must capture d4xd6 (the man on d5); playing a3-a4 instead is a capture fault.
    let fen = "W:Wa3,d4:Bd5,h7";
    let strict = CreateGameRequest {
        variant: TURKISH,
        fen: fen.into(),
        white: person("A"),
        black: person("B"),
        ..Default::default()
    };
    let strict = games.create_game(strict).await.unwrap().into_inner();
    let fault = || MakeMoveRequest {
        name: strict.game.as_ref().unwrap().name.clone(),
        notation: "a3-a4".into(),
        ..Default::default()
    };
    assert_eq!(failure(games.make_move(as_seat(&strict.white_token, fault())).await).reason, "ILLEGAL_MOVE");

    let forfeit = CreateGameRequest {
        variant: TURKISH,
        fen: fen.into(),
        white: person("A"),
        black: person("B"),
        options: options(pb::FirstMover::Unspecified, true),
        ..Default::default()
    };
    let forfeit = games.create_game(forfeit).await.unwrap().into_inner();
    let name = forfeit.game.unwrap().name;
    let request = MakeMoveRequest { name: name.clone(), notation: "a3-a4".into(), ..Default::default() };
    let lost = games.make_move(as_seat(&forfeit.white_token, request)).await.unwrap().into_inner();
    assert_eq!(lost.played_move.unwrap().notation, "a3-a4");
    let state = lost.game.unwrap().state.unwrap();
    let status = state.status.unwrap();
    assert_eq!(
        (status.state, status.winner, status.win_reason, state.forfeited_move.as_str()),
        (State::Won as i32, pb::Color::Black as i32, WinReason::CaptureFault as i32, "a3-a4")
    );
    assert_eq!(
        notations(&get_game(&mut games, &name).await),
        Vec::<&str>::new(),
        "the fault is not a move of the record"
    );
}

async fn pdn_export_and_import_round_trip(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    for (token, notation) in
        [(&game.white, "23-19"), (&game.black, "10-14"), (&game.white, "19x10"), (&game.black, "5x14")]
    {
        play(&mut games, &game.name, token, notation).await;
    }
    let pdn = games.export_pdn(ExportPdnRequest { name: game.name.clone() }).await.unwrap().into_inner().pdn;
    assert!(pdn.contains("[White \"Anna\"]\n[Black \"Bruno\"]\n[Result \"*\"]\n"), "{pdn}");
    assert!(pdn.ends_with("1. 23-19 10-14 2. 19x10 5x14 *\n"), "{pdn}");

    let import = ImportGameRequest { pdn: pdn.clone(), variant: ITALIAN, ..Default::default() };
    let imported = games.import_game(import).await.unwrap().into_inner();
    let copy = imported.game.unwrap();
    assert_eq!(notations(&copy), ["23-19", "10-14", "19x10", "5x14"]);
    assert_eq!((copy.white, copy.black), (person("Anna"), person("Bruno")));
    // The copy goes on: White's token from the import moves.
    play(&mut games, &copy.name, &imported.white_token, "22-18").await;
    let again = games.export_pdn(ExportPdnRequest { name: copy.name.clone() }).await.unwrap().into_inner().pdn;
    assert!(again.ends_with("1. 23-19 10-14 2. 19x10 5x14 3. 22-18 *\n"), "{again}");

    // A declared result the board does not show is a resignation.
    let resigned = ImportGameRequest { pdn: pdn.replace('*', "1-0"), ..Default::default() };
    let resigned = games.import_game(resigned).await.unwrap().into_inner().game.unwrap();
    let status = status(&resigned);
    assert_eq!((status.winner, status.win_reason), (pb::Color::White as i32, WinReason::Resignation as i32));

    let illegal = ImportGameRequest { pdn: "1. 23-19 10-15 *".into(), ..Default::default() };
    let refused = failure(games.import_game(illegal).await);
    assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["pdn".to_string()]));
    assert!(refused.message.contains("10-15"), "{}", refused.message);
}

async fn endings_and_names_survive_the_pdn_round_trip(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let import = |pdn: String| ImportGameRequest { pdn, ..Default::default() };
    let export = |game: &pb::Game| ExportPdnRequest { name: game.name.clone() };
    let opening = "1. 23-19 10-14 2. 19x10 5x14";
    // Endings the board does not show come back with their reason, through export and import.
    for (termination, result, winner, reason) in [
        ("time forfeit", "0-1", pb::Color::Black, WinReason::Time),
        ("abandoned", "1-0", pb::Color::White, WinReason::Abandonment),
        ("normal", "1-0", pb::Color::White, WinReason::Resignation),
    ] {
        let pdn = format!("[Termination \"{termination}\"]\n\n{opening} {result}\n");
        let imported = games.import_game(import(pdn)).await.unwrap().into_inner().game.unwrap();
        assert_eq!((status(&imported).winner, status(&imported).win_reason), (winner as i32, reason as i32));
        let exported = games.export_pdn(export(&imported)).await.unwrap().into_inner().pdn;
        assert!(exported.contains(&format!("[Termination \"{termination}\"]\n")), "{exported}");
        assert!(exported.ends_with(&format!("{opening} {result}\n")), "{exported}");
        let again = games.import_game(import(exported)).await.unwrap().into_inner().game.unwrap();
        assert_eq!(status(&again), status(&imported), "{termination}");
    }
    // A hosted resignation exports as a normal ending, and imports as a resignation again.
    let game = create(&mut games, ITALIAN, "").await;
    let resign = ResignRequest { name: game.name.clone(), ..Default::default() };
    let resigned = games.resign(as_seat(&game.white, resign)).await.unwrap().into_inner().game.unwrap();
    let exported = games.export_pdn(export(&resigned)).await.unwrap().into_inner().pdn;
    assert!(exported.contains("[Result \"0-1\"]\n") && exported.contains("[Termination \"normal\"]\n"), "{exported}");
    let again = games.import_game(import(exported)).await.unwrap().into_inner().game.unwrap();
    assert_eq!(status(&again).win_reason, WinReason::Resignation as i32);

    // A name with a line break is refused where it comes in, so it never breaks a PDN tag; quotes
    // and backslashes are escaped and read back.
    let broken = CreateGameRequest { variant: ITALIAN, white: person("Anna\n[Black \"x\"]"), ..Default::default() };
    let refused = failure(games.create_game(broken).await);
    assert_eq!(
        (refused.code, refused.reason.as_str(), refused.fields),
        (Code::InvalidArgument, "INVALID_ARGUMENT", vec!["white.person.display_name".to_string()])
    );
    assert!(refused.message.contains("control character"), "{}", refused.message);
    let quoted = r#"Rossi, "Il Dottore" \ Mario"#;
    let request = CreateGameRequest { variant: ITALIAN, white: person(quoted), ..Default::default() };
    let made = games.create_game(request).await.unwrap().into_inner().game.unwrap();
    let exported = games.export_pdn(export(&made)).await.unwrap().into_inner().pdn;
    let copy = games.import_game(import(exported)).await.unwrap().into_inner().game.unwrap();
    assert_eq!(copy.white, person(quoted));
    // A tab in a PDN tag that would name a seat is refused too (a line break cannot be in a tag).
    let tabbed = import(format!("[White \"Anna\tB\"]\n\n{opening} *\n"));
    assert_eq!(failure(games.import_game(tabbed).await).fields, vec!["pdn".to_string()]);
}

async fn watchers_see_every_change_and_can_resume(backend: Backend) {
    let Some(server) = start(backend, &["--watch-keepalive", "300ms"]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let watch = |from_ply| WatchGameRequest { name: game.name.clone(), from_ply };
    let mut stream = games.watch_game(watch(None)).await.unwrap().into_inner();
    let mut next =
        async || stream.next().await.expect("the stream goes on").expect("no error").event.expect("an event");
    let Event::Game(first) = next().await else { panic!("the first message is the game") };
    assert_eq!(first.name, game.name);

    play(&mut games, &game.name, &game.white, "22-18").await;
    let Event::Update(update) = next().await else { panic!("a move is an update") };
    assert_eq!(update.moves.iter().map(|m| m.notation.as_str()).collect::<Vec<_>>(), ["22-18"]);
    assert_eq!(update.state.unwrap().ply, 1);
    // Nothing happens: keep-alives.
    assert!(matches!(next().await, Event::KeepAlive(_)));

    play(&mut games, &game.name, &game.black, "10-14").await;
    let Event::Update(update) = next().await else { panic!("a move is an update") };
    assert_eq!(update.moves[0].notation, "10-14");

    // Resuming from ply 1: the moves since, then the state.
    let mut resumed = games.watch_game(watch(Some(1))).await.unwrap().into_inner();
    let Some(Ok(pb::WatchGameResponse { event: Some(Event::Update(since)) })) = resumed.next().await else {
        panic!("a resumed stream starts with an update")
    };
    assert_eq!(since.moves.iter().map(|m| (m.ply, m.notation.as_str())).collect::<Vec<_>>(), [(1, "10-14")]);
    let too_far = failure(games.watch_game(watch(Some(5))).await);
    assert_eq!(too_far.fields, ["from_ply"]);

    // The game ends: the last update shows it, then the stream ends.
    games.resign(as_seat(&game.white, ResignRequest { name: game.name.clone(), ..Default::default() })).await.unwrap();
    let Event::Update(last) = next().await else { panic!("the resignation is an update") };
    assert_eq!(last.state.unwrap().status.unwrap().win_reason, WinReason::Resignation as i32);
    assert!(stream.next().await.is_none(), "the stream ends with the game");
}

/// Moves played back to back, with no wait for the watchers, reach each watcher once each and in
/// order (several changes may come in one update), and the last update shows the end.
async fn watchers_see_every_move_once_in_order_however_fast_they_come(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let mut watchers = Vec::new();
    for _ in 0..3 {
        let request = WatchGameRequest { name: game.name.clone(), from_ply: None };
        watchers.push(games.watch_game(request).await.unwrap().into_inner());
    }
    // Thirty plies of the first legal move each time, then a resignation, as fast as they go.
    let mut position = damiera_engine::Position::start(EngineVariant::Italian);
    let mut played = Vec::new();
    for ply in 0..30 {
        let Some(mv) = position.legal_moves().first().cloned() else { break };
        let notation = damiera_engine::notation::write(EngineVariant::Italian, &mv);
        let token = if ply % 2 == 0 { &game.white } else { &game.black };
        play(&mut games, &game.name, token, &notation).await;
        position = position.play_unchecked(&mv);
        played.push(notation);
    }
    let resigner = if played.len() % 2 == 0 { &game.white } else { &game.black };
    games.resign(as_seat(resigner, ResignRequest { name: game.name.clone(), ..Default::default() })).await.unwrap();

    for mut stream in watchers {
        let (mut seen, mut last_state) = (Vec::new(), None);
        while let Some(message) = stream.next().await {
            match message.expect("no error").event.expect("an event") {
                Event::Game(game) => seen.extend(game.moves.into_iter().map(|m| (m.ply, m.notation))),
                Event::Update(update) => {
                    seen.extend(update.moves.into_iter().map(|m| (m.ply, m.notation)));
                    last_state = update.state;
                }
                Event::KeepAlive(_) => {}
            }
        }
        let expected: Vec<(i32, String)> = played.iter().cloned().enumerate().map(|(i, n)| (i as i32, n)).collect();
        assert_eq!(seen, expected, "every move once, in order");
        let status = last_state.and_then(|state| state.status).expect("the last update has a status");
        assert_eq!(status.win_reason, WinReason::Resignation as i32);
    }
}

async fn an_engine_seat_answers_a_move(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let request =
        CreateGameRequest { variant: ITALIAN, white: person("Anna"), black: engine(20, 4), ..Default::default() };
    let created = games.create_game(request).await.unwrap().into_inner();
    assert_eq!(created.black_token, "", "an engine seat has no token");
    let name = created.game.unwrap().name;
    let mut stream =
        games.watch_game(WatchGameRequest { name: name.clone(), from_ply: None }).await.unwrap().into_inner();
    stream.next().await.unwrap().unwrap();
    play(&mut games, &name, &created.white_token, "22-18").await;
    let mut seen = Vec::new();
    while seen.len() < 2 {
        if let Some(Event::Update(update)) = stream.next().await.unwrap().unwrap().event {
            seen.extend(update.moves.into_iter().map(|m| (m.ply, m.color)));
        }
    }
    assert_eq!(
        seen,
        [(0, pb::Color::White as i32), (1, pb::Color::Black as i32)],
        "the engine's move reaches watchers"
    );

    // Offered a draw at the start, the engine (not behind) accepts.
    let offer = OfferDrawRequest { name: name.clone(), ..Default::default() };
    games.offer_draw(as_seat(&created.white_token, offer)).await.unwrap();
    let settled = wait_until(&mut games, &name, |g| g.state.as_ref().unwrap().draw_offer == 0).await;
    let state = status(&settled).state;
    assert!(state == State::Drawn as i32 || state == State::Ongoing as i32, "{settled:?}");
}

async fn an_engine_game_plays_itself_to_the_end(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    // Two white men against one black man: a short ending.
    let request = CreateGameRequest {
        variant: ITALIAN,
        fen: "W:W21,22:B4".into(),
        white: engine(20, 6),
        black: engine(20, 6),
        ..Default::default()
    };
    let name = games.create_game(request).await.unwrap().into_inner().game.unwrap().name;
    let over = wait_until(&mut games, &name, |g| status(g).state != State::Ongoing as i32).await;
    assert_eq!(status(&over).winner, pb::Color::White as i32, "{:?}", notations(&over));
    assert!(over.moves.len() > 4, "{:?}", notations(&over));
}

async fn a_killed_server_keeps_every_answered_move(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let mut server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let moves = [(&game.white, "23-19"), (&game.black, "10-14"), (&game.white, "19x10"), (&game.black, "5x14")];
    for (token, notation) in moves {
        play(&mut games, &game.name, token, notation).await;
    }
    server.kill();
    let restarted = TestServer::start_on(&database, &[]);
    let mut games = restarted.games().await;
    assert_eq!(notations(&get_game(&mut games, &game.name).await), ["23-19", "10-14", "19x10", "5x14"]);
    play(&mut games, &game.name, &game.white, "22-18").await;
}

// Guards and limits (one store is enough: they act before the store)

async fn views_hold_the_moves_only_when_asked(backend: Backend) {
    let Some(server) = start(backend, &[]).await else { return };
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    play(&mut games, &game.name, &game.white, "23-19").await;
    // An action answers GAME_VIEW_BASIC by default: the state, no moves; MakeMove has its move.
    let basic = play(&mut games, &game.name, &game.black, "10-14").await;
    assert_eq!(basic.played_move.as_ref().map(|m| (m.ply, m.notation.as_str())), Some((1, "10-14")));
    let answered = basic.game.unwrap();
    assert_eq!((answered.moves.len(), answered.state.unwrap().ply), (0, 2));
    let full = MakeMoveRequest {
        name: game.name.clone(),
        notation: "19x10".into(),
        view: GameView::Full as i32,
        ..Default::default()
    };
    let full = games.make_move(as_seat(&game.white, full)).await.unwrap().into_inner().game.unwrap();
    assert_eq!(notations(&full), ["23-19", "10-14", "19x10"]);
    // An unknown view is refused before the action is taken.
    let bad = MakeMoveRequest { name: game.name.clone(), notation: "5x14".into(), view: 9, ..Default::default() };
    let refused = failure(games.make_move(as_seat(&game.black, bad)).await);
    assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["view".to_string()]));

    // GetGame: GAME_VIEW_FULL by default, the same game without its moves in GAME_VIEW_BASIC.
    // Each answer reads the clocks when it is made: compared without that moment.
    let full = read_at_no_time(full);
    let read = read_at_no_time(get_game(&mut games, &game.name).await);
    assert_eq!(read, full);
    let request = GetGameRequest { name: game.name.clone(), view: GameView::Basic as i32 };
    let read_basic = read_at_no_time(games.get_game(request).await.unwrap().into_inner().game.unwrap());
    assert_eq!(read_basic, pb::Game { moves: Vec::new(), ..full.clone() });

    // ListGames: GAME_VIEW_BASIC by default.
    let listed = games.list_games(ListGamesRequest::default()).await.unwrap().into_inner().games;
    assert_eq!(listed.into_iter().map(read_at_no_time).collect::<Vec<_>>(), [read_basic]);
    let request = ListGamesRequest { view: GameView::Full as i32, ..Default::default() };
    let listed = games.list_games(request).await.unwrap().into_inner().games;
    assert_eq!(listed.into_iter().map(read_at_no_time).collect::<Vec<_>>(), [full]);

    // The other actions: BASIC by default, FULL when asked.
    let offer = OfferDrawRequest { name: game.name.clone(), view: GameView::Full as i32, ..Default::default() };
    let offered = games.offer_draw(as_seat(&game.black, offer)).await.unwrap().into_inner().game.unwrap();
    assert_eq!(notations(&offered), ["23-19", "10-14", "19x10"]);
    let answer = AnswerDrawRequest { name: game.name.clone(), ..Default::default() };
    let declined = games.answer_draw(as_seat(&game.white, answer)).await.unwrap().into_inner().game.unwrap();
    assert_eq!((declined.moves.len(), declined.state.unwrap().ply), (0, 3));
    let resign = ResignRequest { name: game.name.clone(), ..Default::default() };
    let resigned = games.resign(as_seat(&game.black, resign)).await.unwrap().into_inner().game.unwrap();
    assert_eq!((resigned.moves.len(), status(&resigned).winner), (0, pb::Color::White as i32));
}

#[tokio::test]
async fn negative_counts_are_refused_with_the_field() {
    let server = TestServer::start(&[]);
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let expect_negative = |failed: support::ApiFailure, field: &str| {
        assert_eq!(
            (failed.code, failed.reason.as_str(), failed.fields),
            (Code::InvalidArgument, "INVALID_ARGUMENT", vec![field.to_string()])
        );
        assert!(failed.message.ends_with("is negative: give 0 or more"), "{}", failed.message);
    };
    let list = ListGamesRequest { page_size: -1, ..Default::default() };
    expect_negative(failure(games.list_games(list).await), "page_size");
    let request = MakeMoveRequest {
        name: game.name.clone(),
        notation: "22-18".into(),
        expected_ply: Some(-1),
        ..Default::default()
    };
    expect_negative(failure(games.make_move(as_seat(&game.white, request)).await), "expected_ply");
    let watch = WatchGameRequest { name: game.name.clone(), from_ply: Some(-1) };
    expect_negative(failure(games.watch_game(watch).await), "from_ply");
    let correspondence = pb::TimeControl { kind: Some(pb::time_control::Kind::DaysPerMove(-3)) };
    let options = GameOptions { time_control: Some(correspondence), ..Default::default() };
    let request = CreateGameRequest { variant: ITALIAN, options: Some(options), ..Default::default() };
    expect_negative(failure(games.create_game(request).await), "options.time_control.days_per_move");
    let request = CreateGameRequest { variant: ITALIAN, black: engine(-1, 2), ..Default::default() };
    expect_negative(failure(games.create_game(request).await), "black.engine.level");
    let review = pb::ReviewGameRequest {
        game: Some(pb::review_game_request::Game::Name(game.name.clone())),
        chart_width: -640,
        ..Default::default()
    };
    expect_negative(failure(games.review_game(review).await), "chart_width");
    // Nothing was played.
    assert_eq!(get_game(&mut games, &game.name).await.state.unwrap().ply, 0);
}

#[tokio::test]
async fn an_api_key_guards_every_call_but_health() {
    let server = TestServer::start(&["--api-key", "s3cret"]);
    let mut games = server.games().await;
    let refused = failure(games.list_games(ListGamesRequest::default()).await);
    assert_eq!((refused.code, refused.reason.as_str()), (Code::Unauthenticated, "API_KEY_REQUIRED"));
    let mut wrong = Request::new(ListGamesRequest::default());
    wrong.metadata_mut().insert("x-api-key", "guess".parse().unwrap());
    assert_eq!(failure(games.list_games(wrong).await).reason, "API_KEY_REQUIRED");
    let mut right = Request::new(ListGamesRequest::default());
    right.metadata_mut().insert("x-api-key", "s3cret".parse().unwrap());
    assert_eq!(games.list_games(right).await.unwrap().into_inner().games.len(), 0);
    let mut health = tonic_health::pb::health_client::HealthClient::new(server.channel().await);
    health.check(tonic_health::pb::HealthCheckRequest::default()).await.expect("health needs no key");
}

#[tokio::test]
async fn a_client_over_its_rate_is_told_when_to_come_back() {
    let server = TestServer::start(&["--rate-limit", "1"]);
    let mut games = server.games().await;
    let mut answers = Vec::new();
    for _ in 0..5 {
        answers.push(games.list_games(ListGamesRequest::default()).await);
    }
    let allowed = answers.iter().take_while(|a| a.is_ok()).count();
    assert_eq!(allowed, 2, "a burst of twice the rate passes");
    let limited = failure(answers.pop().unwrap());
    assert_eq!((limited.code, limited.reason.as_str()), (Code::ResourceExhausted, "RATE_LIMITED"));
    let delay = limited.retry_delay.expect("a RetryInfo");
    assert!(delay > Duration::ZERO && delay <= Duration::from_secs(1), "{delay:?}");
}

#[tokio::test]
async fn an_oversized_pdn_is_refused_unread() {
    let server = TestServer::start(&["--max-pdn-bytes", "4096"]);
    let mut games = server.games().await;
    let moves = "1. 23-19 10-14 ".repeat(400);
    let refused = failure(games.import_game(ImportGameRequest { pdn: moves, ..Default::default() }).await);
    assert_eq!(
        (refused.code, refused.reason.as_str(), refused.fields),
        (Code::InvalidArgument, "LIMIT_EXCEEDED", vec!["pdn".to_string()])
    );
    assert_eq!(refused.metadata["maximum"], "4096 bytes");
    // Ten megabytes never reach the parser: the transport refuses the message.
    let huge = ImportGameRequest { pdn: "x".repeat(10 * 1024 * 1024), ..Default::default() };
    let too_large = failure(games.import_game(huge).await);
    assert_eq!((too_large.code, too_large.reason.as_str()), (Code::ResourceExhausted, "REQUEST_TOO_LARGE"));
    // The game service's limit: the larger of --max-request-bytes (256 KiB by default) and the
    // PDN limit with 64 KiB more.
    assert_eq!(too_large.metadata["maximum"], "262144 bytes");
    assert_eq!(games.list_games(ListGamesRequest::default()).await.unwrap().into_inner().games.len(), 0);
}

#[tokio::test]
async fn a_database_that_went_away_is_unavailable_and_the_server_carries_on() {
    use sqlx::Connection;
    let Some(database) = Backend::Postgres.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let game = create(&mut games, ITALIAN, "").await;
    let admin = std::env::var("DAMIERA_TEST_POSTGRES").unwrap();
    let mut connection = sqlx::PgConnection::connect(&admin).await.unwrap();
    let name = database.rsplit('/').next().unwrap();
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)")).execute(&mut connection).await.unwrap();

    let gone = failure(games.get_game(GetGameRequest { name: game.name.clone(), ..Default::default() }).await);
    assert_eq!((gone.code, gone.reason.as_str()), (Code::Unavailable, "STORE_UNAVAILABLE"), "{}", gone.message);
    assert!(gone.retry_delay.is_some());
    let request = MakeMoveRequest { name: game.name.clone(), notation: "22-18".into(), ..Default::default() };
    assert_eq!(failure(games.make_move(as_seat(&game.white, request)).await).code, Code::Unavailable);
    // The rest of the server is unaffected.
    let mut rules = server.rules().await;
    let moves = rules.list_legal_moves(pb::ListLegalMovesRequest { variant: ITALIAN, fen: String::new() }).await;
    assert_eq!(moves.unwrap().into_inner().moves.len(), 7);
}
