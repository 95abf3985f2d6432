//! The bench's searches alone ([`damiera_engine::search::bench`]): every position to its
//! variant's depth, one thread, a fresh table each, as `damiera bench` runs them. It prints the
//! node count (over all three variants, the `Bench:` signature) and nothing else, so that the
//! search's instructions can be counted without building the server (about a minute):
//!
//! ```text
//! cargo build --release -p damiera-engine --example bench
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='bench::search' \
//!     target/release/examples/bench turkish
//! ```
//!
//! The argument names one variant (all three without it). With `--toggle-collect` the count is
//! the searches alone; without it, it also holds start-up and making the tables (clearing 16 MiB
//! four times a variant: some 55 M instructions). The server's binary allocates with mimalloc,
//! this one with the C library's malloc, so the two counts are close but not equal.

use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

use damiera_engine::search::bench::{POSITIONS, TABLE_MIB};
use damiera_engine::search::{search_with, Limits, Options, TranspositionTable};
use damiera_engine::{fen, Position, Variant};

fn main() -> ExitCode {
    let only = match std::env::args().nth(1).map(|name| name.parse::<Variant>()).transpose() {
        Ok(only) => only,
        Err(error) => {
            eprintln!("{error}");
            return ExitCode::FAILURE;
        }
    };
    let stop = AtomicBool::new(false);
    let mut nodes = 0;
    for (variant, depth, fens) in POSITIONS.iter().filter(|(v, ..)| only.is_none_or(|only| only == *v)) {
        for text in *fens {
            let position = fen::parse(*variant, text).expect("the bench's positions are valid");
            let table = TranspositionTable::new(TABLE_MIB);
            nodes += search(&position, *depth, &table, &stop);
        }
    }
    println!("nodes {nodes}");
    ExitCode::SUCCESS
}

/// One bench search, kept out of line so that callgrind can count it alone: the nodes it visits.
#[inline(never)]
fn search(position: &Position, depth: u32, table: &TranspositionTable, stop: &AtomicBool) -> u64 {
    search_with(position, &[], &Limits::depth(depth), &Options::default(), table, stop, |_| {}).nodes
}
