//! Searches off the async runtime: the [`Caps`] a search is checked against, the checked
//! [`SearchJob`], the [`SearchPool`] of threads it runs on, and the endgame databases
//! ([`Tablebases`]) it probes.
//!
//! The API's `BestMove` and `Analyze` and the hosted games' engine seats share this module; it
//! speaks in engine types and knows nothing of the wire, so neither layer owns it from above.

mod caps;
mod job;
mod pool;
pub mod tablebases;

pub use caps::{Cap, Caps, OverCap};
pub use job::{Asked, JobError, SearchJob};
pub use pool::{PoolError, SearchPool};
pub use tablebases::Tablebases;
