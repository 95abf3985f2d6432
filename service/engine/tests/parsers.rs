//! The parsers take any text without panicking (the service must never panic on input): FEN,
//! move notation and PDN, on arbitrary strings and on valid ones with random damage; whatever a
//! parser accepts must also write back and read again to the same thing. A quick check in every
//! `cargo test`: the coverage-guided fuzz targets in `fuzz/` go much further (docs/testing.md).

use damiera_engine::{fen, notation, pdn, Position, Variant};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Italian), Just(Variant::Triestina), Just(Variant::Turkish)]
}

/// Valid text with random damage: characters replaced, inserted or removed.
fn damaged(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    let edits = proptest::collection::vec((any::<usize>(), any::<char>(), 0u8..3), 0..6);
    (proptest::sample::select(valid), edits).prop_map(|(text, edits)| {
        let mut chars: Vec<char> = text.chars().collect();
        for (at, c, kind) in edits {
            let at = at % (chars.len() + 1);
            match kind {
                0 if at < chars.len() => chars[at] = c,
                1 => chars.insert(at, c),
                _ if at < chars.len() => {
                    chars.remove(at);
                }
                _ => {}
            }
        }
        chars.into_iter().collect()
    })
}

const FENS: &[&str] =
    &["W:W21-32:B1-12", "B:WK30,21,22:B1,K12,10", "W:Wa2,b2,Kd4:Ba7,h6", "W:W31-50:B1-20", "w:bk2,3:w29"];

const MOVES: &[&str] = &["21-17", "22x13x6", "e3-e4", "b3xd3xd5", "22x6", "a1xa6", "31-27", "46x37x28"];

const PDN: &[&str] = &[
    "[Event \"x\"]\n[GameType \"22\"]\n\n1. 23-19 {c} 10-14 2. 19x10 (2. 22-18 $1) 5x14 1-0\n",
    "[GameType \"30,W,8,8,A0,0\"]\n[SetUp \"1\"]\n[FEN \"W:Wa2,d2:Ba3,d3,d5\"]\n1. d2xd4xd6 *\n",
    "1. 31-27 20-24 ; comment\n2. 27-22 *",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fen_takes_any_text(variant in variant(), text in prop_oneof![any::<String>(), damaged(FENS)]) {
        if let Ok(position) = fen::parse(variant, &text) {
            prop_assert_eq!(fen::parse(variant, &position.to_fen()), Ok(position));
        }
    }

    #[test]
    fn notation_takes_any_text(variant in variant(), text in prop_oneof![any::<String>(), damaged(MOVES)]) {
        let position = Position::start(variant);
        if let Ok(mv) = notation::parse(&position, &text) {
            prop_assert_eq!(notation::parse(&position, &notation::write(variant, &mv)), Ok(mv));
        }
    }

    #[test]
    fn pdn_takes_any_text(variant in variant(), text in prop_oneof![any::<String>(), damaged(PDN)]) {
        if let Ok(games) = pdn::read_games(&text, variant) {
            for game in games {
                let again = pdn::read_games(&game.to_pdn(), variant).expect("written PDN reads back");
                prop_assert_eq!(again.len(), 1);
                prop_assert_eq!(again[0].game.moves(), game.game.moves());
            }
        }
    }
}
