//! PDN: any text, as whole files of any number of games, for any default variant, is read without
//! panicking. Every game accepted replays move by move from its start to the same moves, and the
//! PDN written for it reads back to the same start, moves and result (the declared one, else the
//! game's outcome, as the writer documents).

#![no_main]

use damiera_engine::pdn::GameResult;
use damiera_engine::{notation, pdn};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: (u8, &str)| {
    let (variant, text) = input;
    let Ok(games) = pdn::read_games(text, damiera_fuzz::variant(variant)) else {
        return;
    };
    for read in games {
        let game = &read.game;
        let mut position = *game.start();
        for played in game.moves() {
            let mv = notation::parse(&position, &played.notation)
                .unwrap_or_else(|e| panic!("the accepted move {} does not replay: {e}", played.notation));
            assert_eq!(mv, played.mv, "{} replays as another move", played.notation);
            position = position.play(&mv).expect("a legal move plays");
        }
        let written = read.to_pdn();
        let again =
            pdn::read_games(&written, game.variant()).unwrap_or_else(|e| panic!("{written}\ndoes not read: {e}"));
        assert_eq!(again.len(), 1, "one game written, {} read back:\n{written}", again.len());
        assert_eq!(again[0].game.start(), game.start(), "another start:\n{written}");
        assert_eq!(again[0].game.moves(), game.moves(), "other moves:\n{written}");
        // A record that declares no result is written with the game's outcome (`*` if ongoing).
        let declared = read.result.unwrap_or_else(|| GameResult::from_outcome(game.outcome()));
        assert_eq!(again[0].result, Some(declared), "another result:\n{written}");
    }
});
