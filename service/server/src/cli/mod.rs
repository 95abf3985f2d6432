//! The command line: its grammar, the position arguments the subcommands share, and how a run ends.
//!
//! Other tools call `damiera` and read its output, so failures follow one contract: bad input
//! exits with status 2 and exactly one line on standard error, and nothing on standard output.

mod bench;
mod bestmove;
mod egtb;
mod elo;
mod engine_match;
mod health;
mod hub;
mod hub_engine;
mod keys;
mod moves;
mod perft;
mod serve;
mod sprt;

use std::fmt;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};
use damiera_engine::egtb::Tablebase;
use damiera_engine::{fen, Position, Variant};
use damiera_server::search::tablebases;

/// Rules and search tools for Dama Italiana, Dama Triestina and Dama Turca.
#[derive(Debug, Parser)]
#[command(name = "damiera", version)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands, each run by its own module.
#[derive(Debug, Subcommand)]
enum Command {
    /// Count the move sequences of a given length (perft), optionally split by first move.
    Perft(perft::PerftArgs),
    /// List the legal moves of a position.
    Moves(moves::MovesArgs),
    /// Search a position and print the best move.
    Bestmove(bestmove::BestmoveArgs),
    /// Search a fixed set of positions: the node count is the search's signature.
    Bench(bench::BenchArgs),
    /// Build endgame databases, or look a position up in them.
    Egtb(egtb::EgtbArgs),
    /// Speak the Hub engine protocol (Scan's) on standard input and output, for GUIs and matches.
    Hub(hub::HubArgs),
    /// Play engine against engine and measure the difference in Elo.
    Match(Box<engine_match::MatchArgs>),
    /// Serve the rules and the engine over gRPC (and gRPC-Web) until SIGINT or SIGTERM.
    Serve(Box<damiera_server::serve::ServeArgs>),
    /// Ask a server whether it is serving (gRPC health): exit 0 if so, 1 if not.
    Health(health::HealthArgs),
    /// Add, list or revoke the API keys in the database, each bound to a tenant.
    Keys(keys::KeysArgs),
}

/// The position a subcommand works on.
#[derive(Debug, Args)]
struct PositionArgs {
    /// italian, triestina or turkish (also italiana, turca; any case).
    #[arg(long)]
    variant: Variant,
    /// The position as PDN FEN, e.g. W:W21-32:B1-12; the variant's start position if absent.
    #[arg(long)]
    fen: Option<String>,
}

impl PositionArgs {
    /// The checked position; a bad FEN is bad input.
    fn position(&self) -> Result<Position, Failure> {
        match &self.fen {
            Some(text) => fen::parse(self.variant, text).map_err(|e| Failure::BadInput(e.to_string())),
            None => Ok(Position::start(self.variant)),
        }
    }
}

/// Where the commands that search find the endgame databases.
#[derive(Debug, Args)]
struct EgtbFolder {
    /// The endgame databases' folder (default: $XDG_DATA_HOME/damiera/egtb, or
    /// ~/.local/share/damiera/egtb, where `damiera egtb build` writes); without databases in it,
    /// the search goes without.
    #[arg(long = "egtb", env = "DAMIERA_EGTB", value_name = "DIR")]
    dir: Option<PathBuf>,
}

impl EgtbFolder {
    /// The folder given, or the default one.
    fn folder(&self) -> Option<PathBuf> {
        tablebases::folder(self.dir.as_deref())
    }

    /// `variant`'s databases, if the folder holds any. A damaged file is a warning on standard
    /// error, and no databases: the search still answers.
    fn tablebase(&self, variant: Variant) -> Option<Arc<Tablebase>> {
        let dir = self.folder()?;
        tablebases::open_variant(&dir, variant).unwrap_or_else(|error| {
            eprintln!("damiera: warning: {error}; searching without endgame databases");
            None
        })
    }
}

/// Why a run did not succeed.
#[derive(Debug)]
pub enum Failure {
    /// The caller asked for something invalid: exit status 2, like a command-line error.
    BadInput(String),
    /// Writing the output failed.
    Output(io::Error),
    /// The engine broke one of its own promises; a bug to report, not the caller's fault.
    Internal(String),
    /// The server could not start or stopped on an error (a port in use, an unreadable file).
    Startup(String),
    /// `damiera health` found the server not serving, or could not reach it.
    Unhealthy(String),
}

impl Failure {
    /// 2 for bad input, as clap uses for command-line errors, so callers have one number to check.
    fn exit_status(&self) -> u8 {
        match self {
            Failure::BadInput(_) => 2,
            Failure::Output(_) | Failure::Internal(_) | Failure::Startup(_) | Failure::Unhealthy(_) => 1,
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::BadInput(message) => f.write_str(message),
            Failure::Output(error) => write!(f, "cannot write output: {error}"),
            Failure::Internal(message) => write!(f, "internal error (please report): {message}"),
            Failure::Startup(message) | Failure::Unhealthy(message) => f.write_str(message),
        }
    }
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Failure {
        Failure::Output(error)
    }
}

/// Runs the parsed command line, writing its output to standard output.
pub fn run(cli: Cli) -> Result<(), Failure> {
    // The Hub session writes from its search thread too: it must not find standard output locked.
    if let Command::Hub(args) = &cli.command {
        return hub::run(args);
    }
    // Buffered: perft --divide and moves write many short lines.
    let mut out = BufWriter::new(io::stdout().lock());
    match cli.command {
        Command::Perft(args) => perft::run(&args, &mut out)?,
        Command::Moves(args) => moves::run(&args, &mut out)?,
        Command::Bestmove(args) => bestmove::run(&args, &mut out)?,
        Command::Bench(args) => bench::run(&args, &mut out)?,
        Command::Egtb(args) => egtb::run(&args, &mut out)?,
        Command::Match(args) => engine_match::run(&args, &mut out)?,
        Command::Hub(_) => unreachable!("the Hub session runs above"),
        Command::Serve(args) => serve::run(*args)?,
        Command::Health(args) => health::run(&args, &mut out)?,
        Command::Keys(args) => keys::run(&args, &mut out)?,
    }
    out.flush()?;
    Ok(())
}

/// Turns the result of a run into the exit status, printing the one-line error if there is one.
pub fn finish(result: Result<(), Failure>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`damiera moves | head -1`) is not an error.
        Err(Failure::Output(error)) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("damiera: {}", single_line(&failure.to_string()));
            ExitCode::from(failure.exit_status())
        }
    }
}

/// `message` with control characters escaped: errors quote the user's input, which may hold a
/// newline, and callers read our standard error one line per error.
fn single_line(message: &str) -> String {
    message.chars().flat_map(|c| if c.is_control() { c.escape_default().collect() } else { vec![c] }).collect()
}

/// Handles what clap refused or answered itself: `--help` and `--version` print as usual and exit
/// 0; a real error becomes one line on standard error and exit status 2.
pub fn finish_parse_error(error: &clap::Error) -> ExitCode {
    if !error.use_stderr() {
        // Help and version are answers, not errors.
        return match error.print() {
            Ok(()) => ExitCode::SUCCESS,
            Err(_) => ExitCode::FAILURE,
        };
    }
    finish(Err(Failure::BadInput(one_line(error))))
}

/// Clap's message without its usage and tips: the first paragraph, its lines joined.
///
/// Clap writes `error: <what>`, sometimes a list of arguments on the next lines, then a blank line
/// and the usage. Callers parse our standard error line by line, so it must fit on one.
fn one_line(error: &clap::Error) -> String {
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return missing_subcommand(); // clap would print the whole help
    }
    let rendered = error.render().to_string(); // Display strips the colours
    let first_paragraph = rendered.split("\n\n").next().unwrap_or_default();
    let joined = first_paragraph.lines().map(str::trim).collect::<Vec<_>>().join(" ");
    joined.strip_prefix("error: ").unwrap_or(&joined).to_string()
}

fn missing_subcommand() -> String {
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(|sub| sub.get_name()).collect();
    format!("a subcommand is required ({}); see 'damiera --help'", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_error(args: &[&str]) -> clap::Error {
        Cli::try_parse_from(args).expect_err("these arguments are refused")
    }

    #[test]
    fn a_missing_argument_fits_on_one_line() {
        let message = one_line(&parse_error(&["damiera", "perft", "--variant", "italian"]));
        assert_eq!(message, "the following required arguments were not provided: --depth <DEPTH>");
    }

    #[test]
    fn no_subcommand_names_the_subcommands() {
        let message = one_line(&parse_error(&["damiera"]));
        assert_eq!(
            message,
            "a subcommand is required (perft, moves, bestmove, bench, egtb, hub, match, serve, health, keys); see 'damiera --help'"
        );
    }

    #[test]
    fn an_unknown_variant_says_which_names_exist() {
        let message = one_line(&parse_error(&["damiera", "moves", "--variant", "chess"]));
        assert!(message.contains("unknown variant 'chess' (expected italian, triestina or turkish)"), "{message}");
        assert!(!message.contains('\n'));
    }

    #[test]
    fn a_bad_fen_is_bad_input_that_names_the_token() {
        let args = PositionArgs { variant: Variant::Italian, fen: Some("W:W33:B1".into()) };
        let Err(Failure::BadInput(message)) = args.position() else { panic!("a bad FEN is refused") };
        assert_eq!(message, "invalid FEN: token '33': square '33' is off the board");
    }
}
