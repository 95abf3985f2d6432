//! The `damiera` command as other tools see it: the real binary, its output, its exit status.
//!
//! Node counts come from RULES.md section 4; the capture positions' moves were checked by hand
//! against RULES.md sections 2 and 3.

use std::process::{Command, Output};

use serde_json::{json, Value};

/// Italian: two white men can each capture twice (22x13x6, 22x15x6, 23x14x5, 23x14x7).
const ITALIAN_CAPTURES: &str = "W:W22,23,K31:B18,19,11,10";
/// Turkish: a flying king takes four pieces; its last jump crosses e3, taken by its first.
const TURKISH_KING_CAPTURE: &str = "W:WKa3:Be3,h2,Kf1,e5";

fn damiera(args: &[&str]) -> Output {
    // No databases from a developer's own folder: they would change the results.
    Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(args)
        .env_remove("DAMIERA_EGTB")
        .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
        .output()
        .expect("the damiera binary runs")
}

/// Standard output of a run that must succeed with nothing on standard error.
fn success(args: &[&str]) -> String {
    let output = damiera(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "damiera {args:?} failed: {stderr}");
    assert!(stderr.is_empty(), "damiera {args:?} wrote to stderr: {stderr}");
    String::from_utf8(output.stdout).expect("output is UTF-8")
}

fn success_json(args: &[&str]) -> Value {
    let stdout = success(args);
    assert_eq!(stdout.lines().count(), 1, "one JSON document on one line: {stdout}");
    serde_json::from_str(&stdout).expect("output is JSON")
}

fn start_fen(variant: &str) -> &'static str {
    match variant {
        "italian" => "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "triestina" => {
            "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50\
             :B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
        }
        "turkish" => {
            "W:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e3,f2,f3,g2,g3,h2,h3\
             :Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7"
        }
        _ => unreachable!("only the three variants"),
    }
}

/// RULES.md section 4, shallow enough for a debug build.
const START_COUNTS: [(&str, &str, u64); 3] = [("italian", "4", 1469), ("turkish", "4", 7538), ("triestina", "4", 4265)];

#[test]
fn perft_text_ends_with_the_node_count() {
    for (variant, depth, nodes) in START_COUNTS {
        let stdout = success(&["perft", "--variant", variant, "--depth", depth]);
        assert_eq!(stdout.lines().last(), Some(format!("nodes {nodes}").as_str()), "{variant}");
        assert!(stdout.lines().any(|line| line.starts_with("nps ")), "{stdout}");
    }
}

#[test]
fn perft_json_reports_position_depth_count_and_speed() {
    for (variant, depth, nodes) in START_COUNTS {
        let report = success_json(&["perft", "--variant", variant, "--depth", depth, "--json"]);
        assert_eq!(report["variant"], variant);
        assert_eq!(report["fen"], start_fen(variant));
        assert_eq!(report["depth"].to_string(), depth);
        assert_eq!(report["nodes"], nodes);
        assert!(report["seconds"].is_f64(), "{report}");
        assert!(report["nps"].is_u64(), "{report}");
        assert!(report.get("divide").is_none(), "no divide unless asked: {report}");
    }
}

#[test]
fn perft_takes_italian_names_in_any_case_and_writes_the_canonical_fen() {
    let report = success_json(&["perft", "--variant", "Turca", "--depth", "2", "--json"]);
    assert_eq!((&report["variant"], &report["nodes"]), (&json!("turkish"), &json!(64)));
    let fen = "w:b18,10-12,19:wK31,23,22";
    let report = success_json(&["perft", "--variant", "ITALIANA", "--fen", fen, "--depth", "1", "--json"]);
    assert_eq!(report["fen"], "W:W22,23,K31:B10,11,12,18,19");
}

#[test]
fn perft_divide_text_splits_the_count_by_first_move() {
    let stdout = success(&["perft", "--variant", "italian", "--depth", "4", "--divide"]);
    let (branches, summary) = stdout.split_once("\n\n").expect("a blank line after the moves");
    let counts: Vec<u64> = branches
        .lines()
        .map(|line| line.split_once(": ").expect("'<move>: <nodes>'").1.parse().expect("a count"))
        .collect();
    assert_eq!(counts.len(), 7);
    assert_eq!(counts.iter().sum::<u64>(), 1469);
    assert_eq!(summary.lines().last(), Some("nodes 1469"));
}

#[test]
fn perft_divide_json_follows_the_engine_move_order() {
    let args = ["--variant", "italian", "--fen", ITALIAN_CAPTURES];
    let report = success_json(&[&["perft", "--depth", "3", "--divide", "--json"], &args[..]].concat());
    let expected = json!([
        {"move": "22x13x6", "nodes": 1},
        {"move": "22x15x6", "nodes": 24},
        {"move": "23x14x5", "nodes": 1},
        {"move": "23x14x7", "nodes": 1},
    ]);
    assert_eq!(report["divide"], expected);
    assert_eq!(report["nodes"], 27);
    let moves = success(&[&["moves"], &args[..]].concat());
    let divided: Vec<&str> = expected.as_array().unwrap().iter().map(|b| b["move"].as_str().unwrap()).collect();
    assert_eq!(moves.lines().collect::<Vec<_>>(), divided);
}

#[test]
fn perft_divide_sums_to_the_total_on_every_board() {
    for (variant, depth, nodes) in START_COUNTS {
        let report = success_json(&["perft", "--variant", variant, "--depth", depth, "--divide", "--json"]);
        let branches = report["divide"].as_array().expect("a divide array");
        let sum: u64 = branches.iter().map(|b| b["nodes"].as_u64().unwrap()).sum();
        assert_eq!((sum, report["nodes"].as_u64()), (nodes, Some(nodes)), "{variant}");
    }
}

#[test]
fn moves_text_lists_captures_in_full_notation() {
    let stdout = success(&["moves", "--variant", "italian", "--fen", ITALIAN_CAPTURES]);
    assert_eq!(stdout, "22x13x6\n22x15x6\n23x14x5\n23x14x7\n");
    let stdout = success(&["moves", "--variant", "turkish", "--fen", TURKISH_KING_CAPTURE]);
    assert_eq!(stdout, "a3xh3xh1xe1xe6\na3xh3xh1xe1xe7\na3xh3xh1xe1xe8\n");
}

#[test]
fn moves_text_from_the_start_position() {
    let stdout = success(&["moves", "--variant", "italiana"]);
    // The engine's order of quiet moves is its own business: compare them as a set.
    let mut moves: Vec<&str> = stdout.lines().collect();
    moves.sort_unstable();
    assert_eq!(moves, ["21-17", "21-18", "22-18", "22-19", "23-19", "23-20", "24-20"]);
}

#[test]
fn moves_json_spells_out_path_and_capture_order() {
    let moves = success_json(&["moves", "--variant", "italian", "--fen", ITALIAN_CAPTURES, "--json"]);
    let expected = json!([
        {"notation": "22x13x6", "from": "22", "to": "6", "path": ["13", "6"], "captures": ["18", "10"], "promotes": false},
        {"notation": "22x15x6", "from": "22", "to": "6", "path": ["15", "6"], "captures": ["19", "11"], "promotes": false},
        {"notation": "23x14x5", "from": "23", "to": "5", "path": ["14", "5"], "captures": ["19", "10"], "promotes": false},
        {"notation": "23x14x7", "from": "23", "to": "7", "path": ["14", "7"], "captures": ["19", "11"], "promotes": false},
    ]);
    assert_eq!(moves, expected);
}

#[test]
fn moves_json_orders_a_flying_kings_captures_past_emptied_squares() {
    let moves = success_json(&["moves", "--variant", "turkish", "--fen", TURKISH_KING_CAPTURE, "--json"]);
    let expected: Vec<Value> = ["e6", "e7", "e8"]
        .iter()
        .map(|to| {
            json!({
                "notation": format!("a3xh3xh1xe1x{to}"), "from": "a3", "to": to,
                "path": ["h3", "h1", "e1", to], "captures": ["e3", "h2", "f1", "e5"], "promotes": false,
            })
        })
        .collect();
    assert_eq!(moves, Value::Array(expected));
}

#[test]
fn moves_json_marks_a_promotion_and_quiet_moves() {
    let moves = success_json(&["moves", "--variant", "turkish", "--fen", "W:Wa2,g6:Bf6,e7,Ka5", "--json"]);
    let expected = json!([
        {"notation": "g6xe6xe8", "from": "g6", "to": "e8", "path": ["e6", "e8"], "captures": ["f6", "e7"], "promotes": true},
    ]);
    assert_eq!(moves, expected);
    let moves = success_json(&["moves", "--variant", "turkish", "--fen", "W:Wa2:Bh7", "--json"]);
    let expected = json!([
        {"notation": "a2-a3", "from": "a2", "to": "a3", "path": ["a3"], "captures": [], "promotes": false},
        {"notation": "a2-b2", "from": "a2", "to": "b2", "path": ["b2"], "captures": [], "promotes": false},
    ]);
    assert_eq!(moves, expected);
}

/// Each of these is bad input: exit status 2, one line on stderr, nothing on stdout.
const BAD_INPUT: [&[&str]; 31] = [
    &["perft", "--variant", "chess", "--depth", "2"],
    &["perft", "--variant", "italian", "--depth", "0"],
    &["perft", "--variant", "italian", "--depth", "21"],
    &["perft", "--variant", "italian", "--depth", "two"],
    &["perft", "--variant", "italian"],
    &["perft", "--depth", "3"],
    &["perft", "--variant", "italian", "--fen", "W:W33:B1", "--depth", "1"],
    &["perft", "--variant", "turkish", "--fen", "W:W21:B1", "--depth", "1"],
    &["moves", "--variant", "italian", "--fen", "W:W21,21:B1"],
    &["bestmove", "--variant", "italian", "--moves", "23-19 99-1"],
    &["bestmove", "--variant", "italian", "--depth", "0"],
    &["bestmove", "--variant", "italian", "--depth", "3", "--nodes", "100"],
    &["bestmove", "--variant", "italian", "--level", "21"],
    &["bench", "--variant", "chess"],
    &["bench", "--move-time", "0"],
    &["match", "--variant", "italian", "--games", "2", "--tc", "fast"],
    &["match", "--variant", "italian", "--games", "2", "--a", "level=25"],
    &["match", "--variant", "italian", "--games", "2", "--b", "speed=3"],
    &["match", "--variant", "italian", "--games", "2", "--b", "lmr=maybe"],
    &["match", "--variant", "italian", "--games", "2", "--openings", "/nonexistent/openings.txt"],
    &["match", "--variant", "italian", "--games", "2", "--a", "hub="],
    &["match", "--variant", "italian", "--games", "2", "--a", "hub=damiera hub,lmr=off"],
    &["match", "--variant", "italian", "--games", "2", "--a", "param.book=false"],
    &["match", "--variant", "italian", "--games", "2", "--sprt", "5,0"],
    &["match", "--variant", "italian", "--games", "2", "--sprt", "0,5", "--alpha", "0.7"],
    &["moves", "--variant", "italian", "--fen", "W:W2\n1\r:B1"],
    &["moves", "--variant", "italian", "--fen"],
    &["moves", "--variant", "italian", "--jsn"],
    &["moves"],
    &["frobnicate"],
    &[],
];

#[test]
fn bad_input_is_one_line_on_stderr_and_status_2() {
    for args in BAD_INPUT {
        let output = damiera(args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "damiera {args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "damiera {args:?} wrote to stdout");
        assert_eq!(stderr.lines().count(), 1, "damiera {args:?}: {stderr}");
        assert!(stderr.starts_with("damiera: ") && stderr.ends_with('\n'), "damiera {args:?}: {stderr}");
    }
}

#[test]
fn bad_input_messages_say_what_is_wrong() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["perft", "--variant", "italian", "--fen", "W:W33:B1", "--depth", "1"],
            "damiera: invalid FEN: token '33': square '33' is off the board\n",
        ),
        (
            &["moves", "--variant", "italian", "--fen", "W:W2\n1:B1"],
            "damiera: invalid FEN: token '2\\n1': '2\\n1' is not a square name\n",
        ),
        (
            &["moves", "--variant", "chess"],
            "damiera: invalid value 'chess' for '--variant <VARIANT>': \
             unknown variant 'chess' (expected italian, triestina or turkish)\n",
        ),
        (
            &["perft", "--variant", "italian", "--depth", "21"],
            "damiera: invalid value '21' for '--depth <DEPTH>': 21 is not in 1..=20\n",
        ),
        (
            &["perft", "--variant", "italian"],
            "damiera: the following required arguments were not provided: --depth <DEPTH>\n",
        ),
    ];
    for (args, message) in cases {
        assert_eq!(String::from_utf8_lossy(&damiera(args).stderr), message);
    }
}

#[test]
fn help_and_version_print_on_stdout_and_succeed() {
    for args in [&["--help"][..], &["-V"], &["--version"], &["perft", "--help"], &["help", "moves"]] {
        let stdout = success(args);
        assert!(!stdout.is_empty(), "damiera {args:?} printed nothing");
    }
    assert_eq!(success(&["--version"]), format!("damiera {}\n", env!("CARGO_PKG_VERSION")));
}

/// RULES.md 2.2 forces 22x13x6 here; the search must find it, in text and JSON.
#[test]
fn bestmove_plays_the_forced_capture() {
    let fen = "W:W22,29:B18,10,4";
    let text = success(&["bestmove", "--variant", "italian", "--fen", fen, "--depth", "4"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"bestmove 22x13x6"));
    assert_eq!(lines.len(), 5, "one info line per depth, then the move: {text}");
    assert!(lines[0].starts_with("info depth 1 seldepth "), "{text}");
    let json = success_json(&["bestmove", "--variant", "italian", "--fen", fen, "--depth", "4", "--json"]);
    assert_eq!(json["move"], "22x13x6");
    assert_eq!(json["depth"], 4);
    assert_eq!(json["pv"][0], "22x13x6");
    assert!(json["score"]["value"].as_i64().unwrap() > 0, "a man up: {json}");
    assert!(json["nodes"].as_u64().unwrap() > 0 && json["seconds"].as_f64().is_some());
}

/// `--moves` replays a game first: after 23-19 10-14 White must take, 19x10.
#[test]
fn bestmove_searches_after_the_moves_given() {
    let json =
        success_json(&["bestmove", "--variant", "italian", "--moves", "23-19 10-14", "--nodes", "500", "--json"]);
    assert_eq!(json["move"], "19x10");
}

/// A depth-limited search is deterministic: the same answer twice, node for node.
#[test]
fn bestmove_with_a_depth_is_deterministic() {
    let args = ["bestmove", "--variant", "turkish", "--depth", "6", "--json"];
    let (a, b) = (success_json(&args), success_json(&args));
    assert_eq!((&a["move"], &a["nodes"], &a["pv"]), (&b["move"], &b["nodes"], &b["pv"]));
}

/// The bench's node count is the search's signature: a change to the search that changes it must
/// update this number in the same commit (and say so), as the commit history shows.
#[test]
fn bench_signature() {
    let text = success(&["bench"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 15, "12 positions, then time, speed and nodes: {text}");
    assert_eq!(lines.last(), Some(&"nodes 7934197"));
    assert!(lines[12].starts_with("seconds ") && lines[13].starts_with("nodes per second "));
    let italian = success(&["bench", "--variant", "italian"]);
    assert_eq!(italian.lines().filter(|l| l.starts_with("italian depth 17 ")).count(), 4);
}

/// `bench --move-time MS` searches each position for that long and reports the share of the move
/// time used (the time manager's benchmark; the share itself is measured, never asserted).
#[test]
fn bench_with_a_move_time_reports_the_time_used() {
    let text = success(&["bench", "--variant", "turkish", "--move-time", "30"]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "4 positions, then time, time used, speed and nodes: {text}");
    assert!(lines[..4].iter().all(|l| l.starts_with("turkish depth ") && l.contains(" ms ")), "{text}");
    assert!(lines[5].starts_with("time used per search ") && lines[5].contains(" ms of 30 ms ("), "{text}");
    assert!(lines[5].ends_with("over 3 with a choice"), "one Turkish bench position has a forced capture: {text}");
    assert!(lines[5].ends_with("over 3 with a choice"), "one Turkish bench position has a forced capture: {text}");
}

/// `--multipv K` adds the K best lines to the JSON, best first, each with its move, score and line.
#[test]
fn bestmove_reports_the_best_lines_with_multipv() {
    let json = success_json(&["bestmove", "--variant", "triestina", "--depth", "5", "--multipv", "3", "--json"]);
    let lines = json["multipv"].as_array().expect("a multipv list");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["move"], json["move"]);
    assert!(lines.iter().all(|l| l["pv"][0] == l["move"] && l["score"].is_object()));
    let without = success_json(&["bestmove", "--variant", "triestina", "--depth", "5", "--json"]);
    assert!(without.get("multipv").is_none(), "only when asked");
}

/// A weak level plays a legal move, the same one for the same seed.
#[test]
fn bestmove_levels_are_reproducible_from_the_seed() {
    let args = ["bestmove", "--variant", "turkish", "--level", "3", "--seed", "11", "--depth", "6", "--json"];
    let (a, b) = (success_json(&args), success_json(&args));
    assert_eq!(a["move"], b["move"]);
    let moves = success(&["moves", "--variant", "turkish"]);
    assert!(moves.lines().any(|m| a["move"] == m), "{a}");
}

/// A short match prints its tally, score and Elo, and saves games our own PDN reader accepts.
#[test]
fn match_reports_the_result_and_saves_the_games() {
    let dir = std::env::temp_dir().join(format!("damiera-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (openings, pdn) = (dir.join("openings.txt"), dir.join("games.pdn"));
    std::fs::write(&openings, "# two openings\n23-19 10-14\n22-18 12-15 # a comment\n").unwrap();
    let text = success(&[
        "match",
        "--variant",
        "italian",
        "--games",
        "4",
        "--tc",
        "60000",
        "--a",
        "depth=4",
        "--b",
        "level=1",
        "--openings",
        openings.to_str().unwrap(),
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "depth=4 vs level=1, 4 games, italian");
    let counts: Vec<u32> = lines[1].split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert_eq!((lines[1].starts_with("wins "), counts.iter().sum::<u32>()), (true, 4), "{text}");
    assert!(lines[2].starts_with("score ") && lines[3].starts_with("elo "), "{text}");
    let games =
        damiera_engine::pdn::read_games(&std::fs::read_to_string(&pdn).unwrap(), damiera_engine::Variant::Italian)
            .expect("the match's PDN reads back");
    assert_eq!(games.len(), 4);
    // Every opening is played with both colours: games 1 and 2 start with 23-19 10-14.
    for (game, first) in games.iter().zip(["23-19", "23-19", "22-18", "22-18"]) {
        assert_eq!(game.game.moves()[0].notation, first);
    }
    assert_eq!((games[0].tag("White"), games[1].tag("White")), (Some("depth=4"), Some("level=1")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A match's games as its PDN file holds them now (none while the file is missing or empty).
fn match_games(pdn: &std::path::Path) -> Vec<damiera_engine::pdn::PdnGame> {
    let text = std::fs::read_to_string(pdn).unwrap_or_default();
    damiera_engine::pdn::read_games(&text, damiera_engine::Variant::Italian).expect("the match's PDN reads back")
}

/// Each game is in the PDN file as soon as it ends: a match stopped halfway keeps its games.
#[test]
fn a_stopped_match_keeps_the_games_it_finished() {
    let dir = std::env::temp_dir().join(format!("damiera-stopped-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pdn = dir.join("games.pdn");
    let mut long_match = Command::new(env!("CARGO_BIN_EXE_damiera"))
        .args(["match", "--variant", "italian", "--games", "1000", "--tc", "600000", "--a", "depth=5"])
        .args(["--b", "depth=5", "--pdn", pdn.to_str().unwrap()])
        .env_remove("DAMIERA_EGTB")
        .env("XDG_DATA_HOME", env!("CARGO_TARGET_TMPDIR"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let waited = std::time::Instant::now();
    // A game being written may be read half-way: only a file that reads back counts.
    let finished = || {
        let text = std::fs::read_to_string(&pdn).unwrap_or_default();
        damiera_engine::pdn::read_games(&text, damiera_engine::Variant::Italian).map_or(0, |games| games.len())
    };
    while finished() == 0 {
        assert!(waited.elapsed() < std::time::Duration::from_secs(300), "no game in the PDN after 5 minutes");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    long_match.kill().unwrap();
    long_match.wait().unwrap();
    let games = match_games(&pdn);
    assert!((1..1000).contains(&games.len()), "{} games", games.len());
    assert_eq!((games[0].tag("Round"), games[0].tag("White")), (Some("1"), Some("depth=5")));
    assert!(games[0].result.is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--resume` counts the games already in the PDN, plays the others, and leaves every game in
/// order; a file of another match is refused.
#[test]
fn a_match_resumes_from_its_pdn() {
    let dir = std::env::temp_dir().join(format!("damiera-resumed-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (openings, pdn) = (dir.join("openings.txt"), dir.join("games.pdn"));
    std::fs::write(&openings, "23-19 10-14\n22-18 12-15\n").unwrap();
    let args = |pdn: &std::path::Path, a: &str| {
        let fixed = ["match", "--variant", "italian", "--games", "4", "--tc", "600000", "--b", "depth=2"];
        let mut args: Vec<String> = fixed.iter().map(|s| s.to_string()).collect();
        for arg in ["--a", a, "--openings", openings.to_str().unwrap(), "--pdn", pdn.to_str().unwrap(), "--resume"] {
            args.push(arg.to_string());
        }
        args
    };
    let run = |args: &[String]| damiera(&args.iter().map(String::as_str).collect::<Vec<_>>());
    // The whole match, played at fixed depths: the same games every time.
    let whole = dir.join("whole.pdn");
    let output = run(&args(&whole, "depth=4"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let whole_games = match_games(&whole);
    // Games 1 and 3 kept by a match that was stopped: --resume plays games 2 and 4 only.
    let kept: String = [0, 2].iter().map(|&i| whole_games[i].to_pdn() + "\n").collect();
    std::fs::write(&pdn, kept).unwrap();
    let output = run(&args(&pdn, "depth=4"));
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let report = String::from_utf8(output.stdout).unwrap();
    let whole_report = success(&args(&whole, "depth=4").iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(report, whole_report, "the report counts the kept games and the new ones alike");
    let games = match_games(&pdn);
    let rounds: Vec<Option<&str>> = games.iter().map(|g| g.tag("Round")).collect();
    assert_eq!(rounds, [Some("1"), Some("2"), Some("3"), Some("4")]);
    for (game, expected) in games.iter().zip(&whole_games) {
        assert_eq!(game.to_pdn(), expected.to_pdn());
    }
    // Another engine as A: these games are not this match's.
    let output = run(&args(&pdn, "depth=3"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("game 1 was played by depth=4 (White) and depth=2 (Black), not by depth=3 and depth=2"),
        "{stderr}"
    );
    assert_eq!(match_games(&pdn).len(), 4, "a refused resume leaves the file as it was");
    std::fs::remove_dir_all(&dir).unwrap();
}
