//! Generates the opening suites in `data/openings/` (`italian.txt`, `triestina.txt`,
//! `turkish.txt`): short, balanced, distinct and varied openings for engine matches, where each
//! opening is played twice with colours swapped.
//!
//! Re-run it from the repository root (under a minute on two idle cores):
//!
//! ```text
//! cargo run --release -p damiera-engine --example openings
//! ```
//!
//! For each variant ([`SUITES`] holds the figures):
//!
//! 1. **Grow** every line of sound moves from the start position, ply by ply. A move is sound when a
//!    shallow search scores it within a margin of the position's best move: no gifted men, but room
//!    for the positional choices players make. Lines that transpose into the same position count
//!    as one, represented by one of them drawn at random, so no two candidates share an end
//!    position. Where a ply has more positions than the cap, a seeded sample of them goes on.
//! 2. **Order** the candidates for variety: grouped by first move, each group shuffled with the
//!    variant's seed, then taken in turn, one from each group.
//! 3. **Score** the end position of each candidate in that order with a deeper search, and keep it
//!    when the game is not over, no capture is due, and the last two iterations (depths d - 1 and
//!    d) both score within the threshold of 0 for the side to move. Stop at the target count.
//!
//! Every search runs on one thread with a depth limit and a freshly cleared transposition table of
//! fixed size, so it is deterministic, and so is the whole run: the same engine writes the same
//! files, whatever the number of cores. The order of a file is the order of step 2, so any prefix
//! of it is as varied as the whole. When the evaluation or the search changes, the scores change:
//! regenerate the suites and say so in the commit.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use damiera_engine::search::{search, Limits, TranspositionTable};
use damiera_engine::{notation, Move, Outcome, Position, Variant};

/// How one variant's suite is made.
struct Suite {
    /// The game.
    variant: Variant,
    /// The length of every opening, in plies.
    plies: usize,
    /// Depth of the searches that decide which moves are sound.
    sound_depth: u32,
    /// How far below the best move's score a sound move may score, in hundredths of a man.
    sound_margin: i32,
    /// The most positions carried from one ply to the next; a seeded sample beyond that.
    frontier_cap: usize,
    /// Depth of the search that scores an opening's end position.
    depth: u32,
    /// The largest |score| of a balanced opening, in hundredths of a man, for the side to move.
    threshold: i32,
    /// How many openings to write.
    target: usize,
    /// Seeds the sampling and the shuffles.
    seed: u64,
}

/// The three suites. The depths are what a search reaches in about a tenth of a second from the
/// start position; Turkish gets two plies less because its tree is much wider.
const SUITES: [Suite; 3] = [
    Suite {
        variant: Variant::Italian,
        plies: 6,
        sound_depth: 6,
        sound_margin: 40,
        frontier_cap: 4000,
        depth: 14,
        threshold: 30,
        target: 100,
        seed: 0x17A1_1A4E,
    },
    Suite {
        variant: Variant::Triestina,
        plies: 8,
        sound_depth: 6,
        sound_margin: 40,
        frontier_cap: 4000,
        depth: 14,
        threshold: 30,
        target: 100,
        seed: 0x7E1E_5714,
    },
    Suite {
        variant: Variant::Turkish,
        plies: 6,
        sound_depth: 4,
        sound_margin: 40,
        frontier_cap: 4000,
        depth: 12,
        threshold: 30,
        target: 100,
        seed: 0x7C4B_CA11,
    },
];

/// Transposition table sizes, in MiB, of the shallow searches and of the deep ones. Fixed, because
/// a table's size decides which entries survive and so can change a score; small for the shallow
/// searches because the table is cleared before each one.
const SOUND_TABLE_MB: usize = 1;
const DEEP_TABLE_MB: usize = 16;

/// Candidates scored together, one batch at a time, so the run stops soon after the target.
const BATCH: usize = 16;

/// A line from the start position and every position along it.
#[derive(Clone)]
struct Line {
    /// The moves, in order.
    moves: Vec<Move>,
    /// The start position, then the position after each move.
    positions: Vec<Position>,
}

impl Line {
    fn start(variant: Variant) -> Line {
        Line { moves: Vec::new(), positions: vec![Position::start(variant)] }
    }

    fn end(&self) -> &Position {
        self.positions.last().expect("a line has its start position")
    }

    fn extended(&self, mv: Move) -> Line {
        let mut line = self.clone();
        line.positions.push(self.end().play_unchecked(&mv));
        line.moves.push(mv);
        line
    }

    fn written(&self) -> String {
        let variant = self.end().variant();
        self.moves.iter().map(|mv| notation::write(variant, mv)).collect::<Vec<_>>().join(" ")
    }

    /// The end position's score for the side to move after each iteration of a search to `depth`
    /// plies, the deepest last.
    fn scores(&self, depth: u32, table: &TranspositionTable) -> Vec<i32> {
        table.clear();
        let (end, history) = self.positions.split_last().expect("a line has its start position");
        let mut scores = Vec::new();
        let result = search(end, history, &Limits::depth(depth), table, &AtomicBool::new(false), |it| {
            scores.push(it.score.rank())
        });
        if scores.is_empty() {
            scores.push(result.score.rank()); // no iteration: no legal move
        }
        scores
    }
}

/// SplitMix64: a few lines of well-known, seedable randomness, so no dependency is needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform index below `n`; the tiny modulo bias does not matter here.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// `f` applied to every item on all cores, each worker with its own transposition table of
/// `table_mb` MiB; the results come back in the items' order.
fn par_map<T: Sync, R: Send>(items: &[T], table_mb: usize, f: impl Fn(&T, &TranspositionTable) -> R + Sync) -> Vec<R> {
    let workers = thread::available_parallelism().map_or(1, |n| n.get()).min(items.len().max(1));
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(items.len()));
    thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let table = TranspositionTable::new(table_mb);
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else { break };
                    mine.push((i, f(item, &table)));
                }
                results.lock().expect("no worker panicked").extend(mine);
            });
        }
    });
    let mut results = results.into_inner().expect("no worker panicked");
    results.sort_unstable_by_key(|&(i, _)| i);
    results.into_iter().map(|(_, r)| r).collect()
}

/// Step 1: every line of sound moves, `suite.plies` long, one per end position.
fn grow(suite: &Suite, rng: &mut Rng) -> Vec<Line> {
    let mut frontier = vec![Line::start(suite.variant)];
    for ply in 1..=suite.plies {
        // Each child with its parent's index and whether it was the parent's only move.
        let children: Vec<(usize, Line, bool)> = frontier
            .iter()
            .enumerate()
            .flat_map(|(i, line)| {
                let moves = line.end().legal_moves();
                let forced = moves.len() == 1;
                moves.into_iter().map(move |mv| (i, line.extended(mv), forced))
            })
            .collect();
        // Scored from the mover's side; a forced move needs no search.
        let scores = par_map(&children, SOUND_TABLE_MB, |(_, line, forced), table| {
            if *forced {
                0
            } else {
                -line.scores(suite.sound_depth, table).last().copied().unwrap_or(0)
            }
        });
        let mut best = vec![i32::MIN; frontier.len()];
        for ((parent, _, _), &score) in children.iter().zip(&scores) {
            best[*parent] = best[*parent].max(score);
        }
        // One line per position. Which of the lines that transpose into it stays is drawn at
        // random (reservoir sampling): keeping the first found would credit nearly every
        // position to the first move in move order, and step 2 groups by first move.
        let mut next: Vec<Line> = Vec::new();
        let mut reached: HashMap<Position, (usize, usize)> = HashMap::new();
        for ((parent, line, _), score) in children.into_iter().zip(scores) {
            if score < best[parent] - suite.sound_margin {
                continue;
            }
            match reached.get_mut(line.end()) {
                None => {
                    reached.insert(*line.end(), (next.len(), 1));
                    next.push(line);
                }
                Some((index, count)) => {
                    *count += 1;
                    if rng.below(*count) == 0 {
                        next[*index] = line;
                    }
                }
            }
        }
        let found = next.len();
        if next.len() > suite.frontier_cap {
            // A sample that keeps the lines in the order they were found.
            let mut keep: Vec<usize> = (0..next.len()).collect();
            rng.shuffle(&mut keep);
            keep.truncate(suite.frontier_cap);
            keep.sort_unstable();
            next = keep.into_iter().map(|i| next[i].clone()).collect();
        }
        println!("  ply {ply}: {found} positions after sound moves, {} kept", next.len());
        frontier = next;
    }
    frontier
}

/// Step 2: the candidates grouped by first move, each group shuffled, then dealt one from each
/// group in turn.
fn varied_order(candidates: Vec<Line>, rng: &mut Rng) -> Vec<Line> {
    let mut groups: Vec<Vec<Line>> = Vec::new();
    let mut group_of: HashMap<Move, usize> = HashMap::new();
    for line in candidates {
        let group = *group_of.entry(line.moves[0]).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[group].push(line);
    }
    let sizes: Vec<String> = groups
        .iter()
        .map(|group| format!("{}:{}", notation::write(group[0].end().variant(), &group[0].moves[0]), group.len()))
        .collect();
    println!("  candidates by first move: {}", sizes.join(" "));
    for group in &mut groups {
        rng.shuffle(group);
        group.reverse(); // popped from the back below: keep the shuffled order
    }
    let mut ordered = Vec::new();
    while groups.iter().any(|group| !group.is_empty()) {
        ordered.extend(groups.iter_mut().filter_map(Vec::pop));
    }
    ordered
}

/// What step 3 found.
struct Chosen {
    /// The balanced openings with their scores, in the order they were chosen.
    openings: Vec<(Line, i32)>,
    /// Candidates looked at.
    examined: usize,
    /// Candidates left out because the game was over or a capture was due at the end.
    not_quiet: usize,
    /// Candidates left out because a deep search did not find them balanced.
    unbalanced: usize,
}

/// Why step 3 left a candidate out.
enum Rejected {
    /// The game is over, or a capture is due.
    NotQuiet,
    /// A deep search scores it beyond the threshold.
    Unbalanced,
}

/// Step 3: the first `suite.target` candidates, in order, whose end position is quiet and balanced.
fn choose(suite: &Suite, ordered: &[Line]) -> Chosen {
    let mut chosen = Chosen { openings: Vec::new(), examined: 0, not_quiet: 0, unbalanced: 0 };
    for batch in ordered.chunks(BATCH) {
        let verdicts = par_map(batch, DEEP_TABLE_MB, |line, table| verdict(suite, line, table));
        chosen.examined += batch.len();
        for (line, verdict) in batch.iter().zip(verdicts) {
            match verdict {
                Ok(score) => chosen.openings.push((line.clone(), score)),
                Err(Rejected::NotQuiet) => chosen.not_quiet += 1,
                Err(Rejected::Unbalanced) => chosen.unbalanced += 1,
            }
        }
        if chosen.openings.len() >= suite.target {
            chosen.openings.truncate(suite.target);
            break;
        }
    }
    chosen
}

/// The candidate's score if it is a good opening.
fn verdict(suite: &Suite, line: &Line, table: &TranspositionTable) -> Result<i32, Rejected> {
    // A capture due at the end would make the match's first move forced, and a half-played
    // exchange is where a score is least reliable.
    let end = line.end();
    if end.status() != Outcome::Ongoing || end.must_capture() {
        return Err(Rejected::NotQuiet);
    }
    // The last two iterations must both be balanced: a score that swings between an odd and an
    // even depth is a tactic at the horizon.
    let scores = line.scores(suite.depth, table);
    let last_two = &scores[scores.len().saturating_sub(2)..];
    if last_two.iter().all(|score| score.abs() <= suite.threshold) {
        Ok(*scores.last().expect("at least one score"))
    } else {
        Err(Rejected::Unbalanced)
    }
}

/// The file's text: a header saying how it was made, then one opening per line.
fn file_text(suite: &Suite, chosen: &Chosen) -> String {
    let variant = suite.variant;
    let mut text = String::new();
    let _ = writeln!(
        text,
        "# {}: {} openings of {} plies from the start position.",
        variant.display_name(),
        chosen.openings.len(),
        suite.plies
    );
    let _ = writeln!(
        text,
        "# Made by service/engine/examples/openings.rs (see README.md); do not edit by hand, regenerate:"
    );
    let _ = writeln!(text, "#   cargo run --release -p damiera-engine --example openings");
    let _ = writeln!(
        text,
        "# Sound moves (within {} of the best at depth {}); a quiet end that scores within {} of 0 at depths {} and {}.",
        suite.sound_margin,
        suite.sound_depth,
        suite.threshold,
        suite.depth - 1,
        suite.depth
    );
    let _ = writeln!(text, "# In the order chosen, first moves taken in turn: any prefix is varied.");
    for (line, _) in &chosen.openings {
        let _ = writeln!(text, "{}", line.written());
    }
    text
}

/// A one-line summary of the chosen scores and first moves, for the run's output.
fn summary(suite: &Suite, chosen: &Chosen) -> String {
    let scores: Vec<i32> = chosen.openings.iter().map(|&(_, score)| score).collect();
    let mean_abs = scores.iter().map(|s| f64::from(s.abs())).sum::<f64>() / scores.len().max(1) as f64;
    let mut first_moves: Vec<(String, usize)> = Vec::new();
    for (line, _) in &chosen.openings {
        let first = notation::write(suite.variant, &line.moves[0]);
        match first_moves.iter_mut().find(|(m, _)| *m == first) {
            Some((_, count)) => *count += 1,
            None => first_moves.push((first, 1)),
        }
    }
    let firsts: Vec<String> = first_moves.iter().map(|(m, n)| format!("{m}:{n}")).collect();
    format!(
        "score min {} max {} mean |score| {mean_abs:.1}; first moves {}",
        scores.iter().min().unwrap_or(&0),
        scores.iter().max().unwrap_or(&0),
        firsts.join(" ")
    )
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data").join("openings");
    fs::create_dir_all(&dir).expect("data/openings can be created");
    let run = Instant::now();
    for suite in &SUITES {
        let started = Instant::now();
        println!("{}:", suite.variant.display_name());
        let mut rng = Rng(suite.seed);
        let candidates = grow(suite, &mut rng);
        let count = candidates.len();
        let ordered = varied_order(candidates, &mut rng);
        let chosen = choose(suite, &ordered);
        let path = dir.join(format!("{}.txt", suite.variant.name()));
        fs::write(&path, file_text(suite, &chosen)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        println!(
            "  {count} candidates, {} examined ({} not quiet, {} unbalanced at depth {} or {}), {} written to {} ({:.1} s)",
            chosen.examined,
            chosen.not_quiet,
            chosen.unbalanced,
            suite.depth - 1,
            suite.depth,
            chosen.openings.len(),
            path.display(),
            started.elapsed().as_secs_f64()
        );
        println!("  {}", summary(suite, &chosen));
        if chosen.openings.len() < suite.target {
            println!("  warning: fewer than the {} openings wanted", suite.target);
        }
    }
    println!("done in {:.1} s", run.elapsed().as_secs_f64());
}
