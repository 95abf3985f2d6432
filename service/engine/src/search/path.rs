//! [`Path`]: the positions from the game's record to the node being searched, for the repetition
//! rule: a node that repeats a position on it is a draw.
//!
//! Only positions since the last move that cannot be undone ([`Position::is_irreversible`]) can
//! come back, so each entry remembers where its stretch of undoable moves began and a node compares
//! itself with that stretch alone: late in a game the record is long, and every node asks.
//!
//! ```text
//! path:   p0  p1  p2 | p3  p4  p5      (a capture led from p2 to p3)
//! p5 is compared with p3 only: the same player is to move two plies back, and p0..p2 cannot recur.
//! ```

use crate::{Move, Position};

/// The positions of the game and of the searched line, oldest first.
#[derive(Debug, Default)]
pub(super) struct Path {
    /// Each position's hash.
    hashes: Vec<u64>,
    /// For each position, the index of the first one it can repeat: the start of its stretch of
    /// undoable moves.
    stretch_start: Vec<u32>,
}

impl Path {
    /// A path with room for a long game and a deep line.
    pub(super) fn new() -> Path {
        Path { hashes: Vec::with_capacity(512), stretch_start: Vec::with_capacity(512) }
    }

    /// Sets the path to the game's `history` (oldest first) and the `root` after it. Between two
    /// positions of the record the move is found again, to tell whether it can be undone; where
    /// none leads from one to the next, the record is taken to break there.
    pub(super) fn start(&mut self, history: &[Position], root: &Position) {
        self.hashes.clear();
        self.stretch_start.clear();
        let mut previous: Option<&Position> = None;
        for position in history.iter().chain(std::iter::once(root)) {
            let undoable = previous.is_some_and(|before| {
                before
                    .legal_moves()
                    .iter()
                    .any(|mv| !before.is_irreversible(mv) && before.play_unchecked(mv) == *position)
            });
            self.push_hash(position.hash(), !undoable);
            previous = Some(position);
        }
    }

    /// Appends the position `mv` leads to from `before`, whose hash is `hash`.
    #[inline]
    pub(super) fn push(&mut self, before: &Position, mv: &Move, hash: u64) {
        self.push_hash(hash, before.is_irreversible(mv));
    }

    fn push_hash(&mut self, hash: u64, irreversible: bool) {
        let start = match self.stretch_start.last() {
            Some(&start) if !irreversible => start,
            _ => self.hashes.len() as u32,
        };
        self.hashes.push(hash);
        self.stretch_start.push(start);
    }

    /// Takes the last position off.
    #[inline]
    pub(super) fn pop(&mut self) {
        self.hashes.pop();
        self.stretch_start.pop();
    }

    /// Whether the last position occurred before with the same player to move.
    pub(super) fn repeats(&self) -> bool {
        let last = self.hashes.len() - 1;
        let start = self.stretch_start[last] as usize;
        let current = self.hashes[last];
        // The same player is to move an even number of plies back.
        self.hashes[start..last].iter().rev().skip(1).step_by(2).any(|&hash| hash == current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{fen, Variant};

    fn path_of(hashes: &[(u64, bool)]) -> Path {
        let mut path = Path::new();
        for &(hash, irreversible) in hashes {
            path.push_hash(hash, irreversible);
        }
        path
    }

    #[test]
    fn a_position_met_before_with_the_same_player_to_move_repeats() {
        let undoable = |hashes: &[u64]| path_of(&hashes.iter().map(|&h| (h, false)).collect::<Vec<_>>());
        // Positions alternate players, so only an even distance back can be the same position.
        assert!(undoable(&[1, 2, 3, 4, 1]).repeats());
        assert!(undoable(&[1, 2, 1]).repeats());
        assert!(!undoable(&[1, 2, 3, 1]).repeats());
        assert!(!undoable(&[5, 1]).repeats());
        assert!(!undoable(&[1]).repeats());
    }

    #[test]
    fn nothing_before_a_move_that_cannot_be_undone_repeats() {
        // The third position came by a capture: the first is out of reach, whatever its hash.
        assert!(!path_of(&[(1, false), (2, false), (1, true), (4, false), (5, false)]).repeats());
        assert!(path_of(&[(1, false), (2, false), (3, true), (4, false), (3, false)]).repeats());
    }

    #[test]
    fn the_record_breaks_at_moves_that_cannot_be_undone() {
        // Turkish: a king's step and a man's sideways step can be undone, a man's step forward not.
        let start = fen::parse(Variant::Turkish, "W:Wa2,Kd4:Bh7,Kh5").unwrap();
        let sideways = start.play_notation("a2-b2").unwrap();
        let back = sideways.play_notation("h5-h4").unwrap();
        let forward = back.play_notation("b2-b3").unwrap();
        let mut path = Path::new();
        path.start(&[start, sideways, back], &forward);
        assert_eq!(path.stretch_start, [0, 0, 0, 3]);
    }
}
