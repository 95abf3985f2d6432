//! Hosted games: the `GameService` API, its store, the engine's seats and live watching.
//!
//! A game is a header and an append-only log of events ([`record`]); the store keeps them in
//! SQLite or PostgreSQL ([`store`]), and every answer replays the log through the rules.

mod auth;
mod convert;
mod create;
mod engine_seat;
mod host;
mod listing;
pub mod record;
mod replay;
mod service;
pub mod store;
mod watch;

pub use engine_seat::EngineSeats;
pub use host::Host;
pub use service::{GameApi, GameSettings};
pub use watch::Hub;
