//! How the search uses the endgame databases: the score of a position they hold, the root moves
//! that keep the root's value, and how database scores read out.
//!
//! A position the databases hold is scored by them and not searched below. A database win is
//! not a win in a known number of plies, so it does not get a mate score (`WIN - ply`): it is a
//! band of its own below the mate scores and above every estimate, `DATABASE_WIN - ply` plus the
//! evaluation (held within ±[`MARGIN`]). A forced win the search sees still scores higher; among
//! database wins, one reached sooner or with more material (a capture) scores higher. A database
//! draw is 0, a loss the win's negative.
//!
//! A root the databases hold needs more than a probe of its children: they would all score the
//! same and the engine would wander without winning; and a search that stops at every change of
//! balance there finds any change worth more than none, a sacrifice included. So when the
//! databases hold the root, the search keeps only the root moves that keep the root's value
//! ([`RootValue`]: a win is never let go, a draw never lost), and of a win's, when the databases
//! have their distances to conversion, only those that convert soonest: each such move brings the
//! next capture, promotion or end of the game one move nearer whatever the opponent does, so the
//! win cannot stall, however long its plan. Below the root moves the search goes on through every
//! position that keeps the root's value as a search without databases would, which chooses among
//! equally soon conversions (and, without distances, looks for the capture, the promotion or the
//! end of the game that takes the win one step on). Only a position of another value is scored by
//! the databases and cut: one worse than the root's for the root's side to move as far below
//! every estimate as a database loss (the side that wins never plays towards a draw), one better
//! as far above.
//!
//! A repetition on the searched line (and a drawn material ending) is off the way too when the
//! root is won or lost: the side that wins never repeats, the side that loses is glad to.
//!
//! The values are the game's with best play and no draw rules: the repetition draw and the Italian
//! move count are left out of them (a database win may, in principle, need more than the move
//! count allows). The search scores repetitions itself, before it probes.

use super::eval::{evaluate_with, Evaluation};
use crate::egtb::{Material, Tablebase, Wdl};
use crate::{Move, Position};

/// A database win at the root, before the evaluation and the distance are added.
const DATABASE_WIN: i32 = 20_000;
/// The most the evaluation moves a database win's score.
const MARGIN: i32 = 1_000;
/// The longest line the search follows (alphabeta's `MAX_PLY`).
const MAX_PLY: i32 = 128;

/// What the databases say of a root they hold.
#[derive(Clone, Debug)]
pub(super) struct RootValue {
    /// The root's value for its side to move.
    value: Wdl,
    /// The root moves that keep `value` (all of them for a loss), and of a win's only those
    /// that convert soonest when the databases know which.
    pub(super) kept: Vec<Move>,
    /// Whether `kept` holds every legal move.
    pub(super) kept_all: bool,
}

impl RootValue {
    /// The databases' value of `root`, whose legal moves are `legal`, if they hold it.
    pub(super) fn of(tablebase: &Tablebase, root: &Position, legal: &[Move]) -> Option<RootValue> {
        let value = tablebase.probe(root)?;
        let keeps = |mv: &Move| tablebase.probe(&root.play_unchecked(mv)).is_none_or(|child| child.opposite() == value);
        let mut kept: Vec<Move> = legal.iter().copied().filter(keeps).collect();
        if kept.is_empty() {
            kept = legal.to_vec(); // a table missing below: nothing to choose by
        } else if value == Wdl::Win {
            kept = soonest_conversions(tablebase, root, kept);
        }
        Some(RootValue { value, kept_all: kept.len() == legal.len(), kept })
    }

    /// Whether root move `mv` keeps the root's value.
    #[inline]
    pub(super) fn keeps(&self, mv: &Move) -> bool {
        self.kept_all || self.kept.contains(mv)
    }
}

/// Of `winning` (root moves to a loss for the opponent, or into a balance the folder lacks), those
/// after which the conversion comes soonest; all of them when a distance or a value is missing (a
/// folder built before distances, or without a balance): nothing then says which is soonest.
fn soonest_conversions(tablebase: &Tablebase, root: &Position, winning: Vec<Move>) -> Vec<Move> {
    let material = Material::of(root);
    let plies_to_conversion = |mv: &Move| {
        let child = root.play_unchecked(mv);
        if Material::of(&child) == material {
            tablebase.distance(&child).map(|distance| distance + 1)
        } else {
            tablebase.probe(&child).map(|_| 1) // this move is the conversion, into a balance held
        }
    };
    let Some(plies) = winning.iter().map(plies_to_conversion).collect::<Option<Vec<u32>>>() else { return winning };
    let soonest = plies.iter().copied().min().unwrap_or(0);
    winning.into_iter().zip(plies).filter(|&(_, p)| p == soonest).map(|(mv, _)| mv).collect()
}

/// The search score of `position`, `ply` plies from the root, if the databases hold it and it is
/// to be cut: every such position when the root is outside the databases, and only the positions
/// of another value than the root's when it is inside.
#[inline]
pub(super) fn score(
    tablebase: &Tablebase,
    root: Option<&RootValue>,
    position: &Position,
    ply: usize,
    evaluation: Evaluation,
) -> Option<i32> {
    if position.occupied().count() > tablebase.max_pieces() {
        return None; // most nodes: no table to look in
    }
    let value = tablebase.probe(position)?;
    let distance = ply as i32;
    let Some(root) = root else {
        let estimate = || evaluate_with(position, evaluation).clamp(-MARGIN, MARGIN);
        return Some(match value {
            Wdl::Draw => 0,
            Wdl::Win => DATABASE_WIN - distance + estimate(),
            Wdl::Loss => -(DATABASE_WIN - distance - estimate()),
        });
    };
    // The root's side is to move at even plies.
    let for_root = if ply.is_multiple_of(2) { value } else { value.opposite() };
    (for_root != root.value).then(|| off_the_way(root, for_root, ply))
}

/// The score of a draw the search finds on its line (a repetition, a drawn material ending):
/// 0, but with the root in the databases, a draw is off the way of a root won or lost.
#[inline]
pub(super) fn draw_score(root: Option<&RootValue>, ply: usize) -> i32 {
    match root {
        Some(root) if root.value != Wdl::Draw => off_the_way(root, Wdl::Draw, ply),
        _ => 0,
    }
}

/// The score, for the side to move `ply` plies from a root the databases hold, of a position
/// worth `for_root` to the root's side, not the root's value: a database win or loss for the
/// root's side as it is better or worse.
fn off_the_way(root: &RootValue, for_root: Wdl, ply: usize) -> i32 {
    let better = rank(for_root) > rank(root.value);
    let for_mover = if better == (ply.is_multiple_of(2)) { 1 } else { -1 };
    for_mover * (DATABASE_WIN - ply as i32)
}

/// Loss, draw, win, in order.
fn rank(value: Wdl) -> i32 {
    match value {
        Wdl::Loss => -1,
        Wdl::Draw => 0,
        Wdl::Win => 1,
    }
}

/// The database value a search score stands for: win or loss when it lies in a database win's
/// band (`None` for estimates and for mate scores, which lie above it).
pub(super) fn value_of(score: i32) -> Option<Wdl> {
    if BAND.contains(&score) {
        Some(Wdl::Win)
    } else if BAND.contains(&-score) {
        Some(Wdl::Loss)
    } else {
        None
    }
}

/// The scores of database wins: every distance, every evaluation.
const BAND: std::ops::RangeInclusive<i32> = DATABASE_WIN - MARGIN - MAX_PLY..=DATABASE_WIN + MARGIN;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_scores_lie_between_estimates_and_mates() {
        assert_eq!(value_of(DATABASE_WIN - 3 + 250), Some(Wdl::Win));
        assert_eq!(value_of(-(DATABASE_WIN - 7 - 900)), Some(Wdl::Loss));
        assert_eq!(value_of(1_500), None);
        assert_eq!(value_of(31_000 - 5), None);
    }
}
