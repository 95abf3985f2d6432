//! Making games: a new game from its set-up, seats and play options (clock, takebacks), or one
//! imported from PDN. Both hand out a fresh secret token per person's seat and keep only its hash.

use damiera_engine::pdn::{GameResult, PdnGame, Termination};
use damiera_engine::{Color, Game, Outcome, Variant};

use super::auth::{hash_token, new_game_id, new_token};
use super::clock::TimeControl;
use super::error::HostError;
use super::host::{now_ms, Host};
use super::record::{Event, EventKind, FirstMoverChoice, GameHeader, SeatSpec, StoredGame};
use super::replay::{answer_text, Replayed};
use super::store::StoreError;
use crate::tenants::TenantId;

/// How many ids a new game may draw before a taken one is an error: with 50 random bits, a second
/// draw is already rare.
const ID_DRAWS: usize = 4;

/// A game just made, with the tokens of its person seats (empty for engine seats, and on a retry).
#[derive(Debug)]
pub struct NewGame {
    /// The game as stored.
    pub stored: StoredGame,
    /// `stored`, replayed.
    pub replayed: Replayed,
    /// White's token.
    pub white_token: String,
    /// Black's token.
    pub black_token: String,
    /// Whether this answers a retry: the game was made by an earlier call, which alone had its
    /// tokens.
    pub tokens_already_issued: bool,
}

/// How a hosted game is played, beyond the rules: its clock, and whether moves may be taken back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayOptions {
    /// The time control.
    pub time_control: TimeControl,
    /// Whether the seats may take moves back by agreement: only between two people.
    pub takebacks: bool,
}

/// `CreateGame` for `tenant`: stores `game` (set up, not yet played) with its seats;
/// `first_mover` says how its side to move was chosen.
pub async fn new_game(
    host: &Host,
    tenant: &TenantId,
    game: &Game,
    first_mover: FirstMoverChoice,
    seats: [SeatSpec; 2],
    play: PlayOptions,
    request_id: Option<&str>,
) -> Result<NewGame, HostError> {
    let header = header(host, tenant, game, first_mover, seats, play)?;
    store(host, header, Vec::new(), request_id).await
}

/// `ImportGame` for `tenant`: stores a game read from PDN, with its moves and declared result,
/// and its seats.
pub async fn import_game(
    host: &Host,
    tenant: &TenantId,
    record: &PdnGame,
    seats: [SeatSpec; 2],
    play: PlayOptions,
    request_id: Option<&str>,
) -> Result<NewGame, HostError> {
    let game = &record.game;
    // Who moves first is an option of Turkish games only; elsewhere the set-up position says it.
    let choice = match game.start().turn() {
        Color::Black if game.variant() == Variant::Turkish => FirstMoverChoice::Black,
        _ => FirstMoverChoice::White,
    };
    let mut header = header(host, tenant, game, choice, seats, play)?;
    let at_ms = header.created_at_ms;
    let event = |kind, color, text: &str| Event { kind, color, text: text.to_string(), at_ms, request_id: None };
    let mut events: Vec<Event> = game.moves().iter().map(|m| event(EventKind::Move, m.color, &m.notation)).collect();
    // A declared result the board does not show: lost on time or by abandonment when the
    // Termination tag says so, else a resignation; or an agreed draw.
    if game.outcome() == Outcome::Ongoing {
        let to_move = game.position().turn();
        let loss = match record.tag("Termination").and_then(Termination::from_tag) {
            Some(Termination::TimeForfeit) => EventKind::Flag,
            Some(Termination::Abandoned) => EventKind::Abandon,
            _ => EventKind::Resign,
        };
        match record.result {
            Some(GameResult::WhiteWins) => events.push(event(loss, Color::Black, "")),
            Some(GameResult::BlackWins) => events.push(event(loss, Color::White, "")),
            Some(GameResult::Draw) => {
                events.push(event(EventKind::OfferDraw, to_move, ""));
                events.push(event(EventKind::AnswerDraw, to_move.opposite(), answer_text(true)));
            }
            _ => {}
        }
    }
    header.timing.imported_events = events.len() as u32;
    store(host, header, events, request_id).await
}

fn header(
    host: &Host,
    tenant: &TenantId,
    game: &Game,
    first_mover: FirstMoverChoice,
    [white, black]: [SeatSpec; 2],
    play: PlayOptions,
) -> Result<GameHeader, HostError> {
    if play.takebacks && (white.is_engine() || black.is_engine()) {
        return Err(HostError::TakebacksNeedTwoPeople);
    }
    Ok(GameHeader {
        id: new_game_id(),
        tenant: tenant.clone(),
        variant: game.variant(),
        start_fen: game.start().to_fen(),
        forfeit_on_capture_fault: game.options().forfeit_on_capture_fault,
        first_mover,
        white,
        black,
        white_token_hash: None,
        black_token_hash: None,
        created_at_ms: now_ms(),
        timing: host.timing_policy().timing(play.time_control, 0),
        takebacks: play.takebacks,
    })
}

/// Stores the game with fresh tokens. A request id its tenant used before, for the same request,
/// answers that game without tokens: they were handed to the first call only, and are kept only
/// as hashes (AIP-155 would answer them again, but that needs them stored readable; issuing new
/// ones would take the seats from a client that did get the first answer). The id used for
/// another request is refused.
async fn store(
    host: &Host,
    mut header: GameHeader,
    events: Vec<Event>,
    request_id: Option<&str>,
) -> Result<NewGame, HostError> {
    let [white_token, black_token] = issue_tokens(&header);
    header.white_token_hash = hash(&white_token);
    header.black_token_hash = hash(&black_token);
    let asked = StoredGame { header: header.clone(), events: events.clone() };
    let (stored, replayed, is_new) = create_under_a_free_id(host, header, events, request_id).await?;
    if is_new {
        return Ok(NewGame { stored, replayed, white_token, black_token, tokens_already_issued: false });
    }
    if !same_request(&asked, &stored) {
        return Err(HostError::RequestIdMadeAnotherGame);
    }
    Ok(NewGame {
        stored,
        replayed,
        white_token: String::new(),
        black_token: String::new(),
        tokens_already_issued: true,
    })
}

/// Creates the game, drawing a new id while the one drawn is taken (short ids may meet, rarely).
async fn create_under_a_free_id(
    host: &Host,
    mut header: GameHeader,
    events: Vec<Event>,
    request_id: Option<&str>,
) -> Result<(StoredGame, Replayed, bool), HostError> {
    for _ in 1..ID_DRAWS {
        match host.create(header.clone(), events.clone(), request_id).await {
            Err(HostError::Store(StoreError::IdTaken(_))) => header.id = new_game_id(),
            created => return created,
        }
    }
    host.create(header, events, request_id).await
}

/// Whether a retry asks for the game that was made: same variant, seats and options, the same
/// start (but for a Turkish first mover drawn by lot) and, imported, the same moves and result
/// (the game may have gone on since).
fn same_request(asked: &StoredGame, made: &StoredGame) -> bool {
    let same_events = made.header.timing.imported_events as usize == asked.events.len()
        && asked.events.iter().zip(&made.events).all(|(a, m)| (a.kind, a.color, &a.text) == (m.kind, m.color, &m.text));
    let (asked, made) = (&asked.header, &made.header);
    let same_start = asked.first_mover == FirstMoverChoice::ByLot || asked.start_fen == made.start_fen;
    same_events
        && asked.variant == made.variant
        && asked.white == made.white
        && asked.black == made.black
        && asked.forfeit_on_capture_fault == made.forfeit_on_capture_fault
        && asked.first_mover == made.first_mover
        && asked.timing.control == made.timing.control
        && asked.takebacks == made.takebacks
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
