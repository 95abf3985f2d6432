//! Conversions between the protobuf messages and the engine's and the domain's types, in one
//! place: this file for the rules and the engine, [`games`] for hosted games, [`search`] for
//! search requests.
//!
//! Requests come in as numbers and text: a variant's enum value, a FEN, a move text. Each reader
//! here names the request field it reads, so that a refusal points at it.

pub mod clock;
pub mod games;
pub mod search;

use std::time::Duration;

use damiera_engine::egtb::Wdl;
use damiera_engine::search::{Line, Score};
use damiera_engine::{fen, notation, Color, DrawReason, Move, Outcome, PieceKind, Position, Variant, WinReason};

use super::ApiError;
use crate::proto as pb;

/// Reads a variant field.
pub fn variant(field: &str, value: i32) -> Result<Variant, ApiError> {
    let unsupported = || ApiError::UnsupportedVariant { field: field.to_string(), value };
    match pb::Variant::try_from(value).map_err(|_| unsupported())? {
        pb::Variant::Italian => Ok(Variant::Italian),
        pb::Variant::Triestina => Ok(Variant::Triestina),
        pb::Variant::Turkish => Ok(Variant::Turkish),
        pb::Variant::Unspecified => Err(unsupported()),
    }
}

/// A variant as the protocol numbers it.
pub fn variant_to_pb(variant: Variant) -> pb::Variant {
    match variant {
        Variant::Italian => pb::Variant::Italian,
        Variant::Triestina => pb::Variant::Triestina,
        Variant::Turkish => pb::Variant::Turkish,
    }
}

/// Reads a FEN field; an empty one is the variant's start position.
pub fn position(variant: Variant, field: &str, text: &str) -> Result<Position, ApiError> {
    if text.trim().is_empty() {
        return Ok(Position::start(variant));
    }
    fen::parse(variant, text).map_err(|error| ApiError::InvalidFen { field: field.to_string(), error })
}

/// Reads a count, size or level field: signed on the wire (AIP-141), never negative here.
pub fn non_negative(field: &str, value: i32) -> Result<u32, ApiError> {
    u32::try_from(value).map_err(|_| negative(field, value.into()))
}

/// Reads a 64-bit count field (a node count) the same way.
pub fn non_negative_64(field: &str, value: i64) -> Result<u64, ApiError> {
    u64::try_from(value).map_err(|_| negative(field, value))
}

fn negative(field: &str, value: i64) -> ApiError {
    ApiError::invalid(field, format!("{value} is negative: give 0 or more"))
}

/// Reads a move field against the legal moves of `position`.
pub fn parse_move(position: &Position, field: &str, text: &str) -> Result<Move, ApiError> {
    notation::parse(position, text).map_err(|error| ApiError::Move { field: field.to_string(), error })
}

/// A colour as the protocol numbers it.
pub fn color_to_pb(color: Color) -> pb::Color {
    match color {
        Color::White => pb::Color::White,
        Color::Black => pb::Color::Black,
    }
}

/// A position, as FEN and as pieces.
pub fn position_to_pb(position: &Position) -> pb::Position {
    let variant = position.variant();
    let pieces = position
        .pieces()
        .map(|(square, piece)| pb::Piece {
            square: variant.square_name(square),
            color: color_to_pb(piece.color).into(),
            kind: match piece.kind {
                PieceKind::Man => pb::PieceKind::Man,
                PieceKind::King => pb::PieceKind::King,
            }
            .into(),
        })
        .collect();
    pb::Position {
        variant: variant_to_pb(variant).into(),
        fen: position.to_fen(),
        side_to_move: color_to_pb(position.turn()).into(),
        pieces,
    }
}

/// A move, written out in every form a client may want.
pub fn move_to_pb(variant: Variant, mv: &Move) -> pb::Move {
    let name = |square| variant.square_name(square);
    let from_square = name(mv.from());
    let path: Vec<String> = mv.landings().iter().map(|&square| name(square)).collect();
    let to_square = path.last().cloned().unwrap_or_default();
    let captures = match mv.captures_in_order(variant) {
        Some(order) => order.into_iter().map(name).collect(),
        None => mv.captured().into_iter().map(name).collect(),
    };
    pb::Move {
        notation: notation::write(variant, mv),
        short_notation: notation::write_short(variant, mv),
        from_square,
        to_square,
        path,
        captures,
        promotes: mv.promotes(),
    }
}

/// Moves, in order.
pub fn moves_to_pb(variant: Variant, moves: &[Move]) -> Vec<pb::Move> {
    moves.iter().map(|mv| move_to_pb(variant, mv)).collect()
}

/// How a position or game stands.
pub fn status_to_pb(outcome: Outcome) -> pb::PositionStatus {
    use pb::position_status::State;
    match outcome {
        Outcome::Ongoing => pb::PositionStatus { state: State::Ongoing.into(), ..Default::default() },
        Outcome::Win { winner, reason } => pb::PositionStatus {
            state: State::Won.into(),
            winner: color_to_pb(winner).into(),
            win_reason: win_reason_to_pb(reason).into(),
            ..Default::default()
        },
        Outcome::Draw { reason } => pb::PositionStatus {
            state: State::Drawn.into(),
            draw_reason: draw_reason_to_pb(reason).into(),
            ..Default::default()
        },
    }
}

fn win_reason_to_pb(reason: WinReason) -> pb::WinReason {
    match reason {
        WinReason::NoPieces => pb::WinReason::NoPieces,
        WinReason::NoMoves => pb::WinReason::NoMoves,
        WinReason::LoneManAgainstKing => pb::WinReason::LoneManAgainstKing,
        WinReason::Resignation => pb::WinReason::Resignation,
        WinReason::CaptureFault => pb::WinReason::CaptureFault,
        WinReason::Time => pb::WinReason::Time,
        WinReason::Abandonment => pb::WinReason::Abandonment,
    }
}

fn draw_reason_to_pb(reason: DrawReason) -> pb::DrawReason {
    match reason {
        DrawReason::Repetition => pb::DrawReason::Repetition,
        DrawReason::MoveCount => pb::DrawReason::MoveCount,
        DrawReason::OnePieceEach => pb::DrawReason::OnePieceEach,
        DrawReason::Agreement => pb::DrawReason::Agreement,
    }
}

/// A search score.
pub fn score_to_pb(score: Score) -> pb::Score {
    use pb::score::Value;
    let value = match score {
        Score::Value(estimate) => Value::Estimate(estimate),
        Score::WinIn(plies) => Value::WinInPlies(plies as i32),
        Score::LossIn(plies) => Value::LossInPlies(plies as i32),
        Score::Database(value) => Value::Database(database_value_to_pb(value).into()),
    };
    pb::Score { value: Some(value) }
}

fn database_value_to_pb(value: Wdl) -> pb::DatabaseValue {
    match value {
        Wdl::Win => pb::DatabaseValue::Win,
        Wdl::Draw => pb::DatabaseValue::Draw,
        Wdl::Loss => pb::DatabaseValue::Loss,
    }
}

/// Multi-PV lines.
pub fn lines_to_pb(variant: Variant, lines: &[Line]) -> Vec<pb::SearchLine> {
    lines
        .iter()
        .map(|line| pb::SearchLine { score: Some(score_to_pb(line.score)), pv: moves_to_pb(variant, &line.pv) })
        .collect()
}

/// A length of time.
pub fn duration_to_pb(duration: Duration) -> prost_types::Duration {
    prost_types::Duration::try_from(duration).unwrap_or(prost_types::Duration { seconds: i64::MAX, nanos: 0 })
}

/// Reads a duration field, which must not be negative.
pub fn duration(field: &str, value: &prost_types::Duration) -> Result<Duration, ApiError> {
    Duration::try_from(*value).map_err(|_| ApiError::invalid(field, "a duration must be zero or more"))
}

/// `value`, if it has at most `max` characters: a field's size is checked before it is read, and
/// an error never echoes a huge value.
pub fn bounded<'a>(field: &str, value: &'a str, max: usize) -> Result<&'a str, ApiError> {
    if value.len() > max && value.chars().count() > max {
        return Err(ApiError::over_limit(
            field,
            format!("{} characters", value.chars().count()),
            format!("{max} characters"),
        ));
    }
    Ok(value)
}

/// Text a person gave (a display name, a session key), refused when it holds a control character
/// (a line break, a tab, an escape): such text goes into PDN tags, logs and chat messages, where it
/// would break the line it is on.
pub fn printable<'a>(field: &str, value: &'a str) -> Result<&'a str, ApiError> {
    match value.chars().find(|c| c.is_control()) {
        Some(c) => Err(ApiError::invalid(
            field,
            format!(
                "'{}' holds the control character {}: give printable text",
                value.escape_debug(),
                c.escape_unicode()
            ),
        )),
        None => Ok(value),
    }
}

/// A client-chosen request id: a UUID (AIP-155), in any of the forms the `uuid` crate reads
/// (hyphenated, simple, braced, URN; any case), kept in its lower-case hyphenated form so that
/// each form of one id is the same request; empty: none.
pub fn request_id(field: &str, value: &str) -> Result<Option<String>, ApiError> {
    if value.is_empty() {
        return Ok(None);
    }
    let uuid = uuid::Uuid::try_parse(value).map_err(|_| {
        let shown: String = value.chars().take(40).collect();
        ApiError::invalid(
            field,
            format!("a request id is a UUID, such as 0f5c3ad6-4c0e-4c7b-9a52-1d2e8f0b7a61; got {shown:?}"),
        )
    })?;
    Ok(Some(uuid.hyphenated().to_string()))
}

/// Reads an `etag` field: empty (none), or a strong entity tag in RFC 7232 form, a quoted string
/// such as `"3-9f2c41d0"`, as the server hands them out. A weak tag (`W/"..."`) or a bare one is
/// refused rather than compared: it never matches, and the client should hear why.
pub fn entity_tag(field: &str, value: &str) -> Result<Option<String>, ApiError> {
    if value.is_empty() {
        return Ok(None);
    }
    let inner = value.strip_prefix('"').and_then(|rest| rest.strip_suffix('"'));
    // RFC 7232's etagc: visible ASCII but the double quote.
    match inner {
        Some(inner) if inner.bytes().all(|b| b.is_ascii_graphic() && b != b'"') => Ok(Some(value.to_string())),
        _ => {
            let shown: String = value.chars().take(40).collect();
            Err(ApiError::invalid(
                field,
                format!("an etag is a quoted string as the game's state.etag gives it, such as \"3-9f2c41d0\"; got {shown:?}"),
            ))
        }
    }
}
