//! Search invariants: the stop flag returns a legal move at once, depth and node limits are
//! deterministic, forced wins are found with their distance, and iteration reports add up.
//! (Repetition detection has unit tests in `search/alphabeta.rs`.)

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use damiera_engine::search::{
    search, search_with, Iteration, Limits, Options, Score, SearchResult, Techniques, TranspositionTable,
};
use damiera_engine::{fen, notation, Position, Variant};

mod common;

fn run(position: &Position, limits: &Limits) -> SearchResult {
    search(position, &[], limits, &TranspositionTable::new(4), &AtomicBool::new(false), |_| {})
}

fn written(variant: Variant, result: &SearchResult) -> String {
    notation::write(variant, &result.best_move.expect("a move"))
}

#[test]
fn stop_from_another_thread_returns_a_legal_move() {
    for variant in Variant::ALL {
        let position = Position::start(variant);
        let stop = Arc::new(AtomicBool::new(false));
        let stopper = {
            let stop = Arc::clone(&stop);
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            })
        };
        // No limit at all: only the stop flag can end this search.
        let result = search(&position, &[], &Limits::default(), &TranspositionTable::new(4), &stop, |_| {});
        stopper.join().unwrap();
        let best = result.best_move.expect("a move even when stopped");
        assert!(position.legal_moves().contains(&best), "{variant}: {best:?}");
    }
}

#[test]
fn a_stop_before_the_first_iteration_still_gives_a_legal_move() {
    let position = Position::start(Variant::Turkish);
    let stop = AtomicBool::new(true);
    let result = search(&position, &[], &Limits::default(), &TranspositionTable::new(1), &stop, |_| {});
    assert_eq!(result.depth, 0);
    assert!(position.legal_moves().contains(&result.best_move.unwrap()));
}

#[test]
fn depth_and_node_limits_are_deterministic() {
    for variant in Variant::ALL {
        let position = Position::start(variant);
        for limits in [Limits::depth(7), Limits::nodes(20_000)] {
            let (a, b) = (run(&position, &limits), run(&position, &limits));
            assert_eq!((a.best_move, a.nodes, a.score, &a.pv), (b.best_move, b.nodes, b.score, &b.pv), "{variant}");
        }
    }
}

#[test]
fn the_node_limit_is_kept() {
    let result = run(&Position::start(Variant::Italian), &Limits::nodes(5_000));
    assert!(result.nodes <= 5_000, "{} nodes", result.nodes);
    assert!(result.depth >= 1);
}

#[test]
fn forced_wins_are_found_with_their_distance() {
    // Taking the last piece wins at once.
    let position = fen::parse(Variant::Italian, "W:W22:B18").unwrap();
    let result = run(&position, &Limits::depth(3));
    assert_eq!((written(Variant::Italian, &result), result.score), ("22x13".to_string(), Score::WinIn(1)));
    // Turkish: the king takes the last man (a lone man against a king loses anyway).
    let position = fen::parse(Variant::Turkish, "W:WKa1:Ba5,h7").unwrap();
    let result = run(&position, &Limits::depth(4));
    assert_eq!(result.score, Score::WinIn(1), "{}", written(Variant::Turkish, &result));
    // The side to move with no legal move has lost.
    let position = fen::parse(Variant::Italian, "W:W29:B22,25,26").unwrap();
    let result = run(&position, &Limits::depth(3));
    assert_eq!((result.best_move, result.score), (None, Score::LossIn(0)));
}

#[test]
fn forced_captures_are_searched_past_the_horizon() {
    // White's one man can go to 17 or 18; on 18 Black's man on 14 must take it (14x21) and White
    // has nothing left. Depth 1 sees that only by searching the forced capture past the horizon.
    let position = fen::parse(Variant::Italian, "W:W21:B14,4").unwrap();
    let result = run(&position, &Limits::depth(1));
    assert_eq!(written(Variant::Italian, &result), "21-17");
    assert!(matches!(result.score, Score::Value(_)), "{:?}", result.score);
    // And the other way round: Black to move after 21-18 sees the win in one.
    let after = position.play_notation("21-18").unwrap();
    let result = run(&after, &Limits::depth(1));
    assert_eq!((written(Variant::Italian, &result), result.score), ("14x21".to_string(), Score::WinIn(1)));
}

#[test]
fn iterations_report_every_depth_in_order() {
    let position = Position::start(Variant::Triestina);
    let mut reports: Vec<Iteration> = Vec::new();
    let table = TranspositionTable::new(4);
    let result =
        search(&position, &[], &Limits::depth(6), &table, &AtomicBool::new(false), |it| reports.push(it.clone()));
    assert_eq!(reports.iter().map(|it| it.depth).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    let last = reports.last().unwrap();
    assert_eq!((last.pv.first().copied(), last.nodes, &last.pv), (result.best_move, result.nodes, &result.pv));
    assert!(last.selective_depth >= last.depth);
    // The principal variation is a legal line.
    let mut walk = position;
    for mv in &last.pv {
        walk = walk.play(mv).expect("every move of the PV is legal where it stands");
    }
}

/// Positions from random games and random set-ups (kings included), a few per variant.
fn sample_positions(variant: Variant, count: usize) -> Vec<Position> {
    let mut rng = common::Rng::new(0x5EA2C4 ^ count as u64);
    let mut positions = common::Distinct::default();
    common::add_random_games(&mut positions, variant, &mut rng, count / 2, 60);
    common::add_random_setups(&mut positions, variant, &mut rng, count / 2);
    positions.positions.into_iter().filter(|p| !p.legal_moves().is_empty()).collect()
}

/// Two threads: the answer is legal, no deeper than the limit, and the last reported iteration,
/// whichever thread completed it.
#[test]
fn threads_never_return_an_illegal_move() {
    let options = Options { threads: 2, ..Options::default() };
    for variant in Variant::ALL {
        for position in sample_positions(variant, 40) {
            let table = TranspositionTable::new(2);
            let mut last_report = None;
            let result =
                search_with(&position, &[], &Limits::depth(5), &options, &table, &AtomicBool::new(false), |it| {
                    last_report = Some(it.clone());
                });
            let last_report = last_report.expect("at least one iteration reported");
            assert_eq!(
                (result.depth, &result.pv),
                (last_report.depth, &last_report.pv),
                "the last report is the answer"
            );
            assert!(result.depth <= 5);
            let mut walk = position;
            for mv in &result.pv {
                walk = walk.play(mv).unwrap_or_else(|_| panic!("{variant} {}: PV move {mv:?}", position.to_fen()));
            }
            assert_eq!(result.pv.first().copied(), result.best_move, "{}", position.to_fen());
        }
    }
}

/// Each technique a match can switch off really is switched off: the same deterministic search
/// visits another number of nodes without it, and a search without either still finds the forced
/// win. (From the Italian start the scores stay inside the aspiration window, so the windows show
/// only in the Turkish search.)
#[test]
fn switching_a_technique_off_changes_the_search() {
    let nodes = |variant: Variant, techniques: Techniques| {
        let options = Options { techniques, ..Options::default() };
        let position = Position::start(variant);
        let table = TranspositionTable::new(4);
        search_with(&position, &[], &Limits::depth(9), &options, &table, &AtomicBool::new(false), |_| {}).nodes
    };
    let all = Techniques::default();
    let without_lmr = Techniques { late_move_reductions: false, ..all };
    let without_aspiration = Techniques { aspiration_windows: false, ..all };
    assert_eq!(nodes(Variant::Italian, all), 16862);
    assert_eq!(nodes(Variant::Italian, without_lmr), 55522);
    assert_eq!(nodes(Variant::Turkish, all), 105839);
    assert_eq!(nodes(Variant::Turkish, without_aspiration), 105883);

    let off = Techniques { late_move_reductions: false, aspiration_windows: false };
    let options = Options { techniques: off, ..Options::default() };
    let position = fen::parse(Variant::Italian, "W:W22,29:B18,10,4").unwrap();
    let table = TranspositionTable::new(1);
    let result = search_with(&position, &[], &Limits::depth(6), &options, &table, &AtomicBool::new(false), |_| {});
    assert_eq!(written(Variant::Italian, &result), "22x13x6");
}

#[test]
fn multipv_lists_distinct_moves_best_first() {
    for variant in Variant::ALL {
        let position = Position::start(variant);
        let options = Options { multipv: 3, ..Options::default() };
        let table = TranspositionTable::new(4);
        let result = search_with(&position, &[], &Limits::depth(6), &options, &table, &AtomicBool::new(false), |_| {});
        assert_eq!(result.lines.len(), 3, "{variant}");
        let firsts: Vec<_> = result.lines.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{variant}");
        let values: Vec<i32> = result.lines.iter().map(|l| if let Score::Value(v) = l.score { v } else { 0 }).collect();
        assert!(values.windows(2).all(|w| w[0] >= w[1]), "{variant}: {values:?}");
        assert_eq!((result.lines[0].score, &result.lines[0].pv), (result.score, &result.pv));
    }
}

#[test]
fn every_level_plays_legal_moves_reproducibly() {
    for variant in Variant::ALL {
        for position in sample_positions(variant, 10) {
            for level in [1, 5, 10, 15, 19, 20] {
                let options = Options { level, seed: 7, ..Options::default() };
                let play = || {
                    let table = TranspositionTable::new(1);
                    search_with(
                        &position,
                        &[],
                        &Limits::nodes(3_000),
                        &options,
                        &table,
                        &AtomicBool::new(false),
                        |_| {},
                    )
                    .best_move
                };
                let best = play().expect("a legal move");
                assert!(position.legal_moves().contains(&best), "{variant} level {level}");
                assert_eq!(play(), Some(best), "{variant} level {level}: the same seed, the same move");
            }
        }
    }
}

/// A table kept for reuse: fitted to the size a search asks for and cleared, it answers every
/// search exactly as a new table of that size does (same move, score, depth and node count),
/// whatever earlier searches left in it.
#[test]
fn a_cleared_table_searches_exactly_like_a_new_one() {
    let mut reused = TranspositionTable::new(4);
    for variant in Variant::ALL {
        for position in sample_positions(variant, 6) {
            // Fill it with another search first, at the larger size.
            assert!(reused.fit(4));
            search(&position, &[], &Limits::depth(5), &reused, &AtomicBool::new(false), |_| {});
            assert!(reused.fit(1));
            reused.clear();
            let again = search(&position, &[], &Limits::depth(6), &reused, &AtomicBool::new(false), |_| {});
            let fresh = TranspositionTable::new(1);
            let fresh = search(&position, &[], &Limits::depth(6), &fresh, &AtomicBool::new(false), |_| {});
            assert_eq!(again, SearchResult { elapsed: again.elapsed, ..fresh }, "{}", fen::write(&position));
        }
    }
}
