//! Tenants against a real server, each test on SQLite and on PostgreSQL: API keys made with
//! `damiera keys`, games that only their tenant sees (another tenant's game answers exactly as a
//! missing one), request ids scoped to the tenant and read as UUIDs, a key revoked on the running
//! server, the rate limit per key, and client addresses forwarded by a trusted proxy only.
//!
//! PostgreSQL tests need `DAMIERA_TEST_POSTGRES` (see `support::scratch_postgres`).

#[macro_use]
mod support;

use std::process::{Command, Output};
use std::time::Duration;

use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::{
    self as pb, review_game_request, AbortGameRequest, AnswerDrawRequest, AnswerTakebackRequest, CreateGameRequest,
    DeleteGameRequest, ExportPdnRequest, GetGameRequest, ImportGameRequest, ListGamesRequest, MakeMoveRequest,
    OfferDrawRequest, OfferTakebackRequest, RequestMoveCountRequest, ResignRequest, ReviewGameRequest, Variant,
    WatchGameRequest,
};
use support::{as_seat, etag_version, failure, Backend, TestServer};
use tonic::transport::Channel;
use tonic::{Code, Request};

const ITALIAN: i32 = Variant::Italian as i32;

on_both_stores!(
    each_tenant_sees_only_its_own_games,
    request_ids_are_scoped_to_the_tenant_and_must_be_uuids,
    a_revoked_key_is_refused_by_the_running_server,
    each_key_has_its_own_rate_limit,
    a_forwarded_address_counts_only_from_a_trusted_proxy,
    the_keys_command_adds_lists_and_revokes,
);

// Helpers

/// `damiera keys ARGS --database DATABASE`.
fn keys(database: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damiera"))
        .arg("keys")
        .args(args)
        .args(["--database", database])
        .output()
        .expect("the damiera binary runs")
}

/// Standard output of a `damiera keys` run that must succeed with nothing on standard error.
fn keys_ok(database: &str, args: &[&str]) -> String {
    let output = keys(database, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success() && stderr.is_empty(), "damiera keys {args:?}: {stderr}");
    String::from_utf8(output.stdout).expect("output is UTF-8")
}

/// A new key for `tenant`, as `damiera keys add` prints it.
fn add_key(database: &str, tenant: &str) -> String {
    keys_ok(database, &["add", "--tenant", tenant]).trim().to_string()
}

/// `message` sent with the API key `key`.
fn with_key<T>(key: &str, message: T) -> Request<T> {
    keyed(key, Request::new(message))
}

/// `request` with the API key `key` added.
fn keyed<T>(key: &str, mut request: Request<T>) -> Request<T> {
    request.metadata_mut().insert("x-api-key", key.parse().expect("a valid header"));
    request
}

/// `message` sent from client address `address` as a proxy forwards it.
fn forwarded<T>(address: &str, message: T) -> Request<T> {
    let mut request = Request::new(message);
    request.metadata_mut().insert("x-forwarded-for", address.parse().expect("a valid header"));
    request
}

/// A game between two people made by the holder of `key`: its name and White's token.
async fn create(games: &mut GameServiceClient<Channel>, key: &str) -> (String, String) {
    let request = CreateGameRequest { variant: ITALIAN, ..Default::default() };
    let made = games.create_game(with_key(key, request)).await.expect("the game is made").into_inner();
    (made.game.expect("a game").name, made.white_token)
}

fn names(listed: &pb::ListGamesResponse) -> Vec<String> {
    let mut names: Vec<String> = listed.games.iter().map(|game| game.name.clone()).collect();
    names.sort();
    names
}

/// Asserts that `result` failed as a call on a game that does not exist, named `name`.
fn assert_not_found<T: std::fmt::Debug>(result: Result<T, tonic::Status>, name: &str, call: &str) {
    let refused = failure(result);
    let id = name.trim_start_matches("games/");
    assert_eq!(
        (refused.code, refused.reason.as_str(), refused.message.as_str()),
        (Code::NotFound, "GAME_NOT_FOUND", format!("no game is called {id}").as_str()),
        "{call}"
    );
}

// Tests

async fn each_tenant_sees_only_its_own_games(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let (alpha, beta) = (add_key(&database, "alpha"), add_key(&database, "beta"));
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let (a, a_white) = create(&mut games, &alpha).await;
    let import = ImportGameRequest { pdn: "1. 22-18 10-14 *".into(), ..Default::default() };
    let imported = games.import_game(with_key(&alpha, import)).await.unwrap().into_inner().game.unwrap().name;
    let (b, _) = create(&mut games, &beta).await;

    // Each lists its own games only.
    let listed = games.list_games(with_key(&alpha, ListGamesRequest::default())).await.unwrap().into_inner();
    let mut alphas = vec![a.clone(), imported.clone()];
    alphas.sort();
    assert_eq!(names(&listed), alphas);
    let listed = games.list_games(with_key(&beta, ListGamesRequest::default())).await.unwrap().into_inner();
    assert_eq!(names(&listed), std::slice::from_ref(&b));

    // Every call on alpha's game with beta's key answers as a missing game does, even with the
    // game's own seat token; a missing game answers the same.
    let missing = "games/0123456789abcdef0123456789abcdef".to_string();
    for name in [&a, &imported, &missing] {
        let get = GetGameRequest { name: name.clone(), ..Default::default() };
        assert_not_found(games.get_game(with_key(&beta, get)).await, name, "GetGame");
        let export = ExportPdnRequest { name: name.clone() };
        assert_not_found(games.export_pdn(with_key(&beta, export)).await, name, "ExportPdn");
        let watch = WatchGameRequest { name: name.clone(), ..Default::default() };
        assert_not_found(games.watch_game(with_key(&beta, watch)).await, name, "WatchGame");
        let review =
            ReviewGameRequest { game: Some(review_game_request::Game::Name(name.clone())), ..Default::default() };
        assert_not_found(games.review_game(with_key(&beta, review)).await, name, "ReviewGame");
        let seat = |message| keyed(&beta, as_seat(&a_white, message));
        let n = name.clone();
        let mv = MakeMoveRequest { name: n.clone(), notation: "22-18".into(), ..Default::default() };
        assert_not_found(games.make_move(seat(mv)).await, name, "MakeMove");
        let resign = ResignRequest { name: n.clone(), ..Default::default() };
        assert_not_found(games.resign(keyed(&beta, as_seat(&a_white, resign))).await, name, "Resign");
        let offer = OfferDrawRequest { name: n.clone(), ..Default::default() };
        assert_not_found(games.offer_draw(keyed(&beta, as_seat(&a_white, offer))).await, name, "OfferDraw");
        let answer = AnswerDrawRequest { name: n.clone(), ..Default::default() };
        assert_not_found(games.answer_draw(keyed(&beta, as_seat(&a_white, answer))).await, name, "AnswerDraw");
        let abort = AbortGameRequest { name: n.clone(), ..Default::default() };
        assert_not_found(games.abort_game(keyed(&beta, as_seat(&a_white, abort))).await, name, "AbortGame");
        let delete = DeleteGameRequest { name: n.clone(), ..Default::default() };
        assert_not_found(games.delete_game(keyed(&beta, as_seat(&a_white, delete))).await, name, "DeleteGame");
        let offer = OfferTakebackRequest { name: n.clone(), ..Default::default() };
        let offered = games.offer_takeback(keyed(&beta, as_seat(&a_white, offer))).await;
        assert_not_found(offered, name, "OfferTakeback");
        let answer = AnswerTakebackRequest { name: n.clone(), ..Default::default() };
        let answered = games.answer_takeback(keyed(&beta, as_seat(&a_white, answer))).await;
        assert_not_found(answered, name, "AnswerTakeback");
        let count = RequestMoveCountRequest { name: n.clone(), ..Default::default() };
        let counted = games.request_move_count(keyed(&beta, as_seat(&a_white, count))).await;
        assert_not_found(counted, name, "RequestMoveCount");
    }

    // Nothing reached alpha's game, which its own key and token still play.
    let get = GetGameRequest { name: a.clone(), ..Default::default() };
    let game = games.get_game(with_key(&alpha, get)).await.unwrap().into_inner().game.unwrap();
    assert_eq!(etag_version(&game.state.unwrap().etag), 0);
    let mv = MakeMoveRequest { name: a.clone(), notation: "22-18".into(), ..Default::default() };
    games.make_move(keyed(&alpha, as_seat(&a_white, mv))).await.unwrap();
    // Without a key nothing is answered at all.
    let anonymous = failure(games.list_games(ListGamesRequest::default()).await);
    assert_eq!((anonymous.code, anonymous.reason.as_str()), (Code::Unauthenticated, "API_KEY_REQUIRED"));
}

async fn request_ids_are_scoped_to_the_tenant_and_must_be_uuids(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let (alpha, beta) = (add_key(&database, "alpha"), add_key(&database, "beta"));
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let id = "6f1c2a9e-8d3b-4c57-a0e2-5b9d7c3e1f40";
    let request = |request_id: &str| CreateGameRequest {
        variant: ITALIAN,
        request_id: request_id.to_string(),
        ..Default::default()
    };
    let name = |response: tonic::Response<pb::CreateGameResponse>| response.into_inner().game.unwrap().name;
    let in_alpha = name(games.create_game(with_key(&alpha, request(id))).await.unwrap());
    let in_beta = name(games.create_game(with_key(&beta, request(id))).await.unwrap());
    assert_ne!(in_alpha, in_beta, "one id in two tenants makes two games");
    // A retry, in another form of the same UUID, answers the tenant's own game.
    let retried = name(games.create_game(with_key(&beta, request(&id.to_uppercase()))).await.unwrap());
    assert_eq!(retried, in_beta);
    let simple = name(games.create_game(with_key(&alpha, request(&id.replace('-', "")))).await.unwrap());
    assert_eq!(simple, in_alpha);
    let listed = games.list_games(with_key(&beta, ListGamesRequest::default())).await.unwrap().into_inner();
    assert_eq!(names(&listed), std::slice::from_ref(&in_beta));

    // Anything but a UUID is refused, naming the field.
    for bad in ["create-42", "6f1c2a9e-8d3b-4c57-a0e2-5b9d7c3e1f4", &format!("{id}x")] {
        let refused = failure(games.create_game(with_key(&alpha, request(bad))).await);
        assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]), "{bad}");
        let import = ImportGameRequest { pdn: "1. 22-18 *".into(), request_id: bad.to_string(), ..Default::default() };
        let refused = failure(games.import_game(with_key(&alpha, import)).await);
        assert_eq!(refused.fields, ["request_id"], "{bad}");
        let mv = MakeMoveRequest {
            name: in_alpha.clone(),
            notation: "22-18".into(),
            request_id: bad.to_string(),
            ..Default::default()
        };
        let refused = failure(games.make_move(with_key(&alpha, mv)).await);
        assert_eq!((refused.code, refused.fields), (Code::InvalidArgument, vec!["request_id".to_string()]), "{bad}");
    }
}

async fn a_revoked_key_is_refused_by_the_running_server(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let (kept, revoked) = (add_key(&database, "alpha"), add_key(&database, "alpha"));
    let server = TestServer::start_on(&database, &["--keys-refresh", "200ms"]);
    let mut games = server.games().await;
    let (name, _) = create(&mut games, &revoked).await;
    let id = &revoked[4..16];
    assert_eq!(keys_ok(&database, &["revoke", id]).trim(), format!("revoked {id}"));
    let list = || ListGamesRequest::default();
    let mut refused = None;
    for _ in 0..50 {
        match games.list_games(with_key(&revoked, list())).await {
            Ok(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(status) => {
                refused = Some(failure::<()>(Err(status)));
                break;
            }
        }
    }
    let refused = refused.expect("the revoked key is refused within 5 s (refresh: 200 ms)");
    assert_eq!((refused.code, refused.reason.as_str()), (Code::Unauthenticated, "API_KEY_REVOKED"));
    // The tenant's other key still works, and sees the game the revoked key made.
    let listed = games.list_games(with_key(&kept, list())).await.unwrap().into_inner();
    assert_eq!(names(&listed), [name]);
    // The server noted the keys' use: `list` shows a last use for both, a revocation for one.
    let mut listed = String::new();
    for _ in 0..50 {
        listed = keys_ok(&database, &["list"]);
        if listed.lines().skip(1).all(|line| line.split('\t').nth(3) != Some("-")) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let rows: Vec<Vec<&str>> = listed.lines().skip(1).map(|line| line.split('\t').collect()).collect();
    assert_eq!(rows.len(), 2, "{listed}");
    for row in &rows {
        assert_ne!(row[3], "-", "a last use: {listed}");
        assert_eq!(row[4] != "-", row[0] == id, "revoked only {id}: {listed}");
    }
}

async fn each_key_has_its_own_rate_limit(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let (busy, quiet) = (add_key(&database, "alpha"), add_key(&database, "alpha"));
    let server = TestServer::start_on(&database, &["--key-rate-limit", "1"]);
    let mut games = server.games().await;
    let list = || ListGamesRequest::default();
    // A burst of twice the rate, then refused.
    for _ in 0..2 {
        games.list_games(with_key(&busy, list())).await.unwrap();
    }
    let refused = failure(games.list_games(with_key(&busy, list())).await);
    assert_eq!((refused.code, refused.reason.as_str()), (Code::ResourceExhausted, "RATE_LIMITED"));
    assert!(refused.retry_delay.is_some_and(|delay| delay <= Duration::from_secs(1)), "{refused:?}");
    assert_eq!(refused.quota_subjects, [format!("key {}", &busy[4..16])]);
    // Another key of the same tenant has its own allowance.
    games.list_games(with_key(&quiet, list())).await.unwrap();
}

async fn a_forwarded_address_counts_only_from_a_trusted_proxy(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    // The test's connections come from 127.0.0.1: trusted here, so each forwarded client counts
    // apart, its rate and its watches alike.
    let trusted = TestServer::start_on(
        &database,
        &["--rate-limit", "1", "--max-watches-per-client", "1", "--trusted-proxies", "10.0.0.0/8,127.0.0.1"],
    );
    let mut games = trusted.games().await;
    let list = || ListGamesRequest::default();
    for _ in 0..2 {
        games.list_games(forwarded("203.0.113.1", list())).await.unwrap();
    }
    let refused = failure(games.list_games(forwarded("203.0.113.1", list())).await);
    assert_eq!((refused.code, refused.reason.as_str()), (Code::ResourceExhausted, "RATE_LIMITED"));
    assert_eq!(refused.quota_subjects, ["client 203.0.113.1"]);
    // Another client behind the proxy, and one a client claims before the proxy's own entry.
    games.list_games(forwarded("203.0.113.2", list())).await.unwrap();
    games.list_games(forwarded("203.0.113.1, 203.0.113.3", list())).await.unwrap();

    let made = games
        .create_game(forwarded("203.0.113.4", CreateGameRequest { variant: ITALIAN, ..Default::default() }))
        .await
        .unwrap();
    let name = made.into_inner().game.unwrap().name;
    let watch = || WatchGameRequest { name: name.clone(), ..Default::default() };
    let _first = games.watch_game(forwarded("203.0.113.5", watch())).await.unwrap();
    let _other = games.watch_game(forwarded("203.0.113.6", watch())).await.unwrap();
    let refused = failure(games.watch_game(forwarded("203.0.113.5", watch())).await);
    assert_eq!(refused.reason, "TOO_MANY_WATCHES");
    drop(trusted);

    // Not trusted: the header is ignored, every call is the peer's.
    let Some(database) = backend.scratch().await else { return };
    let untrusted = TestServer::start_on(&database, &["--rate-limit", "1", "--trusted-proxies", "10.0.0.0/8"]);
    let mut games = untrusted.games().await;
    games.list_games(forwarded("203.0.113.1", list())).await.unwrap();
    games.list_games(forwarded("203.0.113.2", list())).await.unwrap();
    let refused = failure(games.list_games(forwarded("203.0.113.3", list())).await);
    assert_eq!(refused.quota_subjects, ["client 127.0.0.1"]);
}

async fn the_keys_command_adds_lists_and_revokes(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    assert_eq!(keys_ok(&database, &["list"]), "ID\tTENANT\tCREATED\tLAST_USED\tREVOKED\n");
    let key = add_key(&database, "chess-portal");
    assert!(key.starts_with("dmk_") && key.len() == 81 && !key.contains(char::is_whitespace), "{key}");
    let id = &key[4..16];
    let listed = keys_ok(&database, &["list"]);
    let row: Vec<&str> = listed.lines().nth(1).expect("one key").split('\t').collect();
    assert_eq!((row[0], row[1], row[3], row[4]), (id, "chess-portal", "-", "-"));
    assert!(row[2].ends_with('Z') && row[2].len() == 20, "created, RFC 3339: {}", row[2]);
    // The secret is shown once: never listed.
    assert!(!listed.contains(&key[17..]));

    assert_eq!(keys_ok(&database, &["revoke", id]), format!("revoked {id}\n"));
    let listed = keys_ok(&database, &["list"]);
    let revoked = listed.lines().nth(1).unwrap().split('\t').nth(4).unwrap().to_string();
    assert!(revoked.ends_with('Z'), "{listed}");

    // Bad input: exit status 2, one line on standard error, nothing on standard output.
    for args in [&["revoke", id][..], &["revoke", "nosuchkey"], &["add", "--tenant", "Chess Portal"]] {
        let output = keys(&database, args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
}
