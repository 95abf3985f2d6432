//! Time control: when an iteration may start and when the search must stop, from the limits.
//!
//! A fixed move time is a hard deadline. A clock gives a soft target of about a thirtieth of the
//! time left plus most of the increment (no new iteration starts past half of it, since the next
//! one usually takes longer than all before it), and a hard deadline of three targets, never more
//! than a third of the time left.

use std::time::{Duration, Instant};

use super::Limits;

/// The deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub(super) struct TimeControl {
    /// When the search started.
    pub start: Instant,
    /// No new iteration starts after this.
    soft: Option<Instant>,
    /// The search stops at this, in the middle of an iteration if need be.
    hard: Option<Instant>,
}

impl TimeControl {
    pub fn new(limits: &Limits, start: Instant) -> TimeControl {
        let mut soft = None;
        let mut hard = limits.move_time.map(|t| start + t);
        if let Some(clock) = limits.clock {
            let target = clock.remaining / 30 + clock.increment * 3 / 4;
            let cap = clock.remaining / 3;
            let clock_hard = start + (target * 3).min(cap);
            soft = Some(start + (target / 2).min(cap));
            hard = Some(hard.map_or(clock_hard, |h: Instant| h.min(clock_hard)));
        }
        if soft.is_none() {
            // With a fixed move time, an iteration that starts past half of it rarely finishes.
            soft = limits.move_time.map(|t| start + t / 2);
        }
        TimeControl { start, soft, hard }
    }

    /// Whether another iteration may start.
    pub fn may_start_iteration(&self, now: Instant) -> bool {
        self.soft.is_none_or(|soft| now < soft)
    }

    /// Whether the hard deadline has passed.
    pub fn out_of_time(&self, now: Instant) -> bool {
        self.hard.is_some_and(|hard| now >= hard)
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
}
