//! The record types as table rows: the column lists, and decoding a row back into a
//! [`GameHeader`] or an [`Event`], checking every value the database hands back.

use std::str::FromStr;

use damiera_engine::Variant;
use sqlx::any::AnyRow;
use sqlx::Row;

use super::StoreError;
use crate::games::clock::Timing;
use crate::games::record::{color_from_name, Event, EventKind, FirstMoverChoice, GameHeader, SeatSpec};
use crate::tenants::TenantId;

/// The `games` columns that make a [`GameHeader`], in the order [`header`] reads them.
pub(super) const HEADER_COLUMNS: &str = "id, tenant, variant, start_fen, forfeit_on_capture_fault, first_mover, \
     white_seat, black_seat, white_token_hash, black_token_hash, created_at_ms, timing, takebacks";

/// The `events` columns that make an [`Event`], after the game id and sequence number.
pub(super) const EVENT_COLUMNS: &str = "game_id, seq, kind, color, text, at_ms, request_id";

/// A `games` row selected with [`HEADER_COLUMNS`].
pub(super) fn header(row: &AnyRow) -> Result<GameHeader, StoreError> {
    let id: String = row.try_get("id")?;
    let corrupt = |what: &str, value: &str| StoreError::Corrupt(format!("game {id}: bad {what} {value:?}"));
    let variant: String = row.try_get("variant")?;
    let first_mover: String = row.try_get("first_mover")?;
    let white: String = row.try_get("white_seat")?;
    let black: String = row.try_get("black_seat")?;
    let timing: String = row.try_get("timing")?;
    Ok(GameHeader {
        tenant: TenantId::stored(row.try_get("tenant")?),
        variant: Variant::from_str(&variant).map_err(|_| corrupt("variant", &variant))?,
        start_fen: row.try_get("start_fen")?,
        forfeit_on_capture_fault: flag(row.try_get("forfeit_on_capture_fault")?)
            .ok_or_else(|| corrupt("forfeit_on_capture_fault", "not 0 or 1"))?,
        first_mover: first_mover_from_name(&first_mover).ok_or_else(|| corrupt("first_mover", &first_mover))?,
        white: serde_json::from_str::<SeatSpec>(&white).map_err(|_| corrupt("white_seat", &white))?,
        black: serde_json::from_str::<SeatSpec>(&black).map_err(|_| corrupt("black_seat", &black))?,
        white_token_hash: row.try_get("white_token_hash")?,
        black_token_hash: row.try_get("black_token_hash")?,
        created_at_ms: row.try_get("created_at_ms")?,
        timing: serde_json::from_str::<Timing>(&timing).map_err(|_| corrupt("timing", &timing))?,
        takebacks: flag(row.try_get("takebacks")?).ok_or_else(|| corrupt("takebacks", "not 0 or 1"))?,
        id,
    })
}

/// An `events` row selected with [`EVENT_COLUMNS`], with its sequence number.
pub(super) fn event(row: &AnyRow) -> Result<(u64, Event), StoreError> {
    let game_id: String = row.try_get("game_id")?;
    let corrupt =
        |what: &str, value: &str| StoreError::Corrupt(format!("game {game_id}: event with bad {what} {value:?}"));
    let seq: i64 = row.try_get("seq")?;
    let kind: String = row.try_get("kind")?;
    let color: String = row.try_get("color")?;
    let event = Event {
        kind: EventKind::from_name(&kind).ok_or_else(|| corrupt("kind", &kind))?,
        color: color_from_name(&color).ok_or_else(|| corrupt("color", &color))?,
        text: row.try_get("text")?,
        at_ms: row.try_get("at_ms")?,
        request_id: row.try_get("request_id")?,
    };
    let seq = u64::try_from(seq).map_err(|_| corrupt("seq", &seq.to_string()))?;
    Ok((seq, event))
}

/// Checks that `seqs` number a game's events 1, 2, 3, ... with no gap.
pub(super) fn check_sequence(game_id: &str, seqs: impl IntoIterator<Item = u64>) -> Result<(), StoreError> {
    check_sequence_from(game_id, 1, seqs)
}

/// Checks that `seqs` number a game's events `first`, `first + 1`, ... with no gap.
pub(super) fn check_sequence_from(
    game_id: &str,
    first: u64,
    seqs: impl IntoIterator<Item = u64>,
) -> Result<(), StoreError> {
    for (expected, seq) in (first..).zip(seqs) {
        if seq != expected {
            return Err(StoreError::Corrupt(format!("game {game_id}: event {expected} is missing (found {seq})")));
        }
    }
    Ok(())
}

/// A boolean as stored: 0 or 1.
pub(super) fn stored_flag(value: bool) -> i64 {
    i64::from(value)
}

fn flag(value: i64) -> Option<bool> {
    match value {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    }
}

/// How the first player was chosen, as stored.
pub(super) fn first_mover_name(choice: FirstMoverChoice) -> &'static str {
    match choice {
        FirstMoverChoice::White => "white",
        FirstMoverChoice::Black => "black",
        FirstMoverChoice::ByLot => "by_lot",
    }
}

fn first_mover_from_name(name: &str) -> Option<FirstMoverChoice> {
    [FirstMoverChoice::White, FirstMoverChoice::Black, FirstMoverChoice::ByLot]
        .into_iter()
        .find(|choice| first_mover_name(*choice) == name)
}
