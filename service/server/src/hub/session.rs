//! One Hub session: the game to search from, the parameters, the table and the search thread.
//!
//! The reading thread never searches: `go` starts the search on a thread of its own, so that
//! `ping`, `stop` and `quit` are answered while it thinks (as Stockfish's UCI loop does). The
//! search thread writes the `info` lines and the final `done`; both threads write whole lines
//! through one lock, so lines never interleave. The table is allocated at `init` (or at the first
//! search) and reused until `hash` changes, so no search pays for a fresh table; the endgame
//! databases likewise, opened at `init` (or at the first search) for the variant set.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use damiera_engine::egtb::{Tablebase, Wdl};
use damiera_engine::search::{search_with, Clock, Iteration, Limits, Options, Score, SearchResult, TranspositionTable};
use damiera_engine::{Game, Position, Variant};

use super::notation::{read_move, read_position, write_move};
use super::parse::{parse, quote, Command, GoMode, Level};
use crate::search::tablebases;

/// The search time when the GUI set no limit before `go think`.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);
/// The table size before `set-param name=hash`, in MiB.
const DEFAULT_HASH_MB: usize = 64;

/// Where the engine's lines go; shared by the reading thread and the search thread.
type Out = Arc<Mutex<dyn Write + Send>>;

/// Writes one line and flushes it: the GUI waits for it. A closed output is not an error here;
/// the GUI that closed it also closes our input, which ends the session.
fn say(out: &Out, line: &str) {
    let mut out = out.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let _ = writeln!(out, "{line}").and_then(|()| out.flush());
}

/// A search running on its own thread.
struct Search {
    /// Set to end the search; it then reports its best move so far.
    stop: Arc<AtomicBool>,
    /// Set to end it without a word: a ponder search that `ponder-hit` replaces.
    silent: Arc<AtomicBool>,
    /// True until the search has its answer. Cleared before `done` is written, so that a GUI that
    /// answers `done` at once with its next command does not find us still searching.
    running: Arc<AtomicBool>,
    /// What kind of search it is.
    mode: GoMode,
    /// The thread, joined before the next search starts.
    thread: JoinHandle<()>,
}

/// The engine's state between commands.
struct Session {
    /// The engine's output.
    out: Out,
    /// The variant set by `set-param name=variant`; Dama Italiana until then.
    variant: Variant,
    /// The table size to use, in MiB.
    hash_mb: usize,
    /// Threads per search.
    threads: usize,
    /// Skill level, 1 to 20.
    level: u8,
    /// The table, once allocated, and its size: reused by every search until `hash` changes.
    table: Option<(Arc<TranspositionTable>, usize)>,
    /// The endgame databases' folder; `None` after `set-param name=egtb value=off`.
    egtb: Option<PathBuf>,
    /// The databases found in `egtb` for a variant, once looked for: reused by every search.
    tablebase: Option<(Variant, Option<Arc<Tablebase>>)>,
    /// The position to search from, with the moves that led to it (repetitions count); after a
    /// refused `pos`, why there is none, so that `go` never searches a position the GUI left.
    game: Result<Game, String>,
    /// The limits of the next `go think`.
    limits: Level,
    /// Games begun, the seed of a weaker level's choices: each game varies, and replays the same.
    games: u64,
    /// The running (or finished, not yet joined) search.
    search: Option<Search>,
}

/// Runs a Hub session: reads commands from `input` until `quit` or its end, answers on `output`.
/// Searches probe the endgame databases in `egtb` (see [`tablebases::folder`]), if it holds any.
pub fn run(input: impl BufRead, output: impl Write + Send + 'static, egtb: Option<PathBuf>) -> std::io::Result<()> {
    let mut session = Session {
        out: Arc::new(Mutex::new(output)),
        variant: Variant::Italian,
        hash_mb: DEFAULT_HASH_MB,
        threads: 1,
        level: 20,
        table: None,
        egtb,
        tablebase: None,
        game: Ok(Game::new(Variant::Italian)),
        limits: Level::default(),
        games: 0,
        search: None,
    };
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match parse(&line) {
            Ok(Command::Quit) => break,
            Ok(command) => {
                if let Err(message) = session.handle(command) {
                    session.error(&message);
                }
            }
            Err(error) => session.error(&error.to_string()),
        }
    }
    session.stop_search(false);
    Ok(())
}

impl Session {
    fn error(&self, message: &str) {
        say(&self.out, &format!("error message={}", quote(message)));
    }

    fn searching(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.running.load(Ordering::Acquire))
    }

    /// Carries out one command; an `Err` is the message of the `error` line to answer.
    fn handle(&mut self, command: Command) -> Result<(), String> {
        let changes_state = matches!(
            command,
            Command::Init
                | Command::SetParam { .. }
                | Command::NewGame
                | Command::Pos { .. }
                | Command::Level(_)
                | Command::Go(_)
        );
        if changes_state && self.searching() {
            return Err("still searching: send stop first".into());
        }
        match command {
            Command::Hub => self.introduce(),
            Command::Init => {
                self.table();
                self.tablebase();
                say(&self.out, "ready");
            }
            Command::SetParam { name, value } => self.set_param(&name, &value)?,
            Command::NewGame => {
                self.games += 1;
                if let Some((table, _)) = &self.table {
                    table.clear();
                }
            }
            Command::Pos { position, moves } => {
                self.game = self.read_game(position.as_deref(), &moves);
                if let Err(refused) = &self.game {
                    return Err(refused.clone());
                }
            }
            Command::Level(level) => self.limits = level,
            Command::Go(mode) => self.go(mode),
            Command::PonderHit => self.ponder_hit()?,
            Command::Stop => self.stop_search(false),
            Command::Ping => say(&self.out, "pong"),
            Command::Quit => unreachable!("run ends the session on quit"),
        }
        Ok(())
    }

    fn introduce(&self) {
        let version = env!("CARGO_PKG_VERSION");
        say(&self.out, &format!("id name=Damiera version={version} author=\"the Damiera authors\""));
        let variants = Variant::ALL.map(Variant::name).join(" ");
        say(&self.out, &format!("param name=variant value={} type=enum values=\"{variants}\"", self.variant.name()));
        say(&self.out, &format!("param name=hash value={} type=int min=1 max=65536", self.hash_mb));
        say(&self.out, &format!("param name=threads value={} type=int min=1 max=256", self.threads));
        say(&self.out, &format!("param name=level value={} type=int min=1 max=20", self.level));
        let egtb = self.egtb.as_ref().map_or_else(|| "off".to_string(), |dir| dir.display().to_string());
        say(&self.out, &format!("param name=egtb value={} type=string", quote(&egtb)));
        say(&self.out, "wait");
    }

    fn set_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        let number = |max: usize| match value.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(format!("set-param {name}: '{value}' is not a number from 1 to {max}")),
        };
        match name {
            "variant" => {
                self.variant = value.parse().map_err(|e| format!("set-param variant: {e}"))?;
                self.game = Ok(Game::new(self.variant));
            }
            "hash" => self.hash_mb = number(65536)?,
            "threads" => self.threads = number(256)?,
            "level" => self.level = number(20)? as u8,
            "egtb" => {
                self.egtb = (!matches!(value, "" | "off")).then(|| PathBuf::from(value));
                self.tablebase = None;
            }
            _ => return Err(format!("unknown parameter '{name}' (variant, hash, threads, level, egtb)")),
        }
        Ok(())
    }

    /// The table, allocated now if there is none of the size asked for.
    fn table(&mut self) -> Arc<TranspositionTable> {
        match &self.table {
            Some((table, mb)) if *mb == self.hash_mb => Arc::clone(table),
            _ => {
                self.table = None; // free the old one before the new one is allocated
                let table = Arc::new(TranspositionTable::new(self.hash_mb));
                self.table = Some((Arc::clone(&table), self.hash_mb));
                table
            }
        }
    }

    /// The variant's endgame databases, looked for now if they were not yet. A damaged file is
    /// a warning on standard error (the GUI reads only standard output) and no databases.
    fn tablebase(&mut self) -> Option<Arc<Tablebase>> {
        if let Some((variant, tablebase)) = &self.tablebase {
            if *variant == self.variant {
                return tablebase.clone();
            }
        }
        let found = self.egtb.as_deref().and_then(|dir| match tablebases::open_variant(dir, self.variant) {
            Ok(found) => found,
            Err(error) => {
                eprintln!("damiera hub: {error}; searching without endgame databases");
                None
            }
        });
        self.tablebase = Some((self.variant, found.clone()));
        found
    }

    fn read_game(&self, position: Option<&str>, moves: &[String]) -> Result<Game, String> {
        let start = match position {
            Some(text) => read_position(self.variant, text).map_err(|e| e.to_string())?,
            None => Position::start(self.variant),
        };
        let mut game = Game::from_position(start);
        for text in moves {
            let mv = read_move(game.position(), text).map_err(|e| format!("moves: {e}"))?;
            game.play_move(&mv).map_err(|e| format!("moves: {text}: {e}"))?;
        }
        Ok(game)
    }

    /// What the level asks of a search in `mode`.
    fn limits(&self, mode: GoMode) -> Limits {
        let level = self.limits;
        if mode != GoMode::Think || level.infinite {
            return Limits::default();
        }
        // Hub adds the increment before the move; our clock adds it after.
        let increment = level.increment.unwrap_or_default();
        let clock = level.time.map(|time| Clock { remaining: time + increment, increment });
        // With moves to go, the move's share of the clock caps it: the search's clock has no
        // notion of a time control's end.
        let share = level.time.zip(level.moves).map(|(time, moves)| (time + increment) / moves);
        let move_time = match (level.move_time, share) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let unlimited = level.depth.is_none() && level.nodes.is_none() && move_time.is_none() && clock.is_none();
        Limits {
            depth: level.depth,
            nodes: level.nodes,
            move_time: if unlimited { Some(DEFAULT_MOVE_TIME) } else { move_time },
            clock,
        }
    }

    /// Starts a search of the position set. After a refused `pos` there is none: the answer is
    /// an `error` and a bare `done`, so that a GUI waiting for `done` is not left hanging.
    fn go(&mut self, mode: GoMode) {
        let positions = match &self.game {
            Ok(game) => game.positions().to_vec(),
            Err(refused) => {
                self.error(&format!("go: no position to search: the last pos was refused ({refused})"));
                say(&self.out, "done");
                return;
            }
        };
        self.stop_search(true); // joins a finished one
        let table = self.table();
        let limits = self.limits(mode);
        let options = Options {
            threads: self.threads,
            level: self.level,
            seed: self.games,
            tablebase: self.tablebase(),
            ..Options::default()
        };
        let (stop, silent, running) =
            (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(true)));
        let out = Arc::clone(&self.out);
        let variant = self.variant;
        let thread = {
            let (stop, silent, running) = (Arc::clone(&stop), Arc::clone(&silent), Arc::clone(&running));
            std::thread::spawn(move || {
                let (current, history) = positions.split_last().expect("a game has a position");
                let result = search_with(current, history, &limits, &options, &table, &stop, |it| {
                    if !silent.load(Ordering::Relaxed) {
                        say(&out, &info_line(variant, it));
                    }
                });
                running.store(false, Ordering::Release);
                if !silent.load(Ordering::Relaxed) {
                    say(&out, &done_line(variant, &result));
                }
            })
        };
        self.search = Some(Search { stop, silent, running, mode, thread });
    }

    /// The predicted move was played: the ponder search ends unheard, and a search with the
    /// level's limits starts on the same position and the table it filled.
    fn ponder_hit(&mut self) -> Result<(), String> {
        if !(self.searching() && self.search.as_ref().is_some_and(|s| s.mode == GoMode::Ponder)) {
            return Err("ponder-hit: not pondering".into());
        }
        self.stop_search(true);
        self.go(GoMode::Think);
        Ok(())
    }

    /// Stops the search, if any, and waits for its thread; `silent` drops its `done`.
    fn stop_search(&mut self, silent: bool) {
        if let Some(search) = self.search.take() {
            search.silent.fetch_or(silent, Ordering::Relaxed);
            search.stop.store(true, Ordering::Relaxed);
            search.thread.join().expect("the search thread does not panic");
        }
    }
}

/// A score in men, as Hub writes it; a win in N plies is 100 - N/100 men (so pydraughts, which
/// reads scores above 90 as wins, finds the distance again), a database win 80 men (beyond every
/// estimate, below the wins pydraughts counts in plies), a database draw 0.
fn hub_score(score: Score) -> String {
    let men = match score {
        Score::Value(v) => f64::from(v) / 100.0,
        Score::WinIn(n) => 100.0 - f64::from(n) / 100.0,
        Score::LossIn(n) => -(100.0 - f64::from(n) / 100.0),
        Score::Database(Wdl::Win) => 80.0,
        Score::Database(Wdl::Draw) => 0.0,
        Score::Database(Wdl::Loss) => -80.0,
    };
    format!("{men:.2}")
}

fn info_line(variant: Variant, it: &Iteration) -> String {
    let pv: Vec<String> = it.pv.iter().map(|m| write_move(variant, m)).collect();
    format!(
        "info depth={} score={} nodes={} time={:.3} nps={} pv={}",
        it.depth,
        hub_score(it.score),
        it.nodes,
        it.elapsed.as_secs_f64(),
        it.nps,
        quote(&pv.join(" "))
    )
}

fn done_line(variant: Variant, result: &SearchResult) -> String {
    let mut line = String::from("done");
    if let Some(best) = &result.best_move {
        line.push_str(&format!(" move={}", write_move(variant, best)));
        // The line's second move is the reply to ponder on, when the line starts with the move.
        if let [first, reply, ..] = result.pv.as_slice() {
            if first == best {
                line.push_str(&format!(" ponder={}", write_move(variant, reply)));
            }
        }
    }
    line
}
