//! Time control: when an iteration may start and when the search must stop, from the limits.
//!
//! A fixed move time is spent: the search runs to its deadline (less a small margin for
//! answering) and, if an iteration is cut short there, plays the best move that iteration had
//! proved; only a forced move (one legal move) is answered at once.
//!
//! A clock gives an optimum of about a thirtieth of the time left plus most of the increment, and
//! a hard deadline of three optima, never more than a third of the time left. The optimum
//! stretches while the search is unsettled (the best move changed in the last iterations, or the
//! score fell) and shrinks when the same move has held for several iterations; a new iteration
//! starts only when its forecast time, from how fast the last ones grew, fits the stretched
//! optimum.

use std::time::{Duration, Instant};

use super::Limits;

/// What answering costs after the search stops: kept back from a fixed move time.
const ANSWER_MARGIN: Duration = Duration::from_millis(2);

/// How the optimum of a clock search stretches: at most this many times over.
const MAX_STRETCH: f64 = 2.5;

/// The deadlines of one search.
#[derive(Clone, Copy, Debug)]
pub(super) struct TimeControl {
    /// When the search started.
    pub start: Instant,
    /// What a clock search should spend, before stretching; `None` without a clock.
    optimum: Option<Duration>,
    /// The search stops at this, in the middle of an iteration if need be.
    hard: Option<Instant>,
    /// Whether the search is timed at all (a move time or a clock): then a forced move is
    /// answered at once.
    timed: bool,
}

/// What the iterations so far say about the next one, for [`TimeControl::may_start_iteration`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Progress {
    /// How long the last completed iteration took.
    pub last: Duration,
    /// How long the one before it took.
    pub before_last: Duration,
    /// How unsettled the best move is: 1 for each recent change, halved at every iteration.
    pub instability: f64,
    /// How far the score fell in the last iteration, in hundredths of a man (0 if it rose).
    pub score_drop: i32,
    /// Iterations in a row that kept the same best move.
    pub stable_iterations: u32,
}

impl TimeControl {
    pub fn new(limits: &Limits, start: Instant) -> TimeControl {
        let mut hard = limits.move_time.map(|t| start + t.saturating_sub(ANSWER_MARGIN.min(t / 10)));
        let mut optimum = None;
        if let Some(clock) = limits.clock {
            let target = clock.remaining / 30 + clock.increment * 3 / 4;
            let cap = clock.remaining / 3;
            let clock_hard = start + (target * 3).min(cap);
            optimum = Some(target.min(cap));
            hard = Some(hard.map_or(clock_hard, |h: Instant| h.min(clock_hard)));
        }
        TimeControl { start, optimum, hard, timed: hard.is_some() }
    }

    /// Whether the search is timed: a forced move is then answered after one iteration.
    pub fn is_timed(&self) -> bool {
        self.timed
    }

    /// Whether another iteration may start, given how the search has gone so far.
    pub fn may_start_iteration(&self, now: Instant, progress: &Progress) -> bool {
        let Some(optimum) = self.optimum else {
            return self.hard.is_none_or(|hard| now < hard); // a move time: run to the deadline
        };
        let elapsed = now.saturating_duration_since(self.start);
        let budget = optimum.mul_f64(stretch(progress));
        elapsed + forecast(progress) <= budget && self.hard.is_none_or(|hard| now < hard)
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

/// How much of the optimum a clock search may spend: more while the best move changes or the
/// score falls, less once one move has held for several iterations.
fn stretch(progress: &Progress) -> f64 {
    let mut factor = 1.0 + 0.8 * progress.instability;
    if progress.score_drop > 20 {
        factor *= 1.0 + (f64::from(progress.score_drop.min(100)) / 100.0);
    }
    if progress.stable_iterations >= 4 && progress.score_drop <= 0 {
        factor *= 0.6;
    }
    factor.min(MAX_STRETCH)
}

/// How long the next iteration will take: the last one's time times its growth over the one
/// before (between 1.5 and 4; an iterative search grows by its branching factor).
fn forecast(progress: &Progress) -> Duration {
    let growth = if progress.before_last.is_zero() {
        2.5
    } else {
        (progress.last.as_secs_f64() / progress.before_last.as_secs_f64()).clamp(1.5, 4.0)
    };
    progress.last.mul_f64(growth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    fn clock(remaining_ms: u64, increment_ms: u64) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(remaining_ms),
                increment: Duration::from_millis(increment_ms),
            }),
            ..Limits::default()
        }
    }

    fn settled(last_ms: u64) -> Progress {
        Progress {
            last: Duration::from_millis(last_ms),
            before_last: Duration::from_millis(last_ms / 2),
            ..Progress::default()
        }
    }

    #[test]
    fn a_move_time_is_spent_to_its_deadline() {
        let start = Instant::now();
        let time = TimeControl::new(&Limits::move_time(Duration::from_millis(100)), start);
        let late = start + Duration::from_millis(90);
        assert!(time.may_start_iteration(late, &settled(60)), "a fixed move time never stops early");
        assert!(!time.out_of_time(start + Duration::from_millis(97)));
        assert!(time.out_of_time(start + Duration::from_millis(98)), "2 ms are kept for the answer");
        assert!(time.is_timed());
        assert!(!TimeControl::new(&Limits::depth(5), start).is_timed());
    }

    #[test]
    fn a_clock_starts_an_iteration_only_when_it_fits() {
        let start = Instant::now();
        // 60 s left, no increment: optimum 2 s, hard deadline 6 s.
        let time = TimeControl::new(&clock(60_000, 0), start);
        let at = |ms| start + Duration::from_millis(ms);
        assert!(time.may_start_iteration(at(500), &settled(400)), "0.5 s + 0.8 s fits 2 s");
        assert!(!time.may_start_iteration(at(900), &settled(600)), "0.9 s + 1.2 s does not");
        assert!(time.out_of_time(at(6_000)) && !time.out_of_time(at(5_999)));
    }

    #[test]
    fn an_unsettled_search_takes_longer_and_a_settled_one_shorter() {
        let start = Instant::now();
        let time = TimeControl::new(&clock(60_000, 0), start);
        let at = start + Duration::from_millis(1_500);
        let calm = settled(600);
        assert!(!time.may_start_iteration(at, &calm));
        assert!(time.may_start_iteration(at, &Progress { instability: 1.0, ..calm }), "the best move just changed");
        assert!(time.may_start_iteration(at, &Progress { score_drop: 60, ..calm }), "the score fell");
        let early = start + Duration::from_millis(500);
        assert!(time.may_start_iteration(early, &settled(400)));
        assert!(
            !time.may_start_iteration(early, &Progress { stable_iterations: 6, ..settled(400) }),
            "same move for 6"
        );
    }
}
