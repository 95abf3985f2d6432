//! Texel tuning of the evaluation weights, on positions from self-play.
//!
//! 1. Self-play: from every opening of `data/openings/<variant>.txt`, both colours, the engine
//!    plays itself at a fixed depth, at level 18 so that games differ (seeded, reproducible).
//! 2. Every quiet position of those games (the side to move has no capture) is kept with the
//!    game's result for White: 1, ½ or 0.
//! 3. The scale K of the win-probability curve `1 / (1 + 10^(-K·eval/400))` is fitted to the
//!    current weights; then coordinate descent changes one weight at a time by a step (16, 8, 4,
//!    2, 1) while the mean squared error between curve and results falls.
//! 4. A validation match, new weights against old, every opening both colours, says whether the
//!    new weights play better; the new weights are printed as Rust to paste into
//!    `src/search/eval/hand.rs`.
//!
//! The validation plays at the self-play depth unless `--move-time MS` gives both sides a fixed
//! time a move instead. A depth-limited match can flatter weights that only suit that depth, and
//! the project shows strength at a fixed time a move, so a set is adopted on a `--move-time` match.
//! `--candidate` skips steps 1 to 3 and validates a set already found: the 15 numbers of
//! `Weights::tunable` (king, advance by rank 0 to 9, back rank, centre, king mobility, runaway),
//! against the current weights or against `--baseline`, another 15.
//!
//! Run from the repository root (a few minutes on 2 cores each):
//!
//! ```text
//! # tune, and validate at the self-play depth
//! cargo run --release -p damiera-engine --example tune -- --variant italian [--depth 4] [--rounds 2]
//! # validate a candidate from a tuning log at 20 ms a move
//! cargo run --release -p damiera-engine --example tune -- --variant turkish --move-time 20 \
//!     --candidate "936,0,50,42,43,94,-42,171,0,0,0,4,-17,-139,171"
//! ```

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Duration;

use damiera_engine::search::{
    evaluate_with_weights, search_with, Evaluation, Limits, Options, TranspositionTable, Weights,
};
use damiera_engine::{Color, Game, Outcome, Position, Variant};

#[path = "common/suite.rs"]
mod suite;
use suite::openings;

/// A game longer than this is called a draw.
const MAX_PLIES: usize = 300;

const USAGE: &str = "--variant V [--depth N] [--rounds N] [--move-time MS] [--candidate LIST] [--baseline LIST]";

struct Settings {
    /// The variant whose weights are tuned.
    variant: Variant,
    /// The self-play search depth, and the validation's unless `move_time` is set.
    depth: u32,
    /// Self-play games per opening and colour.
    rounds: u64,
    /// A fixed time a move for the validation match, instead of `depth`.
    move_time: Option<Duration>,
    /// Weights to validate without tuning, in `Weights::tunable` order.
    candidate: Option<Vec<i32>>,
    /// The weights to beat and to start tuning from, if not the engine's current ones.
    baseline: Option<Vec<i32>>,
}

fn settings() -> Settings {
    let mut settings =
        Settings { variant: Variant::Italian, depth: 4, rounds: 2, move_time: None, candidate: None, baseline: None };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).map(String::as_str).unwrap_or_default();
        match pair[0].as_str() {
            "--variant" => settings.variant = value.parse().expect("--variant italian|triestina|turkish"),
            "--depth" => settings.depth = value.parse().expect("--depth N"),
            "--rounds" => settings.rounds = value.parse().expect("--rounds N"),
            "--move-time" => settings.move_time = Some(Duration::from_millis(value.parse().expect("--move-time MS"))),
            "--candidate" => settings.candidate = Some(weight_list(value)),
            "--baseline" => settings.baseline = Some(weight_list(value)),
            other => panic!("unknown argument {other}: {USAGE}"),
        }
    }
    settings
}

/// The 15 comma-separated numbers of [`Weights::tunable`].
fn weight_list(text: &str) -> Vec<i32> {
    let list: Vec<i32> = text.split(',').map(|n| n.trim().parse().expect("weights are integers")).collect();
    let expected = Weights::of(Variant::Italian).tunable().len();
    assert_eq!(list.len(), expected, "a weight list has {expected} numbers, in Weights::tunable order");
    list
}

/// Plays one game from `opening` between `white` and `black`; White's result and the positions.
fn play(variant: Variant, opening: &[String], limits: &Limits, options: [Options; 2]) -> (f64, Vec<Position>) {
    let mut game = Game::new(variant);
    for text in opening {
        game.play(text).expect("the suite's openings are legal");
    }
    let stop = AtomicBool::new(false);
    while game.outcome() == Outcome::Ongoing && game.ply() < MAX_PLIES {
        let side = game.position().turn().index();
        let (current, history) = game.positions().split_last().expect("a position");
        let table = TranspositionTable::new(2);
        let result = search_with(current, history, limits, &options[side], &table, &stop, |_| {});
        game.play_move(&result.best_move.expect("a legal move")).expect("legal");
    }
    let white = match game.outcome() {
        Outcome::Win { winner: Color::White, .. } => 1.0,
        Outcome::Win { .. } => 0.0,
        _ => 0.5,
    };
    (white, game.positions()[opening.len()..].to_vec())
}

/// Runs `job(i)` for `0..count` on two threads, collecting the results in order.
fn parallel<T: Send>(count: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let results = Mutex::new((0..count).map(|_| None).collect::<Vec<Option<T>>>());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let value = job(i);
                results.lock().expect("no panic holding it")[i] = Some(value);
            });
        }
    });
    results.into_inner().expect("threads done").into_iter().map(|r| r.expect("every job ran")).collect()
}

/// The mean squared error of the win-probability curve with scale `k` over the samples.
fn error(samples: &[(Position, f64)], weights: &Weights, k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|(position, result)| {
            let eval = evaluate_with_weights(position, weights);
            let white_eval = if position.turn() == Color::White { eval } else { -eval };
            let expected = 1.0 / (1.0 + 10f64.powf(-k * f64::from(white_eval) / 400.0));
            (result - expected).powi(2)
        })
        .sum();
    total / samples.len() as f64
}

/// Steps 1 to 3: self-play from `lines`, then the weights that fit its results best, from `start`.
fn tune(variant: Variant, lines: &[Vec<String>], depth: u32, rounds: u64, start: Weights) -> Weights {
    let weak = |seed: u64| Options { level: 18, seed, ..Options::default() };
    eprintln!("self-play: {} openings x 2 colours x {rounds} rounds at depth {depth}", lines.len());
    let games = lines.len() * 2 * rounds as usize;
    let played = parallel(games, |i| {
        play(variant, &lines[i / 2 % lines.len()], &Limits::depth(depth), [weak(i as u64), weak(i as u64 + 1)])
    });
    let samples: Vec<(Position, f64)> = played
        .into_iter()
        .flat_map(|(result, positions)| positions.into_iter().map(move |p| (p, result)))
        .filter(|(p, _)| !p.must_capture() && !p.legal_moves().is_empty())
        .collect();
    eprintln!("{} quiet positions from {games} games", samples.len());

    let k = [0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.5, 2.0, 3.0]
        .into_iter()
        .min_by(|a, b| error(&samples, &start, *a).total_cmp(&error(&samples, &start, *b)))
        .expect("candidates");
    let mut best = start.tunable();
    let mut best_error = error(&samples, &start, k);
    eprintln!("K = {k}, error with the current weights {best_error:.6}");
    for step in [16, 8, 4, 2, 1] {
        let mut improved = true;
        while improved {
            improved = false;
            for i in 0..best.len() {
                for delta in [step, -step] {
                    let mut trial = best.clone();
                    trial[i] += delta;
                    let e = error(&samples, &start.with_tunable(&trial), k);
                    if e < best_error {
                        (best, best_error, improved) = (trial, e, true);
                    }
                }
            }
        }
        eprintln!("step {step}: error {best_error:.6}");
    }
    start.with_tunable(&best)
}

/// Step 4: `new` against `old` from every opening, both colours; the new weights' result of each
/// game (1, ½ or 0).
///
/// Games run two at a time, one a core, at a fixed time a move as well as at a fixed depth: each
/// search is one thread with its own deadline, so two games in parallel leave every move its full
/// time, as in the `damiera match --concurrency 2` runs of `docs/benchmarks.md`, in half the wall
/// time. Load from other programs takes time from both sides alike, since they alternate moves in
/// the same game; it makes the depth reached vary, not the match unfair.
fn validate(variant: Variant, lines: &[Vec<String>], limits: &Limits, new: Weights, old: Weights) -> Vec<f64> {
    let full = |weights: Weights| Options { evaluation: Evaluation::Weights(weights), ..Options::default() };
    parallel(lines.len() * 2, |i| {
        let new_white = i % 2 == 0;
        let options = if new_white { [full(new), full(old)] } else { [full(old), full(new)] };
        let (white, _) = play(variant, &lines[i / 2], limits, options);
        if new_white {
            white
        } else {
            1.0 - white
        }
    })
}

/// Wins, draws and losses, and the score with its 95% interval (normal approximation).
fn summary(results: &[f64]) -> String {
    let n = results.len() as f64;
    let score = results.iter().sum::<f64>() / n;
    let deviation = (results.iter().map(|r| (r - score).powi(2)).sum::<f64>() / n).sqrt();
    let (wins, losses) = (results.iter().filter(|&&r| r == 1.0).count(), results.iter().filter(|&&r| r == 0.0).count());
    format!(
        "+{wins} ={} -{losses}, score {:.1}% (95%: {:.1}% .. {:.1}%)",
        results.len() - wins - losses,
        100.0 * score,
        100.0 * (score - 1.96 * deviation / n.sqrt()),
        100.0 * (score + 1.96 * deviation / n.sqrt())
    )
}

fn main() {
    let Settings { variant, depth, rounds, move_time, candidate, baseline } = settings();
    let lines = openings(variant);
    let current = Weights::of(variant);
    let old = baseline.map_or(current, |list| current.with_tunable(&list));
    let new = match candidate {
        Some(list) => old.with_tunable(&list),
        None => tune(variant, &lines, depth, rounds, old),
    };

    let (limits, condition) = match move_time {
        Some(time) => (Limits::move_time(time), format!("{} ms a move", time.as_millis())),
        None => (Limits::depth(depth), format!("depth {depth}")),
    };
    eprintln!("validation: {} openings x 2 colours at {condition}", lines.len());
    let results = validate(variant, &lines, &limits, new, old);
    eprintln!("new against old at {condition}: {}", summary(&results));
    println!("{new:#?}");
}
