//! Hosted games as a domain: the [`Host`] that acts for seats, their store, the engine's seats
//! and live watching. It speaks in engine and domain types and answers [`HostError`]; the API's
//! `GameService` (in `crate::api`) reads requests into these and writes the answers back.
//!
//! A game is a header and an append-only log of events ([`record`]); the store keeps them in
//! SQLite or PostgreSQL ([`store`]), and every answer replays the log through the rules (each
//! replica caches its replays and replays only what is new).

mod auth;
mod cache;
mod create;
mod engine_seat;
mod error;
mod host;
pub mod record;
mod replay;
pub mod store;
mod watch;

pub use create::{import_game, new_game, NewGame};
pub use engine_seat::EngineSeats;
pub use error::{HostError, NamedState};
pub use host::{Acted, Action, Actor, Expected, Host, Said};
pub use replay::{answer_text, ActionError, Replayed};
pub use watch::{Hub, Snapshot, WatchEvent};
