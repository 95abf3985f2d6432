//! Differential test of Dama Turca against the `kish` crate, an independent implementation.
//!
//! Both engines list the legal moves of the same positions (from random games, and random set-ups
//! with kings, which random games seldom reach) and must agree exactly. A move is compared as what
//! it does, (captured squares, resulting position), because kish keeps every capture path as its
//! own move (RULES.md section 1 merges them) and cannot name the start or end square of a king
//! capture that goes round and ends where it began. Both engines put a1 on bit 0 and h8 on bit 63,
//! so bitboards compare directly.

mod common;

use std::collections::BTreeSet;
use std::time::Instant;

use common::{add_random_games, add_random_setups, Distinct, Rng};
use damiera_engine::{Color, Position, Variant};
use kish::{Board, State, Team};

/// What a move does: (captured squares, white pieces, black pieces, kings) afterwards.
type Outcome = (u64, u64, u64, u64);

fn outcome(captured: u64, white: u64, black: u64, kings: u64) -> Outcome {
    (captured, white, black, kings)
}

fn to_kish(position: &Position) -> Board {
    let turn = match position.turn() {
        Color::White => Team::White,
        Color::Black => Team::Black,
    };
    let pieces = [position.pieces_of(Color::White).0, position.pieces_of(Color::Black).0];
    Board::new(turn, State::new(pieces, position.kings().0))
}

/// Our moves' outcomes, in our order (duplicates kept, so that the caller can look for them).
fn our_outcomes(position: &Position) -> Vec<Outcome> {
    position
        .legal_moves()
        .iter()
        .map(|mv| {
            let next = position.play_unchecked(mv);
            let (white, black) = (next.pieces_of(Color::White).0, next.pieces_of(Color::Black).0);
            outcome(mv.captured().0, white, black, next.kings().0)
        })
        .collect()
}

/// What kish's moves do, merged, with kish's raw move count and whether one of them was a king
/// capture that ends on its own start square.
fn kish_outcomes(board: &Board) -> (BTreeSet<Outcome>, usize, bool) {
    let actions = board.actions();
    let us = board.turn as usize;
    let mut round_trip = false;
    let merged = actions
        .iter()
        .map(|action| {
            round_trip |= action.delta.pieces[us] == 0;
            let next = board.apply(action).state;
            outcome(action.captured_pieces(board.turn), next.pieces[0], next.pieces[1], next.kings)
        })
        .collect();
    (merged, actions.len(), round_trip)
}

fn squares(bits: u64) -> String {
    let names: Vec<String> = damiera_engine::Bitboard(bits).map(|sq| Variant::Turkish.square_name(sq)).collect();
    names.join(",")
}

fn describe(o: &Outcome) -> String {
    let (captured, white, black, kings) = *o;
    format!("captures [{}] -> W[{}] B[{}] K[{}]", squares(captured), squares(white), squares(black), squares(kings))
}

/// Compares one position; returns a report of the disagreement, if any.
fn compare(position: &Position, stats: &mut Stats) -> Option<String> {
    let ours = our_outcomes(position);
    let ours_set: BTreeSet<Outcome> = ours.iter().copied().collect();
    let (theirs, raw, round_trip) = kish_outcomes(&to_kish(position));
    stats.moves += ours.len();
    stats.kish_paths += raw;
    stats.with_duplicate_paths += usize::from(raw > theirs.len());
    stats.with_round_trip += usize::from(round_trip);
    stats.with_captures += usize::from(position.must_capture());
    stats.with_kings += usize::from(position.kings().is_nonempty());
    if ours_set.len() == ours.len() && ours_set == theirs {
        return None;
    }
    let mut report = format!("{}\n", position.to_fen());
    if ours_set.len() != ours.len() {
        report += "  damiera lists one move twice\n";
    }
    for only in ours_set.difference(&theirs) {
        report += &format!("  only damiera: {}\n", describe(only));
    }
    for only in theirs.difference(&ours_set) {
        report += &format!("  only kish:    {}\n", describe(only));
    }
    Some(report)
}

#[derive(Default)]
struct Stats {
    moves: usize,
    kish_paths: usize,
    with_duplicate_paths: usize,
    with_round_trip: usize,
    with_captures: usize,
    with_kings: usize,
}

#[test]
fn legal_moves_agree_with_kish() {
    let started = Instant::now();
    let mut rng = Rng::new(0x00DA_31E2_7E57_0001);
    let mut positions = Distinct::default();
    add_random_games(&mut positions, Variant::Turkish, &mut rng, 60_000, 300);
    let from_games = positions.len();
    add_random_setups(&mut positions, Variant::Turkish, &mut rng, 40_000);

    let mut stats = Stats::default();
    let failures: Vec<String> = positions.positions.iter().filter_map(|p| compare(p, &mut stats)).collect();

    let compared = positions.len();
    println!(
        "kish: {compared} positions ({from_games} from random games, {} set-ups), {} moves, \
         {} kish paths; {} positions with a capture, {} with kings, {} with duplicate paths, \
         {} with a king capture ending on its start square; {:.2?}",
        compared - from_games,
        stats.moves,
        stats.kish_paths,
        stats.with_captures,
        stats.with_kings,
        stats.with_duplicate_paths,
        stats.with_round_trip,
        started.elapsed(),
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} positions disagree with kish; the first ones:\n{}",
        failures.len(),
        failures.iter().take(10).cloned().collect::<String>()
    );
    assert!(compared >= 10_000, "only {compared} positions compared");
    // Without these the comparison would say little about captures and kings.
    assert!(stats.with_captures > 1_000 && stats.with_kings > 1_000);
}

/// The case that makes kish's start and end squares unusable, checked on its own: K b2 takes
/// b4, d6, f4 and d2 and comes back to b2 (RULES.md 3.4-3.6), in two directions that are one move.
#[test]
fn king_capture_ending_on_its_start_square_is_one_move() {
    let position = damiera_engine::fen::parse(Variant::Turkish, "W:WKb2:Bb4,d6,f4,d2,h8").unwrap();
    let moves = position.legal_moves();
    let b2 = Variant::Turkish.parse_square("b2").unwrap();
    let loops: Vec<_> = moves.iter().filter(|m| m.from() == b2 && m.to() == b2).collect();
    assert_eq!(loops.len(), 1, "{moves:?}");
    assert_eq!(loops[0].captured().count(), 4);
    let mut stats = Stats::default();
    assert_eq!(compare(&position, &mut stats), None);
    assert!(stats.with_round_trip == 1 && stats.kish_paths > moves.len());
}
