//! [`Caps`]: the most one request may ask of the server, from its configuration, and the one
//! place a value is checked against them ([`OverCap`]).

use std::time::Duration;

use damiera_engine::search::{Clock, Limits};

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

/// Which of the [`Caps`] a value is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cap {
    /// [`Caps::max_perft_depth`].
    PerftDepth,
    /// [`Caps::max_depth`].
    Depth,
    /// [`Caps::max_move_time`].
    MoveTime,
    /// [`Caps::max_threads`].
    Threads,
    /// [`Caps::max_hash_mib`].
    HashMib,
    /// [`Caps::max_multipv`].
    MultiPv,
}

/// A value over one of the server's caps.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{value} is over this server's limit of {maximum}")]
pub struct OverCap {
    /// The cap passed.
    pub cap: Cap,
    /// The value asked for, as people read it.
    pub value: String,
    /// The cap, as people read it.
    pub maximum: String,
}

impl Caps {
    /// `value`, if it is within `cap` (a move time in whole milliseconds).
    pub fn check(&self, cap: Cap, value: u32) -> Result<u32, OverCap> {
        let maximum = match cap {
            Cap::PerftDepth => self.max_perft_depth,
            Cap::Depth => self.max_depth,
            Cap::Threads => self.max_threads,
            Cap::HashMib => self.max_hash_mib,
            Cap::MultiPv => self.max_multipv,
            Cap::MoveTime => u32::try_from(self.max_move_time.as_millis()).unwrap_or(u32::MAX),
        };
        if value > maximum {
            return Err(OverCap { cap, value: value.to_string(), maximum: maximum.to_string() });
        }
        Ok(value)
    }

    /// `value` where `None` means "not given", checked against `cap`.
    pub fn check_given(&self, cap: Cap, value: Option<u32>) -> Result<Option<u32>, OverCap> {
        value.map(|value| self.check(cap, value)).transpose()
    }

    /// When a search stops. Searches by depth, nodes or clock stop at the longest move time too:
    /// one request must not hold threads for hours; a search with no limit thinks for the default.
    pub fn limits(
        &self,
        depth: Option<u32>,
        nodes: Option<u64>,
        move_time: Option<Duration>,
        clock: Option<Clock>,
    ) -> Result<Limits, OverCap> {
        let depth = self.check_given(Cap::Depth, depth)?;
        if let Some(time) = move_time.filter(|&time| time > self.max_move_time) {
            return Err(OverCap {
                cap: Cap::MoveTime,
                value: format!("{time:?}"),
                maximum: format!("{:?}", self.max_move_time),
            });
        }
        let unlimited = depth.is_none() && nodes.is_none() && move_time.is_none() && clock.is_none();
        let move_time = if unlimited { self.default_move_time } else { move_time.unwrap_or(self.max_move_time) };
        Ok(Limits { depth, nodes, move_time: Some(move_time), clock })
    }
}
