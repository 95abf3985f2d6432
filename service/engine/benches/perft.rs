//! Perft benchmarks: each variant from its start position, and Damiera beside `kish` on Turkish.
//!
//! Every benchmark asserts its node count before it is timed, so a speed-up that changes the
//! count fails here. The kish comparison prints the ratio of the two single-thread times.
//! Run: `cargo bench -p damiera-engine --bench perft`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damiera_engine::{perft::perft, Position, Variant};

/// (variant, depth, nodes): RULES.md section 4.
const CASES: [(Variant, u32, u64); 3] = [
    (Variant::Italian, 9, 3_860_875),
    (Variant::Triestina, 7, 1_008_033),
    (Variant::Turkish, 6, 931_312),
];

fn per_variant(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).measurement_time(Duration::from_secs(8));
    for (variant, depth, nodes) in CASES {
        let start = Position::start(variant);
        assert_eq!(perft(&start, depth), nodes, "{variant} perft({depth})");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant}/{depth}"), |b| b.iter(|| perft(black_box(&start), depth)));
    }
    group.finish();
}

/// Turkish perft(7), ours and kish's, timed alternately in one run.
fn against_kish(c: &mut Criterion) {
    let ours = Position::start(Variant::Turkish);
    let theirs = kish::Board::new_default();
    // Depth 7: kish counts every capture path, so its figure is larger (RULES.md section 4).
    assert_eq!(perft(&ours, 7), 10_782_308);
    assert_eq!(theirs.perft(7), 10_782_382);
    let mut group = c.benchmark_group("turkish-vs-kish");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.bench_function("damiera/7", |b| b.iter(|| perft(black_box(&ours), 7)));
    group.bench_function("kish/7", |b| b.iter(|| black_box(&theirs).perft(7)));
    group.finish();

    let time = |f: &dyn Fn() -> u64| {
        (0..5).map(|_| {
            let t = Instant::now();
            black_box(f());
            t.elapsed()
        }).min().expect("five runs")
    };
    let ours_time = time(&|| perft(&ours, 7));
    let kish_time = time(&|| theirs.perft(7));
    println!(
        "turkish perft(7): damiera {:.1} ms, kish {:.1} ms, damiera is {:.2}x as fast (best of 5 each)",
        ours_time.as_secs_f64() * 1e3,
        kish_time.as_secs_f64() * 1e3,
        kish_time.as_secs_f64() / ours_time.as_secs_f64()
    );
}

criterion_group!(benches, per_variant, against_kish);
criterion_main!(benches);
