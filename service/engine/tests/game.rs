//! End of the game and draws, rule by rule (RULES.md 2.10, 2.11, 3.9, 3.10, 3.11): each test builds
//! a position or plays a line and asserts the exact outcome, and that nothing ends a game early.

use damiera_engine::{
    fen, Color, DrawReason, FirstMover, Game, GameError, GameOptions, MoveResult, NotationError, Outcome, Undone,
    Variant, WinReason,
};

fn game(variant: Variant, fen: &str) -> Game {
    Game::from_position(fen::parse(variant, fen).unwrap())
}

fn win(winner: Color, reason: WinReason) -> Outcome {
    Outcome::Win { winner, reason }
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for text in moves {
        assert_eq!(game.outcome(), Outcome::Ongoing, "game ended before {text}");
        game.play(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
}

/// RULES.md 2.10: White's man on 29 is blocked by 25 and 26, and 22 stops the jump over 26.
#[test]
fn italian_player_without_legal_moves_loses() {
    let g = game(Variant::Italian, "W:W29:B22,25,26");
    assert_eq!(g.outcome(), win(Color::Black, WinReason::NoMoves));
    let mut g = Game::from_position(g.position().with_turn(Color::Black));
    assert_eq!(g.outcome(), Outcome::Ongoing, "Black to move has moves");
    // Black's man leaves 22: now White's man can jump 26 and the game goes on.
    g.play("22-27").unwrap();
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(g.position().legal_moves().len(), 1);
}

/// RULES.md 2.10: capturing the last piece wins.
#[test]
fn italian_player_without_pieces_loses() {
    let mut g = game(Variant::Italian, "W:W22:B18");
    assert_eq!(g.play("22x13").unwrap(), g.moves().last().cloned().map(MoveResult::Played).unwrap());
    assert_eq!(g.outcome(), win(Color::White, WinReason::NoPieces));
    assert!(matches!(g.play("13-9"), Err(GameError::Over(_))));
}

#[test]
fn resignation_and_agreement_end_the_game() {
    let mut g = Game::new(Variant::Triestina);
    g.resign(Color::White).unwrap();
    assert_eq!(g.outcome(), win(Color::Black, WinReason::Resignation));
    assert_eq!(damiera_engine::pdn::GameResult::from_outcome(g.outcome()).token(), "0-1");
    let mut g = Game::new(Variant::Turkish);
    g.agree_draw().unwrap();
    assert_eq!(g.outcome(), Outcome::Draw { reason: DrawReason::Agreement });
    assert!(matches!(g.resign(Color::Black), Err(GameError::Over(_))));
}

/// RULES.md 2.11: the fourth occurrence of a position, same player to move, draws at once.
#[test]
fn italian_fourth_repetition_draws() {
    let mut g = game(Variant::Italian, "W:WK29:BK4");
    let cycle = ["29-25", "4-8", "25-29", "8-4"];
    for _ in 0..2 {
        play_all(&mut g, &cycle);
    }
    assert_eq!(g.repetitions(), 3);
    play_all(&mut g, &cycle[..3]);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    g.play(cycle[3]).unwrap();
    assert_eq!(g.repetitions(), 4);
    assert_eq!(g.outcome(), Outcome::Draw { reason: DrawReason::Repetition });
}

/// RULES.md 3.10: in Turkish the third occurrence draws.
#[test]
fn turkish_third_repetition_draws() {
    let mut g = game(Variant::Turkish, "W:WKa1,Kb2:BKh8,Kg7");
    let cycle = ["a1-a2", "h8-h7", "a2-a1", "h7-h8"];
    play_all(&mut g, &cycle);
    play_all(&mut g, &cycle[..3]);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    g.play(cycle[3]).unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Outcome::Draw { reason: DrawReason::Repetition });
}

/// RULES.md 3.10: a Turkish man's sideways step can be undone, so men moving sideways repeat a
/// position too (men and kings far apart: nothing is captured).
#[test]
fn turkish_men_moving_sideways_repeat() {
    let mut g = game(Variant::Turkish, "W:Wa2,Kd4:Bh7,Kh5");
    let cycle = ["a2-b2", "h7-g7", "b2-a2", "g7-h7"];
    play_all(&mut g, &cycle);
    play_all(&mut g, &cycle[..3]);
    assert_eq!(g.repetitions(), 2);
    g.play(cycle[3]).unwrap();
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Outcome::Draw { reason: DrawReason::Repetition });
}

/// Plays king moves that keep White's king on squares 21-32 and Black's on 1-12 (never in
/// contact), choosing the move whose position has occurred least, so no repetition draw comes first.
fn wander(g: &mut Game) {
    let position = *g.position();
    let home = |n: u32| match position.turn() {
        Color::White => n >= 21,
        Color::Black => n <= 12,
    };
    let mut best: Option<(usize, String)> = None;
    for mv in position.legal_moves() {
        if !home(Variant::Italian.square_number(mv.to())) {
            continue;
        }
        let next = position.play_unchecked(&mv);
        let seen = g.positions().iter().filter(|p| **p == next).count();
        let text = damiera_engine::notation::write(Variant::Italian, &mv);
        if best.as_ref().is_none_or(|(n, _)| seen < *n) {
            best = Some((seen, text));
        }
    }
    g.play(&best.expect("a king always has a move at home").1).unwrap();
}

/// RULES.md 2.11: once asked for, 40 king moves each with no capture draw the game.
#[test]
fn italian_move_count_draws_after_forty_king_moves_each() {
    let mut g = game(Variant::Italian, "W:WK29:BK4");
    let count = g.request_move_count(Color::Black).unwrap();
    assert_eq!((count.requested_by, count.started_at_ply, count.king_moves), (Color::Black, 0, [0, 0]));
    for _ in 0..79 {
        wander(&mut g);
    }
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(g.move_count().unwrap().king_moves, [40, 39]);
    wander(&mut g);
    assert_eq!(g.move_count().unwrap().king_moves, [40, 40]);
    assert_eq!(g.outcome(), Outcome::Draw { reason: DrawReason::MoveCount });
    // Undo reopens the game and restores the count as it was.
    g.undo().unwrap();
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(g.move_count().unwrap().king_moves, [40, 39]);
}

/// RULES.md 2.11: men's moves do not count, a capture ends the count without a draw.
#[test]
fn italian_move_count_ignores_men_and_ends_on_a_capture() {
    let mut g = game(Variant::Italian, "W:WK29,24:BK3,9");
    g.request_move_count(Color::White).unwrap();
    play_all(&mut g, &["24-20", "3-7"]);
    assert_eq!(g.move_count().unwrap().king_moves, [0, 1]);
    play_all(&mut g, &["29-25", "9-13", "25-21", "13-18"]);
    assert_eq!(g.move_count().unwrap().king_moves, [2, 1]);
    // The king on 21 (b3) now must take the man on 18 (c4), landing on 14.
    assert!(g.position().must_capture());
    g.play("21x14").unwrap();
    assert_eq!(g.move_count(), None, "a capture ends the count");
    assert_eq!(g.outcome(), Outcome::Ongoing);
    // A new count may be asked for afterwards.
    g.request_move_count(Color::Black).unwrap();
}

#[test]
fn move_count_needs_a_king_each_and_is_not_turkish() {
    let mut g = game(Variant::Italian, "W:WK29,24:B1,9");
    assert_eq!(
        g.request_move_count(Color::White),
        Err(GameError::MoveCountRefused("each side needs at least one king"))
    );
    let mut g = game(Variant::Turkish, "W:WKa1,b2:BKh8,g7");
    assert!(matches!(g.request_move_count(Color::White), Err(GameError::MoveCountRefused(_))));
    let mut g = game(Variant::Triestina, "W:WK46:BK5");
    g.request_move_count(Color::White).unwrap();
    assert_eq!(g.request_move_count(Color::Black), Err(GameError::MoveCountRefused("a move count is already running")));
}

/// RULES.md 3.9: a single man against a king loses at once, whoever is to move.
#[test]
fn turkish_lone_man_against_a_king_loses() {
    for fen in ["W:Wa2:BKh8,h7", "B:Wa2:BKh8,h7", "W:Wa2:BKh8"] {
        assert_eq!(game(Variant::Turkish, fen).outcome(), win(Color::Black, WinReason::LoneManAgainstKing), "{fen}");
    }
    assert_eq!(game(Variant::Turkish, "W:WKa1:Bh7").outcome(), win(Color::White, WinReason::LoneManAgainstKing));
    // Two men against a king play on; so does a lone king against men.
    assert_eq!(game(Variant::Turkish, "W:Wa2,b2:BKh8").outcome(), Outcome::Ongoing);
    assert_eq!(game(Variant::Turkish, "W:WKa1:Bh7,g7").outcome(), Outcome::Ongoing);
    // Not an Italian rule.
    assert_eq!(game(Variant::Italian, "W:W22:BK4").outcome(), Outcome::Ongoing);
}

/// RULES.md 3.10: one piece each of the same kind draws at once.
#[test]
fn turkish_one_piece_each_of_a_kind_draws() {
    let draw = Outcome::Draw { reason: DrawReason::OnePieceEach };
    assert_eq!(game(Variant::Turkish, "W:WKa1:BKh8").outcome(), draw);
    assert_eq!(game(Variant::Turkish, "B:Wa2:Bh7").outcome(), draw);
    assert_eq!(game(Variant::Italian, "W:WK29:BK4").outcome(), Outcome::Ongoing);
}

/// RULES.md 3.11, default: a capture fault is refused like any illegal move.
#[test]
fn turkish_capture_fault_is_refused_by_default() {
    let mut g = Game::new(Variant::Turkish);
    play_all(&mut g, &["e3-e4", "e6-e5"]);
    assert!(matches!(g.play("a3-a4"), Err(GameError::Move(NotationError::Illegal { .. }))));
    assert_eq!(g.outcome(), Outcome::Ongoing);
    g.play("e4xe6xe8").unwrap();
}

/// RULES.md 3.11 with the forfeit option: not capturing, or capturing fewer than the most, loses.
#[test]
fn turkish_capture_fault_forfeits_with_the_option() {
    let options = GameOptions { forfeit_on_capture_fault: true, ..GameOptions::default() };
    let mut g = Game::with_options(Variant::Turkish, options).unwrap();
    play_all(&mut g, &["e3-e4", "e6-e5"]);
    assert_eq!(g.play("a3-a4").unwrap(), MoveResult::Forfeited { text: "a3-a4".into() });
    assert_eq!(g.outcome(), win(Color::Black, WinReason::CaptureFault));
    assert_eq!(g.faulty_move(), Some("a3-a4"));
    assert_eq!(g.ply(), 2, "the faulty move is not played");

    // The legal capture is d2xd4xd6 (two pieces); a2xa4 takes one, d2xd4 stops part way.
    let start = fen::parse(Variant::Turkish, "W:Wa2,d2:Ba3,d3,d5").unwrap();
    for fault in ["a2xa4", "d2xd4", "a2-b2"] {
        let mut g = Game::setup(start, true).unwrap();
        assert_eq!(g.play(fault).unwrap(), MoveResult::Forfeited { text: fault.into() }, "{fault}");
        assert_eq!(g.outcome(), win(Color::Black, WinReason::CaptureFault));
    }
    // Other illegal moves are refused in both modes.
    for refused in ["h1-h2", "a2-a1", "d2xd6xd8"] {
        let mut g = Game::setup(start, true).unwrap();
        assert!(g.play(refused).is_err(), "{refused}");
        assert_eq!(g.outcome(), Outcome::Ongoing);
    }
    let mut g = Game::setup(start, true).unwrap();
    g.play("d2xd4xd6").unwrap();
    assert_eq!(g.outcome(), Outcome::Ongoing);
}

#[test]
fn turkish_first_mover_options() {
    let g = Game::with_options(Variant::Turkish, GameOptions { first_mover: FirstMover::Black, ..Default::default() })
        .unwrap();
    assert_eq!(g.position().turn(), Color::Black);
    assert_eq!(g.position().legal_moves().len(), 8);
    // A set-up position says who moves first: the game reports it.
    let set_up = Game::from_position(fen::parse(Variant::Italian, "B:W21:B12").unwrap());
    assert_eq!(set_up.options().first_mover, FirstMover::Black);
    assert_eq!(Game::new(Variant::Italian).options().first_mover, FirstMover::White);
    let by_lot = GameOptions { first_mover: FirstMover::ByLot, ..Default::default() };
    let turns: std::collections::HashSet<Color> =
        (0..64).map(|_| Game::with_options(Variant::Turkish, by_lot).unwrap().position().turn()).collect();
    assert_eq!(turns.len(), 2, "64 draws by lot all gave the same colour");
    for variant in [Variant::Italian, Variant::Triestina] {
        let black_first = GameOptions { first_mover: FirstMover::Black, ..Default::default() };
        assert!(matches!(Game::with_options(variant, black_first), Err(GameError::TurkishOnly { .. })));
        let forfeit = GameOptions { forfeit_on_capture_fault: true, ..Default::default() };
        assert!(matches!(Game::with_options(variant, forfeit), Err(GameError::TurkishOnly { .. })));
    }
}

#[test]
fn undo_restores_the_exact_previous_position_and_history() {
    let mut g = Game::new(Variant::Italian);
    play_all(&mut g, &["23-19", "10-14", "19x10", "6x13"]);
    let before = *g.position();
    let moves_before = g.moves().to_vec();
    g.play("21-17").unwrap();
    let Undone::Move(undone) = g.undo().unwrap() else { panic!("a move was taken back") };
    assert_eq!(undone.notation, "21-17");
    assert_eq!(*g.position(), before);
    assert_eq!(g.position().hash(), before.compute_hash());
    assert_eq!(g.moves(), &moves_before[..]);
    for _ in 0..4 {
        g.undo().unwrap();
    }
    assert_eq!(*g.position(), damiera_engine::Position::start(Variant::Italian));
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));
}

/// Undo takes back a declared ending first, and only then moves.
#[test]
fn undo_takes_back_a_declared_ending_before_any_move() {
    let mut g = Game::new(Variant::Italian);
    play_all(&mut g, &["23-19"]);
    g.resign(Color::Black).unwrap();
    assert_eq!(g.undo(), Ok(Undone::Ending(win(Color::White, WinReason::Resignation))));
    assert_eq!((g.outcome(), g.ply()), (Outcome::Ongoing, 1));
    g.agree_draw().unwrap();
    assert_eq!(g.undo(), Ok(Undone::Ending(Outcome::Draw { reason: DrawReason::Agreement })));
    assert!(matches!(g.undo(), Ok(Undone::Move(m)) if m.notation == "23-19"));
    assert_eq!(g.undo(), Err(GameError::NothingToUndo));

    // A forfeit at the very first move is taken back too.
    let options = GameOptions { forfeit_on_capture_fault: true, ..GameOptions::default() };
    let mut g =
        Game::setup(fen::parse(Variant::Turkish, "W:Wa2,d2:Ba3,d3,d5").unwrap(), options.forfeit_on_capture_fault)
            .unwrap();
    assert_eq!(g.play("a2-b2").unwrap(), MoveResult::Forfeited { text: "a2-b2".into() });
    assert!(matches!(g.undo(), Ok(Undone::Ending(Outcome::Win { reason: WinReason::CaptureFault, .. }))));
    assert_eq!((g.outcome(), g.faulty_move()), (Outcome::Ongoing, None));
    g.play("d2xd4xd6").unwrap();
}
