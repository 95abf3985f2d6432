//! A Hub engine as `damiera match` plays it: a child process spoken to over its pipes.
//!
//! One process per engine per game slot, started once and told `new-game` between games. Every
//! way it can fail (it exits, stays silent past its clock, sends a line we cannot read or a move
//! that is not legal) comes back as an `Err` with a message; the match scores the game as lost
//! and starts a fresh process for the next one.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use damiera_engine::{Game, Move, Variant};
use damiera_server::hub::notation::{read_move, write_move, write_position};
use damiera_server::hub::parse::{quote, split};

/// How long a starting engine may take to list its parameters and get ready.
const STARTUP: Duration = Duration::from_secs(30);
/// Time past its clock that a thinking engine gets before it is given up as hung.
const GRACE: Duration = Duration::from_secs(1);

/// A running Hub engine.
pub struct HubEngine {
    /// The process, killed when this is dropped.
    child: Child,
    /// Its standard input.
    stdin: ChildStdin,
    /// Its standard output, a line at a time, read by a thread so that waiting can time out.
    lines: Receiver<String>,
}

/// The `set-param` values a Hub engine gets before `init`.
pub struct Setup<'a> {
    /// The variant, sent as `variant` when the engine lists that parameter.
    pub variant: Variant,
    /// Parameters named by the engine spec (`hash`, `threads`, `level`, `param.NAME`), sent when
    /// the engine lists them.
    pub params: &'a [(String, String)],
}

impl HubEngine {
    /// Starts `command` (program and arguments), introduces itself, sets it up and waits until
    /// it is ready.
    pub fn start(command: &[String], setup: &Setup) -> Result<HubEngine, String> {
        let (program, args) = command.split_first().ok_or("an empty hub= command")?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {program}: {e}"))?;
        let stdout = child.stdout.take().expect("piped");
        let stdin = child.stdin.take().expect("piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = HubEngine { child, stdin, lines };
        engine.send("hub")?;
        let listed: Vec<String> = engine
            .until("wait", STARTUP)?
            .iter()
            .filter_map(|l| split(l).ok())
            .filter(|l| l.command == "param")
            .filter_map(|l| l.value("name").map(str::to_string))
            .collect();
        if listed.iter().any(|name| name == "variant") {
            engine.send(&format!("set-param name=variant value={}", setup.variant.name()))?;
        }
        for (name, value) in setup.params {
            if listed.contains(name) {
                engine.send(&format!("set-param name={} value={}", quote(name), quote(value)))?;
            }
        }
        engine.send("init")?;
        engine.until("ready", STARTUP)?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine is gone ({e})"))
    }

    /// Reads lines until one whose command is `command`, which it returns with those before it.
    fn until(&mut self, command: &str, patience: Duration) -> Result<Vec<String>, String> {
        let deadline = Instant::now() + patience;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.lines.recv_timeout(left).map_err(|e| match e {
                RecvTimeoutError::Timeout => format!("no '{command}' within {patience:.1?}"),
                RecvTimeoutError::Disconnected => format!("the engine exited while we waited for '{command}'"),
            })?;
            if line.split_whitespace().next() == Some(command) {
                lines.push(line);
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    /// Tells the engine that a new game begins.
    pub fn new_game(&mut self) -> Result<(), String> {
        self.send("new-game")?;
        // ping-pong: the engine has read new-game and anything it had pending is flushed.
        self.send("ping")?;
        self.until("pong", STARTUP).map(drop)
    }

    /// Asks for a move in `game` under `level` (a Hub `level` line) and returns it with the time
    /// the engine took; `clock` is the time it has, after which it is given up as hung.
    pub fn choose(&mut self, game: &Game, level: &str, clock: Duration) -> Result<(Move, Duration), String> {
        let variant = game.variant();
        let moves: Vec<String> = game.moves().iter().map(|m| write_move(variant, &m.mv)).collect();
        self.send(&format!("pos pos={} moves={}", write_position(game.start()), quote(&moves.join(" "))))?;
        self.send(level)?;
        let started = Instant::now();
        self.send("go think")?;
        let done = self.until("done", clock + GRACE)?.pop().expect("until returns the line it waited for");
        let spent = started.elapsed();
        let line = split(&done).map_err(|e| format!("unreadable answer '{done}': {e}"))?;
        let text = line.value("move").ok_or_else(|| format!("'{done}' gives no move"))?;
        let mv = read_move(game.position(), text).map_err(|e| format!("illegal move: {e}"))?;
        Ok((mv, spent))
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        // A healthy engine quits at once; one that does not is killed.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Hub `level` line for a move: the spec's per-move limits and the clock, in seconds.
pub fn level_line(
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time: Option<Duration>,
    clock: Duration,
    increment: Duration,
) -> String {
    let mut line = String::from("level");
    if let Some(depth) = depth {
        line.push_str(&format!(" depth={depth}"));
    }
    if let Some(nodes) = nodes {
        line.push_str(&format!(" nodes={nodes}"));
    }
    if let Some(time) = move_time {
        line.push_str(&format!(" move-time={:.3}", time.as_secs_f64()));
    }
    // Hub engines add the increment before they move: send the time without it.
    let time = clock.saturating_sub(increment);
    line.push_str(&format!(" time={:.3} inc={:.3}", time.as_secs_f64(), increment.as_secs_f64()));
    line
}
