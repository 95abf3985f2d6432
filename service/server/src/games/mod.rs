//! Hosted games as a domain: the [`Host`] that acts for seats, their store, their clocks and the
//! [`Referee`] that ends games when time is up, the engine's seats and live watching. It speaks in engine and domain types and answers [`HostError`]; the API's
//! `GameService` (in `crate::api`) reads requests into these and writes the answers back.
//!
//! A game is a header and an append-only log of events ([`record`]); the store keeps them in
//! SQLite or PostgreSQL ([`store`]), and every answer replays the log through the rules (each
//! replica caches its replays and replays only what is new).

mod auth;
mod cache;
pub mod clock;
mod create;
mod delete;
mod engine_seat;
mod error;
mod host;
pub mod record;
mod referee;
mod replay;
pub mod store;
mod watch;

pub use create::{import_game, new_game, NewGame, PlayOptions};
pub use delete::run_retention;
pub use engine_seat::EngineSeats;
pub use error::{HostError, NamedState};
pub use host::{now_ms, Acted, Action, Actor, Expected, Host, Said};
pub use referee::Referee;
pub use replay::{answer_text, AbortReason, ActionError, Replayed};
pub use watch::{Hub, Snapshot, WatchEvent, WatchEvents, WatchPace};
