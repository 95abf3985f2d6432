//! FEN reading and writing against `tests/data/fen.cases` (RULES.md section 1): what is accepted
//! and the canonical form it is written back in, and what is refused with a message naming the
//! offending token. The format is described at the top of the data file.
//!
//! Every failing case is reported, with its line, before the test fails.

use std::fs;
use std::path::Path;

use damiera_engine::{fen, Variant};

/// Fewer cases than this means the file went missing or stopped parsing.
const MIN_CASES: usize = 40;

/// What an input must give.
enum Expected {
    /// This canonical FEN.
    Canonical(String),
    /// A refusal whose message contains each of these.
    Error(Vec<String>),
}

/// One line of the data file.
struct Case {
    /// `fen.cases:12`, for messages.
    origin: String,
    variant: Variant,
    input: String,
    expected: Expected,
}

fn read_cases() -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fen.cases");
    let text = fs::read_to_string(&path).expect("tests/data/fen.cases exists");
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty() && !line.trim_start().starts_with('#'))
        .map(|(index, line)| {
            let origin = format!("fen.cases:{}", index + 1);
            let fields: Vec<&str> = line.split('|').map(str::trim).collect();
            let [variant, input, expected] = fields[..] else {
                panic!("{origin}: expected 'variant | input | expected', got '{line}'");
            };
            let variant = variant.parse().unwrap_or_else(|e| panic!("{origin}: {e}"));
            let expected = match expected.strip_prefix("error:") {
                Some(parts) => Expected::Error(parts.split('&').map(|s| s.trim().to_string()).collect()),
                None => Expected::Canonical(expected.to_string()),
            };
            Case { origin, variant, input: input.to_string(), expected }
        })
        .collect()
}

fn check(case: &Case) -> Option<String> {
    let result = fen::parse(case.variant, &case.input);
    match (&case.expected, result) {
        (Expected::Canonical(canonical), Ok(position)) => {
            let written = position.to_fen();
            if &written != canonical {
                return Some(format!("written as {written}, expected {canonical}"));
            }
            // Canonical output reads back as the same position and is written the same way.
            match fen::parse(case.variant, &written) {
                Ok(again) if again == position && again.to_fen() == written => None,
                Ok(again) => Some(format!("{written} reads back as {}", again.to_fen())),
                Err(e) => Some(format!("the canonical form {written} is refused: {e}")),
            }
        }
        (Expected::Canonical(canonical), Err(e)) => Some(format!("refused ({e}), expected {canonical}")),
        (Expected::Error(parts), Ok(position)) => {
            Some(format!("accepted as {}, expected an error naming {}", position.to_fen(), parts.join(" and ")))
        }
        (Expected::Error(parts), Err(e)) => {
            let message = e.to_string();
            let absent: Vec<&String> = parts.iter().filter(|part| !message.contains(part.as_str())).collect();
            (!absent.is_empty()).then(|| format!("the message '{message}' does not contain {absent:?}"))
        }
    }
}

#[test]
fn fen_cases_are_read_written_and_refused_as_rules_md_says() {
    let cases = read_cases();
    assert!(cases.len() > MIN_CASES, "only {} FEN cases read: the data file is missing or misparsed", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check(case).map(|problem| format!("{} {} '{}': {problem}", case.origin, case.variant, case.input))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} FEN cases failed:\n  {}",
        failures.len(),
        cases.len(),
        failures.join("\n  ")
    );
}
