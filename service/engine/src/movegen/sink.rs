//! [`CaptureSink`]: collects capture sequences and applies the variant's choice rule as they come.
//!
//! The generators describe each sequence by a priority key that orders sequences the way the
//! variant's rule does (Turkish: the number of pieces; Italian: RULES.md 2.8 packed into one word),
//! so "keep the best" is one integer comparison.

use crate::moves::MAX_CAPTURES;
use crate::{Bitboard, Move, Square};

/// A capture sequence under construction: the generators push and pop jumps as they search.
pub(crate) struct Sequence {
    /// Where the capturing piece started.
    pub from: Square,
    /// Whether the capturing piece is a king (RULES.md 2.8.2).
    pub by_king: bool,
    /// Landing squares so far.
    landings: [Square; MAX_CAPTURES],
    /// Jumps so far.
    len: usize,
    /// Squares of the pieces captured so far.
    pub captured: u64,
    /// Kings among them (RULES.md 2.8.3).
    kings_taken: u32,
    /// One bit per capture, first capture highest, set where a king was taken (RULES.md 2.8.4).
    king_order: u32,
}

impl Sequence {
    /// An empty sequence for the piece on `from`.
    pub fn new(from: Square, by_king: bool) -> Sequence {
        Sequence {
            from,
            by_king,
            landings: [from; MAX_CAPTURES],
            len: 0,
            captured: 0,
            kings_taken: 0,
            king_order: 0,
        }
    }

    /// Adds a jump over `taken` (a king or not) onto `landing`.
    #[inline]
    pub fn push(&mut self, landing: u32, taken: u32, taken_is_king: bool) {
        self.landings[self.len] = Square::new(landing as u8);
        if taken_is_king {
            self.kings_taken += 1;
            self.king_order |= 1 << (MAX_CAPTURES - 1 - self.len);
        }
        self.captured |= 1 << taken;
        self.len += 1;
    }

    /// Takes back the last jump, which took `taken`.
    #[inline]
    pub fn pop(&mut self, taken: u32, taken_is_king: bool) {
        self.len -= 1;
        if taken_is_king {
            self.kings_taken -= 1;
            self.king_order &= !(1 << (MAX_CAPTURES - 1 - self.len));
        }
        self.captured &= !(1 << taken);
    }

    /// Whether at least one jump has been made.
    #[inline]
    pub fn started(&self) -> bool {
        self.len > 0
    }

    /// The Italian priority (RULES.md 2.8 steps 1-4, in that order of significance).
    #[inline]
    pub fn italian_key(&self) -> u64 {
        (self.len as u64) << 40
            | u64::from(self.by_king) << 39
            | u64::from(self.kings_taken) << 32
            | u64::from(self.king_order)
    }

    /// The Turkish priority (RULES.md 3.2): the number of pieces.
    #[inline]
    pub fn turkish_key(&self) -> u64 {
        self.len as u64
    }

    fn to_move(&self, promotes: bool) -> Move {
        Move::capture(self.from, &self.landings[..self.len], Bitboard(self.captured), promotes)
    }
}

/// Where the generators report sequences.
pub(crate) struct CaptureSink<'a> {
    /// The moves kept so far.
    out: &'a mut Vec<Move>,
    /// The best key kept so far.
    best: u64,
    /// Whether to keep only the best sequences (the legal ones) or every sequence and prefix.
    legal_only: bool,
}

impl<'a> CaptureSink<'a> {
    /// Keeps the complete sequences with the best key: the legal captures.
    pub fn legal(out: &'a mut Vec<Move>) -> CaptureSink<'a> {
        CaptureSink { out, best: 0, legal_only: true }
    }

    /// Keeps every sequence and every prefix of one.
    pub fn everything(out: &'a mut Vec<Move>) -> CaptureSink<'a> {
        CaptureSink { out, best: 0, legal_only: false }
    }

    /// Whether the generators should report sequences that could go on.
    #[inline]
    pub fn wants_prefixes(&self) -> bool {
        !self.legal_only
    }

    /// Reports `sequence` with its priority `key`.
    #[inline]
    pub fn report(&mut self, sequence: &Sequence, key: u64, promotes: bool) {
        if self.legal_only {
            if key < self.best {
                return;
            }
            if key > self.best {
                self.best = key;
                self.out.clear();
            }
        }
        self.out.push(sequence.to_move(promotes));
    }
}
