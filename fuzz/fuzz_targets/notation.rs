//! Move notation, both forms the server reads: the engine's (`22x13x6`, `e3-e4`, the short
//! `22x6`) and the Hub protocol's (`22x6x18x10`), in every variant, against positions reached by
//! legal play. Whatever is accepted is a legal move of that position, and its written form reads
//! back to the same move.

#![no_main]

use arbitrary::Arbitrary;
use damiera_engine::notation;
use damiera_server::hub::notation as hub;
use libfuzzer_sys::fuzz_target;

/// The plies played from the start before the move is read: deep enough for kings.
const MAX_PLIES: usize = 120;

#[derive(Arbitrary, Debug)]
struct Input<'a> {
    /// Picks the variant.
    variant: u8,
    /// Each picks a legal move to play from the start.
    choices: Vec<u8>,
    /// The move text read in the position reached.
    text: &'a str,
}

fuzz_target!(|input: Input<'_>| {
    let variant = damiera_fuzz::variant(input.variant);
    let choices = &input.choices[..input.choices.len().min(MAX_PLIES)];
    let position = damiera_fuzz::position_after(variant, choices);
    let legal = position.legal_moves();
    if let Ok(mv) = notation::parse(&position, input.text) {
        assert!(legal.contains(&mv), "{:?} read as a move that is not legal", input.text);
        let written = notation::write(variant, &mv);
        assert_eq!(notation::parse(&position, &written), Ok(mv), "{written:?} does not read back");
    }
    if let Ok(mv) = hub::read_move(&position, input.text) {
        assert!(legal.contains(&mv), "Hub {:?} read as a move that is not legal", input.text);
        let written = hub::write_move(variant, &mv);
        assert_eq!(hub::read_move(&position, &written).ok(), Some(mv), "Hub {written:?} does not read back");
    }
});
