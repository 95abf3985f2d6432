//! What a capture search records: [`CaptureSink`] keeps whole sequences, [`Tally`] only counts them.
//!
//! The searches in [`super::diagonal`] and [`super::orthogonal`] know the rules of jumping; a
//! [`Recorder`] decides what to keep. [`CaptureSink`] ranks each sequence by a priority key that
//! orders sequences the way the variant's rule does (Turkish: the number of pieces; Italian:
//! RULES.md 2.8 packed into one word), so "keep the best" is one integer comparison.

use crate::moves::MAX_CAPTURES;
use crate::{Bitboard, Move, RuleFamily, Square};

/// What a capture search does with the jumps and sequences it finds.
pub(crate) trait Recorder {
    /// A new search from the piece on `from`.
    fn begin(&mut self, from: Square, by_king: bool);
    /// Adds a jump over `taken` (a king or not) onto `landing`.
    fn push(&mut self, landing: u32, taken: u32, taken_is_king: bool);
    /// Takes back the last jump, which took `taken`.
    fn pop(&mut self, taken: u32, taken_is_king: bool);
    /// Whether at least one jump has been made.
    fn started(&self) -> bool;
    /// Whether sequences that could go on are wanted too (capture faults, RULES.md 3.11).
    fn wants_prefixes(&self) -> bool;
    /// The current sequence ends here (or is a wanted prefix).
    fn record(&mut self, promotes: bool);
}

/// A capture sequence under construction.
struct Sequence {
    /// Where the capturing piece started.
    from: Square,
    /// Whether the capturing piece is a king (RULES.md 2.8.2).
    by_king: bool,
    /// Landing squares so far.
    landings: [Square; MAX_CAPTURES],
    /// Jumps so far.
    len: usize,
    /// Squares of the pieces captured so far.
    captured: u64,
    /// Kings among them (RULES.md 2.8.3).
    kings_taken: u32,
    /// One bit per capture, first capture highest, set where a king was taken (RULES.md 2.8.4).
    king_order: u32,
}

impl Sequence {
    /// The priority of the sequence under `family`'s choice rule.
    fn key(&self, family: RuleFamily) -> u64 {
        match family {
            // RULES.md 2.8 steps 1-4, in that order of significance.
            RuleFamily::Diagonal => {
                (self.len as u64) << 40
                    | u64::from(self.by_king) << 39
                    | u64::from(self.kings_taken) << 32
                    | u64::from(self.king_order)
            }
            // RULES.md 3.2: the number of pieces.
            RuleFamily::Orthogonal => self.len as u64,
        }
    }
}

/// Keeps sequences as moves: the legal ones (best key only), or every sequence and prefix.
pub(crate) struct CaptureSink<'a> {
    /// The moves kept so far.
    out: &'a mut Vec<Move>,
    /// The sequence being searched.
    seq: Sequence,
    /// The best key kept so far.
    best: u64,
    /// Whether to keep only the best sequences (the legal ones) or every sequence and prefix.
    legal_only: bool,
    /// Whose choice rule ranks the sequences.
    family: RuleFamily,
}

impl<'a> CaptureSink<'a> {
    /// Keeps the complete sequences with the best key: the legal captures.
    pub fn legal(out: &'a mut Vec<Move>, family: RuleFamily) -> CaptureSink<'a> {
        CaptureSink::new(out, family, true)
    }

    /// Keeps every sequence and every prefix of one.
    pub fn everything(out: &'a mut Vec<Move>, family: RuleFamily) -> CaptureSink<'a> {
        CaptureSink::new(out, family, false)
    }

    fn new(out: &'a mut Vec<Move>, family: RuleFamily, legal_only: bool) -> CaptureSink<'a> {
        let from = Square::new(0);
        let seq = Sequence {
            from,
            by_king: false,
            landings: [from; MAX_CAPTURES],
            len: 0,
            captured: 0,
            kings_taken: 0,
            king_order: 0,
        };
        CaptureSink { out, seq, best: 0, legal_only, family }
    }
}

impl Recorder for CaptureSink<'_> {
    fn begin(&mut self, from: Square, by_king: bool) {
        self.seq = Sequence { from, by_king, len: 0, captured: 0, kings_taken: 0, king_order: 0, ..self.seq };
    }

    #[inline]
    fn push(&mut self, landing: u32, taken: u32, taken_is_king: bool) {
        let seq = &mut self.seq;
        seq.landings[seq.len] = Square::new(landing as u8);
        if taken_is_king {
            seq.kings_taken += 1;
            seq.king_order |= 1 << (MAX_CAPTURES - 1 - seq.len);
        }
        seq.captured |= 1 << taken;
        seq.len += 1;
    }

    #[inline]
    fn pop(&mut self, taken: u32, taken_is_king: bool) {
        let seq = &mut self.seq;
        seq.len -= 1;
        if taken_is_king {
            seq.kings_taken -= 1;
            seq.king_order &= !(1 << (MAX_CAPTURES - 1 - seq.len));
        }
        seq.captured &= !(1 << taken);
    }

    #[inline]
    fn started(&self) -> bool {
        self.seq.len > 0
    }

    #[inline]
    fn wants_prefixes(&self) -> bool {
        !self.legal_only
    }

    fn record(&mut self, promotes: bool) {
        if self.legal_only {
            let key = self.seq.key(self.family);
            if key < self.best {
                return;
            }
            if key > self.best {
                self.best = key;
                self.out.clear();
            }
        }
        let seq = &self.seq;
        self.out.push(Move::capture(seq.from, &seq.landings[..seq.len], Bitboard(seq.captured), promotes));
    }
}

/// Counts the longest sequences without building them: perft's last ply when only diagonal men
/// capture, where length is the whole choice rule and no two sequences are one move.
#[derive(Default)]
pub(crate) struct Tally {
    /// Jumps in the sequence being searched.
    depth: u32,
    /// The longest complete sequence so far.
    longest: u32,
    /// How many complete sequences have that length.
    count: u64,
}

impl Tally {
    /// The number of longest sequences found.
    pub fn count(&self) -> u64 {
        self.count
    }
}

impl Recorder for Tally {
    fn begin(&mut self, _from: Square, _by_king: bool) {
        self.depth = 0;
    }

    #[inline]
    fn push(&mut self, _landing: u32, _taken: u32, _taken_is_king: bool) {
        self.depth += 1;
    }

    #[inline]
    fn pop(&mut self, _taken: u32, _taken_is_king: bool) {
        self.depth -= 1;
    }

    #[inline]
    fn started(&self) -> bool {
        self.depth > 0
    }

    #[inline]
    fn wants_prefixes(&self) -> bool {
        false
    }

    #[inline]
    fn record(&mut self, _promotes: bool) {
        if self.depth > self.longest {
            self.longest = self.depth;
            self.count = 0;
        }
        if self.depth == self.longest {
            self.count += 1;
        }
    }
}
