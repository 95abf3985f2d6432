//! `EngineService` through a real server: best moves, streamed analysis, the caps, deadlines,
//! cancellation and overload.

mod support;

use std::time::{Duration, Instant};

use damiera_server::proto::{
    analyze_response::Update, AnalyzeRequest, BestMoveRequest, ListLegalMovesRequest, SearchLimits, SearchRequest,
    StopReason, Variant,
};
use support::{failure, TestServer};
use tonic::Code;

fn search(variant: Variant, limits: SearchLimits) -> SearchRequest {
    SearchRequest { variant: variant.into(), limits: Some(limits), ..Default::default() }
}

fn depth(depth: i32) -> SearchLimits {
    SearchLimits { depth, ..Default::default() }
}

fn move_time(time: Duration) -> SearchLimits {
    SearchLimits { move_time: Some(time.try_into().unwrap()), ..Default::default() }
}

/// A request with the caller's deadline, as a client sets it.
fn with_deadline<T>(message: T, deadline: Duration) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.set_timeout(deadline);
    request
}

#[tokio::test]
async fn best_move_by_depth_is_legal_and_reproducible() {
    let server = TestServer::start(&[]);
    let mut engine = server.engine().await;
    let request = BestMoveRequest { search: Some(search(Variant::Turkish, depth(5))) };
    let first = engine.best_move(request.clone()).await.unwrap().into_inner().result.unwrap();
    let second = engine.best_move(request).await.unwrap().into_inner().result.unwrap();
    assert_eq!((first.depth, first.stop_reason()), (5, StopReason::Limit));
    assert_eq!(first.best_move, second.best_move, "one thread and a depth limit: the same move every run");
    assert_eq!(first.nodes, second.nodes, "and the same node count");
    assert_eq!(first.pv.first(), first.best_move.as_ref());

    let mut rules = server.rules().await;
    let legal = rules.list_legal_moves(ListLegalMovesRequest { variant: Variant::Turkish.into(), fen: String::new() });
    let legal: Vec<String> = legal.await.unwrap().into_inner().moves.into_iter().map(|m| m.notation).collect();
    assert!(legal.contains(&first.best_move.unwrap().notation));
}

#[tokio::test]
async fn best_move_finds_the_winning_capture_and_reports_the_win() {
    let server = TestServer::start(&[]);
    // White's man on 22 takes both black men (22x13x6): Black has nothing left.
    let request = SearchRequest { fen: "W:W22,K31:B18,10".into(), ..search(Variant::Italian, depth(4)) };
    let result = server.engine().await.best_move(BestMoveRequest { search: Some(request) }).await.unwrap().into_inner();
    let result = result.result.unwrap();
    assert_eq!(result.best_move.unwrap().notation, "22x13x6");
    assert_eq!(result.score.unwrap().value, Some(damiera_server::proto::score::Value::WinInPlies(1)));
}

#[tokio::test]
async fn moves_played_before_are_replayed_and_checked() {
    let server = TestServer::start(&[]);
    let mut engine = server.engine().await;
    let request = SearchRequest { moves: vec!["22-18".into(), "9-13".into()], ..search(Variant::Italian, depth(3)) };
    let result =
        engine.best_move(BestMoveRequest { search: Some(request) }).await.unwrap().into_inner().result.unwrap();
    // After 22-18 (d3-c4) 9-13 (a6-b5), 18x9 is White's only move: the capture is forced.
    assert_eq!(result.best_move.unwrap().notation, "18x9");

    let request = SearchRequest { moves: vec!["22-18".into(), "12-17".into()], ..search(Variant::Italian, depth(3)) };
    let error = failure(engine.best_move(BestMoveRequest { search: Some(request) }).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::InvalidArgument, "ILLEGAL_MOVE"));
    assert_eq!(error.fields, ["search.moves[1]"]);
}

#[tokio::test]
async fn a_finished_game_has_no_best_move() {
    let server = TestServer::start(&[]);
    let request = SearchRequest { fen: "B:W31,K32:B28".into(), ..search(Variant::Italian, depth(3)) };
    let error = failure(server.engine().await.best_move(BestMoveRequest { search: Some(request) }).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::FailedPrecondition, "GAME_OVER"));
}

#[tokio::test]
async fn requests_over_the_caps_are_refused_with_the_field() {
    let server = TestServer::start(&[
        "--max-depth",
        "10",
        "--max-move-time",
        "2s",
        "--max-threads",
        "1",
        "--max-hash",
        "32",
        "--max-multipv",
        "4",
    ]);
    let mut engine = server.engine().await;
    let cases = [
        (search(Variant::Italian, depth(11)), "search.limits.depth", "LIMIT_EXCEEDED"),
        (search(Variant::Italian, move_time(Duration::from_secs(3))), "search.limits.move_time", "LIMIT_EXCEEDED"),
        (SearchRequest { threads: 2, ..search(Variant::Italian, depth(2)) }, "search.threads", "LIMIT_EXCEEDED"),
        (SearchRequest { hash_mib: 64, ..search(Variant::Italian, depth(2)) }, "search.hash_mib", "LIMIT_EXCEEDED"),
        (SearchRequest { multipv: 5, ..search(Variant::Italian, depth(2)) }, "search.multipv", "LIMIT_EXCEEDED"),
        (SearchRequest { level: 21, ..search(Variant::Italian, depth(2)) }, "search.level", "INVALID_ARGUMENT"),
        (SearchRequest { variant: 0, ..search(Variant::Italian, depth(2)) }, "search.variant", "UNSUPPORTED_VARIANT"),
        (SearchRequest { fen: "W:W99:B1".into(), ..search(Variant::Italian, depth(2)) }, "search.fen", "INVALID_FEN"),
        // Signed on the wire (AIP-141), never negative.
        (search(Variant::Italian, depth(-1)), "search.limits.depth", "INVALID_ARGUMENT"),
        (
            search(Variant::Italian, SearchLimits { nodes: -1, ..Default::default() }),
            "search.limits.nodes",
            "INVALID_ARGUMENT",
        ),
        (SearchRequest { threads: -1, ..search(Variant::Italian, depth(2)) }, "search.threads", "INVALID_ARGUMENT"),
        (SearchRequest { hash_mib: -1, ..search(Variant::Italian, depth(2)) }, "search.hash_mib", "INVALID_ARGUMENT"),
        (SearchRequest { multipv: -2, ..search(Variant::Italian, depth(2)) }, "search.multipv", "INVALID_ARGUMENT"),
        (SearchRequest { level: -3, ..search(Variant::Italian, depth(2)) }, "search.level", "INVALID_ARGUMENT"),
    ];
    for (request, field, reason) in cases {
        let error = failure(engine.best_move(BestMoveRequest { search: Some(request) }).await);
        assert_eq!(
            (error.code, error.reason.as_str(), error.fields),
            (Code::InvalidArgument, reason, vec![field.to_string()])
        );
    }
    let error = failure(engine.best_move(BestMoveRequest { search: None }).await);
    assert_eq!(error.fields, ["search"]);
    let negative =
        failure(engine.best_move(BestMoveRequest { search: Some(search(Variant::Italian, depth(-1))) }).await);
    assert_eq!(negative.message, "search.limits.depth: -1 is negative: give 0 or more");
    // A seed is any 64 bits.
    let seeded = SearchRequest { seed: -5, level: 3, ..search(Variant::Italian, depth(2)) };
    assert!(engine.best_move(BestMoveRequest { search: Some(seeded) }).await.is_ok());
}

#[tokio::test]
async fn multipv_reports_distinct_lines() {
    let server = TestServer::start(&[]);
    let request = SearchRequest { multipv: 3, ..search(Variant::Italian, depth(4)) };
    let result = server.engine().await.best_move(BestMoveRequest { search: Some(request) }).await.unwrap().into_inner();
    let lines = result.result.unwrap().lines;
    let mut firsts: Vec<_> = lines.iter().map(|line| line.pv[0].notation.clone()).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3);
}

#[tokio::test]
async fn the_deadline_answers_with_the_best_move_so_far() {
    let server = TestServer::start(&[]);
    let request = BestMoveRequest { search: Some(search(Variant::Triestina, move_time(Duration::from_secs(20)))) };
    let start = Instant::now();
    let response = server.engine().await.best_move(with_deadline(request, Duration::from_millis(600))).await;
    let result = response.expect("answered before the deadline").into_inner().result.unwrap();
    assert!(start.elapsed() < Duration::from_millis(600), "{:?}", start.elapsed());
    assert_eq!(result.stop_reason(), StopReason::Deadline);
    assert!(result.best_move.is_some() && result.depth >= 1);
}

#[tokio::test]
async fn analyze_streams_every_iteration_then_the_result() {
    let server = TestServer::start(&[]);
    let request = AnalyzeRequest { search: Some(search(Variant::Italian, depth(6))), ..Default::default() };
    let mut stream = server.engine().await.analyze(request).await.unwrap().into_inner();
    let mut depths = Vec::new();
    let mut result = None;
    while let Some(message) = stream.message().await.unwrap() {
        assert!(result.is_none(), "the result is the last message");
        match message.update.unwrap() {
            Update::Iteration(iteration) => {
                assert!(!iteration.pv.is_empty() && iteration.nodes > 0);
                depths.push(iteration.depth);
            }
            Update::Result(r) => result = Some(r),
        }
    }
    assert_eq!(depths, [1, 2, 3, 4, 5, 6]);
    assert_eq!(result.unwrap().depth, 6);
}

#[tokio::test]
async fn cancelling_analyze_stops_the_search() {
    let server = TestServer::start(&[]);
    let request = AnalyzeRequest {
        search: Some(search(Variant::Triestina, move_time(Duration::from_secs(25)))),
        ..Default::default()
    };
    let mut stream = server.engine().await.analyze(request).await.unwrap().into_inner();
    stream.message().await.unwrap().expect("a first iteration");
    assert_eq!(server.metric("damiera_searches_running").await, Some(1.0));
    drop(stream);
    let start = Instant::now();
    while server.metric("damiera_searches_running").await != Some(0.0) {
        assert!(start.elapsed() < Duration::from_secs(5), "the search went on after the client cancelled");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn analyze_ends_at_the_deadline_with_a_result() {
    let server = TestServer::start(&[]);
    let request = AnalyzeRequest {
        search: Some(search(Variant::Turkish, move_time(Duration::from_secs(20)))),
        ..Default::default()
    };
    let mut stream =
        server.engine().await.analyze(with_deadline(request, Duration::from_millis(700))).await.unwrap().into_inner();
    let mut last = None;
    while let Some(message) = stream.message().await.expect("the stream ends cleanly") {
        last = message.update;
    }
    let Some(Update::Result(result)) = last else { panic!("the last message is the result: {last:?}") };
    assert_eq!(result.stop_reason(), StopReason::Deadline);
}

#[tokio::test]
async fn an_overloaded_server_answers_resource_exhausted_with_retry_info() {
    let server = TestServer::start(&["--search-threads", "1", "--search-queue", "0"]);
    let request = AnalyzeRequest {
        search: Some(search(Variant::Triestina, move_time(Duration::from_secs(25)))),
        ..Default::default()
    };
    let mut busy = server.engine().await.analyze(request).await.unwrap().into_inner();
    busy.message().await.unwrap().expect("the first search runs");
    let request = BestMoveRequest { search: Some(search(Variant::Italian, depth(2))) };
    let error = failure(server.engine().await.best_move(request).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::ResourceExhausted, "OVERLOADED"));
    assert_eq!(error.retry_delay, Some(Duration::from_secs(1)));
    assert!(server.metric("damiera_searches_refused_total").await >= Some(1.0));
}

#[tokio::test]
async fn queued_searches_wait_for_a_free_thread() {
    let server = TestServer::start(&["--search-threads", "1", "--search-queue", "4"]);
    let slow = BestMoveRequest { search: Some(search(Variant::Italian, move_time(Duration::from_millis(400)))) };
    let fast = BestMoveRequest { search: Some(search(Variant::Italian, depth(3))) };
    let (mut first, mut second) = (server.engine().await, server.engine().await);
    let (slow, fast) = tokio::join!(first.best_move(slow), async {
        tokio::time::sleep(Duration::from_millis(100)).await;
        second.best_move(fast).await
    });
    assert!(slow.is_ok() && fast.is_ok(), "{slow:?} {fast:?}");
}
