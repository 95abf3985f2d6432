//! Property tests over random games in all three variants: FEN and move notation round trips, the
//! incremental hash, positions as undo records, the short capture form, `Position::play`, and
//! perft's bulk count against the move list.
//!
//! A game is drawn as a variant and a list of numbers, each picking a legal move (modulo the
//! count) until the list or the legal moves run out, so proptest can shrink a failure to a short
//! game. Every property is checked on every position of the game.

use damiera_engine::perft::perft;
use damiera_engine::{fen, notation, Move, NotationError, Position, Variant};
use proptest::prelude::*;

mod common;

/// A variant and the choices that pick each move of a random game.
fn game() -> impl Strategy<Value = (Variant, Vec<u32>)> {
    let variant = prop_oneof![Just(Variant::Italian), Just(Variant::Triestina), Just(Variant::Turkish)];
    (variant, proptest::collection::vec(any::<u32>(), 0..160))
}

/// The game's positions, the start first, and the moves between them.
fn play_out(variant: Variant, choices: &[u32]) -> (Vec<Position>, Vec<Move>) {
    let mut positions = vec![Position::start(variant)];
    let mut moves = Vec::new();
    for &choice in choices {
        let position = *positions.last().expect("the start is there");
        let legal = position.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[choice as usize % legal.len()];
        moves.push(mv);
        positions.push(position.play_unchecked(&mv));
    }
    (positions, moves)
}

/// The same FEN written the other way round: pieces in descending order, lower case.
fn scrambled_fen(text: &str) -> String {
    let mut fields = text.split(':');
    let mut out = vec![fields.next().unwrap_or_default().to_string()];
    for field in fields {
        let (color, pieces) = field.split_at(1);
        let reversed: Vec<&str> = pieces.split(',').rev().collect();
        out.push(format!("{color}{}", reversed.join(",")));
    }
    out.join(":").to_lowercase()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// RULES.md section 1: FEN output is canonical and reads back as the same position, and input
    /// in any order and either case means the same position.
    #[test]
    fn fen_round_trips((variant, choices) in game()) {
        let (positions, _) = play_out(variant, &choices);
        for position in positions {
            let text = fen::write(&position);
            let back = fen::parse(variant, &text);
            prop_assert_eq!(back.as_ref(), Ok(&position), "{}", text);
            prop_assert_eq!(fen::write(&back.unwrap()), text.clone());
            prop_assert_eq!(fen::parse(variant, &scrambled_fen(&text)), Ok(position), "{}", text);
        }
    }

    /// The full notation the engine writes reads back as the same move.
    #[test]
    fn move_notation_round_trips((variant, choices) in game()) {
        let (positions, _) = play_out(variant, &choices);
        for position in positions {
            for mv in position.legal_moves() {
                let text = notation::write(variant, &mv);
                let parsed = notation::parse(&position, &text);
                let written = parsed.as_ref().map(|m| notation::write(variant, m));
                prop_assert_eq!(written, Ok(text.clone()), "in {}", position.to_fen());
                prop_assert_eq!(parsed, Ok(mv), "{} in {}", text, position.to_fen());
            }
        }
    }

    /// The hash kept move by move equals the hash computed from the pieces.
    #[test]
    fn incremental_hash_equals_fresh_hash((variant, choices) in game()) {
        let (positions, _) = play_out(variant, &choices);
        for position in positions {
            prop_assert_eq!(position.hash(), position.compute_hash(), "{}", position.to_fen());
            let other_side = position.with_turn(position.turn().opposite());
            prop_assert_eq!(other_side.hash(), other_side.compute_hash(), "{}", other_side.to_fen());
        }
    }

    /// Positions are their own undo records: playing a move leaves the position it was played in
    /// as it was, so going back is taking the previous position from a stack, and replaying from
    /// any stacked position gives the same game again.
    #[test]
    fn undo_is_going_back_to_the_previous_position((variant, choices) in game()) {
        let (positions, moves) = play_out(variant, &choices);
        let recorded: Vec<(String, u64, Vec<Move>)> =
            positions.iter().map(|p| (p.to_fen(), p.hash(), p.legal_moves())).collect();
        for position in &positions {
            let copy = *position;
            for mv in position.legal_moves() {
                let next = position.play(&mv);
                prop_assert!(next.is_ok());
                prop_assert_eq!(position, &copy);
            }
        }
        // Unwind the stack: each position is still the one recorded, and playing its move again
        // leads to the next one.
        for i in (0..moves.len()).rev() {
            let (fen, hash, legal) = &recorded[i];
            prop_assert_eq!(&positions[i].to_fen(), fen);
            prop_assert_eq!(positions[i].hash(), *hash);
            prop_assert_eq!(&positions[i].legal_moves(), legal);
            prop_assert_eq!(positions[i].play_unchecked(&moves[i]), positions[i + 1]);
        }
        // Replaying from the start gives the same positions.
        let (replayed, _) = play_out(variant, &choices);
        prop_assert_eq!(replayed, positions);
    }

    /// RULES.md section 1: `from x to` names a capture when exactly one legal move fits it, and
    /// otherwise is refused with every fitting move listed.
    #[test]
    fn short_capture_form_names_the_move_or_lists_it((variant, choices) in game()) {
        let (positions, _) = play_out(variant, &choices);
        for position in positions {
            let legal = position.legal_moves();
            for mv in legal.iter().filter(|m| m.is_capture()) {
                let text = format!("{}x{}", variant.square_name(mv.from()), variant.square_name(mv.to()));
                let fits: Vec<String> = legal
                    .iter()
                    .filter(|m| m.is_capture() && m.from() == mv.from() && m.to() == mv.to())
                    .map(|m| notation::write(variant, m))
                    .collect();
                let parsed = notation::parse(&position, &text);
                if fits.len() == 1 {
                    let written = parsed.as_ref().map(|m| notation::write(variant, m));
                    prop_assert_eq!(written, Ok(fits[0].clone()), "{} in {}", text, position.to_fen());
                    prop_assert_eq!(parsed, Ok(*mv), "{} in {}", text, position.to_fen());
                } else {
                    let Err(NotationError::Ambiguous { candidates, .. }) = parsed else {
                        return Err(TestCaseError::fail(format!(
                            "{text} in {} fits {fits:?} but parses as {parsed:?}", position.to_fen()
                        )));
                    };
                    let mut candidates = candidates;
                    let mut fits = fits;
                    candidates.sort();
                    fits.sort();
                    prop_assert_eq!(candidates, fits, "{} in {}", text, position.to_fen());
                }
            }
        }
    }

    /// `Position::play` accepts every legal move and refuses moves that are not: a quiet move from
    /// an empty square, a legal move with its promotion flag flipped, a capture missing a piece.
    #[test]
    fn play_accepts_legal_moves_and_refuses_others((variant, choices) in game()) {
        let (positions, _) = play_out(variant, &choices);
        for position in positions {
            let fen = position.to_fen();
            for mv in position.legal_moves() {
                prop_assert_eq!(position.play(&mv), Ok(position.play_unchecked(&mv)), "{}", fen);
                let flipped = if mv.is_capture() {
                    Move::capture(mv.from(), mv.landings(), mv.captured(), !mv.promotes())
                } else {
                    Move::quiet(mv.from(), mv.to(), !mv.promotes())
                };
                prop_assert!(position.play(&flipped).is_err(), "{:?} in {}", flipped, fen);
                if let Some(first) = mv.captured().first() {
                    let short = Move::capture(mv.from(), mv.landings(), mv.captured().without(first), mv.promotes());
                    prop_assert!(position.play(&short).is_err(), "{:?} in {}", short, fen);
                }
            }
            let board: Vec<_> = variant.board().collect();
            for empty in position.empty().take(4) {
                let to = board[(board.iter().position(|&sq| sq == empty).unwrap() + 1) % board.len()];
                let ghost = Move::quiet(empty, to, false);
                prop_assert!(position.play(&ghost).is_err(), "{:?} in {}", ghost, fen);
            }
        }
    }
}

/// A full capture path names its start square: two men can land on the same square, and the
/// written start says which one moves (found by `move_notation_round_trips`).
#[test]
fn full_capture_path_keeps_its_start_square() {
    for (variant, fen, text) in
        [(Variant::Turkish, "W:Wb6,d4:Bc6,d5,h8", "b6xd6"), (Variant::Italian, "W:W22,24:B18,19,20,1", "24x15")]
    {
        let position = fen::parse(variant, fen).unwrap();
        let mv = notation::parse(&position, text).unwrap();
        assert_eq!(notation::write(variant, &mv), text, "in {fen}");
    }
}

/// The ambiguous branch of `short_capture_form_names_the_move_or_lists_it`, which random games
/// reach only now and then: the man on 22 can reach 6 over 19 and 11 or over 18 and 10.
#[test]
fn short_capture_form_lists_every_fitting_move() {
    let position = fen::parse(Variant::Italian, "W:W22:B19,11,18,10").unwrap();
    let err = notation::parse(&position, "22x6").unwrap_err();
    let NotationError::Ambiguous { mut candidates, .. } = err else { panic!("{err:?}") };
    candidates.sort();
    assert_eq!(candidates, ["22x13x6", "22x15x6"]);
}

/// Perft's last ply counts moves without building them (whole-board shifts, a counting search,
/// a shortcut for men's single jumps): its count must equal the length of the move list, in
/// random games and in random set-ups full of kings, in every variant.
#[test]
fn bulk_count_equals_the_number_of_legal_moves() {
    let mut rng = common::Rng::new(0xB0_1C);
    for variant in Variant::ALL {
        let mut positions = common::Distinct::default();
        common::add_random_games(&mut positions, variant, &mut rng, 4_000, 200);
        common::add_random_setups(&mut positions, variant, &mut rng, 4_000);
        let positions = positions.positions;
        assert!(positions.len() >= 7_000, "{variant}: only {} positions", positions.len());
        for position in &positions {
            let listed = position.legal_moves().len() as u64;
            assert_eq!(perft(position, 1), listed, "{variant} {}", position.to_fen());
            let two_plies: u64 =
                position.legal_moves().iter().map(|m| position.play_unchecked(m).legal_moves().len() as u64).sum();
            assert_eq!(perft(position, 2), two_plies, "{variant} {}", position.to_fen());
        }
    }
}
