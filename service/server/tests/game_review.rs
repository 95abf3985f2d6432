//! `GameService.ReviewGame` through a real server: a constructed game with a blunder, reviewed
//! from its moves, from PDN and as a hosted game, with the judgements asserted; the chart; and
//! the requests it refuses.

mod support;

use damiera_server::proto::{
    review_game_request::Game as Source, review_game_response::Update, GameMoves, ImportGameRequest, Judgement,
    ReviewGameRequest, ReviewSummary, ReviewedMove, SearchLimits, Variant,
};
use support::{failure, Backend, TestServer};
use tokio_stream::StreamExt;
use tonic::Code;

/// White's men on 22 and 29 against Black's on 15 and 4, level. 22-19 throws the man away:
/// Black's 15x22 is forced, and White is a man down.
const FEN: &str = "W:W22,29:B15,4";
const MOVES: [&str; 3] = ["22-19", "15x22", "29-25"];

/// The same game as PDN.
const PDN: &str = "[GameType \"22\"]\n[FEN \"W:W22,29:B15,4\"]\n\n1. 22-19 15x22 2. 29-25 *\n";

fn limits() -> Option<SearchLimits> {
    Some(SearchLimits { depth: 8, ..Default::default() })
}

fn by_moves() -> ReviewGameRequest {
    let moves = GameMoves {
        variant: Variant::Italian.into(),
        fen: FEN.into(),
        moves: MOVES.iter().map(|m| m.to_string()).collect(),
    };
    ReviewGameRequest { game: Some(Source::Moves(moves)), limits: limits(), ..Default::default() }
}

/// Every reviewed move, then the summary.
async fn review(server: &TestServer, request: ReviewGameRequest) -> (Vec<ReviewedMove>, ReviewSummary) {
    let mut stream = server.games().await.review_game(request).await.unwrap().into_inner();
    let mut moves = Vec::new();
    while let Some(message) = stream.next().await {
        match message.unwrap().update {
            Some(Update::ReviewedMove(reviewed)) => moves.push(reviewed),
            Some(Update::Summary(summary)) => {
                assert!(stream.next().await.is_none(), "the summary is the last message");
                return (moves, summary);
            }
            None => panic!("an empty message"),
        }
    }
    panic!("the review ended without its summary")
}

#[tokio::test]
async fn a_thrown_away_man_is_a_blunder_and_a_forced_capture_is_forced() {
    let server = TestServer::start(&[]);
    let (moves, summary) = review(&server, by_moves()).await;
    let judgements: Vec<Judgement> = moves.iter().map(ReviewedMove::judgement).collect();
    assert_eq!(judgements, [Judgement::Blunder, Judgement::Forced, Judgement::Best]);
    assert_eq!(moves.iter().map(|m| m.played.as_str()).collect::<Vec<_>>(), MOVES);
    assert_eq!(moves.iter().map(|m| (m.done, m.total)).collect::<Vec<_>>(), [(1, 3), (2, 3), (3, 3)]);
    let blunder = &moves[0];
    assert_eq!(blunder.best_move, "22-18");
    assert!(blunder.expected_before - blunder.expected_after >= 0.20, "{blunder:?}");
    // The mover's expected score after a move is the next mover's before it, turned round.
    assert!((moves[0].expected_after - (1.0 - moves[1].expected_before)).abs() < 1e-12);
    let white = summary.white.unwrap();
    let black = summary.black.unwrap();
    assert_eq!((white.inaccuracies, white.mistakes, white.blunders), (0, 0, 1));
    assert_eq!((black.inaccuracies, black.mistakes, black.blunders), (0, 0, 0));
    assert_eq!(summary.start_expected, moves[0].expected_before);
    assert!(summary.chart_svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320""#));
    assert_eq!(summary.chart_svg.matches(r#"class="blunder" data-ply="0""#).count(), 1);
    assert_eq!(summary.chart_svg.matches("<circle").count(), 1);
    assert!(summary.chart_png.starts_with(b"\x89PNG\r\n\x1a\n"));
    // PNG width and height, big-endian, in the IHDR chunk.
    assert_eq!(&summary.chart_png[16..24], &[0, 0, 2, 128, 0, 0, 1, 64]);
}

#[tokio::test]
async fn the_same_game_as_pdn_or_hosted_on_sqlite_is_reviewed_the_same() {
    the_same_game_as_pdn_or_hosted_is_reviewed_the_same(Backend::Sqlite).await;
}

#[tokio::test]
async fn the_same_game_as_pdn_or_hosted_on_postgres_is_reviewed_the_same() {
    the_same_game_as_pdn_or_hosted_is_reviewed_the_same(Backend::Postgres).await;
}

async fn the_same_game_as_pdn_or_hosted_is_reviewed_the_same(backend: Backend) {
    let Some(database) = backend.scratch().await else { return };
    let server = TestServer::start_on(&database, &[]);
    let (expected, _) = review(&server, by_moves()).await;
    let pdn = ReviewGameRequest { game: Some(Source::Pdn(PDN.into())), limits: limits(), ..Default::default() };
    assert_eq!(review(&server, pdn).await.0, expected);
    let mut games = server.games().await;
    let import = ImportGameRequest { pdn: PDN.into(), ..Default::default() };
    let name = games.import_game(import).await.unwrap().into_inner().game.unwrap().name;
    let hosted = ReviewGameRequest { game: Some(Source::Name(name)), limits: limits(), ..Default::default() };
    assert_eq!(review(&server, hosted).await.0, expected);
}

#[tokio::test]
async fn bad_review_requests_are_refused_before_any_search() {
    let server = TestServer::start(&[]);
    let mut games = server.games().await;
    let cases = [
        (ReviewGameRequest::default(), "game"),
        (ReviewGameRequest { chart_width: 10, ..by_moves() }, "chart_width"),
        (ReviewGameRequest { game: Some(Source::Name("games/nope".into())), ..Default::default() }, ""),
        (ReviewGameRequest { limits: Some(SearchLimits { depth: 99, ..Default::default() }), ..by_moves() }, "depth"),
    ];
    for (request, field) in cases {
        let error = failure(games.review_game(request).await);
        match field {
            "" => assert_eq!((error.code, error.reason.as_str()), (Code::NotFound, "GAME_NOT_FOUND")),
            "depth" => assert_eq!(error.reason, "LIMIT_EXCEEDED"),
            field => assert_eq!((error.code, error.fields), (Code::InvalidArgument, vec![field.to_string()])),
        }
    }
    let mut illegal = by_moves();
    if let Some(Source::Moves(moves)) = &mut illegal.game {
        moves.moves[1] = "4-8".into();
    }
    let error = failure(games.review_game(illegal).await);
    assert_eq!((error.reason.as_str(), error.fields), ("ILLEGAL_MOVE", vec!["moves.moves[1]".to_string()]));
}
