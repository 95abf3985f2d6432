//! `damiera match`: engine against engine, every opening played with both colours, on clocks;
//! prints wins, draws and losses, the score and the Elo difference with its 95% interval.
//!
//! An engine is described as `key=value` pairs: `level=12,depth=6`, `nodes=20000`,
//! `move-time=100`, `threads=1`, `hash=16`, `eval=material` for the material-only baseline, and
//! `lmr=off` or `aspiration=off` to measure a technique against its absence. Games run
//! `--concurrency` at a time; a game that runs past the ply limit is adjudicated a draw, and one
//! whose engine overstepped its clock is lost.

use std::io::{IsTerminal, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;
use damiera_engine::pdn::{self, GameResult};
use damiera_engine::search::{search_with, Clock, Evaluation, Limits, Options, TranspositionTable};
use damiera_engine::{Color, Game, Outcome, Variant};

use super::elo::Tally;
use super::Failure;

/// Plies after which a game is adjudicated a draw.
const MAX_PLIES: usize = 400;

/// Arguments of `damiera match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// italian, triestina or turkish.
    #[arg(long)]
    variant: Variant,
    /// Games to play; each opening is played twice, colours swapped.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games: u32,
    /// Each side's clock: MS milliseconds per game, plus INC per move (e.g. 10000+100).
    #[arg(long, default_value = "10000+100")]
    tc: TimeControl,
    /// The first engine, e.g. "level=20".
    #[arg(long, default_value = "level=20")]
    a: EngineSpec,
    /// The second engine, e.g. "level=12,depth=6".
    #[arg(long, default_value = "level=20")]
    b: EngineSpec,
    /// Openings, one per line in full notation (`#` starts a comment); the start position if absent.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,
    /// Save every game to this PDN file.
    #[arg(long)]
    pdn: Option<std::path::PathBuf>,
}

/// A clock setting: base time and increment.
#[derive(Clone, Copy, Debug)]
pub struct TimeControl {
    /// Time per side for the whole game.
    base: Duration,
    /// Time added after each move.
    increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |s: &str| s.trim().parse::<u64>().map_err(|_| format!("'{text}' is not MS[+INC] in milliseconds"));
        let (base, increment) = (ms(base)?, ms(increment)?);
        if base == 0 {
            return Err(format!("'{text}': the base time must be positive"));
        }
        Ok(TimeControl { base: Duration::from_millis(base), increment: Duration::from_millis(increment) })
    }
}

/// How one engine plays: its search options and limits per move.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// The text it was read from, for the report and the PDN.
    text: String,
    /// Level, threads.
    options: Options,
    /// Per-move limits on top of the clock.
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    /// Transposition table size in MiB.
    hash: usize,
}

impl FromStr for EngineSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            text: text.to_string(),
            options: Options::default(),
            depth: None,
            nodes: None,
            move_time: None,
            hash: 16,
        };
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').ok_or_else(|| format!("'{pair}' is not key=value"))?;
            let number = |max: u64| match value.parse::<u64>() {
                Ok(n) if (1..=max).contains(&n) => Ok(n),
                _ => Err(format!("{key}={value}: expected a number from 1 to {max}")),
            };
            let switch = || match value {
                "on" => Ok(true),
                "off" => Ok(false),
                _ => Err(format!("{key}={value}: expected on or off")),
            };
            match key {
                "level" => spec.options.level = number(u64::from(damiera_engine::search::skill::FULL_STRENGTH))? as u8,
                "threads" => spec.options.threads = number(256)? as usize,
                "depth" => spec.depth = Some(number(100)? as u32),
                "nodes" => spec.nodes = Some(number(u64::MAX)?),
                "move-time" | "movetime" => spec.move_time = Some(Duration::from_millis(number(3_600_000)?)),
                "hash" => spec.hash = number(65536)? as usize,
                "eval" => {
                    spec.options.evaluation = match value {
                        "full" => Evaluation::Full,
                        "material" => Evaluation::MaterialOnly,
                        _ => return Err(format!("eval={value}: expected full or material")),
                    }
                }
                "lmr" => spec.options.techniques.late_move_reductions = switch()?,
                "aspiration" => spec.options.techniques.aspiration_windows = switch()?,
                _ => {
                    return Err(format!(
                        "unknown engine setting '{key}' (level, threads, depth, nodes, move-time, hash, eval, lmr, aspiration)"
                    ))
                }
            }
        }
        Ok(spec)
    }
}

/// How one game ended, from White's point of view, and why.
struct Played {
    /// The game record.
    game: Game,
    /// White's result.
    result: GameResult,
    /// Whether the first engine had White.
    a_white: bool,
}

pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), Failure> {
    let openings = read_openings(args)?;
    let total = args.games as usize;
    let next = AtomicUsize::new(0);
    let played: Mutex<Vec<Option<Played>>> = Mutex::new((0..total).map(|_| None).collect());
    let tally = Mutex::new(Tally::default());
    let progress = std::io::stderr().is_terminal();
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency {
            scope.spawn(|| {
                while let Some(index) = Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&i| i < total) {
                    let game = play_game(args, &openings[index / 2 % openings.len()], index);
                    let mut tally = tally.lock().expect("no thread panics holding it");
                    let a_scored = match (game.result, game.a_white) {
                        (GameResult::Draw, _) => None,
                        (GameResult::WhiteWins, a_white) => Some(a_white),
                        (_, a_white) => Some(!a_white),
                    };
                    match a_scored {
                        None => tally.draws += 1,
                        Some(true) => tally.wins += 1,
                        Some(false) => tally.losses += 1,
                    }
                    if progress {
                        draw_progress(&tally, total);
                    }
                    played.lock().expect("no thread panics holding it")[index] = Some(game);
                }
            });
        }
    });
    if progress {
        eprintln!();
    }
    let tally = tally.into_inner().expect("threads are done");
    let (elo, low, high) = tally.elo();
    writeln!(out, "{} vs {}, {} games, {}", args.a.text, args.b.text, tally.games(), args.variant)?;
    writeln!(out, "wins {} draws {} losses {}", tally.wins, tally.draws, tally.losses)?;
    writeln!(out, "score {:.1}%", 100.0 * tally.score())?;
    writeln!(out, "elo {elo} (95%: {low} .. {high})")?;
    if let Some(path) = &args.pdn {
        let games = played.into_inner().expect("threads are done");
        write_pdn(args, path, games.into_iter().flatten())?;
    }
    Ok(())
}

/// The openings to play: each line of the file, or the start position alone.
fn read_openings(args: &MatchArgs) -> Result<Vec<Vec<String>>, Failure> {
    let Some(path) = &args.openings else { return Ok(vec![Vec::new()]) };
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure::BadInput(format!("--openings {}: {e}", path.display())))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let moves: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        let mut game = Game::new(args.variant);
        for text in &moves {
            game.play(text)
                .map_err(|e| Failure::BadInput(format!("--openings {} line {}: {e}", path.display(), number + 1)))?;
        }
        openings.push(moves);
    }
    if openings.is_empty() {
        return Err(Failure::BadInput(format!("--openings {}: no opening in the file", path.display())));
    }
    Ok(openings)
}

/// Plays game `index` of the match from `opening`: the first engine has White in even games.
fn play_game(args: &MatchArgs, opening: &[String], index: usize) -> Played {
    let a_white = index.is_multiple_of(2);
    let mut game = Game::new(args.variant);
    for text in opening {
        game.play(text).expect("openings were checked when read");
    }
    let engines = if a_white { [&args.a, &args.b] } else { [&args.b, &args.a] };
    let tables = engines.map(|e| TranspositionTable::new(e.hash));
    let mut clocks = [args.tc.base; 2];
    let stop = AtomicBool::new(false);
    let mut flagged = None;
    while game.outcome() == Outcome::Ongoing && game.ply() < MAX_PLIES {
        let side = game.position().turn().index();
        let engine = engines[side];
        let limits = Limits {
            depth: engine.depth,
            nodes: engine.nodes,
            move_time: engine.move_time,
            clock: Some(Clock { remaining: clocks[side], increment: args.tc.increment }),
        };
        // A weak level's choices vary from game to game, and replay the same for the same game.
        let options = Options { seed: index as u64, ..engine.options };
        let (current, history) = game.positions().split_last().expect("a game has a position");
        let started = Instant::now();
        let result = search_with(current, history, &limits, &options, &tables[side], &stop, |_| {});
        let spent = started.elapsed();
        if spent > clocks[side] {
            flagged = Some(game.position().turn());
            break;
        }
        clocks[side] = clocks[side] - spent + args.tc.increment;
        let best = result.best_move.expect("an ongoing game has a legal move");
        game.play_move(&best).expect("the search plays legal moves");
    }
    let result = match (flagged, game.outcome()) {
        (Some(Color::White), _) => GameResult::BlackWins,
        (Some(Color::Black), _) => GameResult::WhiteWins,
        // A game still going at the ply limit is adjudicated a draw.
        (None, outcome) => match GameResult::from_outcome(outcome) {
            GameResult::Unfinished => GameResult::Draw,
            decided => decided,
        },
    };
    Played { game, result, a_white }
}

fn draw_progress(tally: &Tally, total: usize) {
    let done = tally.games() as usize;
    let width = 30;
    let filled = done * width / total.max(1);
    eprint!(
        "\r[{}{}] {done}/{total}  +{} ={} -{}",
        "#".repeat(filled),
        " ".repeat(width - filled),
        tally.wins,
        tally.draws,
        tally.losses
    );
}

fn write_pdn(args: &MatchArgs, path: &std::path::Path, games: impl Iterator<Item = Played>) -> Result<(), Failure> {
    let mut text = String::new();
    for (round, played) in games.enumerate() {
        let (white, black) = if played.a_white { (&args.a, &args.b) } else { (&args.b, &args.a) };
        let tags = [
            ("Event", "damiera match".to_string()),
            ("Round", (round + 1).to_string()),
            ("White", white.text.clone()),
            ("Black", black.text.clone()),
            ("Result", played.result.token().to_string()),
        ];
        let tags: Vec<(String, String)> = tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        text.push_str(&pdn::write_game(&played.game, &tags));
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| Failure::BadInput(format!("--pdn {}: {e}", path.display())))
}
