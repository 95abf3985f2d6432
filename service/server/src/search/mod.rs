//! Searches off the async runtime: the [`Caps`] a search is checked against, the checked
//! [`SearchJob`], the [`SearchPool`] of threads it runs on, the transposition [`Tables`] kept
//! ready for it and those analysis [`Sessions`] keep, and the endgame databases ([`Tablebases`])
//! it probes.
//!
//! The API's `BestMove` and `Analyze` and the hosted games' engine seats share this module; it
//! speaks in engine types and knows nothing of the wire, so neither layer owns it from above.

mod caps;
mod job;
mod pool;
pub mod review;
mod sessions;
pub mod tablebases;
mod tables;

pub use caps::{Cap, Caps, OverCap};
pub use job::{Asked, JobError, SearchJob};
pub use pool::{PoolError, SearchPool};
pub use sessions::{Sessions, MAX_KEY_BYTES as MAX_SESSION_KEY_BYTES};
pub use tablebases::Tablebases;
pub use tables::{Table, Tables};
