//! The `damiera` command: reads the command line and hands it to the subcommand that runs it.
//!
//! Everything else lives in modules: `cli` holds one file per subcommand; the server itself
//! (`damiera serve`) is in the library, `damiera_server`.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    match cli::Cli::try_parse() {
        Ok(cli) => cli::finish(cli::run(cli)),
        Err(error) => cli::finish_parse_error(&error),
    }
}
