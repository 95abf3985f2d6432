//! The gRPC API v1: the services, their errors, and the conversions between messages and engine.
//!
//! Handlers are thin: they read a request through [`convert`], ask the engine (long work goes to
//! the [`crate::search_pool`]), and write the answer back. Every failure is an [`ApiError`],
//! turned into a gRPC status in one place.

mod caps;
pub mod convert;
mod deadline;
mod engine;
mod error;
mod rules;
mod search_job;
mod variants;

pub use caps::Caps;
pub use engine::EngineApi;
pub use error::{ApiError, DOMAIN};
pub use rules::RulesApi;
pub use search_job::SearchJob;
