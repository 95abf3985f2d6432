//! The server's request handling: a game is created, then each call sends one unary RPC of any
//! service, its request decoded from fuzz bytes as the wire would decode it, with or without a
//! seat's token, through the services in process over a real (SQLite) store.
//!
//! Beyond no panic: no call fails as the server's own fault (`INTERNAL`, `UNKNOWN`, `DATA_LOSS`,
//! `UNAVAILABLE`), and at the end the game's stored moves replay legally from its start to the
//! position the server reports.

#![no_main]

use arbitrary::Arbitrary;
use damiera_engine::{fen, notation, Position};
use damiera_fuzz::server::Server;
use damiera_server::api::convert;
use damiera_server::proto::engine_service_server::EngineService;
use damiera_server::proto::game_service_server::GameService;
use damiera_server::proto::rules_service_server::RulesService;
use damiera_server::proto::{self as pb};
use libfuzzer_sys::fuzz_target;
use prost::Message;
use tonic::metadata::MetadataValue;
use tonic::{Code, Request, Status};

/// At most this many calls per input, so that one input stays quick.
const MAX_CALLS: usize = 8;

/// Every unary RPC (the streams, `Analyze` and `WatchGame`, are not requests and answers).
#[derive(Arbitrary, Clone, Copy, Debug)]
enum Rpc {
    ListVariants,
    GetStartPosition,
    ParsePosition,
    ListLegalMoves,
    ApplyMove,
    Perft,
    RenderPosition,
    BestMove,
    CreateGame,
    GetGame,
    ListGames,
    MakeMove,
    Resign,
    OfferDraw,
    AnswerDraw,
    RequestMoveCount,
    AbortGame,
    OfferTakeback,
    AnswerTakeback,
    DeleteGame,
    ExportPdn,
    ImportGame,
}

/// The `authorization` a call carries.
#[derive(Arbitrary, Debug)]
enum Seat<'a> {
    Nobody,
    White,
    Black,
    Header(&'a str),
}

#[derive(Arbitrary, Debug)]
struct Call<'a> {
    rpc: Rpc,
    /// The request message as protobuf bytes.
    body: &'a [u8],
    /// A game call names the input's game, whatever name the body holds.
    this_game: bool,
    /// `MakeMove` plays the legal move this picks (by index) instead of the body's notation.
    legal_move: Option<u8>,
    seat: Seat<'a>,
    /// The call's deadline (`grpc-timeout`), in milliseconds.
    timeout_ms: Option<u16>,
}

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// The input's game: `VARIANT_ITALIAN`, `VARIANT_TRIESTINA` or `VARIANT_TURKISH`.
    variant: u8,
    calls: Vec<Call<'a>>,
}

/// The input's game: its name and its seats' tokens.
struct Game {
    name: String,
    white: String,
    black: String,
}

impl Game {
    /// The `authorization` value for `seat`.
    fn authorization(&self, seat: &Seat<'_>) -> Option<String> {
        match seat {
            Seat::Nobody => None,
            Seat::White => Some(format!("Bearer {}", self.white)),
            Seat::Black => Some(format!("Bearer {}", self.black)),
            Seat::Header(text) => Some((*text).to_string()),
        }
    }
}

/// `message` as a request with the call's token and deadline.
fn request<T>(message: T, call: &Call<'_>, game: &Game) -> Request<T> {
    let mut request = Request::new(message);
    if let Some(value) = game.authorization(&call.seat).and_then(|v| MetadataValue::try_from(v).ok()) {
        request.metadata_mut().insert("authorization", value);
    }
    if let Some(ms) = call.timeout_ms {
        request.set_timeout(std::time::Duration::from_millis(u64::from(ms)));
    }
    request
}

/// The game name a game call sends: the input's game, or the one decoded.
fn named(call: &Call<'_>, game: &Game, decoded: String) -> String {
    if call.this_game {
        game.name.clone()
    } else {
        decoded
    }
}

/// Decodes the call's body as `pb::$message`, names the input's game in it when asked (`named`),
/// and calls `$service.$method`; an undecodable body is refused by tonic before any handler.
macro_rules! unary {
    ($service:expr, $method:ident, $message:ident, $call:expr, $game:expr $(, $named:ident)?) => {{
        let Ok(message) = pb::$message::decode($call.body) else {
            return Ok(());
        };
        $(
            let mut message = message;
            message.$named = named($call, $game, std::mem::take(&mut message.$named));
        )?
        $service.$method(request(message, $call, $game)).await.map(|_| ())
    }};
}

/// The current position of the input's game, as the server reports it.
async fn current_position(server: &Server, game: &Game) -> Option<Position> {
    let answer = server
        .games
        .get_game(Request::new(pb::GetGameRequest { name: game.name.clone(), ..Default::default() }))
        .await
        .ok()?;
    let state_position = answer.into_inner().game?.state?.position?;
    let variant = convert::variant("variant", state_position.variant).ok()?;
    fen::parse(variant, &state_position.fen).ok()
}

async fn send(server: &Server, call: &Call<'_>, game: &Game) -> Result<(), Status> {
    let (rules, engine, games) = (&server.rules, &server.engine, &server.games);
    match call.rpc {
        Rpc::ListVariants => unary!(rules, list_variants, ListVariantsRequest, call, game),
        Rpc::GetStartPosition => unary!(rules, get_start_position, GetStartPositionRequest, call, game),
        Rpc::ParsePosition => unary!(rules, parse_position, ParsePositionRequest, call, game),
        Rpc::ListLegalMoves => unary!(rules, list_legal_moves, ListLegalMovesRequest, call, game),
        Rpc::ApplyMove => unary!(rules, apply_move, ApplyMoveRequest, call, game),
        Rpc::Perft => unary!(rules, perft, PerftRequest, call, game),
        Rpc::RenderPosition => unary!(rules, render_position, RenderPositionRequest, call, game),
        Rpc::BestMove => unary!(engine, best_move, BestMoveRequest, call, game),
        Rpc::CreateGame => unary!(games, create_game, CreateGameRequest, call, game),
        Rpc::GetGame => unary!(games, get_game, GetGameRequest, call, game, name),
        Rpc::ListGames => unary!(games, list_games, ListGamesRequest, call, game),
        Rpc::MakeMove => {
            let Ok(mut message) = pb::MakeMoveRequest::decode(call.body) else {
                return Ok(());
            };
            message.name = named(call, game, message.name);
            if let (Some(choice), Some(position)) = (call.legal_move, current_position(server, game).await) {
                let moves = position.legal_moves();
                if let Some(mv) = moves.get(usize::from(choice) % moves.len().max(1)) {
                    message.notation = notation::write(position.variant(), mv);
                }
            }
            games.make_move(request(message, call, game)).await.map(|_| ())
        }
        Rpc::Resign => unary!(games, resign, ResignRequest, call, game, name),
        Rpc::OfferDraw => unary!(games, offer_draw, OfferDrawRequest, call, game, name),
        Rpc::AnswerDraw => unary!(games, answer_draw, AnswerDrawRequest, call, game, name),
        Rpc::RequestMoveCount => unary!(games, request_move_count, RequestMoveCountRequest, call, game, name),
        Rpc::AbortGame => unary!(games, abort_game, AbortGameRequest, call, game, name),
        Rpc::OfferTakeback => unary!(games, offer_takeback, OfferTakebackRequest, call, game, name),
        Rpc::AnswerTakeback => unary!(games, answer_takeback, AnswerTakebackRequest, call, game, name),
        Rpc::DeleteGame => unary!(games, delete_game, DeleteGameRequest, call, game, name),
        Rpc::ExportPdn => unary!(games, export_pdn, ExportPdnRequest, call, game, name),
        Rpc::ImportGame => unary!(games, import_game, ImportGameRequest, call, game),
    }
}

/// A person against a person in `variant`.
async fn create(server: &Server, variant: u8) -> Game {
    let person = || Some(pb::Seat { player: Some(pb::seat::Player::Person(pb::Person::default())) });
    let variant = i32::from(variant % 3) + pb::Variant::Italian as i32;
    let message = pb::CreateGameRequest { variant, white: person(), black: person(), ..Default::default() };
    let made = server.games.create_game(Request::new(message)).await.expect("a plain game is created").into_inner();
    Game { name: made.game.expect("the game").name, white: made.white_token, black: made.black_token }
}

/// The game's stored moves replay legally from its start to the position the server reports;
/// or, after a DeleteGame that succeeded, the game is not found.
async fn check_replay(server: &Server, game: &Game, deleted: bool) {
    let stored =
        server.games.get_game(Request::new(pb::GetGameRequest { name: game.name.clone(), ..Default::default() })).await;
    let stored = match stored {
        Err(status) if deleted && status.code() == Code::NotFound => return,
        stored => stored.expect("the game loads").into_inner().game.expect("a game"),
    };
    let start = stored.start_position.expect("a start position");
    let variant = convert::variant("variant", start.variant).expect("a variant");
    let mut position = fen::parse(variant, &start.fen).expect("the start FEN reads");
    for played in &stored.moves {
        position = position.play_notation(&played.notation).unwrap_or_else(|e| panic!("stored move: {e}"));
    }
    let reported = stored.state.and_then(|s| s.position).expect("a current position");
    assert_eq!(position.to_fen(), reported.fen, "the stored moves lead elsewhere than the reported position");
}

fuzz_target!(|input: Input<'_>| {
    let server = damiera_fuzz::server::for_input();
    server.runtime.block_on(async {
        let game = create(&server, input.variant).await;
        let mut deleted = false;
        for call in input.calls.iter().take(MAX_CALLS) {
            let sent = send(&server, call, &game).await;
            deleted |= matches!(call.rpc, Rpc::DeleteGame) && sent.is_ok();
            if let Err(status) = sent {
                let code = status.code();
                assert!(
                    !matches!(code, Code::Internal | Code::Unknown | Code::DataLoss | Code::Unavailable),
                    "{:?} failed as the server's fault: {status:?}",
                    call.rpc
                );
            }
        }
        check_replay(&server, &game, deleted).await;
    });
});
