//! The search's transposition tables through a real server: the ready tables are reused and search
//! exactly like new ones, a larger table than theirs is allocated for the one search, analysis
//! sessions start from the table their last call left, and an infinite analysis runs until it is
//! cancelled or the server's longest move time.

mod support;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use damiera_engine::search::{search_with, Limits, Options, TranspositionTable};
use damiera_engine::{Position, Variant as EngineVariant};
use damiera_server::proto::{
    analyze_response::Update, AnalyzeRequest, BestMoveRequest, SearchLimits, SearchRequest, SearchResult, StopReason,
    Variant,
};
use support::{failure, TestServer};
use tokio_stream::StreamExt;
use tonic::Code;

/// The nodes and best move of a local search of `position` (after `history`) to `depth` on `table`.
fn local(position: &Position, history: &[Position], depth: u32, table: &TranspositionTable) -> (u64, String) {
    let result = search_with(
        position,
        history,
        &Limits::depth(depth),
        &Options::default(),
        table,
        &AtomicBool::new(false),
        |_| {},
    );
    (result.nodes, damiera_engine::notation::write(position.variant(), &result.best_move.unwrap()))
}

fn request(variant: Variant, moves: &[&str], depth: i32, hash_mib: i32) -> SearchRequest {
    SearchRequest {
        variant: variant.into(),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        limits: Some(SearchLimits { depth, ..Default::default() }),
        hash_mib,
        ..Default::default()
    }
}

fn answer(result: &SearchResult) -> (u64, String) {
    (u64::try_from(result.nodes).expect("a count"), result.best_move.as_ref().unwrap().notation.clone())
}

async fn best_move(server: &TestServer, search: SearchRequest) -> (u64, String) {
    let response = server.engine().await.best_move(BestMoveRequest { search: Some(search) }).await.unwrap();
    answer(&response.into_inner().result.unwrap())
}

/// The final result of an analysis.
async fn analyze(server: &TestServer, request: AnalyzeRequest) -> SearchResult {
    let mut stream = server.engine().await.analyze(request).await.unwrap().into_inner();
    while let Some(message) = stream.next().await {
        if let Some(Update::Result(result)) = message.unwrap().update {
            return result;
        }
    }
    panic!("the analysis ended without a result")
}

#[tokio::test]
async fn ready_tables_are_reused_and_search_exactly_like_new_ones() {
    let server = TestServer::start(&["--search-threads", "1", "--default-hash", "16"]);
    assert_eq!(server.metric("damiera_tables_ready_bytes").await, Some(16.0 * 1024.0 * 1024.0));
    let turkish = Position::start(EngineVariant::Turkish);
    let italian = Position::start(EngineVariant::Italian);
    let fresh_turkish = local(&turkish, &[], 5, &TranspositionTable::new(4));
    let fresh_italian = local(&italian, &[], 7, &TranspositionTable::new(16));
    // The one ready table serves every search, fitted to the size asked and cleared in between.
    assert_eq!(best_move(&server, request(Variant::Turkish, &[], 5, 4)).await, fresh_turkish);
    assert_eq!(best_move(&server, request(Variant::Italian, &[], 7, 0)).await, fresh_italian);
    assert_eq!(best_move(&server, request(Variant::Turkish, &[], 5, 4)).await, fresh_turkish);
    assert_eq!(server.metric("damiera_tables_free").await, Some(1.0));
    assert_eq!(server.metric(r#"damiera_tables_allocated_total{reason="larger"}"#).await, None);

    // Larger than the ready table: allocated for this search, within the cap.
    let fresh_large = local(&italian, &[], 7, &TranspositionTable::new(32));
    assert_eq!(best_move(&server, request(Variant::Italian, &[], 7, 32)).await, fresh_large);
    assert_eq!(server.metric(r#"damiera_tables_allocated_total{reason="larger"}"#).await, Some(1.0));
    assert_eq!(server.metric("damiera_tables_free").await, Some(1.0));
}

#[tokio::test]
async fn an_analysis_session_starts_from_the_table_its_last_call_left() {
    let server = TestServer::start(&["--search-threads", "1"]);
    let start = Position::start(EngineVariant::Italian);
    let next = start.play_notation("22-18").unwrap();
    let session = |search| AnalyzeRequest { search: Some(search), session: "games/abc".into(), ..Default::default() };

    let kept = TranspositionTable::new(4);
    let first = local(&start, &[], 8, &kept);
    let warm = local(&next, &[start], 8, &kept);
    let cold = local(&next, &[start], 8, &TranspositionTable::new(4));
    // What the kept table learned changes the search (its node count), so the answers below
    // tell a kept table from a fresh one.
    assert_ne!(warm.0, cold.0, "the kept table changes the search: {warm:?} against {cold:?}");

    assert_eq!(answer(&analyze(&server, session(request(Variant::Italian, &[], 8, 4))).await), first);
    assert_eq!(answer(&analyze(&server, session(request(Variant::Italian, &["22-18"], 8, 4))).await), warm);
    // Without the session, or under another table size, the search starts afresh.
    let alone = AnalyzeRequest { search: Some(request(Variant::Italian, &["22-18"], 8, 4)), ..Default::default() };
    assert_eq!(answer(&analyze(&server, alone).await), cold);
    let other_size = local(&next, &[start], 8, &TranspositionTable::new(2));
    assert_eq!(answer(&analyze(&server, session(request(Variant::Italian, &["22-18"], 8, 2))).await), other_size);
    assert_eq!(server.metric(r#"damiera_analysis_session_searches_total{table="kept"}"#).await, Some(1.0));
}

#[tokio::test]
async fn an_expired_session_starts_afresh() {
    let server = TestServer::start(&["--search-threads", "1", "--analysis-session-idle", "0s"]);
    let start = Position::start(EngineVariant::Italian);
    let next = start.play_notation("22-18").unwrap();
    let cold = local(&next, &[start], 8, &TranspositionTable::new(4));
    let session = |search| AnalyzeRequest { search: Some(search), session: "s".into(), ..Default::default() };
    analyze(&server, session(request(Variant::Italian, &[], 8, 4))).await;
    let result = analyze(&server, session(request(Variant::Italian, &["22-18"], 8, 4))).await;
    assert_eq!(answer(&result), cold);
}

#[tokio::test]
async fn session_keys_are_checked() {
    let server = TestServer::start(&[]);
    let mut engine = server.engine().await;
    for key in ["x".repeat(129), "tab\there".to_string()] {
        let request =
            AnalyzeRequest { search: Some(request(Variant::Italian, &[], 2, 0)), session: key, ..Default::default() };
        let error = failure(engine.analyze(request).await);
        assert_eq!((error.code, error.fields), (Code::InvalidArgument, vec!["session".to_string()]));
    }
}

#[tokio::test]
async fn an_infinite_analysis_runs_until_the_server_s_longest_move_time() {
    let server = TestServer::start(&["--max-move-time", "1500ms", "--default-move-time", "100ms"]);
    let search = SearchRequest { variant: Variant::Triestina.into(), ..Default::default() };
    let infinite = AnalyzeRequest { search: Some(search.clone()), infinite: true, ..Default::default() };
    let result = analyze(&server, infinite).await;
    assert_eq!(result.stop_reason(), StopReason::Limit);
    let elapsed: Duration = result.elapsed.unwrap().try_into().unwrap();
    // Only the longest move time stops it (Triestina's start is far from depth 40): the elapsed
    // time is past the default move time however slow the machine.
    assert!(elapsed >= Duration::from_secs(1), "it ran to the longest move time, not the default: {elapsed:?}");

    // It takes no limits.
    let limited = SearchRequest { limits: Some(SearchLimits { depth: 3, ..Default::default() }), ..search };
    let request = AnalyzeRequest { search: Some(limited), infinite: true, ..Default::default() };
    let error = failure(server.engine().await.analyze(request).await);
    assert_eq!((error.code, error.fields), (Code::InvalidArgument, vec!["infinite".to_string()]));
}

#[tokio::test]
async fn an_infinite_analysis_stops_when_the_client_cancels() {
    let server = TestServer::start(&["--max-move-time", "60s"]);
    let search = SearchRequest { variant: Variant::Triestina.into(), ..Default::default() };
    let request = AnalyzeRequest { search: Some(search), infinite: true, ..Default::default() };
    let mut stream = server.engine().await.analyze(request).await.unwrap().into_inner();
    assert!(matches!(stream.next().await.unwrap().unwrap().update, Some(Update::Iteration(_))));
    assert_eq!(server.metric("damiera_searches_running").await, Some(1.0));
    drop(stream);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while server.metric("damiera_searches_running").await != Some(0.0) {
        assert!(tokio::time::Instant::now() < deadline, "the search did not stop when the client went away");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
