//! The opening suites in `data/openings/`: every line is a legal game start written in full
//! notation, no game ends during an opening, no two openings reach the same position, and each
//! suite is large enough for a match. (Balance is the generator's job, `examples/openings.rs`: it
//! needs deep searches, and the engine's scores change as it improves.)

use std::collections::HashMap;
use std::fs;
use std::path::Path;

use damiera_engine::{Game, MoveResult, Outcome, Variant};

/// Fewer openings than this make a match too short to say much.
const MIN_OPENINGS: usize = 40;

/// The openings of a variant's file: (line number, text), comments and blank lines left out.
fn openings(variant: Variant) -> Vec<(usize, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings").join(format!("{}.txt", variant.name()));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| (number, line.to_string()))
        .collect()
}

/// The game after the opening, or why it cannot be played.
fn play(variant: Variant, opening: &str) -> Result<Game, String> {
    let mut game = Game::new(variant);
    for text in opening.split_whitespace() {
        match game.play(text).map_err(|e| format!("{text}: {e}"))? {
            MoveResult::Played(played) if played.notation == text => {}
            MoveResult::Played(played) => {
                return Err(format!("{text} is written {} in full notation", played.notation))
            }
            MoveResult::Forfeited { .. } => return Err(format!("{text} forfeits the game")),
        }
    }
    Ok(game)
}

#[test]
fn every_opening_plays_legally_and_leaves_the_game_going() {
    for variant in Variant::ALL {
        for (number, opening) in openings(variant) {
            let game = play(variant, &opening).unwrap_or_else(|e| panic!("{variant} line {number} '{opening}': {e}"));
            assert_eq!(game.outcome(), Outcome::Ongoing, "{variant} line {number} '{opening}' ends the game");
        }
    }
}

#[test]
fn no_two_openings_reach_the_same_position() {
    for variant in Variant::ALL {
        let mut reached: HashMap<String, usize> = HashMap::new();
        for (number, opening) in openings(variant) {
            let Ok(game) = play(variant, &opening) else { continue }; // the test above reports it
            if let Some(first) = reached.insert(game.position().to_fen(), number) {
                panic!("{variant}: lines {first} and {number} reach the same position");
            }
        }
    }
}

#[test]
fn every_suite_is_large_enough() {
    for variant in Variant::ALL {
        let count = openings(variant).len();
        assert!(count >= MIN_OPENINGS, "{variant}: {count} openings, fewer than {MIN_OPENINGS}");
    }
}
