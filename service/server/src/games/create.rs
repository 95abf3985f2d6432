//! Making games: `CreateGame` from a variant, a position and seats, `ImportGame` from PDN. Both
//! hand out a fresh secret token per person's seat and keep only its hash.

use damiera_engine::pdn::{self, GameResult};
use damiera_engine::{Color, Game, GameOptions, Outcome, Variant};

use super::auth::{hash_token, new_game_id, new_token};
use super::convert::{first_mover, first_mover_from_pb, game_to_pb, seat_from_pb};
use super::host::{bounded, now_ms, request_id, store_error, Host};
use super::record::{Event, EventKind, FirstMoverChoice, GameHeader, SeatSpec};
use super::replay::answer_text;
use crate::api::convert::{position, variant};
use crate::api::{ApiError, Caps};
use crate::proto as pb;

/// The longest FEN a game may start from (a full Triestina board is some 160 characters).
const MAX_FEN: usize = 1024;

/// A game just made, with the tokens of its person seats (empty for engine seats).
#[derive(Debug)]
pub struct NewGame {
    /// The game.
    pub game: pb::Game,
    /// White's token.
    pub white_token: String,
    /// Black's token.
    pub black_token: String,
}

/// `CreateGame`.
pub async fn new_game(host: &Host, caps: &Caps, request: &pb::CreateGameRequest) -> Result<NewGame, ApiError> {
    let variant = variant("variant", request.variant)?;
    let choice = first_mover_from_pb(variant, request.options.as_ref())?;
    let forfeit = request.options.as_ref().is_some_and(|o| o.forfeit_on_capture_fault);
    let game = if request.fen.trim().is_empty() {
        Game::with_options(variant, GameOptions { first_mover: first_mover(choice), forfeit_on_capture_fault: forfeit })
    } else {
        if choice != FirstMoverChoice::White {
            return Err(ApiError::invalid(
                "options.first_mover",
                "a set-up position says who moves first: leave this unset",
            ));
        }
        Game::setup(position(variant, "fen", bounded("fen", &request.fen, MAX_FEN)?)?, forfeit)
    }
    .map_err(|e| ApiError::invalid("options", e.to_string()))?;
    if game.outcome().is_over() {
        return Err(ApiError::invalid("fen", format!("the game would be over before it starts: {}", game.outcome())));
    }
    let seats = [
        seat_from_pb("white", request.white.as_ref(), "", caps)?,
        seat_from_pb("black", request.black.as_ref(), "", caps)?,
    ];
    let header = header(&game, choice, seats);
    store(host, header, Vec::new(), request_id("request_id", &request.request_id)?.as_deref()).await
}

/// `ImportGame`.
pub async fn import_game(
    host: &Host,
    caps: &Caps,
    request: &pb::ImportGameRequest,
    max_pdn_bytes: usize,
) -> Result<NewGame, ApiError> {
    if request.pdn.len() > max_pdn_bytes {
        return Err(ApiError::over_limit(
            "pdn",
            format!("{} bytes", request.pdn.len()),
            format!("{max_pdn_bytes} bytes"),
        ));
    }
    let default_variant = if request.variant == 0 { Variant::Italian } else { variant("variant", request.variant)? };
    let mut games =
        pdn::read_games(&request.pdn, default_variant).map_err(|e| ApiError::invalid("pdn", e.to_string()))?;
    if games.len() != 1 {
        return Err(ApiError::invalid("pdn", format!("give exactly one game; the text holds {}", games.len())));
    }
    let record = games.remove(0);
    let tag = |name| record.tag(name).filter(|v| *v != "?").unwrap_or("");
    let seats = [
        seat_from_pb("white", request.white.as_ref(), tag("White"), caps)?,
        seat_from_pb("black", request.black.as_ref(), tag("Black"), caps)?,
    ];
    let game = &record.game;
    // Who moves first is an option of Turkish games only; elsewhere the set-up position says it.
    let choice = match game.start().turn() {
        Color::Black if game.variant() == Variant::Turkish => FirstMoverChoice::Black,
        _ => FirstMoverChoice::White,
    };
    let header = header(game, choice, seats);
    let at_ms = header.created_at_ms;
    let event = |kind, color, text: &str| Event { kind, color, text: text.to_string(), at_ms, request_id: None };
    let mut events: Vec<Event> = game.moves().iter().map(|m| event(EventKind::Move, m.color, &m.notation)).collect();
    // A declared result the board does not show: a resignation, or an agreed draw.
    if game.outcome() == Outcome::Ongoing {
        let to_move = game.position().turn();
        match record.result {
            Some(GameResult::WhiteWins) => events.push(event(EventKind::Resign, Color::Black, "")),
            Some(GameResult::BlackWins) => events.push(event(EventKind::Resign, Color::White, "")),
            Some(GameResult::Draw) => {
                events.push(event(EventKind::OfferDraw, to_move, ""));
                events.push(event(EventKind::AnswerDraw, to_move.opposite(), answer_text(true)));
            }
            _ => {}
        }
    }
    store(host, header, events, request_id("request_id", &request.request_id)?.as_deref()).await
}

fn header(game: &Game, first_mover: FirstMoverChoice, [white, black]: [SeatSpec; 2]) -> GameHeader {
    GameHeader {
        id: new_game_id(),
        variant: game.variant(),
        start_fen: game.start().to_fen(),
        forfeit_on_capture_fault: game.options().forfeit_on_capture_fault,
        first_mover,
        white,
        black,
        white_token_hash: None,
        black_token_hash: None,
        created_at_ms: now_ms(),
    }
}

/// Stores the game with fresh tokens. A request id used before, for the same request, answers
/// that game, with fresh tokens in place of the first ones (whoever retries never got them) as
/// long as no move has been made; the id used for another request is refused.
async fn store(
    host: &Host,
    mut header: GameHeader,
    events: Vec<Event>,
    request_id: Option<&str>,
) -> Result<NewGame, ApiError> {
    let [white_token, black_token] = issue_tokens(&header);
    header.white_token_hash = hash(&white_token);
    header.black_token_hash = hash(&black_token);
    let asked = header.clone();
    let imported = events.len() as u64;
    let (stored, replayed, is_new) = host.create(header, events, request_id).await?;
    let [white_token, black_token] = if is_new {
        [white_token, black_token]
    } else {
        if !same_request(&asked, &stored.header) {
            return Err(ApiError::invalid(
                "request_id",
                "this request id made another game; use a new id for a new game".to_string(),
            ));
        }
        if stored.version() > imported {
            // The game is under way: its seats' tokens are in use and are not handed out again.
            [String::new(), String::new()]
        } else {
            let tokens = issue_tokens(&stored.header);
            let [white_hash, black_hash] = [hash(&tokens[0]), hash(&tokens[1])];
            host.store()
                .replace_tokens(&stored.header.id, white_hash.as_deref(), black_hash.as_deref())
                .await
                .map_err(store_error)?;
            tokens
        }
    };
    Ok(NewGame { game: game_to_pb(&stored, &replayed), white_token, black_token })
}

/// Whether a retry asks for the game that was made: same variant, seats and options, and the
/// same start (but for a Turkish first mover drawn by lot).
fn same_request(asked: &GameHeader, made: &GameHeader) -> bool {
    let same_start = asked.first_mover == FirstMoverChoice::ByLot || asked.start_fen == made.start_fen;
    asked.variant == made.variant
        && asked.white == made.white
        && asked.black == made.black
        && asked.forfeit_on_capture_fault == made.forfeit_on_capture_fault
        && asked.first_mover == made.first_mover
        && same_start
}

/// A new token for each person's seat; empty for an engine's.
fn issue_tokens(header: &GameHeader) -> [String; 2] {
    Color::ALL.map(|color| if header.seat(color).is_engine() { String::new() } else { new_token() })
}

/// The stored hash of a token; none for an empty one.
fn hash(token: &str) -> Option<String> {
    (!token.is_empty()).then(|| hash_token(token))
}
