//! `damiera hub` as a GUI sees it: the real binary, spoken to command by command on its pipes.
//!
//! Searches are held to a few plies so that the tests are quick; the moves expected in the capture
//! positions are the only legal ones there (RULES.md sections 2 and 3).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long a line may take: generous, for a loaded machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// A `damiera hub` process and its lines.
struct Engine {
    /// The process, waited for at the end.
    child: Child,
    /// Its standard input; dropped to send the end of input.
    stdin: Option<ChildStdin>,
    /// Its standard output, a line at a time, read by a thread so that reads can time out.
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damiera"))
            .arg("hub")
            // No databases from a developer's own folder: they would change the results.
            .env_remove("DAMIERA_EGTB")
            .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("damiera hub starts");
        let stdout = child.stdout.take().expect("piped");
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { stdin: child.stdin.take(), child, lines }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).expect("the engine reads its input");
    }

    fn line(&self) -> String {
        self.lines.recv_timeout(PATIENCE).expect("the engine answers in time")
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line();
            let last = line.starts_with(prefix);
            lines.push(line);
            if last {
                return lines;
            }
        }
    }

    /// Sends `command` and returns the answer that starts with `prefix`.
    fn ask(&mut self, command: &str, prefix: &str) -> String {
        self.send(command);
        self.until(prefix).pop().expect("at least one line")
    }

    /// Searches the position set before to `depth` and returns the `done` line.
    fn think(&mut self, depth: u32) -> String {
        self.send(&format!("level depth={depth}"));
        self.ask("go think", "done")
    }

    /// The engine is still reading and answering.
    fn alive(&mut self) {
        assert_eq!(self.ask("ping", "pong"), "pong");
    }

    /// Closes the input (or sends `quit`) and expects a clean exit with no further line.
    fn finish(mut self, quit: bool) {
        if quit {
            self.send("quit");
        }
        drop(self.stdin.take());
        let status = self.child.wait().expect("the engine exits");
        assert!(status.success(), "{status}");
        assert!(self.lines.recv_timeout(Duration::from_secs(5)).is_err(), "no line after the end");
    }
}

/// The value of `name=` in a Hub line (unquoted values only).
fn value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
}

#[test]
fn hub_lists_the_parameters_and_init_gets_ready() {
    let mut engine = Engine::start();
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(lines[0].starts_with("id name=Damiera version="), "{lines:?}");
    assert!(
        lines.contains(&r#"param name=variant value=italian type=enum values="italian triestina turkish""#.to_string())
    );
    assert!(lines.iter().any(|l| l.starts_with("param name=hash value=64 type=int")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("param name=threads value=1 type=int")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("param name=level value=20 type=int")), "{lines:?}");
    engine.send("set-param name=hash value=1");
    assert_eq!(engine.ask("init", "ready"), "ready");
    engine.alive();
    engine.finish(true);
}

#[test]
fn go_think_reports_each_depth_then_done_with_a_move_and_a_reply() {
    let mut engine = Engine::start();
    engine.send("init");
    engine.until("ready");
    engine.send("new-game");
    engine.send(r#"pos moves="22-18 12-16""#);
    engine.send("level depth=4");
    engine.send("go think");
    let lines = engine.until("done");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(infos.len(), 4, "{lines:?}");
    for (depth, info) in infos.iter().enumerate() {
        assert_eq!(value(info, "depth"), Some((depth + 1).to_string().as_str()), "{info}");
        for name in ["score", "nodes", "time", "nps"] {
            assert!(value(info, name).is_some_and(|v| v.parse::<f64>().is_ok()), "{name} in {info}");
        }
        assert!(info.contains(" pv="), "{info}");
    }
    let done = lines.last().unwrap();
    let best = value(done, "move").expect("a move");
    assert!(value(done, "ponder").is_some(), "{done}");
    // The move is White's from the position after 22-18 12-16, in from-to form.
    assert!(
        best.contains('-')
            && best
                .split('-')
                .all(|s| s.parse::<u32>().is_ok_and(|n| (21..=32).contains(&n) || (13..=20).contains(&n))),
        "{done}"
    );
    engine.finish(true);
}

#[test]
fn positions_come_as_pdn_fen_or_in_hub_form_and_captures_list_what_they_take() {
    let mut engine = Engine::start();
    // Italian: the man on 22 must take 18 and 10, landing on 6.
    engine.send("pos pos=W:W22:B18,10,1");
    assert_eq!(value(&engine.think(2), "move"), Some("22x6x10x18"));
    // The same in Hub form: W, then squares 1 to 32.
    let mut squares = ['e'; 32];
    for (square, letter) in [(22, 'w'), (18, 'b'), (10, 'b'), (1, 'b')] {
        squares[square - 1] = letter;
    }
    engine.send(&format!("pos pos=W{}", squares.iter().collect::<String>()));
    assert_eq!(value(&engine.think(2), "move"), Some("22x6x10x18"));
    // After 22-18 11-14, White must take 14 (18x11x14 in Hub form), and Black retakes on 11.
    engine.send(r#"pos moves="22-18 11-14 18x11x14""#);
    let done = engine.think(1);
    assert!(value(&done, "move").is_some_and(|m| m.split('x').nth(2) == Some("11")), "Black retakes 11: {done}");
    engine.finish(false);
}

#[test]
fn the_variant_parameter_switches_boards_and_square_numbers() {
    let mut engine = Engine::start();
    engine.send("set-param name=variant value=turkish");
    // A white man on d4 (28) must take d5 (36) and d7 (52), landing on d8 (60).
    engine.send("pos pos=W:Wd4:Bd5,d7,a7");
    assert_eq!(value(&engine.think(2), "move"), Some("28x60x36x52"));
    // Turkish squares may also be given by name in the moves: after a3-a4 a6-a5 the man on a4
    // (25) must take a5 (33) and a7 (49), landing on a8 (57).
    engine.send(r#"pos moves="a3-a4 a6-a5""#);
    assert_eq!(value(&engine.think(2), "move"), Some("25x57x33x49"));
    engine.send("set-param name=variant value=triestina");
    engine.send("pos");
    let done = engine.think(2);
    let from: u32 = value(&done, "move").and_then(|m| m.split('-').next()?.parse().ok()).expect("a quiet move");
    assert!((31..=35).contains(&from), "Triestina's first move starts from White's front row: {done}");
    engine.finish(true);
}

#[test]
fn ping_and_stop_are_answered_while_the_engine_analyzes() {
    let mut engine = Engine::start();
    engine.send("pos");
    engine.send("go analyze");
    engine.line(); // an info line: the search has started
    engine.alive();
    assert_eq!(engine.ask("level depth=3", "error"), r#"error message="still searching: send stop first""#);
    let done = engine.ask("stop", "done");
    assert!(value(&done, "move").is_some(), "{done}");
    engine.alive();
    engine.finish(true);
}

#[test]
fn ponder_hit_turns_the_ponder_search_into_a_timed_one_with_one_done() {
    let mut engine = Engine::start();
    engine.send("pos");
    engine.send("level move-time=0.2");
    engine.send("go ponder");
    engine.line(); // pondering
    engine.alive();
    engine.send("ponder-hit");
    let lines = engine.until("done");
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1, "{lines:?}");
    engine.alive(); // and no second done is pending
    assert_eq!(engine.ask("ponder-hit", "error"), r#"error message="ponder-hit: not pondering""#);
    engine.finish(true);
}

#[test]
fn a_clock_level_gives_a_move_in_time() {
    let mut engine = Engine::start();
    engine.send("pos");
    engine.send("level time=0.5 inc=0.1");
    let started = std::time::Instant::now();
    let done = engine.ask("go think", "done");
    assert!(value(&done, "move").is_some(), "{done}");
    assert!(started.elapsed() < Duration::from_millis(600), "{:?}", started.elapsed());
    engine.send("level moves=10 time=1");
    assert!(value(&engine.ask("go think", "done"), "move").is_some());
    engine.finish(true);
}

#[test]
fn bad_commands_get_an_error_line_and_the_engine_goes_on() {
    let mut engine = Engine::start();
    let cases = [
        ("think", "unknown command 'think'"),
        ("go", "go: missing think, ponder or analyze"),
        ("level depth=zero", "level: bad value for depth: 'zero' (a positive whole number)"),
        ("set-param name=hash value=0", "set-param hash: '0' is not a number from 1 to 65536"),
        (
            "set-param name=variant value=chess",
            "set-param variant: unknown variant 'chess' (expected italian, triestina or turkish)",
        ),
        ("set-param name=book value=true", "unknown parameter 'book' (variant, hash, threads, level, egtb)"),
        (r#"pos moves="22-17""#, "moves: 22-17 is not a legal move here"),
        ("pos pos=Wbbb", "bad position 'Wbbb': 3 squares where italian has 32"),
        ("ponder-hit", "ponder-hit: not pondering"),
    ];
    for (command, message) in cases {
        let answer = engine.ask(command, "error");
        assert_eq!(answer, format!("error message=\"{message}\""), "{command}");
    }
    engine.alive();
    engine.finish(false);
}

#[test]
fn go_after_a_refused_position_is_an_error_and_a_bare_done_until_a_good_one() {
    let mut engine = Engine::start();
    engine.send(r#"pos moves="22-18""#);
    assert!(value(&engine.think(1), "move").is_some());
    // The game goes on with a move the engine refuses: it must not search the position before.
    let refused = "moves: 10-15 is not a legal move here";
    assert_eq!(engine.ask(r#"pos moves="22-18 10-15""#, "error"), format!("error message=\"{refused}\""));
    engine.send("level depth=1");
    engine.send("go think");
    assert_eq!(
        engine.until("done"),
        [format!("error message=\"go: no position to search: the last pos was refused ({refused})\""), "done".into()]
    );
    // So does a bad position, and `go analyze` alike.
    engine.send("pos pos=Wbbb");
    assert!(engine.line().starts_with("error message=\"bad position"));
    engine.send("go analyze");
    let lines = engine.until("done");
    assert!(lines[0].starts_with("error message=\"go: no position to search: the last pos was refused (bad position"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    // A good position is searched again; so is the start that a variant sets.
    engine.send(r#"pos moves="22-18 11-15""#);
    assert!(value(&engine.think(1), "move").is_some());
    engine.send(r#"pos moves="22-17""#);
    assert!(engine.line().starts_with("error"));
    engine.send("set-param name=variant value=italian");
    assert!(value(&engine.think(1), "move").is_some());
    engine.alive();
    engine.finish(true);
}

#[test]
fn a_lost_position_answers_done_without_a_move() {
    let mut engine = Engine::start();
    engine.send("pos pos=B:W22:B");
    assert_eq!(engine.think(3), "done");
    engine.finish(true);
}

/// Runs `damiera match` with these arguments and returns its standard output and error.
fn run_match(args: &[&str]) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .arg("match")
        .args(args)
        .env_remove("DAMIERA_EGTB")
        .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("damiera runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success(), "{stdout}\n{stderr}");
    (stdout.into_owned(), stderr.into_owned())
}

/// The number after `label` in the line that starts with it.
fn count(text: &str, line: &str, label: &str) -> u32 {
    let line = text.lines().find(|l| l.starts_with(line)).unwrap_or_else(|| panic!("no '{line}' line: {text}"));
    let mut words = line.split_whitespace().skip_while(|w| *w != label);
    words.nth(1).and_then(|n| n.trim_end_matches(':').parse().ok()).unwrap_or_else(|| panic!("no {label} in {line}"))
}

#[test]
fn a_match_against_this_binary_over_hub_is_sane() {
    let hub = format!("hub={} hub,depth=3,hash=1", env!("CARGO_BIN_EXE_damiera"));
    let (stdout, _) = run_match(&[
        "--variant",
        "italian",
        "--games",
        "4",
        "--tc",
        "60000",
        "--concurrency",
        "2",
        "--a",
        &hub,
        "--b",
        "level=20,depth=3,hash=1",
    ]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], format!("{hub} vs level=20,depth=3,hash=1, 4 games, italian"));
    // The same engine at the same depth on both sides, every opening with both colours.
    let (wins, losses) = (count(&stdout, "wins", "wins"), count(&stdout, "wins", "losses"));
    assert_eq!(wins + count(&stdout, "wins", "draws") + losses, 4, "{stdout}");
    assert_eq!(wins, losses, "a colour-swapped pair of the same deterministic engines: {stdout}");
    assert!(stdout.contains("pairs 2: LL 0 LD+DL 0 DD+WL+LW 2 WD+DW 0 WW 0"), "each pair is even: {stdout}");
    assert!(stdout.contains("\npair elo "), "{stdout}");
}

#[test]
fn a_crashed_or_illegal_moving_engine_loses_and_is_restarted() {
    let dir = std::env::temp_dir().join(format!("damiera-hub-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A Hub engine that plays 1-5 whatever the position: never legal at the start.
    let script = dir.join("illegal.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r line; do case \"$line\" in\n\
         hub) echo wait;; init) echo ready;; ping) echo pong;; go*) echo done move=1-5;; quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    for (engine, fault) in [
        (format!("hub={}", script.display()), "illegal move: 1-5 is not a legal move here"),
        // It may be gone before it reads "hub" or while we wait for "wait": either way it loses.
        ("hub=/bin/false".to_string(), ") loses: "),
    ] {
        let (stdout, stderr) = run_match(&[
            "--variant",
            "italian",
            "--games",
            "4",
            "--a",
            "depth=2",
            "--b",
            &engine,
            "--sprt",
            "0,5",
            "--alpha",
            "0.1",
        ]);
        assert_eq!(count(&stdout, "wins", "wins"), 4, "{stdout}");
        assert_eq!(stderr.matches(fault).count(), 4, "one fault and one restart a game: {stderr}");
        assert!(stdout.contains("pairs 2: LL 0 LD+DL 0 DD+WL+LW 0 WD+DW 0 WW 2"), "{stdout}");
        assert!(stdout.contains("sprt elo0 0 elo1 5 (logistic) alpha 0.1 beta 0.05: LLR "), "{stdout}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_sprt_stops_the_match_once_it_decides() {
    // Full strength at depth 4 against level 1 wins nearly every pair: against "+300 Elo at
    // least", a won pair adds about 0.5 to the LLR, so H1 comes after some ten pairs, long
    // before the 400 games allowed.
    let (stdout, stderr) =
        run_match(&["--variant", "italian", "--games", "400", "--a", "depth=4", "--b", "level=1", "--sprt", "0,300"]);
    let games = count(&stdout, "wins", "wins") + count(&stdout, "wins", "draws") + count(&stdout, "wins", "losses");
    assert!((6..80).contains(&games), "{stdout}");
    assert!(stdout.lines().last().is_some_and(|l| l.ends_with("H1 accepted")), "{stdout}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("games {games}/400: +")), "the deciding pair is logged as it comes: {stderr}");
    assert!(last.contains(" pairs; sprt: LLR ") && last.ends_with("H1 accepted"), "{stderr}");
}

#[test]
fn a_match_logs_its_tally_every_ten_pairs_when_not_on_a_terminal() {
    // Standard error is a pipe here: no progress bar, a line every ten game pairs instead.
    let (stdout, stderr) = run_match(&["--variant", "turkish", "--games", "40", "--a", "depth=1", "--b", "depth=2"]);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    for (line, games) in lines.iter().zip([20, 40]) {
        let tally: Vec<u32> = line.split([' ', '+', '=', '-', ',']).filter_map(|w| w.parse().ok()).collect();
        assert!(line.starts_with(&format!("games {games}/40: +")), "{line}");
        assert_eq!(tally[..3].iter().sum::<u32>(), games, "{line}");
        assert!(line.ends_with(&format!(", {} pairs", games / 2)), "{line}");
    }
    let wins = count(&stdout, "wins", "wins");
    assert!(lines[1].starts_with(&format!("games 40/40: +{wins} ")), "the last line is the final tally: {stdout}");
}

/// Whole games through pydraughts' `HubEngine`, a Hub client none of us wrote: every move the
/// engine sends must be legal in pydraughts (tests/pydraughts/hub_games.py). pydraughts must be
/// installed for `$DAMIERA_PYTHON` (or `python3`); `DAMIERA_SKIP_PYDRAUGHTS=1` skips the test where
/// it cannot be (CI installs it).
#[test]
fn pydraughts_hub_engine_plays_whole_games_with_damiera() {
    if std::env::var("DAMIERA_SKIP_PYDRAUGHTS").is_ok_and(|v| v == "1") {
        eprintln!("DAMIERA_SKIP_PYDRAUGHTS=1: pydraughts Hub games skipped");
        return;
    }
    let python = std::env::var("DAMIERA_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pydraughts/hub_games.py");
    for variant in ["italian", "turkish"] {
        let output = Command::new(&python)
            .env_remove("DAMIERA_EGTB")
            .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
            .args([
                script.as_os_str(),
                env!("CARGO_BIN_EXE_damiera").as_ref(),
                variant.as_ref(),
                "4".as_ref(),
                "3".as_ref(),
            ])
            .output()
            .unwrap_or_else(|e| panic!("cannot run {python}: {e}"));
        let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
        if output.status.code() == Some(3) {
            panic!(
                "{}\nInstall pydraughts==0.6.7 for {python} (or set DAMIERA_PYTHON), or set DAMIERA_SKIP_PYDRAUGHTS=1.",
                stderr.trim()
            );
        }
        println!("{variant}:\n{stdout}");
        assert!(output.status.success(), "{variant}: pydraughts found an illegal move or failed:\n{stdout}\n{stderr}");
        assert!(stdout.contains("games played: 4"), "{variant}: {stdout}");
    }
}
