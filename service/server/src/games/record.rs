//! What the store keeps of a hosted game: a header written once, and an append-only log of
//! events (moves, resignations, draw and takeback offers and answers, move-count requests, aborts,
//! and the server's own: fallen flags, abandonments, resumptions).
//!
//! The game itself is never stored: it is the header's start position with the events replayed
//! through the rules ([`super::replay`]), so what is stored can never disagree with the rules.
//! A few facts of the replay are copied into a [`Summary`] beside the header, for listing and
//! for finding the games where the engine has to act.

use damiera_engine::{Color, FirstMover, Variant};
use serde::{Deserialize, Serialize};

use sha2::{Digest, Sha256};

use super::clock::Timing;
use crate::tenants::TenantId;

/// Bytes of the digest in an etag: enough to tell games apart by chance, short enough to read.
const ETAG_DIGEST_BYTES: usize = 4;

/// A game's header: everything fixed when it was created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameHeader {
    /// The id, as in the resource name `games/{id}`.
    pub id: String,
    /// The tenant that made the game: only its calls see it.
    pub tenant: TenantId,
    /// The variant.
    pub variant: Variant,
    /// The position the game starts from, as FEN (it says who moves first).
    pub start_fen: String,
    /// Turkish: a capture fault loses instead of being refused.
    pub forfeit_on_capture_fault: bool,
    /// How `start_fen`'s side to move was chosen, as the client asked (for display).
    pub first_mover: FirstMoverChoice,
    /// Who plays White.
    pub white: SeatSpec,
    /// Who plays Black.
    pub black: SeatSpec,
    /// The SHA-256 of White's token (hex), when White is a person.
    pub white_token_hash: Option<String>,
    /// The SHA-256 of Black's token (hex), when Black is a person.
    pub black_token_hash: Option<String>,
    /// When it was created, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// The time control and the host's waiting times.
    pub timing: Timing,
    /// Whether the seats may take moves back by agreement (two people only).
    pub takebacks: bool,
}

impl GameHeader {
    /// The seat of `color`.
    pub fn seat(&self, color: Color) -> &SeatSpec {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The token hash of `color`'s seat.
    pub fn token_hash(&self, color: Color) -> Option<&str> {
        match color {
            Color::White => self.white_token_hash.as_deref(),
            Color::Black => self.black_token_hash.as_deref(),
        }
    }
}

/// How the first player was chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FirstMoverChoice {
    /// White, as in every variant by default.
    #[default]
    White,
    /// Black (Turkish only).
    Black,
    /// By lot at creation (Turkish only).
    ByLot,
}

impl From<FirstMoverChoice> for FirstMover {
    fn from(choice: FirstMoverChoice) -> FirstMover {
        match choice {
            FirstMoverChoice::White => FirstMover::White,
            FirstMoverChoice::Black => FirstMover::Black,
            FirstMoverChoice::ByLot => FirstMover::ByLot,
        }
    }
}

/// Who sits at a seat; stored as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SeatSpec {
    /// A person, who moves with the seat's token.
    Person {
        /// The name shown to others.
        display_name: String,
    },
    /// The engine, which the server moves for.
    Engine {
        /// Skill level 1 to 20.
        level: u32,
        /// Depth limit per move.
        depth: Option<u32>,
        /// Node limit per move.
        nodes: Option<u64>,
        /// Time per move, in milliseconds.
        move_time_ms: Option<u64>,
    },
}

impl SeatSpec {
    /// Whether the engine plays this seat.
    pub fn is_engine(&self) -> bool {
        matches!(self, SeatSpec::Engine { .. })
    }
}

/// What kind of thing happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A move; the text is the move in full notation, or as sent when it forfeited the game.
    Move,
    /// The seat resigned.
    Resign,
    /// The seat offered a draw.
    OfferDraw,
    /// The seat answered the other's draw offer; the text is `accept` or `decline`.
    AnswerDraw,
    /// The seat asked for the move count.
    RequestMoveCount,
    /// The game was aborted: by a seat (text `seat`) before each side had moved, or by the server
    /// (text `no_first_move`) when this seat's first move did not come in time.
    Abort,
    /// The server ended the game: this seat's clock ran out.
    Flag,
    /// The server ended the untimed game: this seat, to move, stayed away too long.
    Abandon,
    /// The server resumed after being down: this seat, to move, begins its turn afresh.
    Resume,
    /// The seat asked to take back its last move (and the reply to it, if any).
    OfferTakeback,
    /// The seat answered the other's takeback offer; the text is `accept` or `decline`.
    AnswerTakeback,
}

impl EventKind {
    /// The name stored in the database.
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Move => "move",
            EventKind::Resign => "resign",
            EventKind::OfferDraw => "offer_draw",
            EventKind::AnswerDraw => "answer_draw",
            EventKind::RequestMoveCount => "request_move_count",
            EventKind::Abort => "abort",
            EventKind::Flag => "flag",
            EventKind::Abandon => "abandon",
            EventKind::Resume => "resume",
            EventKind::OfferTakeback => "offer_takeback",
            EventKind::AnswerTakeback => "answer_takeback",
        }
    }

    /// Every kind.
    pub const ALL: [EventKind; 11] = [
        EventKind::Move,
        EventKind::Resign,
        EventKind::OfferDraw,
        EventKind::AnswerDraw,
        EventKind::RequestMoveCount,
        EventKind::Abort,
        EventKind::Flag,
        EventKind::Abandon,
        EventKind::Resume,
        EventKind::OfferTakeback,
        EventKind::AnswerTakeback,
    ];

    /// Whether only the server stores it (a seat cannot ask for it).
    pub fn is_servers(self) -> bool {
        matches!(self, EventKind::Flag | EventKind::Abandon | EventKind::Resume)
    }

    /// The kind stored as `name`.
    pub fn from_name(name: &str) -> Option<EventKind> {
        EventKind::ALL.into_iter().find(|kind| kind.name() == name)
    }
}

/// One entry of a game's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// What happened.
    pub kind: EventKind,
    /// The seat that did it.
    pub color: Color,
    /// The move, or the draw answer; empty for the other kinds.
    pub text: String,
    /// When it was stored, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The client's id for the call, which makes a retry answer the same event.
    pub request_id: Option<String>,
}

/// A game as stored: the header and every event, oldest first. Its version is the number of
/// events, which its `etag` begins with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The header.
    pub header: GameHeader,
    /// The events in order.
    pub events: Vec<Event>,
}

impl StoredGame {
    /// The number of events: each append makes it one more.
    pub fn version(&self) -> u64 {
        self.events.len() as u64
    }

    /// The game's `etag`, a strong entity tag in RFC 7232 form: its version and a digest of the
    /// game's id and version, quoted, such as `"3-9f2c41d0"`. The version alone would name a
    /// state of every game at once: with the id in it, an etag sent for the wrong game is stale
    /// rather than matching by chance. It names the stored state; an answer's clock readings,
    /// taken as it is written, are not part of it.
    pub fn etag(&self) -> String {
        let version = self.version();
        let digest = Sha256::digest(format!("{}/{version}", self.header.id).as_bytes());
        format!("\"{version}-{}\"", hex::encode(&digest[..ETAG_DIGEST_BYTES]))
    }
}

/// Facts of the replayed game kept beside the header, rewritten with every event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Moves played.
    pub ply: u32,
    /// Ongoing, won or drawn.
    pub state: GameStateKind,
    /// Whether the engine has something to do: its seat is to move, or must answer a draw offer.
    pub engine_due: bool,
    /// When the game last changed, in milliseconds since the Unix epoch.
    pub updated_at_ms: i64,
    /// When the game ends by itself if nobody acts (a clock, a first move, abandonment).
    pub deadline_ms: Option<i64>,
    /// Why it ended (a win, draw or abort reason's name); empty while it goes on.
    pub reason: &'static str,
}

/// Whether a game goes on, and how it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameStateKind {
    /// Play goes on.
    Ongoing,
    /// One side won.
    Won,
    /// Drawn.
    Drawn,
    /// Aborted before it began: no result.
    Aborted,
}

impl GameStateKind {
    /// The name stored in the database.
    pub fn name(self) -> &'static str {
        match self {
            GameStateKind::Ongoing => "ongoing",
            GameStateKind::Won => "won",
            GameStateKind::Drawn => "drawn",
            GameStateKind::Aborted => "aborted",
        }
    }
}

/// Color as stored in the database.
pub fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The color stored as `name`.
pub fn color_from_name(name: &str) -> Option<Color> {
    match name {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}
