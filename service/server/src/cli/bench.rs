//! `damiera bench`: a fixed set of positions searched to a fixed depth, a fresh table each. With
//! one thread (the default) the total node count is the search's signature: it changes only when
//! the search does. Speed is the nodes per second it prints; with `--threads T`, the time to the
//! same depths against one thread's is the thread speed-up (the node count then varies). With
//! `--move-time MS` each position is searched for that long instead, and the run reports the
//! share of the move time the search used: the time manager's benchmark.

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Args;
use damiera_engine::search::{self, Limits, Options, TranspositionTable};
use damiera_engine::{fen, Variant};

use super::Failure;

/// Each variant's bench: its start and positions from seeded random play, with the search depth.
const POSITIONS: [(Variant, u32, &[&str]); 3] = [
    (
        Variant::Italian,
        17,
        &[
            "W:W21-32:B1-12",
            "W:W9,17,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,13,15,16",
            "W:WK2,21,24,25,26,29,30,31,32:B1,3,4,8,9,10,13",
            "W:WK13,18,19,25,26,27,29,30,32:B1,2,5,9,15",
        ],
    ),
    (
        Variant::Triestina,
        14,
        &[
            "W:W31-50:B1-20",
            "W:W28,30,32,33,34,36,37,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,8,9,10,11,12,13,14,15,16,17,18,19,20,31",
            "W:W22,31,35,37,38,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,12,13,14,20,21,36",
            "W:W21,24,27,31,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,17,19,20",
        ],
    ),
    (
        Variant::Turkish,
        11,
        &[
            "W:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e3,f2,f3,g2,g3,h2,h3:Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7",
            "W:Wa2,a3,b2,b3,c2,c3,d2,Kd8,e2,e3,f2,f3,g3,g4,h2,h3:Ba5,a7,b6,b7,c6,c7,e5,e7,f6,f7,g6,g7,h5,h7",
            "W:Wa2,b2,c2,d3,f2,f3,h2,h3:Ba7,b6,b7,c4,c7,d6,d7,Ke1,e7,f6,f7,Kg1,g4,g7,h6,h7",
            "W:Wa2,a3,b2,b5,c2,c3,Kc8,d2,d3,e2,f2,f3,g2,Kg8,h2,h3:Ba6,a7,b6,d6,e7,f7,h6,h7",
        ],
    ),
];

/// The table each bench search gets.
const HASH_MB: usize = 16;

/// Arguments of `damiera bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Only this variant's positions (all three by default).
    #[arg(long)]
    variant: Option<Variant>,
    /// Threads to search with; more than one gives up the deterministic node count.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Search each position for this many milliseconds instead of to the bench depth, and report
    /// how much of it the search used (the node count is then no signature).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=60_000))]
    move_time: Option<u64>,
}

pub fn run(args: &BenchArgs, out: &mut impl Write) -> Result<(), Failure> {
    let stop = AtomicBool::new(false);
    let move_time = args.move_time.map(Duration::from_millis);
    let (mut nodes, mut time) = (0u64, Duration::ZERO);
    let (mut chosen, mut chosen_time) = (0u32, Duration::ZERO);
    for (variant, depth, fens) in POSITIONS.iter().filter(|(v, ..)| args.variant.is_none_or(|only| only == *v)) {
        let limits = move_time.map_or(Limits::depth(*depth), Limits::move_time);
        for text in *fens {
            let position =
                fen::parse(*variant, text).map_err(|e| Failure::Internal(format!("bench FEN {text}: {e}")))?;
            let table = TranspositionTable::new(HASH_MB);
            let started = Instant::now();
            let options = Options { threads: args.threads as usize, ..Options::default() };
            let result = search::search_with(&position, &[], &limits, &options, &table, &stop, |_| {});
            let used = started.elapsed();
            time += used;
            nodes += result.nodes;
            if position.legal_moves().len() > 1 {
                chosen += 1; // a forced move is answered at once: not a measure of the time manager
                chosen_time += used;
            }
            let reached = result.depth;
            match move_time {
                None => writeln!(out, "{variant} depth {depth} nodes {:>10} {text}", result.nodes)?,
                Some(_) => writeln!(
                    out,
                    "{variant} depth {reached:>2} nodes {:>10} ms {:>8.2} {text}",
                    result.nodes,
                    used.as_secs_f64() * 1e3
                )?,
            }
        }
    }
    let nps = (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64;
    writeln!(out, "seconds {:.3}", time.as_secs_f64())?;
    if let Some(move_time) = move_time {
        let mean = chosen_time / chosen.max(1);
        let share = mean.as_secs_f64() / move_time.as_secs_f64() * 100.0;
        let ms = mean.as_secs_f64() * 1e3;
        let of = move_time.as_millis();
        writeln!(out, "time used per search {ms:.2} ms of {of} ms ({share:.1}%) over {chosen} with a choice")?;
    }
    writeln!(out, "nodes per second {nps}")?;
    writeln!(out, "nodes {nodes}")?;
    Ok(())
}
