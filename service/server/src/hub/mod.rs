//! The Hub protocol (version 2, the text protocol of Scan 3.1), as `damiera hub` speaks it.
//!
//! Three layers, as in Stockfish's UCI front end: [`parse`] reads text into commands (pure, no
//! engine state), [`notation`] writes and reads moves and positions in Hub form per variant, and
//! the session (`run`) owns the game, the parameters, the table and the search thread.
//! `docs/engine-protocol.md` describes the protocol command by command.

pub mod notation;
pub mod parse;
mod session;

pub use parse::parse;
pub use session::run;
