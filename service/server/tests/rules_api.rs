//! `RulesService` through a real server and the generated client: every RPC and its errors.
//!
//! Expected moves and counts come from RULES.md (perft table, section 4) and hand-checked
//! positions shared with the engine's tests.

mod support;

use damiera_server::proto::{
    self as pb, position_status::State, ApplyMoveRequest, GetStartPositionRequest, ImageFormat, ListLegalMovesRequest,
    ListVariantsRequest, ParsePositionRequest, PerftRequest, RenderPositionRequest, Variant,
};
use support::{failure, TestServer};
use tonic::Code;

const ITALIAN: i32 = Variant::Italian as i32;
const TURKISH: i32 = Variant::Turkish as i32;
const ITALIAN_START: &str = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

fn notations(moves: &[pb::Move]) -> Vec<&str> {
    moves.iter().map(|m| m.notation.as_str()).collect()
}

#[tokio::test]
async fn list_variants_describes_the_three_boards() {
    let server = TestServer::start(&[]);
    let variants = server.rules().await.list_variants(ListVariantsRequest {}).await.unwrap().into_inner().variants;
    let facts: Vec<_> = variants
        .iter()
        .map(|v| (v.name.as_str(), v.board_size, v.playable_squares, v.men_per_side, v.square_naming()))
        .collect();
    use pb::SquareNaming::{Algebraic, Numbers};
    assert_eq!(
        facts,
        [("italian", 8, 32, 12, Numbers), ("triestina", 10, 50, 20, Numbers), ("turkish", 8, 64, 16, Algebraic)]
    );
    assert_eq!(variants[0].start_position.as_ref().unwrap().fen, ITALIAN_START);
    assert!(variants.iter().all(|v| v.rule_summary.len() >= 5 && !v.display_name.is_empty()));
}

#[tokio::test]
async fn start_position_has_fen_and_pieces() {
    let server = TestServer::start(&[]);
    let request = GetStartPositionRequest { variant: TURKISH };
    let position = server.rules().await.get_start_position(request).await.unwrap().into_inner().position.unwrap();
    assert_eq!(position.fen, damiera_engine::Variant::Turkish.start_fen());
    assert_eq!(position.side_to_move(), pb::Color::White);
    assert_eq!(position.pieces.len(), 32);
    assert_eq!(
        position.pieces[0],
        pb::Piece { square: "a2".into(), color: pb::Color::White.into(), kind: pb::PieceKind::Man.into() }
    );
}

#[tokio::test]
async fn a_missing_variant_is_refused_with_its_field() {
    let server = TestServer::start(&[]);
    let error = failure(server.rules().await.get_start_position(GetStartPositionRequest { variant: 0 }).await);
    assert_eq!(
        (error.code, error.reason.as_str(), error.fields),
        (Code::InvalidArgument, "UNSUPPORTED_VARIANT", vec!["variant".to_string()])
    );
    let error = failure(server.rules().await.get_start_position(GetStartPositionRequest { variant: 99 }).await);
    assert_eq!(error.reason, "UNSUPPORTED_VARIANT");
}

#[tokio::test]
async fn parse_position_writes_the_canonical_fen_and_the_status() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let request = ParsePositionRequest { variant: ITALIAN, fen: "w:b1-12:w21-32".into() };
    let response = rules.parse_position(request).await.unwrap().into_inner();
    assert_eq!(response.position.unwrap().fen, ITALIAN_START);
    assert_eq!(response.legal_moves.len(), 7);
    assert_eq!(response.status.unwrap().state(), State::Ongoing);

    // Black to move, its man on 28 (g2) blocked by a man on 31 and a king on 32: White has won.
    let request = ParsePositionRequest { variant: ITALIAN, fen: "B:W31,K32:B28".into() };
    let status = rules.parse_position(request).await.unwrap().into_inner().status.unwrap();
    assert_eq!(
        (status.state(), status.winner(), status.win_reason()),
        (State::Won, pb::Color::White, pb::WinReason::NoMoves)
    );
}

#[tokio::test]
async fn a_bad_fen_names_the_token_at_fault() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let error =
        failure(rules.parse_position(ParsePositionRequest { variant: ITALIAN, fen: "W:W21,33:B1".into() }).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::InvalidArgument, "INVALID_FEN"));
    assert_eq!(error.fields, ["fen"]);
    assert_eq!(error.metadata.get("token").map(String::as_str), Some("33"));
    assert!(error.message.contains("'33'"), "{}", error.message);
    let error = failure(rules.parse_position(ParsePositionRequest { variant: ITALIAN, fen: String::new() }).await);
    assert_eq!((error.reason.as_str(), error.fields), ("INVALID_ARGUMENT", vec!["fen".to_string()]));
}

#[tokio::test]
async fn legal_moves_of_the_start_and_of_a_forced_capture() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let response = rules
        .list_legal_moves(ListLegalMovesRequest { variant: ITALIAN, fen: String::new() })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(notations(&response.moves), ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"]);
    assert!(!response.must_capture);

    // Two men can each capture twice (RULES.md 2.6); the king on 31 must wait.
    let request = ListLegalMovesRequest { variant: ITALIAN, fen: "W:W22,23,K31:B18,19,11,10".into() };
    let response = rules.list_legal_moves(request).await.unwrap().into_inner();
    let mut moves = notations(&response.moves);
    moves.sort();
    assert_eq!(moves, ["22x13x6", "22x15x6", "23x14x5", "23x14x7"]);
    assert!(response.must_capture);
    let capture = response.moves.iter().find(|m| m.notation == "22x13x6").unwrap();
    assert_eq!(
        (capture.short_notation.as_str(), &capture.path, &capture.captures),
        ("22x6", &vec!["13".to_string(), "6".into()], &vec!["18".to_string(), "10".into()])
    );
}

#[tokio::test]
async fn apply_move_answers_the_move_in_full_and_the_new_position() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let request = ApplyMoveRequest { variant: ITALIAN, fen: String::new(), notation: "22-18".into() };
    let response = rules.apply_move(request).await.unwrap().into_inner();
    assert_eq!(response.played_move.unwrap().notation, "22-18");
    assert_eq!(response.position.unwrap().fen, "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    assert_eq!(response.status.unwrap().state(), State::Ongoing);

    // The short form of a unique capture, which takes Black's last piece.
    let request = ApplyMoveRequest { variant: ITALIAN, fen: "W:W22:B18,10".into(), notation: "22x6".into() };
    let response = rules.apply_move(request).await.unwrap().into_inner();
    assert_eq!(response.played_move.unwrap().notation, "22x13x6");
    let status = response.status.unwrap();
    assert_eq!(
        (status.state(), status.winner(), status.win_reason()),
        (State::Won, pb::Color::White, pb::WinReason::NoPieces)
    );

    // Turkish: one king each is a draw at once.
    let request = ApplyMoveRequest { variant: TURKISH, fen: "W:WKa1:BKh8,a5".into(), notation: "a1xa6".into() };
    let status = rules.apply_move(request).await.unwrap().into_inner().status.unwrap();
    assert_eq!((status.state(), status.draw_reason()), (State::Drawn, pb::DrawReason::OnePieceEach));
}

#[tokio::test]
async fn an_illegal_move_lists_the_legal_ones() {
    let server = TestServer::start(&[]);
    let request = ApplyMoveRequest { variant: ITALIAN, fen: String::new(), notation: "22-17x".into() };
    let error = failure(server.rules().await.apply_move(request).await);
    assert_eq!(
        (error.code, error.reason.as_str(), error.fields),
        (Code::InvalidArgument, "INVALID_MOVE_TEXT", vec!["notation".to_string()])
    );

    let request = ApplyMoveRequest { variant: ITALIAN, fen: String::new(), notation: "22-17".into() };
    let error = failure(server.rules().await.apply_move(request).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::InvalidArgument, "ILLEGAL_MOVE"));
    assert_eq!(error.metadata["legalMoves"], "21-17 22-18 23-19 24-20 21-18 22-19 23-20");
    assert!(error.message.contains("21-17, 22-18"), "{}", error.message);
}

#[tokio::test]
async fn an_ambiguous_short_form_lists_the_moves_it_fits() {
    let server = TestServer::start(&[]);
    let request = ApplyMoveRequest { variant: ITALIAN, fen: "W:W22:B19,11,18,10".into(), notation: "22x6".into() };
    let error = failure(server.rules().await.apply_move(request).await);
    assert_eq!((error.code, error.reason.as_str()), (Code::InvalidArgument, "AMBIGUOUS_MOVE"));
    let mut candidates: Vec<&str> = error.metadata["candidates"].split(' ').collect();
    candidates.sort();
    assert_eq!(candidates, ["22x13x6", "22x15x6"]);
}

#[tokio::test]
async fn perft_counts_and_divides_up_to_the_cap() {
    let server = TestServer::start(&["--max-perft-depth", "5"]);
    let mut rules = server.rules().await;
    let request = PerftRequest { variant: ITALIAN, fen: String::new(), depth: 5, divide: true };
    let response = rules.perft(request).await.unwrap().into_inner();
    assert_eq!(response.nodes, 7361);
    assert_eq!(response.divisions.len(), 7);
    assert_eq!(response.divisions.iter().map(|d| d.nodes).sum::<i64>(), 7361);

    let error =
        failure(rules.perft(PerftRequest { variant: ITALIAN, fen: String::new(), depth: 6, divide: false }).await);
    assert_eq!(
        (error.code, error.reason.as_str(), error.fields),
        (Code::InvalidArgument, "LIMIT_EXCEEDED", vec!["depth".to_string()])
    );
    assert_eq!(error.metadata["maximum"], "5");
    let error =
        failure(rules.perft(PerftRequest { variant: ITALIAN, fen: String::new(), depth: 0, divide: false }).await);
    assert_eq!(error.reason, "INVALID_ARGUMENT");
    let error =
        failure(rules.perft(PerftRequest { variant: ITALIAN, fen: String::new(), depth: -1, divide: false }).await);
    assert_eq!(
        (error.code, error.reason.as_str(), error.fields, error.message.as_str()),
        (Code::InvalidArgument, "INVALID_ARGUMENT", vec!["depth".to_string()], "depth: -1 is negative: give 0 or more")
    );
}

#[tokio::test]
async fn render_draws_svg_png_and_text() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let request = RenderPositionRequest {
        variant: ITALIAN,
        labels: true,
        highlight_move: "22-18".into(),
        size: 300,
        ..Default::default()
    };
    let response = rules.render_position(request).await.unwrap().into_inner();
    assert!(response.svg.starts_with("<svg"), "{}", &response.svg[..60.min(response.svg.len())]);
    assert_eq!(&response.png[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height in the IHDR chunk.
    assert_eq!((&response.png[16..20], &response.png[20..24]), (&300u32.to_be_bytes()[..], &300u32.to_be_bytes()[..]));
    let position = damiera_engine::Position::start(damiera_engine::Variant::Italian);
    let options = damiera_server::render::RenderOptions {
        labels: true,
        highlight: Some(damiera_engine::notation::parse(&position, "22-18").unwrap()),
        size: 300,
        ..Default::default()
    };
    assert_eq!(response.text, damiera_server::render::text(&position, &options));

    let request =
        RenderPositionRequest { variant: ITALIAN, formats: vec![ImageFormat::Text.into()], ..Default::default() };
    let response = rules.render_position(request).await.unwrap().into_inner();
    assert!(response.svg.is_empty() && response.png.is_empty() && !response.text.is_empty());
}

#[tokio::test]
async fn render_refuses_a_bad_size_and_an_illegal_highlight() {
    let server = TestServer::start(&[]);
    let mut rules = server.rules().await;
    let error = failure(
        rules.render_position(RenderPositionRequest { variant: ITALIAN, size: 5000, ..Default::default() }).await,
    );
    assert_eq!((error.reason.as_str(), error.fields), ("INVALID_ARGUMENT", vec!["size".to_string()]));
    let error = failure(
        rules.render_position(RenderPositionRequest { variant: ITALIAN, size: -512, ..Default::default() }).await,
    );
    assert_eq!((error.reason.as_str(), error.fields), ("INVALID_ARGUMENT", vec!["size".to_string()]));
    let request = RenderPositionRequest { variant: ITALIAN, highlight_move: "22-17".into(), ..Default::default() };
    let error = failure(rules.render_position(request).await);
    assert_eq!((error.reason.as_str(), error.fields), ("ILLEGAL_MOVE", vec!["highlight_move".to_string()]));
}
