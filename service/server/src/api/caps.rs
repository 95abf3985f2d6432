//! [`Caps`]: the most one request may ask of the server, from its configuration.

use std::time::Duration;

/// Per-request limits. A request over one is refused with `LIMIT_EXCEEDED`, never silently cut,
/// so that a client learns the server's limits instead of getting a weaker answer than it asked for.
#[derive(Clone, Debug)]
pub struct Caps {
    /// The deepest perft a request may ask for: perft grows about tenfold per ply.
    pub max_perft_depth: u32,
    /// The longest a search may think, whatever its limits; searches by depth or nodes stop here too.
    pub max_move_time: Duration,
    /// How long a search thinks when the request gives no limit.
    pub default_move_time: Duration,
    /// The deepest search a request may ask for.
    pub max_depth: u32,
    /// The most threads one search may use.
    pub max_threads: u32,
    /// The largest transposition table one search may allocate, in MiB.
    pub max_hash_mib: u32,
    /// The table size when the request does not say, in MiB.
    pub default_hash_mib: u32,
    /// The most lines a multi-PV search may report.
    pub max_multipv: u32,
}
