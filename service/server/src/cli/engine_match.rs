//! `damiera match`: engine against engine, every opening played with both colours, on clocks;
//! prints wins, draws and losses, the score and the Elo difference with its 95% interval, and the
//! same from game pairs (pentanomial); with `--sprt elo0,elo1` it stops once the test decides.
//!
//! An engine is described as `key=value` pairs: `level=12,depth=6`, `nodes=20000`,
//! `move-time=100`, `threads=1`, `hash=16`, `eval=material` for the material-only baseline, `eval=hand` for the
//! hand-written evaluation, `eval=PATH` for the learned evaluation with the weights file at PATH,
//! `lmr=off` or `aspiration=off` to measure a technique against its absence, and `egtb=off` to
//! play without the endgame databases (`--egtb DIR`, or the default folder). `hub=PATH ARGS`
//! makes it an outside engine that speaks Hub (a baseline build: `hub=/path/to/damiera hub`);
//! its `hash`, `threads`, `level` and `param.NAME=VALUE` are sent as Hub parameters, its `depth`,
//! `nodes` and `move-time` with the clock in each `level` line. Games run `--concurrency` at a
//! time, with one process per Hub engine per slot; a game that runs past the ply limit is
//! adjudicated a draw, and one whose engine overstepped its clock, crashed, hung or sent an
//! illegal move is lost (the reason goes to standard error, and the engine is restarted).
//!
//! `--pdn FILE` keeps every game: each is added to the file as it ends (a stopped match keeps the
//! games it finished), and the file is written again in game order at the end. `--resume` reads
//! the games already in that file back, counts them, and plays only the others.
//!
//! With databases in the folder, the report also counts for each engine the games in which it
//! reached a database win (a position they call won for it) and how many of those it won; each
//! game in which one did not win it is named on standard error, with the ply it got there.

use std::io::{IsTerminal, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Args;
use damiera_engine::egtb::{Tablebase, Wdl};
use damiera_engine::pdn::GameResult;
use damiera_engine::search::{search_with, Clock, Evaluation, LearnedWeights, Limits, Options, TranspositionTable};
use damiera_engine::{Color, Game, Move, Outcome, Variant};

use super::elo::{Pentanomial, Tally};
use super::hub_engine::{level_line, HubEngine, Setup};
use super::sprt::{Hypotheses, Sprt, Verdict};
use super::{EgtbFolder, Failure};

mod pdn_file;
use pdn_file::PdnFile;

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
    /// Save every game to this PDN file, each as it ends.
    #[arg(long)]
    pdn: Option<std::path::PathBuf>,
    /// Go on with the match whose games are in the --pdn file: those are counted, not played again.
    #[arg(long, requires = "pdn")]
    resume: bool,
    /// Stop when the SPRT of "A is ELO0 stronger at most" against "ELO1 at least" decides
    /// (logistic Elo, game pairs); --games is then the most games to play.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<Hypotheses>,
    /// The SPRT's chance of accepting ELO1 when ELO0 holds.
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    alpha: f64,
    /// The SPRT's chance of accepting ELO0 when ELO1 holds.
    #[arg(long, default_value_t = 0.05, value_parser = probability)]
    beta: f64,
    /// Where the internal engines find the endgame databases (and the report the database wins).
    #[command(flatten)]
    egtb: EgtbFolder,
}

fn probability(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if p > 0.0 && p < 0.5 => Ok(p),
        _ => Err(format!("'{text}' is not a probability between 0 and 0.5")),
    }
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
    /// For an outside engine: its command line (`hub=PATH ARGS`).
    hub: Option<Vec<String>>,
    /// For an outside engine: `param.NAME=VALUE` settings sent as they are.
    params: Vec<(String, String)>,
    /// For the internal engine: whether it probes the endgame databases (`egtb=off`: not).
    egtb: bool,
}

impl EngineSpec {
    /// The Hub parameters of an outside engine: the table, threads and level as set (or by
    /// default, the same as an internal engine's), then the `param.` settings.
    fn hub_params(&self) -> Vec<(String, String)> {
        let mut params = vec![
            ("hash".to_string(), self.hash.to_string()),
            ("threads".to_string(), self.options.threads.to_string()),
            ("level".to_string(), self.options.level.to_string()),
        ];
        params.extend(self.params.iter().cloned());
        params
    }
}

impl EngineSpec {
    /// The same engine, probing `tablebase` unless it is a Hub engine or told `egtb=off`.
    fn with_tablebase(&self, tablebase: Option<&Arc<Tablebase>>) -> EngineSpec {
        let mut spec = self.clone();
        spec.options.tablebase = tablebase.filter(|_| spec.egtb && spec.hub.is_none()).cloned();
        spec
    }
}

/// The learned weights of the file at `path` (`eval=PATH`), kept for the rest of the process.
fn learned_weights(path: &str) -> Result<&'static LearnedWeights, String> {
    let bytes = std::fs::read(path)
        .map_err(|e| format!("eval={path}: expected full, hand, material or a weights file ({e})"))?;
    let variant = LearnedWeights::variant_of(&bytes).map_err(|e| format!("eval={path}: {e}"))?;
    let variant: Variant = variant.parse().map_err(|_| format!("eval={path}: an unknown variant {variant}"))?;
    let weights = LearnedWeights::from_bytes(variant, &bytes).map_err(|e| format!("eval={path}: {e}"))?;
    Ok(Box::leak(Box::new(weights)))
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
            hub: None,
            params: Vec::new(),
            egtb: true,
        };
        let mut internal_only = None;
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
            if matches!(key, "eval" | "lmr" | "aspiration" | "egtb") {
                internal_only = Some(key);
            }
            match key {
                "hub" => {
                    let command: Vec<String> = value.split_whitespace().map(str::to_string).collect();
                    if command.is_empty() {
                        return Err("hub=: expected the engine's command, e.g. hub=/path/to/damiera hub".into());
                    }
                    spec.hub = Some(command);
                }
                _ if key.starts_with("param.") => {
                    spec.params.push((key["param.".len()..].to_string(), value.to_string()))
                }
                "level" => spec.options.level = number(u64::from(damiera_engine::search::skill::FULL_STRENGTH))? as u8,
                "threads" => spec.options.threads = number(256)? as usize,
                "depth" => spec.depth = Some(number(100)? as u32),
                "nodes" => spec.nodes = Some(number(u64::MAX)?),
                "move-time" | "movetime" => spec.move_time = Some(Duration::from_millis(number(3_600_000)?)),
                "hash" => spec.hash = number(65536)? as usize,
                "eval" => {
                    spec.options.evaluation = match value {
                        "full" => Evaluation::Full,
                        "hand" => Evaluation::Hand,
                        "material" => Evaluation::MaterialOnly,
                        path => Evaluation::Learned(learned_weights(path)?),
                    }
                }
                "lmr" => spec.options.techniques.late_move_reductions = switch()?,
                "aspiration" => spec.options.techniques.aspiration_windows = switch()?,
                "egtb" => spec.egtb = switch()?,
                _ => {
                    return Err(format!(
                    "unknown engine setting '{key}' (hub, param.NAME, level, threads, depth, nodes, move-time, hash, \
                         eval, lmr, aspiration, egtb)"
                ))
                }
            }
        }
        match (&spec.hub, internal_only) {
            (Some(_), Some(key)) => {
                Err(format!("{key}= is for the internal engine; a Hub engine takes param.NAME=VALUE"))
            }
            (None, _) if !spec.params.is_empty() => Err("param.NAME= is for a Hub engine (hub=PATH)".into()),
            _ => Ok(spec),
        }
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

impl Played {
    /// By colour, the first ply at which the game reached a position the databases call won
    /// for that colour.
    fn database_wins(&self, tablebase: &Tablebase) -> [Option<usize>; 2] {
        let mut reached = [None; 2];
        for (ply, position) in self.game.positions().iter().enumerate() {
            let winner = match tablebase.probe(position) {
                Some(Wdl::Win) => position.turn(),
                Some(Wdl::Loss) => position.turn().opposite(),
                _ => continue,
            };
            reached[winner.index()].get_or_insert(ply);
        }
        reached
    }

    /// The winner, if the game has one.
    fn winner(&self) -> Option<Color> {
        match self.result {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            _ => None,
        }
    }
}

impl Played {
    /// The first engine's score in half points: 2 a win, 1 a draw, 0 a loss.
    fn a_halves(&self) -> u8 {
        match (self.result, self.a_white) {
            (GameResult::WhiteWins, true) | (GameResult::BlackWins, false) => 2,
            (GameResult::WhiteWins | GameResult::BlackWins, _) => 0,
            _ => 1,
        }
    }
}

/// The results as they come in.
struct Results {
    /// Wins, draws and losses of the first engine.
    tally: Tally,
    /// Each finished game's score for the first engine, in half points, by game index: a pair
    /// (games 2k and 2k + 1, one opening) is counted when its second game ends.
    halves: Vec<Option<u8>>,
    /// The finished pairs.
    pairs: Pentanomial,
    /// By engine (first, second): games in which it reached a database win, and those it won.
    database_wins: [(u32, u32); 2],
}

impl Results {
    /// Counts game `index` (and, with the databases, the database wins each engine reached in
    /// it; one not won is named on standard error); true when it completes a pair.
    fn add(&mut self, index: usize, played: &Played, tablebase: Option<&Tablebase>) -> bool {
        if let Some(tablebase) = tablebase {
            self.count_database_wins(index, played, tablebase);
        }
        let halves = played.a_halves();
        match halves {
            2 => self.tally.wins += 1,
            1 => self.tally.draws += 1,
            _ => self.tally.losses += 1,
        }
        self.halves[index] = Some(halves);
        match self.halves.get(index ^ 1) {
            Some(&Some(partner)) => {
                self.pairs.add(halves, partner);
                true
            }
            _ => false,
        }
    }

    fn count_database_wins(&mut self, index: usize, played: &Played, tablebase: &Tablebase) {
        let reached = played.database_wins(tablebase);
        for color in [Color::White, Color::Black] {
            let engine = usize::from((color == Color::White) != played.a_white);
            if let Some(ply) = reached[color.index()] {
                let won = played.winner() == Some(color);
                self.database_wins[engine].0 += 1;
                self.database_wins[engine].1 += u32::from(won);
                if !won {
                    let (name, result) = (["A", "B"][engine], played.result.token());
                    eprintln!(
                        "damiera match: game {}: {name} reached a database win at ply {ply} and did not win ({result}, \
                         {} plies)",
                        index + 1,
                        played.game.ply()
                    );
                }
            }
        }
    }
}

/// The Hub engines of one game slot (the first engine's, the second's), started when first needed
/// and kept from game to game.
#[derive(Default)]
struct Slot {
    /// By engine: 0 the first (`--a`), 1 the second.
    engines: [Option<HubEngine>; 2],
}

impl Slot {
    /// Engine `which`'s process, started now if it is not running.
    fn engine(&mut self, which: usize, spec: &EngineSpec, variant: Variant) -> Result<&mut HubEngine, String> {
        let command = spec.hub.as_deref().expect("only Hub engines have a process");
        match &mut self.engines[which] {
            Some(engine) => Ok(engine),
            empty @ None => {
                let params = spec.hub_params();
                Ok(empty.insert(HubEngine::start(command, &Setup { variant, params: &params })?))
            }
        }
    }
}

pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), Failure> {
    for spec in [&args.a, &args.b] {
        if let Evaluation::Learned(weights) = spec.options.evaluation {
            if weights.variant != args.variant {
                let text = &spec.text;
                return Err(Failure::BadInput(format!(
                    "{text}: its weights are for {}, not {}",
                    weights.variant, args.variant
                )));
            }
        }
    }
    let openings = read_openings(args)?;
    let sprt = args.sprt.map(|hypotheses| Sprt { hypotheses, alpha: args.alpha, beta: args.beta });
    let total = args.games as usize;
    let (pdn, resumed) = match &args.pdn {
        Some(path) if args.resume => PdnFile::resume(path, args, &openings).map(|(file, games)| (Some(file), games))?,
        Some(path) => (Some(PdnFile::create(path)?), (0..total).map(|_| None).collect()),
        None => (None, (0..total).map(|_| None).collect()),
    };
    let tablebase = args.egtb.tablebase(args.variant);
    let specs = [args.a.with_tablebase(tablebase.as_ref()), args.b.with_tablebase(tablebase.as_ref())];
    let mut results = Results {
        tally: Tally::default(),
        halves: vec![None; total],
        pairs: Pentanomial::default(),
        database_wins: [(0, 0); 2],
    };
    for (index, game) in resumed.iter().enumerate() {
        if let Some(game) = game {
            results.add(index, game, tablebase.as_deref());
        }
    }
    let pending: Vec<usize> = (0..total).filter(|&index| resumed[index].is_none()).collect();
    let decided =
        AtomicBool::new(sprt.as_ref().is_some_and(|sprt| sprt.verdict(sprt.llr(&results.pairs)) != Verdict::Undecided));
    let next = AtomicUsize::new(0);
    let played = Mutex::new(resumed);
    let results = Mutex::new(results);
    let failed: Mutex<Option<Failure>> = Mutex::new(None);
    let progress = std::io::stderr().is_terminal();
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency {
            scope.spawn(|| {
                let mut slot = Slot::default();
                while let Some(&index) =
                    pending.get(next.fetch_add(1, Ordering::Relaxed)).filter(|_| !decided.load(Ordering::Relaxed))
                {
                    let game = play_game(args, &specs, &openings[index / 2 % openings.len()], index, &mut slot);
                    if let Some(Err(failure)) = pdn.as_ref().map(|pdn| pdn.add(args, index, &game)) {
                        // The games could not be kept: stop rather than play on unrecorded.
                        decided.store(true, Ordering::Relaxed);
                        failed.lock().expect("no thread panics holding it").get_or_insert(failure);
                    }
                    let mut results = results.lock().expect("no thread panics holding it");
                    let paired = results.add(index, &game, tablebase.as_deref());
                    let verdict = sprt.as_ref().filter(|_| paired).map(|sprt| sprt.verdict(sprt.llr(&results.pairs)));
                    let deciding = verdict.is_some_and(|verdict| verdict != Verdict::Undecided);
                    if deciding {
                        decided.store(true, Ordering::Relaxed);
                    }
                    if progress {
                        draw_progress(&results, total, sprt.as_ref());
                    } else if paired && (results.pairs.pairs().is_multiple_of(10) || deciding) {
                        // A line every ten pairs, and the deciding one, for logs; the progress bar
                        // shows every game.
                        log_progress(&results, total, sprt.as_ref());
                    }
                    drop(results);
                    played.lock().expect("no thread panics holding it")[index] = Some(game);
                }
            });
        }
    });
    if progress {
        eprintln!();
    }
    if let Some(failure) = failed.into_inner().expect("threads are done") {
        return Err(failure);
    }
    let results = results.into_inner().expect("threads are done");
    write_report(args, &results, sprt.as_ref(), tablebase.is_some(), out)?;
    if let Some(pdn) = pdn {
        let games = played.into_inner().expect("threads are done");
        pdn.finish(args, games.iter().enumerate().filter_map(|(index, game)| Some((index, game.as_ref()?))))?;
    }
    Ok(())
}

fn write_report(
    args: &MatchArgs,
    results: &Results,
    sprt: Option<&Sprt>,
    databases: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let tally = &results.tally;
    let (elo, low, high) = tally.elo();
    writeln!(out, "{} vs {}, {} games, {}", args.a.text, args.b.text, tally.games(), args.variant)?;
    writeln!(out, "wins {} draws {} losses {}", tally.wins, tally.draws, tally.losses)?;
    writeln!(out, "score {:.1}%", 100.0 * tally.score())?;
    writeln!(out, "elo {elo} (95%: {low} .. {high})")?;
    let [ll, ld, dd, wd, ww] = results.pairs.counts;
    writeln!(out, "pairs {}: LL {ll} LD+DL {ld} DD+WL+LW {dd} WD+DW {wd} WW {ww}", results.pairs.pairs())?;
    if results.pairs.pairs() > 0 {
        let (elo, low, high) = results.pairs.elo();
        writeln!(out, "pair elo {elo} (95%: {low} .. {high})")?;
    }
    if databases {
        let [(a_reached, a_won), (b_reached, b_won)] = results.database_wins;
        writeln!(out, "database wins reached: A {a_reached} games (won {a_won}), B {b_reached} games (won {b_won})")?;
    }
    if let Some(sprt) = sprt {
        let Hypotheses { elo0, elo1 } = sprt.hypotheses;
        writeln!(
            out,
            "sprt elo0 {elo0} elo1 {elo1} (logistic) alpha {} beta {}: {}",
            sprt.alpha,
            sprt.beta,
            sprt.report(&results.pairs)
        )?;
    }
    Ok(())
}

/// The openings to play, as games that have played them: each line of the file, or the start
/// position alone.
fn read_openings(args: &MatchArgs) -> Result<Vec<Game>, Failure> {
    let Some(path) = &args.openings else { return Ok(vec![Game::new(args.variant)]) };
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure::BadInput(format!("--openings {}: {e}", path.display())))?;
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        let mut game = Game::new(args.variant);
        for text in line.split_whitespace() {
            game.play(text)
                .map_err(|e| Failure::BadInput(format!("--openings {} line {}: {e}", path.display(), number + 1)))?;
        }
        openings.push(game);
    }
    if openings.is_empty() {
        return Err(Failure::BadInput(format!("--openings {}: no opening in the file", path.display())));
    }
    Ok(openings)
}

/// Plays game `index` of the match from `opening` between `specs` (the first engine's, the
/// second's, with their databases): the first engine has White in even games.
fn play_game(args: &MatchArgs, specs: &[EngineSpec; 2], opening: &Game, index: usize, slot: &mut Slot) -> Played {
    let a_white = index.is_multiple_of(2);
    let mut game = opening.clone();
    // Engine 0 is the first (--a), 1 the second; seats are by colour.
    let seats = if a_white { [0, 1] } else { [1, 0] };
    let tables = seats.map(|e| specs[e].hub.is_none().then(|| TranspositionTable::new(specs[e].hash)));
    let mut clocks = [args.tc.base; 2];
    let stop = AtomicBool::new(false);
    let increment = args.tc.increment;
    // The side that lost by its clock or a fault, with the fault.
    let mut lost: Option<(Color, Option<String>)> = None;
    for color in [Color::White, Color::Black] {
        let which = seats[color.index()];
        if specs[which].hub.is_some() && lost.is_none() {
            if let Err(fault) = slot.engine(which, &specs[which], args.variant).and_then(HubEngine::new_game) {
                lost = Some((color, Some(fault)));
            }
        }
    }
    while lost.is_none() && game.outcome() == Outcome::Ongoing && game.ply() < MAX_PLIES {
        let turn = game.position().turn();
        let (side, which) = (turn.index(), seats[turn.index()]);
        let spec = &specs[which];
        let choice = match &tables[side] {
            Some(table) => Ok(internal_move(spec, &game, clocks[side], increment, index, table, &stop)),
            None => {
                let level = level_line(spec.depth, spec.nodes, spec.move_time, clocks[side], increment);
                slot.engine(which, spec, args.variant).and_then(|engine| engine.choose(&game, &level, clocks[side]))
            }
        };
        match choice {
            Ok((mv, spent)) if spent <= clocks[side] => {
                clocks[side] = clocks[side] - spent + increment;
                game.play_move(&mv).expect("both kinds of engine give legal moves");
            }
            Ok(_) => lost = Some((turn, None)),
            Err(fault) => lost = Some((turn, Some(fault))),
        }
    }
    if let Some((color, Some(fault))) = &lost {
        let which = seats[color.index()];
        eprintln!(
            "damiera match: game {}: {} ({color:?}) loses: {fault}; it is restarted",
            index + 1,
            specs[which].text
        );
        slot.engines[which] = None;
    }
    let result = match (lost, game.outcome()) {
        (Some((Color::White, _)), _) => GameResult::BlackWins,
        (Some((Color::Black, _)), _) => GameResult::WhiteWins,
        // A game still going at the ply limit is adjudicated a draw.
        (None, outcome) => match GameResult::from_outcome(outcome) {
            GameResult::Unfinished => GameResult::Draw,
            decided => decided,
        },
    };
    Played { game, result, a_white }
}

/// The internal engine's move on its clock, and the time it took.
fn internal_move(
    spec: &EngineSpec,
    game: &Game,
    clock: Duration,
    increment: Duration,
    index: usize,
    table: &TranspositionTable,
    stop: &AtomicBool,
) -> (Move, Duration) {
    let limits = Limits {
        depth: spec.depth,
        nodes: spec.nodes,
        move_time: spec.move_time,
        clock: Some(Clock { remaining: clock, increment }),
    };
    // A weak level's choices vary from game to game, and replay the same for the same game.
    let options = Options { seed: index as u64, ..spec.options.clone() };
    let (current, history) = game.positions().split_last().expect("a game has a position");
    let started = Instant::now();
    let result = search_with(current, history, &limits, &options, table, stop, |_| {});
    (result.best_move.expect("an ongoing game has a legal move"), started.elapsed())
}

fn draw_progress(results: &Results, total: usize, sprt: Option<&Sprt>) {
    let tally = &results.tally;
    let done = tally.games() as usize;
    let width = 30;
    let filled = done * width / total.max(1);
    let sprt = sprt.map(|sprt| format!("  {}", sprt.report(&results.pairs))).unwrap_or_default();
    eprint!(
        "\r[{}{}] {done}/{total}  +{} ={} -{}{sprt}",
        "#".repeat(filled),
        " ".repeat(width - filled),
        tally.wins,
        tally.draws,
        tally.losses
    );
}

/// The tally so far as one line of a log, with the SPRT's state in SPRT mode.
fn log_progress(results: &Results, total: usize, sprt: Option<&Sprt>) {
    let tally = &results.tally;
    let sprt = sprt.map(|sprt| format!("; sprt: {}", sprt.report(&results.pairs))).unwrap_or_default();
    eprintln!(
        "games {}/{total}: +{} ={} -{}, {} pairs{sprt}",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        results.pairs.pairs()
    );
}
