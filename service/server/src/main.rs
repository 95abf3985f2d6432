//! The `damiera` command: reads the command line and hands it to the subcommand that runs it.
//!
//! Everything else lives in modules: `cli` holds one file per subcommand; the server itself
//! (`damiera serve`) is in the library, `damiera_server`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc rather than the C library's malloc. A call's answer is built from many small,
/// short-lived strings (a move list is a handful per move) on whichever runtime thread runs
/// the handler, and glibc's malloc spends much of the call on them: under callgrind,
/// a ListLegalMoves call costs 91k instructions with it and 71k with mimalloc, a health
/// Check 64k and 58k. See docs/benchmarks.md, "gRPC load".
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match cli::Cli::try_parse() {
        Ok(cli) => cli::finish(cli::run(cli)),
        Err(error) => cli::finish_parse_error(&error),
    }
}
