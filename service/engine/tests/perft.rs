//! Perft from the start positions against RULES.md section 4, read from `tests/data/start.perft`.
//!
//! The normal run checks every line up to 130 million nodes (seconds); the rest, up to 1.7
//! billion nodes, runs with `cargo test --release -p damiera-engine --test perft -- --ignored`.

use damiera_engine::{perft::perft, Position, Variant};

/// Lines above this many nodes are left to the ignored test.
const QUICK_LIMIT: u64 = 130_000_000;

fn cases() -> Vec<(Variant, u32, u64)> {
    let text = include_str!("data/start.perft");
    let cases: Vec<_> = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [variant, depth, nodes] = fields[..] else { panic!("bad line: {line}") };
            (variant.parse().unwrap(), depth.parse().unwrap(), nodes.parse().unwrap())
        })
        .collect();
    assert_eq!(cases.len(), 30, "RULES.md section 4 has 30 figures");
    cases
}

fn check(select: impl Fn(u64) -> bool) {
    let mut checked = 0;
    for (variant, depth, nodes) in cases().into_iter().filter(|c| select(c.2)) {
        assert_eq!(perft(&Position::start(variant), depth), nodes, "{variant} perft({depth})");
        checked += 1;
    }
    assert!(checked > 0, "no line selected");
}

#[test]
fn start_positions_match_the_reference_to_130_million_nodes() {
    check(|nodes| nodes <= QUICK_LIMIT);
}

#[test]
#[ignore = "deep: minutes in release mode"]
fn start_positions_match_the_reference_at_every_depth() {
    check(|nodes| nodes > QUICK_LIMIT);
}
