//! The gRPC API v1, the wire floor: the services, their one error type, every conversion
//! between messages and the engine's and the domain's types, and the same services as HTTP/JSON
//! ([`http`]).
//!
//! Handlers are thin: they read a request through [`convert`], ask the engine, the hosted games
//! ([`crate::games`]) or the [`crate::search`] pool, and write the answer back. Every failure is
//! an [`ApiError`], turned into a gRPC status in one place.

mod caller;
pub mod convert;
mod deadline;
mod engine;
mod error;
mod games;
pub mod http;
mod rules;
mod variants;

pub use caller::{caller, Caller};
pub use engine::EngineApi;
pub use error::{ApiError, DOMAIN};
pub use games::{GameApi, GameSettings};
pub use rules::RulesApi;
