//! The endgame databases as their users meet them: `damiera egtb build` and `probe`, `bestmove`
//! and `hub` with `--egtb`, and a real server's `BestMove`, `Analyze` and engine seats.
//!
//! The databases (Dama Italiana, up to four pieces: seconds) are built once by the test, with the
//! real command, into a scratch folder. The positions' values were read from those databases and
//! from the search without them: two kings against one far away is a win (RULES.md 1.4: a king
//! is taken only by a king, and the lone king is cornered), and a lone white king against a black
//! king and man on W:WK30:BK10,16 is a draw that the search without databases scores about 1.5
//! men for Black.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::Duration;

use damiera_server::proto::analyze_response::Update;
use damiera_server::proto::score::Value;
use damiera_server::proto::seat::Player;
use damiera_server::proto::{
    self as pb, AnalyzeRequest, BestMoveRequest, CreateGameRequest, DatabaseValue, OfferDrawRequest, SearchLimits,
    SearchRequest, Seat, Variant,
};
use support::TestServer;
use tonic::Request;

/// Two white kings against a black one, far apart: a database win for White.
const WON: &str = "W:WK1,K10:BK28";
/// A white king against a black king and man: a database draw the search scores for Black.
const DRAWN: &str = "W:WK30:BK10,16";

/// The folder of Dama Italiana's databases of up to four pieces, built once by `damiera egtb build`.
fn databases() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = support::scratch_path("egtb", "d");
        let dir_text = dir.to_str().expect("a UTF-8 path");
        let output = damiera(&["egtb", "build", "--variant", "italian", "--pieces", "4", "--dir", dir_text]);
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        dir
    })
}

fn databases_arg() -> &'static str {
    databases().to_str().expect("a UTF-8 path")
}

/// A folder with no databases in it.
fn empty_folder() -> PathBuf {
    let dir = support::scratch_path("no-egtb", "d");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The real binary, with no databases folder from the environment.
fn damiera(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(args)
        .env_remove("DAMIERA_EGTB")
        .env("XDG_DATA_HOME", support::scratch_path("data-home", "d"))
        .output()
        .expect("the damiera binary runs")
}

fn stdout(output: &Output) -> String {
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout.clone()).unwrap()
}

#[test]
fn build_writes_a_file_per_balance_and_a_rebuild_reuses_them() {
    let dir = databases();
    let files = std::fs::read_dir(dir.join("italian")).unwrap().count();
    // Balances of two to four pieces, each side with at least one: men and kings of each.
    assert!(files > 20, "{files} files");
    let again = damiera(&["egtb", "build", "--variant", "italian", "--pieces", "4", "--dir", databases_arg()]);
    let text = stdout(&again);
    assert!(text.contains("0 solved"), "{text}");
}

#[test]
fn probe_says_the_value_and_distance_or_that_the_position_is_not_held() {
    let probe = |fen: &str| {
        stdout(&damiera(&["egtb", "probe", "--variant", "italian", "--fen", fen, "--dir", databases_arg()]))
    };
    assert_eq!(probe(WON).trim(), "database win, conversion in 9 plies");
    assert_eq!(probe("B:WK1,K10:BK28").trim(), "database loss, conversion in 8 plies");
    assert_eq!(probe("W:WK22,K10:BK18").trim(), "database win, conversion in 1 ply");
    assert_eq!(probe(DRAWN).trim(), "database draw");
    assert_eq!(probe("W:WK1,K10,K12:BK28,K32").trim(), "not in the database");
}

#[test]
fn a_folder_built_before_distances_is_read_and_said_so_until_rebuilt() {
    let dir = support::scratch_path("egtb-old", "d");
    let dir_text = dir.to_str().expect("a UTF-8 path");
    stdout(&damiera(&["egtb", "build", "--variant", "italian", "--pieces", "3", "--dir", dir_text]));
    std::fs::remove_file(dir.join("italian").join("0201.dtc")).unwrap();
    let probe = || stdout(&damiera(&["egtb", "probe", "--variant", "italian", "--fen", WON, "--dir", dir_text]));
    assert_eq!(probe().trim(), "database win (no distances to conversion: build the folder again to add them)");
    let rebuilt = stdout(&damiera(&["egtb", "build", "--variant", "italian", "--pieces", "3", "--dir", dir_text]));
    assert!(rebuilt.contains("(1 solved,"), "{rebuilt}");
    assert_eq!(probe().trim(), "database win, conversion in 9 plies");
}

#[test]
fn bestmove_scores_from_the_databases_it_is_given() {
    let json = |args: &[&str]| -> serde_json::Value {
        let mut all = vec!["bestmove", "--variant", "italian", "--depth", "4", "--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&stdout(&damiera(&all))).unwrap()
    };
    let with = json(&["--fen", WON, "--egtb", databases_arg()]);
    assert_eq!(with["score"], serde_json::json!({"database": "win"}), "{with}");
    let empty = empty_folder();
    let without = json(&["--fen", WON, "--egtb", empty.to_str().unwrap()]);
    assert!(without["score"]["value"].as_i64().is_some_and(|v| v > 100), "{without}");
    let drawn = json(&["--fen", DRAWN, "--egtb", databases_arg()]);
    assert_eq!(drawn["score"], serde_json::json!({"database": "draw"}), "{drawn}");
}

#[test]
fn hub_reports_a_database_win_and_can_be_told_to_go_without() {
    use std::io::{BufRead, BufReader, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["hub", "--egtb", databases_arg()])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines().map_while(Result::ok);
    let mut think = |input: &mut std::process::ChildStdin, setup: &str| -> Vec<String> {
        writeln!(input, "{setup}\npos pos={WON}\nlevel depth=3\ngo think").unwrap();
        input.flush().unwrap();
        let mut seen = Vec::new();
        for line in lines.by_ref() {
            let done = line.starts_with("done");
            seen.push(line);
            if done {
                return seen;
            }
        }
        panic!("no done line: {seen:?}");
    };
    let with = think(&mut input, "init");
    let info = with.iter().rfind(|l| l.starts_with("info ")).expect("an info line");
    assert!(info.contains(" score=80.00 "), "{with:?}");
    let without = think(&mut input, "set-param name=egtb value=off");
    let info = without.iter().rfind(|l| l.starts_with("info ")).expect("an info line");
    assert!(!info.contains(" score=80.00 "), "{without:?}");
    writeln!(input, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

fn search(fen: &str) -> SearchRequest {
    let limits = SearchLimits { depth: 4, ..Default::default() };
    SearchRequest { variant: Variant::Italian.into(), fen: fen.into(), limits: Some(limits), ..Default::default() }
}

fn database(value: DatabaseValue) -> Option<Value> {
    Some(Value::Database(value.into()))
}

#[tokio::test]
async fn best_move_and_analyze_say_database_win_or_draw() {
    let server = TestServer::start(&["--egtb", databases_arg()]);
    assert!(server.log_text().contains("endgame databases"), "{}", server.log_text());
    let mut engine = server.engine().await;
    let best = |fen: &str| BestMoveRequest { search: Some(search(fen)) };
    let won = engine.best_move(best(WON)).await.unwrap().into_inner().result.unwrap();
    assert_eq!(won.score.unwrap().value, database(DatabaseValue::Win));
    let drawn = engine.best_move(best(DRAWN)).await.unwrap().into_inner().result.unwrap();
    assert_eq!(drawn.score.unwrap().value, database(DatabaseValue::Draw));

    let mut stream =
        engine.analyze(AnalyzeRequest { search: Some(search(WON)), ..Default::default() }).await.unwrap().into_inner();
    let mut scores = Vec::new();
    while let Some(message) = stream.message().await.unwrap() {
        match message.update.unwrap() {
            Update::Iteration(iteration) => scores.push(iteration.score.unwrap().value),
            Update::Result(result) => scores.push(result.score.unwrap().value),
        }
    }
    assert_eq!(scores.len(), 5, "four iterations and the result: {scores:?}");
    assert!(scores.iter().all(|s| *s == database(DatabaseValue::Win)), "{scores:?}");
}

#[tokio::test]
async fn a_server_without_databases_estimates() {
    let empty = empty_folder();
    let server = TestServer::start(&["--egtb", empty.to_str().unwrap()]);
    let request = BestMoveRequest { search: Some(search(WON)) };
    let result = server.engine().await.best_move(request).await.unwrap().into_inner().result.unwrap();
    assert!(matches!(result.score.unwrap().value, Some(Value::Estimate(v)) if v > 100));
}

#[tokio::test]
async fn a_damaged_file_is_a_warning_and_the_server_searches_without() {
    let copy = support::scratch_path("damaged-egtb", "d");
    std::fs::create_dir_all(copy.join("italian")).unwrap();
    for entry in std::fs::read_dir(databases().join("italian")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join("italian").join(path.file_name().unwrap())).unwrap();
    }
    let victim = std::fs::read_dir(copy.join("italian")).unwrap().next().unwrap().unwrap().path();
    let mut bytes = std::fs::read(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff;
    std::fs::write(&victim, bytes).unwrap();

    let server = TestServer::start(&["--egtb", copy.to_str().unwrap()]);
    let request = BestMoveRequest { search: Some(search(WON)) };
    let result = server.engine().await.best_move(request).await.unwrap().into_inner().result.unwrap();
    assert!(matches!(result.score.unwrap().value, Some(Value::Estimate(_))));
    let log = server.log_text();
    assert!(log.contains("WARN") && log.contains("endgame databases not used"), "{log}");
}

/// A person's draw offer to an engine seat on [`DRAWN`]: the engine, Black, accepts when its
/// databases say draw, and declines when its search alone thinks it is ahead.
async fn engine_answers_a_draw_offer(server: &TestServer) -> pb::Game {
    let mut games = server.games().await;
    let engine = Seat {
        player: Some(Player::Engine(pb::EngineSeat {
            level: 20,
            limits: Some(SearchLimits { depth: 4, ..Default::default() }),
        })),
    };
    let person = Seat { player: Some(Player::Person(pb::Person { display_name: "Anna".into() })) };
    let request = CreateGameRequest {
        variant: Variant::Italian.into(),
        fen: DRAWN.into(),
        white: Some(person),
        black: Some(engine),
        ..Default::default()
    };
    let created = games.create_game(request).await.unwrap().into_inner();
    let name = created.game.unwrap().name;
    let mut offer = Request::new(OfferDrawRequest { name: name.clone(), ..Default::default() });
    let bearer = format!("Bearer {}", created.white_token).parse().unwrap();
    offer.metadata_mut().insert("authorization", bearer);
    games.offer_draw(offer).await.unwrap();
    for _ in 0..300 {
        let game = games
            .get_game(pb::GetGameRequest { name: name.clone(), ..Default::default() })
            .await
            .unwrap()
            .into_inner()
            .game
            .unwrap();
        if game.state.as_ref().unwrap().draw_offer == 0 {
            return game;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the engine did not answer the draw offer");
}

#[tokio::test]
async fn an_engine_seat_judges_a_draw_offer_by_its_databases() {
    let with = TestServer::start(&["--egtb", databases_arg()]);
    let status = engine_answers_a_draw_offer(&with).await.state.unwrap().status.unwrap();
    assert_eq!(status.state, pb::position_status::State::Drawn as i32, "{status:?}");
    assert_eq!(status.draw_reason, pb::DrawReason::Agreement as i32);

    let empty = empty_folder();
    let without = TestServer::start(&["--egtb", empty.to_str().unwrap()]);
    let status = engine_answers_a_draw_offer(&without).await.state.unwrap().status.unwrap();
    assert_eq!(status.state, pb::position_status::State::Ongoing as i32, "{status:?}");
}
