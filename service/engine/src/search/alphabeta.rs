//! The search: iterative deepening, principal variation search with aspiration windows, late-move
//! reductions, and move ordering by the table's move, killers and history.
//!
//! Quiescence is the capture rule itself: at the horizon a position whose side to move must
//! capture is searched on (every legal move is then a capture, so there is no "stand pat"), and
//! only a quiet position is evaluated. Scores of decided positions carry their distance in plies,
//! and any repetition of a position on the game's record or the searched line counts as a draw.
//! With endgame databases, a position they hold is scored by them ([`super::tablebase`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::eval::{evaluate_with, Evaluation};
use super::path::Path;
use super::skill::FULL_STRENGTH;
use super::tablebase::{self, RootValue};
use super::time::{Progress, TimeControl};
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Iteration, Limits, Line, Options, Score, SearchResult, Techniques};
use crate::egtb::{Tablebase, Wdl};
use crate::{movegen, Color, Move, Outcome, Position};

/// Beyond every score.
const INFINITY: i32 = 32_000;
/// A win at ply `p` from the root scores `WIN - p`.
const WIN: i32 = 31_000;
/// The longest line searched.
const MAX_PLY: usize = 128;
/// Scores beyond this are wins or losses, not estimates.
const DECIDED: i32 = WIN - MAX_PLY as i32;
/// How often, in nodes, the clock and the stop flag are looked at.
const CHECK_EVERY: u64 = 256;

/// Searches `position` (reached after the positions in `history`, oldest first) within `limits`,
/// calling `report` after each completed iteration. Setting `stop` ends the search at once with
/// the best move found so far. One thread, one line, full strength: [`super::search_with`] offers
/// more.
pub fn search(
    position: &Position,
    history: &[Position],
    limits: &Limits,
    table: &TranspositionTable,
    stop: &AtomicBool,
    report: impl FnMut(&Iteration),
) -> SearchResult {
    table.new_search();
    let time = TimeControl::new(limits, Instant::now());
    let mut searcher = Searcher::new(table, stop, time, limits.nodes.unwrap_or(u64::MAX), None);
    iterate(&mut searcher, position, history, limits, 1, 1, report)
}

/// Iterative deepening on one thread: iterations `first_depth`, `first_depth + 1`, ... up to the
/// limit, each finding `lines` best moves (multi-PV), reporting each completed iteration.
pub(super) fn iterate(
    searcher: &mut Searcher<'_>,
    position: &Position,
    history: &[Position],
    limits: &Limits,
    lines: usize,
    first_depth: u32,
    mut report: impl FnMut(&Iteration),
) -> SearchResult {
    searcher.path.start(history, position);
    let legal = searcher.root_moves(position);
    let first = legal.first().copied();
    let mut result = SearchResult {
        best_move: first,
        score: Score::Value(0),
        depth: 0,
        nodes: 0,
        elapsed: searcher.time.elapsed(),
        pv: first.into_iter().collect(),
        lines: first.into_iter().map(|mv| Line { score: Score::Value(0), pv: vec![mv] }).collect(),
    };
    if legal.is_empty() {
        result.score = Score::LossIn(0);
        return result;
    }
    let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1);
    let lines = lines.clamp(1, legal.len());
    let mut previous = 0;
    let mut progress = Progress::default();
    for depth in first_depth.min(max_depth)..=max_depth {
        if depth > first_depth {
            if legal.len() == 1 && searcher.time.is_timed() {
                break; // a forced move: nothing to choose, so no time to spend
            }
            if !searcher.time.may_start_iteration(Instant::now(), &progress) {
                break;
            }
        }
        let started = searcher.time.elapsed();
        let Some((best, found)) = searcher.root_lines(position, depth as i32, previous, lines) else {
            if let Some(partial) = searcher.partial.take().filter(|_| lines == 1) {
                // Cut short, but the iteration proved a move at its depth: play that one.
                result.best_move = partial.pv.first().copied();
                result.score = partial.score;
                result.pv = partial.pv.clone();
                result.lines = vec![partial];
            }
            break;
        };
        let elapsed = searcher.time.elapsed();
        let changed = depth > first_depth && found[0].pv.first() != result.best_move.as_ref();
        progress = Progress {
            last: elapsed.saturating_sub(started),
            before_last: progress.last,
            instability: progress.instability / 2.0 + if changed { 1.0 } else { 0.0 },
            score_drop: if depth > first_depth { (previous - best).max(0) } else { 0 },
            stable_iterations: if changed { 0 } else { progress.stable_iterations + 1 },
        };
        previous = best;
        let nodes = searcher.total_nodes();
        let iteration = Iteration {
            depth,
            selective_depth: searcher.selective_depth as u32,
            score: found[0].score,
            nodes,
            nps: (nodes as f64 / elapsed.as_secs_f64().max(1e-9)) as u64,
            hashfull: searcher.table.hashfull(),
            elapsed,
            pv: found[0].pv.clone(),
            lines: found,
        };
        result.best_move = iteration.pv.first().copied().or(result.best_move);
        result.score = iteration.score;
        result.depth = depth;
        result.pv = iteration.pv.clone();
        result.lines = iteration.lines.clone();
        report(&iteration);
        if best.abs() > DECIDED && WIN - best.abs() <= depth as i32 {
            break; // a forced result within the horizon: deeper search cannot change it
        }
    }
    result.nodes = searcher.total_nodes();
    result.elapsed = searcher.time.elapsed();
    result
}

/// The state of one search thread.
pub(super) struct Searcher<'a> {
    /// Results shared with earlier searches and other threads.
    table: &'a TranspositionTable,
    /// Set by another thread to stop at once.
    stop: &'a AtomicBool,
    /// Set when another thread of the same search has answered it: stops this one too.
    answered: Option<&'a AtomicBool>,
    /// The deadlines.
    time: TimeControl,
    /// The most nodes to visit.
    node_limit: u64,
    /// Nodes visited.
    nodes: u64,
    /// The deepest ply reached.
    selective_depth: usize,
    /// Whether a limit or the stop flag cut the current iteration short.
    aborted: bool,
    /// The game's positions, then the searched line's: repetitions are draws.
    path: Path,
    /// Two quiet moves per ply that caused a cut-off recently, as [`route`]s ([`NO_ROUTE`] when
    /// none).
    killers: Vec<[u16; 2]>,
    /// For each colour, by [`route`]: how often a quiet move caused a cut-off, weighted by depth.
    history: Vec<[i32; ROUTES]>,
    /// The best line found from each ply.
    pv: Vec<Vec<Move>>,
    /// A move list per ply, kept to avoid allocating.
    lists: Vec<Vec<Move>>,
    /// The ordering keys of each ply's moves, kept likewise.
    keys: Vec<Vec<i32>>,
    /// Root moves left out of this search: the lines multi-PV has already found.
    excluded: Vec<Move>,
    /// The best root move the current iteration has proved so far: the answer if the
    /// iteration is cut short.
    partial: Option<Line>,
    /// Nodes of the other threads of the search, for the reports; each thread adds its own.
    shared_nodes: Option<&'a AtomicU64>,
    /// The part of `nodes` already added to `shared_nodes`.
    published: u64,
    /// How positions at the horizon are valued.
    evaluation: Evaluation,
    /// Which of the switchable techniques are in use.
    techniques: Techniques,
    /// Endgame databases: a position they hold is scored, not searched.
    tablebase: Option<Arc<Tablebase>>,
    /// What the databases say of the root, when they hold it: the root moves that keep its value.
    root_value: Option<RootValue>,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        table: &'a TranspositionTable,
        stop: &'a AtomicBool,
        time: TimeControl,
        node_limit: u64,
        shared_nodes: Option<&'a AtomicU64>,
    ) -> Searcher<'a> {
        Searcher {
            table,
            stop,
            answered: None,
            time,
            node_limit,
            nodes: 0,
            selective_depth: 0,
            aborted: false,
            path: Path::new(),
            killers: vec![[NO_ROUTE; 2]; MAX_PLY + 1],
            history: vec![[0; ROUTES]; 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: vec![Vec::new(); MAX_PLY + 1],
            keys: vec![Vec::new(); MAX_PLY + 1],
            excluded: Vec::new(),
            partial: None,
            shared_nodes,
            published: 0,
            evaluation: Evaluation::Full,
            techniques: Techniques::default(),
            tablebase: None,
            root_value: None,
        }
    }

    /// The same searcher, with the evaluation, the techniques and the databases of `options`.
    /// Only full strength probes the databases: a weaker level plays its endings by its search.
    pub(super) fn with_options(mut self, options: &Options) -> Searcher<'a> {
        self.evaluation = options.evaluation;
        self.techniques = options.techniques;
        self.tablebase = options.tablebase.clone().filter(|_| options.level >= FULL_STRENGTH);
        self
    }

    /// The root moves to search: every legal move, but only those that keep the root's value
    /// when the databases hold it, and of a win's only the soonest conversions when they know
    /// the distances ([`RootValue::of`]).
    fn root_moves(&mut self, root: &Position) -> Vec<Move> {
        let legal = root.legal_moves();
        self.root_value = self.tablebase.as_deref().and_then(|tablebase| RootValue::of(tablebase, root, &legal));
        match &self.root_value {
            Some(root_value) => root_value.kept.clone(),
            None => legal,
        }
    }

    /// How a root line that starts with `first` and scores `score` reads out: a mate score as it
    /// is; when the databases hold the position after `first`, their value; a score in a database
    /// win's band as a database win or loss; else the estimate.
    fn line_score(&self, root: &Position, score: i32, first: Option<&Move>) -> Score {
        let public = public_score(score);
        let Some(tablebase) = self.tablebase.as_deref() else { return public };
        if matches!(public, Score::WinIn(_) | Score::LossIn(_)) {
            return public;
        }
        if let Some(value) = first.and_then(|mv| tablebase.probe(&root.play_unchecked(mv))) {
            return Score::Database(value.opposite());
        }
        tablebase::value_of(score).map_or(public, Score::Database)
    }

    /// The same searcher, also stopped when `answered` is set.
    pub(super) fn stopped_when(mut self, answered: &'a AtomicBool) -> Searcher<'a> {
        self.answered = Some(answered);
        self
    }

    /// Nodes of this search, every thread's included.
    fn total_nodes(&self) -> u64 {
        self.shared_nodes.map_or(0, |shared| shared.load(Ordering::Relaxed)) + self.nodes - self.published
    }

    /// The `count` best root moves at `depth`, best first, with the best raw score; `None` if a
    /// limit cut the iteration short. Each further line is searched with the ones found left out;
    /// a later line can come back with a better score than an earlier one (the table holds what
    /// the earlier searches learned), so the lines are ordered by their scores at the end.
    fn root_lines(&mut self, root: &Position, depth: i32, previous: i32, count: usize) -> Option<(i32, Vec<Line>)> {
        self.excluded.clear();
        self.partial = None;
        let mut lines = Vec::with_capacity(count);
        for k in 0..count {
            let score = if k == 0 {
                self.aspiration(root, depth, previous)
            } else {
                self.negamax(root, depth, -INFINITY, INFINITY, 0)
            };
            if self.aborted {
                return None;
            }
            let Some(&first) = self.pv[0].first() else { break };
            lines.push((score, Line { score: self.line_score(root, score, Some(&first)), pv: self.pv[0].clone() }));
            self.excluded.push(first);
        }
        self.excluded.clear();
        lines.sort_by_key(|(_, line)| std::cmp::Reverse(line.score.rank()));
        let best = lines.first().map_or(0, |(score, _)| *score);
        Some((best, lines.into_iter().map(|(_, line)| line).collect()))
    }

    /// Searches the root within a window around the previous iteration's score, widening it
    /// until the score falls inside.
    fn aspiration(&mut self, root: &Position, depth: i32, previous: i32) -> i32 {
        let mut delta = 40;
        let windowed = self.techniques.aspiration_windows && depth >= 4 && previous.abs() < DECIDED;
        let (mut alpha, mut beta) = if windowed { (previous - delta, previous + delta) } else { (-INFINITY, INFINITY) };
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 3;
        }
    }

    fn should_stop(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(shared) = self.shared_nodes {
                shared.fetch_add(self.nodes - self.published, Ordering::Relaxed);
                self.published = self.nodes;
            }
            return self.stop.load(Ordering::Relaxed)
                || self.answered.is_some_and(|answered| answered.load(Ordering::Relaxed))
                || self.time.out_of_time(Instant::now());
        }
        false
    }

    fn negamax(&mut self, position: &Position, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.aborted || self.should_stop() {
            self.aborted = true;
            return 0;
        }
        self.nodes += 1;
        self.selective_depth = self.selective_depth.max(ply);
        if ply > 0 {
            if let Some(outcome) = position.material_outcome() {
                return match outcome {
                    Outcome::Draw { .. } => tablebase::draw_score(self.root_value.as_ref(), ply),
                    _ => outcome_score(outcome, position.turn(), ply),
                };
            }
            if self.path.repeats() {
                // With the root in the databases, a side that wins must not repeat.
                return tablebase::draw_score(self.root_value.as_ref(), ply);
            }
            if let Some(tablebase) = self.tablebase.as_deref() {
                let root = self.root_value.as_ref();
                if let Some(score) = tablebase::score(tablebase, root, position, ply, self.evaluation) {
                    return score; // exact: nothing below it is searched
                }
            }
        }
        // The pieces that must capture, when the horizon has already looked for them.
        let mut capturers = None;
        if depth <= 0 || ply >= MAX_PLY - 1 {
            let found = movegen::capturers(position);
            if found == 0 {
                // A quiet horizon: valued as it stands, without building its moves.
                return if movegen::has_quiet_move(position) {
                    evaluate_with(position, self.evaluation)
                } else {
                    -(WIN - ply as i32) // no legal move: the side to move has lost
                };
            }
            if ply >= MAX_PLY - 1 {
                return evaluate_with(position, self.evaluation); // the longest line: captures or not
            }
            capturers = Some(found);
        }
        // The table before the moves: a cut-off needs none of them.
        let entry = self.table.probe(position.hash());
        if let Some(score) = entry.and_then(|e| table_cut(e, depth, alpha, beta, ply)) {
            return score;
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        match capturers {
            Some(capturers) => movegen::legal_captures(position, capturers, &mut moves),
            None => movegen::legal_moves(position, &mut moves),
        }
        if ply == 0 {
            if let Some(root_value) = &self.root_value {
                moves.retain(|m| root_value.keeps(m));
            }
            if !self.excluded.is_empty() {
                moves.retain(|m| !self.excluded.contains(m));
            }
        }
        let score = if moves.is_empty() {
            -(WIN - ply as i32) // no legal move: the side to move has lost
        } else {
            self.search_moves(position, &moves, entry, depth, alpha, beta, ply)
        };
        self.lists[ply] = moves;
        score
    }

    /// Searches the `moves` of `position` (at least one), with what the table held for it.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        position: &Position,
        moves: &[Move],
        entry: Option<Entry>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let forced = moves[0].is_capture();
        // Only a node searched with an open window keeps its line: a null-window node's line is
        // never read (its parent re-searches it with an open window before taking its line).
        let principal = beta - alpha > 1;
        let table_move = entry.and_then(|e| e.best).map(usize::from).filter(|&i| i < moves.len());
        let mut keys = std::mem::take(&mut self.keys[ply]);
        let first = self.order_keys(position.turn(), moves, table_move, ply, &mut keys);

        let mut best = -INFINITY;
        let mut best_index = usize::MAX;
        let mut bound = Bound::Upper;
        for n in 0..moves.len() {
            let i = if n == 0 { first } else { take_best(&keys) };
            keys[i] = TAKEN;
            if n == 0 {
                best_index = i;
            }
            let mv = &moves[i];
            let child = position.play_unchecked(mv);
            if depth > 1 {
                self.table.prefetch(child.hash()); // a child at the horizon seldom probes
            }
            self.path.push(position, mv, child.hash());
            let score = self.search_child(&child, mv, n, depth, alpha, beta, ply, forced);
            self.path.pop();
            if self.aborted {
                self.keys[ply] = keys;
                return 0;
            }
            if score > best {
                best = score;
                best_index = i;
                if score > alpha {
                    alpha = score;
                    bound = Bound::Exact;
                    if principal {
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        head[ply].clear();
                        head[ply].push(*mv);
                        head[ply].extend_from_slice(&tail[0]);
                        if ply == 0 {
                            // Better than every root move before it at this depth (a fail high
                            // included: its score is a lower bound).
                            let score = self.line_score(position, score, Some(mv));
                            self.partial = Some(Line { score, pv: self.pv[0].clone() });
                        }
                    }
                    if score >= beta {
                        bound = Bound::Lower;
                        if !mv.is_capture() {
                            self.reward(position.turn(), mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.keys[ply] = keys;
        // With root moves left out (multi-PV, the databases), the list's indices are not the
        // position's.
        if ply > 0 || (self.excluded.is_empty() && self.root_value.as_ref().is_none_or(|root| root.kept_all)) {
            let stored_depth = depth.clamp(0, i32::from(u8::MAX)) as u8;
            self.table.store(position.hash(), stored_depth, score_to_table(best, ply), bound, Some(best_index as u8));
        }
        best
    }

    /// Searches one child: the first move with the full window, the others with a null window
    /// first (reduced when late and quiet), and again with the full window when they beat alpha.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &Position,
        mv: &Move,
        n: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        forced: bool,
    ) -> i32 {
        let next = depth - 1;
        if n == 0 {
            return -self.negamax(child, next, -beta, -alpha, ply + 1);
        }
        let late_quiet = self.techniques.late_move_reductions && !forced && !mv.promotes() && depth >= 3 && n >= 3;
        let reduction = if late_quiet { 1 + i32::from(n >= 8 && depth >= 6) } else { 0 };
        let mut score = -self.negamax(child, next - reduction, -alpha - 1, -alpha, ply + 1);
        if score > alpha && reduction > 0 {
            score = -self.negamax(child, next, -alpha - 1, -alpha, ply + 1);
        }
        if score > alpha && score < beta {
            score = -self.negamax(child, next, -beta, -alpha, ply + 1);
        }
        score
    }

    /// Fills `keys` with each move's place in the order to try them: the table's move, then
    /// killers, then by history. Answers the index of the first highest key, the move to try
    /// first, found on the way: most nodes need no other. [`take_best`] hands out the rest.
    fn order_keys(
        &self,
        turn: Color,
        moves: &[Move],
        table_move: Option<usize>,
        ply: usize,
        keys: &mut Vec<i32>,
    ) -> usize {
        let history = &self.history[turn.index()];
        let killers = self.killers[ply];
        let (mut first, mut highest) = (0, TAKEN);
        keys.clear();
        keys.extend(moves.iter().enumerate().map(|(i, mv)| {
            let route = route(mv);
            let key = if Some(i) == table_move {
                i32::MAX
            } else if killers[0] == route {
                i32::MAX - 1
            } else if killers[1] == route {
                i32::MAX - 2
            } else {
                history[usize::from(route)]
            };
            if key > highest {
                (first, highest) = (i, key);
            }
            key
        }));
        first
    }

    /// A quiet move that caused a cut-off: a killer at this ply, and history by depth squared.
    fn reward(&mut self, turn: Color, mv: &Move, depth: i32, ply: usize) {
        let route = route(mv);
        let killers = &mut self.killers[ply];
        if killers[0] != route {
            killers[1] = killers[0];
            killers[0] = route;
        }
        let entry = &mut self.history[turn.index()][usize::from(route)];
        *entry = (*entry + depth * depth).min(1 << 20);
    }
}

/// The score a table entry settles at this node, if it does. No cut-offs on the principal line
/// (an open window) or at the root: their moves are searched out, so the reported line is whole.
fn table_cut(entry: Entry, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
    let open_window = beta - alpha > 1;
    if ply == 0 || open_window || i32::from(entry.depth) < depth {
        return None;
    }
    let score = score_from_table(entry.score, ply);
    let cut = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    };
    cut.then_some(score)
}

/// The index of the highest key not yet taken, the first of equals (the engine's order breaks
/// ties); the caller marks it taken. Picking one at a time costs less than sorting: most nodes
/// stop after the first move or two.
fn take_best(keys: &[i32]) -> usize {
    let (mut best, mut highest) = (0, keys[0]);
    for (i, &key) in keys.iter().enumerate().skip(1) {
        if key > highest {
            (best, highest) = (i, key);
        }
    }
    best
}

/// Every (from, to) pair of squares: squares are bits below 64.
const ROUTES: usize = 64 * 64;

/// No route: the killer slot is empty.
const NO_ROUTE: u16 = u16::MAX;

/// A move's (from, to) as one number below [`ROUTES`]: what killers and history know a quiet move by.
#[inline]
fn route(mv: &Move) -> u16 {
    ((mv.from().index() << 6 | mv.to().index()) as usize % ROUTES) as u16
}

/// A key no move has: history counts are never negative.
const TAKEN: i32 = i32::MIN;

/// The score of a decided position for the side to move, `ply` plies from the root.
fn outcome_score(outcome: Outcome, turn: Color, ply: usize) -> i32 {
    match outcome {
        Outcome::Win { winner, .. } if winner == turn => WIN - ply as i32,
        Outcome::Win { .. } => -(WIN - ply as i32),
        Outcome::Draw { .. } | Outcome::Ongoing => 0,
    }
}

/// Wins and losses, and database wins and losses, are stored relative to the stored position, so
/// that their distances read right wherever the position is met again.
fn score_to_table(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let relative = if score > DECIDED || tablebase::value_of(score) == Some(Wdl::Win) {
        score + ply
    } else if score < -DECIDED || tablebase::value_of(score) == Some(Wdl::Loss) {
        score - ply
    } else {
        score
    };
    relative as i16
}

fn score_from_table(score: i16, ply: usize) -> i32 {
    let (score, ply) = (i32::from(score), ply as i32);
    if score > DECIDED || tablebase::value_of(score) == Some(Wdl::Win) {
        score - ply
    } else if score < -DECIDED || tablebase::value_of(score) == Some(Wdl::Loss) {
        score + ply
    } else {
        score
    }
}

fn public_score(score: i32) -> Score {
    if score > DECIDED {
        Score::WinIn((WIN - score) as u32)
    } else if score < -DECIDED {
        Score::LossIn((WIN + score) as u32)
    } else {
        Score::Value(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_scores_keep_their_distance_through_the_table() {
        for ply in [0, 3, 17] {
            for score in [WIN - 5, -(WIN - 9), 250, -40, 0] {
                let stored = score_to_table(score, ply);
                assert_eq!(score_from_table(stored, ply), score);
            }
        }
        // A win 5 plies from the root found at ply 3 is a win in 2 from the stored position.
        assert_eq!(score_from_table(score_to_table(WIN - 5, 3), 1), WIN - 3);
        assert_eq!(public_score(WIN - 7), Score::WinIn(7));
        assert_eq!(public_score(-(WIN - 4)), Score::LossIn(4));
    }
}
