//! FEN: any text, for any variant, is read without panicking; a position read is written in
//! canonical form, and that form reads back to the same position and writes the same text.

#![no_main]

use damiera_engine::fen;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (variant, text) = input;
    let variant = damiera_fuzz::variant(variant);
    let Ok(position) = fen::parse(variant, text) else {
        return;
    };
    let written = fen::write(&position);
    let again = fen::parse(variant, &written).unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"));
    assert_eq!(again, position, "{text:?} -> {written:?} reads back as another position");
    assert_eq!(fen::write(&again), written, "canonical FEN is not stable");
});
