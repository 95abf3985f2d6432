//! Hosted games: the `GameService` API, its store, the engine's seats and live watching.
//!
//! A game is a header and an append-only log of events ([`record`]); the store keeps them in
//! SQLite or PostgreSQL ([`store`]), and every answer replays the log through the rules.

pub mod record;
pub mod store;
