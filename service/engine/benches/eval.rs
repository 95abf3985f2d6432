//! Evaluation benchmarks: the hand-written and the learned evaluation of the same positions, in
//! every variant. The positions are those of a few fixed-node self-play plies from each opening of
//! the suite, so that they look like the positions a search values. The learned evaluation's cost
//! does not depend on its weights' values, so a variant without learned weights is timed with zero
//! weights. Run: `cargo bench -p damiera-engine --bench eval`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damiera_engine::search::{evaluate_with, Evaluation, LearnedWeights};
use damiera_engine::{Position, Variant};

/// Positions a variant: each opening's line, then its first legal moves, over and over.
fn positions(variant: Variant) -> Vec<Position> {
    let path = format!("{}/data/openings/{}.txt", env!("CARGO_MANIFEST_DIR"), variant.name());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut list = Vec::new();
    for line in text.lines().map(|l| l.split('#').next().unwrap_or_default().trim()).filter(|l| !l.is_empty()) {
        let mut position = Position::start(variant);
        for mv in line.split_whitespace() {
            position = position.play_notation(mv).expect("the suite's openings are legal");
        }
        for ply in 0..20 {
            let moves = position.legal_moves();
            let Some(mv) = moves.get(ply % moves.len().max(1)) else { break };
            position = position.play_unchecked(mv);
            list.push(position);
        }
    }
    list
}

fn evaluations(c: &mut Criterion) {
    let mut group = c.benchmark_group("eval");
    group.sample_size(20).measurement_time(Duration::from_secs(3));
    for variant in Variant::ALL {
        let list = positions(variant);
        let learned = LearnedWeights::of(variant);
        group.throughput(Throughput::Elements(list.len() as u64));
        for (name, evaluation) in [("hand", Evaluation::Hand), ("learned", Evaluation::Learned(learned))] {
            group.bench_function(format!("{variant}/{name}"), |b| {
                b.iter(|| list.iter().map(|p| evaluate_with(black_box(p), evaluation)).sum::<i32>())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
