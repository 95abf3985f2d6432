//! [`search_with`]: a search with options: several threads (Lazy SMP), several lines (multi-PV)
//! and skill levels.
//!
//! Lazy SMP: helper threads run the same iterative deepening on the shared transposition table,
//! every other one a ply deeper, and the main thread's search profits from what they store. The
//! main thread reports; the search answers with the deepest iteration any thread completed (a
//! helper's only when one line is asked for), and it ends when the main thread returns or a helper
//! completes the depth limit. With more than one thread the search is no longer deterministic.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use super::alphabeta::{iterate, Searcher};
use super::eval::Evaluation;
use super::skill::{self, CANDIDATES, FULL_STRENGTH};
use super::time::TimeControl;
use super::{Iteration, Limits, SearchResult, TranspositionTable};
use crate::egtb::Tablebase;
use crate::Position;

/// How a search runs, beyond its limits.
#[derive(Clone, Debug)]
pub struct Options {
    /// Threads searching together (at least one).
    pub threads: usize,
    /// Best lines to find and report (multi-PV, at least one).
    pub multipv: usize,
    /// Skill level, 1 (weakest) to 20 (full strength); see [`skill`](super::skill).
    pub level: u8,
    /// The seed of a weaker level's choices: the same seed, the same moves.
    pub seed: u64,
    /// How positions are valued: the full evaluation, or material alone as a baseline.
    pub evaluation: Evaluation,
    /// The techniques in use: all of them, but for matches that measure what one is worth.
    pub techniques: Techniques,
    /// Endgame databases to probe, at full strength: a position they hold is scored by them, not
    /// searched ([`crate::egtb`]). None by default.
    pub tablebase: Option<Arc<Tablebase>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            multipv: 1,
            level: FULL_STRENGTH,
            seed: 0,
            evaluation: Evaluation::Full,
            techniques: Techniques::default(),
            tablebase: None,
        }
    }
}

/// The search techniques that can be switched off, so that a match can measure each one against
/// its absence (`damiera match --b "lmr=off"`). On by default; nothing but such matches turns
/// them off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// Late-move reductions: late quiet moves are searched a ply or two shallower first.
    pub late_move_reductions: bool,
    /// Aspiration windows: from depth 4, the root is searched in a narrow window around the
    /// previous iteration's score, widened when the score falls outside.
    pub aspiration_windows: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques { late_move_reductions: true, aspiration_windows: true }
    }
}

/// Searches like [`super::search`], with `options`.
pub fn search_with(
    position: &Position,
    history: &[Position],
    limits: &Limits,
    options: &Options,
    table: &TranspositionTable,
    stop: &AtomicBool,
    mut report: impl FnMut(&Iteration),
) -> SearchResult {
    let level = options.level.clamp(1, FULL_STRENGTH);
    let mut limits = *limits;
    if let Some(cap) = skill::depth_cap(level) {
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
    }
    if let Some(cap) = skill::node_cap(level) {
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
    }
    let lines = if level < FULL_STRENGTH { options.multipv.max(CANDIDATES) } else { options.multipv.max(1) };
    table.new_search();
    let time = TimeControl::new(&limits, Instant::now());
    // Set when the search has its answer: the main thread returned, or a helper completed the
    // depth limit. Every thread stops then.
    let answered = AtomicBool::new(false);
    let nodes = AtomicU64::new(0);
    // The deepest iteration a helper completed. Helpers search one line, so only a one-line
    // search can take a helper's answer.
    let deepest: Mutex<Option<Iteration>> = Mutex::new(None);
    let one_line = lines == 1;
    let mut result = std::thread::scope(|scope| {
        for helper in 1..options.threads.max(1) {
            let (answered, nodes, deepest) = (&answered, &nodes, &deepest);
            scope.spawn(move || {
                let mut searcher = Searcher::new(table, answered, time, u64::MAX, Some(nodes)).with_options(options);
                let first_depth = 1 + helper as u32 % 2;
                let done = iterate(&mut searcher, position, history, &limits, 1, first_depth, |iteration| {
                    let mut deepest = deepest.lock().unwrap_or_else(PoisonError::into_inner);
                    if deepest.as_ref().is_none_or(|known| iteration.depth > known.depth) {
                        *deepest = Some(iteration.clone());
                    }
                });
                if one_line && limits.depth.is_some_and(|limit| done.depth >= limit) {
                    answered.store(true, Ordering::Relaxed);
                }
            });
        }
        let node_limit = limits.nodes.unwrap_or(u64::MAX);
        let mut main =
            Searcher::new(table, stop, time, node_limit, Some(&nodes)).with_options(options).stopped_when(&answered);
        let result = iterate(&mut main, position, history, &limits, lines, 1, &mut report);
        answered.store(true, Ordering::Relaxed);
        result
    });
    let helpers_best = deepest.into_inner().unwrap_or_else(PoisonError::into_inner);
    if let Some(mut iteration) = helpers_best.filter(|iteration| one_line && iteration.depth > result.depth) {
        // A helper saw deeper than the main thread: its line is the answer.
        iteration.nodes = result.nodes;
        iteration.elapsed = result.elapsed;
        iteration.nps = (result.nodes as f64 / result.elapsed.as_secs_f64().max(1e-9)) as u64;
        report(&iteration);
        result.best_move = iteration.pv.first().copied().or(result.best_move);
        result.score = iteration.score;
        result.depth = iteration.depth;
        result.pv = iteration.pv;
        result.lines = iteration.lines;
    }
    if level < FULL_STRENGTH && !result.lines.is_empty() {
        let chosen = skill::choose(&result.lines, level, options.seed ^ position.hash());
        let line = result.lines[chosen].clone();
        result.best_move = line.pv.first().copied();
        result.score = line.score;
        result.pv = line.pv;
    }
    result.lines.truncate(options.multipv.max(1));
    result
}
