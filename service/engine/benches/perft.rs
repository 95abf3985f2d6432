//! Perft benchmarks: each variant from its start position, and Damiera beside `kish` on Turkish.
//!
//! Every benchmark checks its node count before it is timed, so a speed-up that changes the count
//! fails here. After criterion's runs, a summary times each case again in the same process (best of
//! seven interleaved rounds, single thread) and prints nodes per second and the ratios the project's goals name:
//! Turkish perft(8) against kish, and each variant's nodes per second against kish's.
//! Run: `cargo bench -p damiera-engine --bench perft`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use damiera_engine::{perft::perft, Position, Variant};

/// (variant, depth, nodes): RULES.md section 4.
const CASES: [(Variant, u32, u64); 3] =
    [(Variant::Italian, 10, 17_761_384), (Variant::Triestina, 8, 6_079_622), (Variant::Turkish, 8, 123_285_642)];

/// kish counts every capture path as a move, so its Turkish perft(8) is larger (RULES.md 4).
const KISH_TURKISH_8: u64 = 123_290_300;

fn per_variant(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (variant, depth, nodes) in CASES {
        let start = Position::start(variant);
        assert_eq!(perft(&start, depth), nodes, "{variant} perft({depth})");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant}/{depth}"), |b| b.iter(|| perft(black_box(&start), depth)));
    }
    let kish_start = kish::Board::new_default();
    assert_eq!(kish_start.perft(8), KISH_TURKISH_8);
    group.throughput(Throughput::Elements(KISH_TURKISH_8));
    group.bench_function("kish-turkish/8", |b| b.iter(|| black_box(&kish_start).perft(8)));
    group.finish();
}

/// Rounds of the summary: every case once per round, so a burst of load on a shared machine
/// falls on all of them alike; each case keeps its best time.
const ROUNDS: usize = 7;

fn timed(run: &dyn Fn() -> u64) -> Duration {
    let started = Instant::now();
    black_box(run());
    started.elapsed()
}

fn summary(_: &mut Criterion) {
    // `cargo test --all-targets` runs benchmarks once, untimed, as a check: skip the timing then.
    if !std::env::args().any(|arg| arg == "--bench") {
        return;
    }
    let kish_start = kish::Board::new_default();
    let starts = CASES.map(|(variant, _, _)| Position::start(variant));
    let mut kish_time = Duration::MAX;
    let mut times = [Duration::MAX; CASES.len()];
    for _ in 0..ROUNDS {
        kish_time = kish_time.min(timed(&|| kish_start.perft(8)));
        for (i, (_, depth, _)) in CASES.iter().enumerate() {
            times[i] = times[i].min(timed(&|| perft(&starts[i], *depth)));
        }
    }
    let kish_nps = KISH_TURKISH_8 as f64 / kish_time.as_secs_f64();
    println!("\nsummary (best of {ROUNDS} interleaved rounds, one thread):");
    println!(
        "  kish      turkish   perft(8) {:>11} nodes {:>8.1} ms {:>7.1} M nodes/s",
        KISH_TURKISH_8,
        kish_time.as_secs_f64() * 1e3,
        kish_nps / 1e6
    );
    for ((variant, depth, nodes), time) in CASES.into_iter().zip(times) {
        let nps = nodes as f64 / time.as_secs_f64();
        println!(
            "  damiera   {:<9} perft({depth}) {nodes:>11} nodes {:>8.1} ms {:>7.1} M nodes/s  {:.2}x kish's nodes/s",
            variant.name(),
            time.as_secs_f64() * 1e3,
            nps / 1e6,
            nps / kish_nps
        );
        if variant == Variant::Turkish {
            let ratio = kish_time.as_secs_f64() / time.as_secs_f64();
            println!("  turkish perft(8): damiera is {ratio:.2}x as fast as kish");
        }
    }
}

criterion_group!(benches, per_variant, summary);
criterion_main!(benches);
