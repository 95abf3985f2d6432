//! Rule-by-rule move generation: every case in `tests/data/rules/*.rules` is a position with the
//! exact set of legal moves RULES.md gives it, worked out by hand, and optionally one move played
//! with the position it must leave.
//!
//! The file format, one case per block of `key: value` lines, blocks separated by blank lines,
//! `#` starting a comment line:
//!
//! ```text
//! id: it-2.4-man-cannot-capture-king   unique over all files
//! rule: 2.4                            the RULES.md rule the case is about
//! variant: italian                     italian, triestina or turkish
//! fen: W:W22:BK18,11
//! moves: 22-19                         every legal move in full notation, or `none`
//! play: 22-19                          optional: a move to play...
//! fen-after: B:W19:BK18,11             ...and the canonical FEN it must give
//! refuse: 22-18 22x13                  optional: moves that must be refused as illegal
//! ```
//!
//! `moves:` may be repeated; the lists are joined. One move whose capture can be written along
//! several paths (same start, end and captured pieces: one move, RULES.md section 1) is written as
//! its paths joined by `|`; the engine must list exactly one of them, once.
//!
//! Every failing case is reported, with its id and rule, before the test fails.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use damiera_engine::{fen, notation, perft, Position, Variant};

/// Fewer cases than this means a file went missing or stopped parsing.
const MIN_CASES: usize = 60;

/// One position with what RULES.md says about it.
struct Case {
    /// Where the case starts, for messages: `italian.rules:42`.
    origin: String,
    /// Unique name of the case.
    id: String,
    /// The RULES.md rule the case checks.
    rule: String,
    /// The text of the `variant:` line.
    variant: String,
    /// The position.
    fen: String,
    /// The legal moves; each entry is one move, as the list of paths it may be written as.
    moves: Vec<Vec<String>>,
    /// Whether a `moves:` line was given at all.
    has_moves: bool,
    /// A move to play, if any.
    play: Option<String>,
    /// The canonical FEN after `play`.
    fen_after: Option<String>,
    /// Moves that must be refused.
    refuse: Vec<String>,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/rules")
}

fn read_cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = fs::read_dir(data_dir())
        .expect("tests/data/rules exists")
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "rules"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&file).expect("readable rules file");
        cases.extend(parse_file(&name, &text));
    }
    cases
}

fn parse_file(name: &str, text: &str) -> Vec<Case> {
    let mut cases = Vec::new();
    let mut block: Vec<(usize, &str)> = Vec::new();
    for (index, line) in text.lines().enumerate().chain([(usize::MAX, "")]) {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if !block.is_empty() {
                cases.push(parse_block(name, &block));
                block.clear();
            }
            continue;
        }
        block.push((index + 1, line));
    }
    cases
}

fn parse_block(name: &str, lines: &[(usize, &str)]) -> Case {
    let origin = format!("{name}:{}", lines[0].0);
    let mut fields: BTreeMap<&str, String> = BTreeMap::new();
    let mut moves = Vec::new();
    let mut has_moves = false;
    let mut refuse = Vec::new();
    for &(number, line) in lines {
        let (key, value) =
            line.split_once(':').unwrap_or_else(|| panic!("{name}:{number}: expected 'key: value', got '{line}'"));
        let (key, value) = (key.trim(), value.trim());
        match key {
            "moves" => {
                has_moves = true;
                if value != "none" {
                    moves.extend(value.split_whitespace().map(|m| m.split('|').map(str::to_string).collect()));
                }
            }
            "refuse" => refuse.extend(value.split_whitespace().map(str::to_string)),
            "id" | "rule" | "variant" | "fen" | "play" | "fen-after" => {
                let previous = fields.insert(key, value.to_string());
                assert!(previous.is_none(), "{name}:{number}: '{key}' given twice");
            }
            _ => panic!("{name}:{number}: unknown key '{key}'"),
        }
    }
    let mut take = |key: &str| fields.remove(key);
    let required =
        |value: Option<String>, key: &str| value.unwrap_or_else(|| panic!("{origin}: the case has no '{key}' line"));
    Case {
        id: required(take("id"), "id"),
        rule: required(take("rule"), "rule"),
        variant: required(take("variant"), "variant"),
        fen: required(take("fen"), "fen"),
        play: take("play"),
        fen_after: take("fen-after"),
        origin: origin.clone(),
        moves,
        has_moves,
        refuse,
    }
}

/// Checks one case, returning what is wrong with it.
fn check(case: &Case) -> Vec<String> {
    let mut problems = Vec::new();
    if !case.has_moves {
        problems.push("no 'moves:' line".to_string());
    }
    if case.play.is_some() != case.fen_after.is_some() {
        problems.push("'play' and 'fen-after' go together".to_string());
    }
    let variant: Variant = match case.variant.parse() {
        Ok(variant) => variant,
        Err(e) => return vec![e.to_string()],
    };
    let position = match fen::parse(variant, &case.fen) {
        Ok(position) => position,
        Err(e) => return vec![format!("FEN refused: {e}")],
    };
    let legal = position.legal_moves();
    let written: Vec<String> = legal.iter().map(|m| notation::write(variant, m)).collect();

    for (i, mv) in legal.iter().enumerate() {
        if let Some(j) = legal[..i].iter().position(|other| other.same_move(mv)) {
            problems.push(format!("{} and {} are the same move, listed twice", written[j], written[i]));
        }
    }
    let mut matched = vec![0; case.moves.len()];
    let mut unexpected = Vec::new();
    for text in &written {
        match case.moves.iter().position(|paths| paths.contains(text)) {
            Some(k) => matched[k] += 1,
            None => unexpected.push(text.clone()),
        }
    }
    let missing: Vec<String> =
        case.moves.iter().zip(&matched).filter(|(_, &n)| n == 0).map(|(paths, _)| paths.join("|")).collect();
    let repeated: Vec<String> =
        case.moves.iter().zip(&matched).filter(|(_, &n)| n > 1).map(|(paths, _)| paths.join("|")).collect();
    if !missing.is_empty() || !unexpected.is_empty() || !repeated.is_empty() {
        problems.push(format!(
            "legal moves differ: missing [{}], unexpected [{}], listed more than once [{}]; engine lists [{}]",
            missing.join(" "),
            unexpected.join(" "),
            repeated.join(" "),
            written.join(" ")
        ));
    }

    // The bulk counters and the capture test are separate code paths: they must agree with the list.
    let captures = legal.first().is_some_and(|m| m.is_capture());
    if position.must_capture() != captures {
        problems.push(format!("must_capture() says {}, the move list says {captures}", position.must_capture()));
    }
    let counted = perft::perft(&position, 1);
    if counted != legal.len() as u64 {
        problems.push(format!("perft 1 counts {counted}, legal_moves lists {}", legal.len()));
    }

    if let (Some(play), Some(expected)) = (&case.play, &case.fen_after) {
        problems.extend(check_play(&position, variant, play, expected));
    }
    for text in &case.refuse {
        if let Ok(after) = position.play_notation(text) {
            problems.push(format!("{text} should be refused, but was played, giving {}", after.to_fen()));
        }
    }
    problems
}

fn check_play(position: &Position, variant: Variant, play: &str, expected: &str) -> Option<String> {
    match position.play_notation(play) {
        Err(e) => Some(format!("playing {play} failed: {e}")),
        Ok(after) if after.to_fen() != expected => {
            Some(format!("after {play}: expected {expected}, got {}", after.to_fen()))
        }
        Ok(after) => match fen::parse(variant, expected) {
            Ok(parsed) if parsed == after => None,
            Ok(_) => Some(format!("after {play}: {expected} reads back as a different position")),
            Err(e) => Some(format!("fen-after refused: {e}")),
        },
    }
}

#[test]
fn every_rule_case_has_the_legal_moves_rules_md_gives() {
    let cases = read_cases();
    assert!(cases.len() > MIN_CASES, "only {} rule cases read: a data file is missing or misparsed", cases.len());

    let mut per_variant: BTreeMap<&str, usize> = BTreeMap::new();
    let mut ids: BTreeMap<&str, &str> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        *per_variant.entry(case.variant.as_str()).or_default() += 1;
        if let Some(first) = ids.insert(&case.id, &case.origin) {
            failures.push(format!("{} ({}): id already used at {first}", case.id, case.origin));
        }
        for problem in check(case) {
            failures.push(format!("{} [rule {}] ({}): {problem}", case.id, case.rule, case.origin));
        }
    }
    eprintln!("rule cases per variant: {per_variant:?}");
    assert!(
        failures.is_empty(),
        "{} problem(s) in {} rule cases:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}
