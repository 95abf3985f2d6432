//! The learned evaluation: weights for every arrangement of men in small regions of the board,
//! plus a few whole-board terms, each with an opening and an endgame value blended by the men left.
//!
//! The board is seen from the side to move (rotated half a turn when Black is to move), so one
//! set of weights serves both colours and the side to move's tempo is part of what is learned.
//! Each *window* is eight squares: four rows of two dark squares on the diagonal boards (sixteen
//! windows on 10x10, nine on 8x8, overlapping by two rows and one square), two ranks of four
//! squares on the Turkish board (three across, seven up). Each of its squares is empty, holds one
//! of ours or one of theirs (kings count as empty there: they have whole-board terms), so a
//! window has 3^8 = 6561 arrangements, each with its own weight.
//!
//! The weights are fitted by `examples/learn` to the results and search scores of self-play games
//! (docs/search.md says how to retrain) and embedded from `data/eval/<variant>.bin`. The file's
//! layout is [`LearnedWeights::from_bytes`]'s.

use std::sync::OnceLock;

use super::hand;
use crate::{Color, Position, Variant};

/// Squares in a window.
pub const WINDOW_SQUARES: usize = 8;
/// Arrangements of a window: each square empty, ours or theirs.
pub const ARRANGEMENTS: usize = 6561;
/// The whole-board terms, each the difference between our count and theirs: men, kings, king
/// steps, runaway men; and a constant (the tempo of being to move).
pub const TERMS: usize = 5;
/// Weights are stored in this fraction of a hundredth of a man.
pub const QUANTUM: i32 = 16;

const MAGIC: &[u8; 8] = b"DAMEVAL1";

/// Where a window's squares are, in the side to move's view of the board: up to four runs of
/// consecutive bits (start, length), which together hold eight squares.
#[derive(Clone, Copy, Debug)]
struct Window {
    runs: [(u8, u8); 4],
}

/// What the learned evaluation reads from a position: each window's arrangement, the whole-board
/// terms, and the men left (the phase). The same for evaluating and for fitting the weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Features {
    /// Each window's arrangement, in the variant's window order.
    pub arrangements: Vec<u16>,
    /// The whole-board terms, in [`TERMS`]' order.
    pub terms: [i32; TERMS],
    /// Men on the board, both sides.
    pub men: u32,
    /// Men at the start, both sides: `men / full` is the opening's share of the blend.
    pub full: u32,
}

/// A variant's learned weights: the whole-board terms and every window's arrangements, for the
/// opening (index 0) and the endgame (index 1), in [`QUANTUM`]s of a hundredth of a man.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnedWeights {
    /// The variant they are for.
    pub variant: Variant,
    /// `terms[phase][term]`.
    pub terms: [[i16; TERMS]; 2],
    /// `windows[window * ARRANGEMENTS + arrangement][phase]`: an arrangement's two weights side by
    /// side, so that the evaluation reads both from one cache line.
    pub windows: Vec<[i16; 2]>,
}

/// Why a weights file does not read.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    /// Not a weights file, or of another version.
    #[error("not a Damiera evaluation file (expected the DAMEVAL1 header)")]
    Header,
    /// For another variant than expected.
    #[error("the file is for {found}, not {expected}")]
    Variant {
        /// The variant asked for.
        expected: Variant,
        /// The variant the file names.
        found: String,
    },
    /// Its size does not match its variant's windows.
    #[error("the file has {found} bytes, {expected} expected for its variant")]
    Size {
        /// The size the variant's windows need.
        expected: usize,
        /// The file's size.
        found: usize,
    },
}

impl LearnedWeights {
    /// All-zero weights for `variant`: the start of a fit.
    #[must_use]
    pub fn zero(variant: Variant) -> LearnedWeights {
        let size = windows(variant).len() * ARRANGEMENTS;
        LearnedWeights { variant, terms: [[0; TERMS]; 2], windows: vec![[0; 2]; size] }
    }

    /// Reads a weights file for `variant`: the magic `DAMEVAL1`, the variant's name padded with
    /// zeros to 16 bytes, then little-endian `i16`s: the opening's terms, the endgame's terms, the
    /// opening's windows and the endgame's windows.
    ///
    /// # Errors
    /// A file of another format, variant or size.
    pub fn from_bytes(variant: Variant, bytes: &[u8]) -> Result<LearnedWeights, WeightsError> {
        let found = LearnedWeights::variant_of(bytes)?;
        if found != variant.name() {
            return Err(WeightsError::Variant { expected: variant, found });
        }
        let header = MAGIC.len() + 16;
        let mut weights = LearnedWeights::zero(variant);
        let expected = header + 2 * (2 * TERMS + weights.windows.len() * 2);
        if bytes.len() != expected {
            return Err(WeightsError::Size { expected, found: bytes.len() });
        }
        let mut values = bytes[header..].chunks_exact(2).map(|pair| i16::from_le_bytes([pair[0], pair[1]]));
        for phase in 0..2 {
            weights.terms[phase].iter_mut().for_each(|w| *w = values.next().unwrap_or_default());
        }
        for phase in 0..2 {
            weights.windows.iter_mut().for_each(|w| w[phase] = values.next().unwrap_or_default());
        }
        Ok(weights)
    }

    /// The name of the variant a weights file is for, as its header gives it.
    ///
    /// # Errors
    /// Not a weights file.
    pub fn variant_of(bytes: &[u8]) -> Result<String, WeightsError> {
        let header = MAGIC.len() + 16;
        if bytes.len() < header || &bytes[..MAGIC.len()] != MAGIC {
            return Err(WeightsError::Header);
        }
        Ok(String::from_utf8_lossy(&bytes[MAGIC.len()..header]).trim_end_matches('\0').to_string())
    }

    /// The file [`LearnedWeights::from_bytes`] reads.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        let mut name = self.variant.name().as_bytes().to_vec();
        name.resize(16, 0);
        bytes.extend(name);
        let terms = self.terms.iter().flatten().copied();
        let windows = (0..2).flat_map(|phase| self.windows.iter().map(move |w| w[phase]));
        bytes.extend(terms.chain(windows).flat_map(|w| w.to_le_bytes()));
        bytes
    }

    /// The weights the engine plays with in `variant`: the embedded ones.
    #[must_use]
    pub fn of(variant: Variant) -> &'static LearnedWeights {
        static EMBEDDED: OnceLock<[LearnedWeights; 3]> = OnceLock::new();
        let read =
            |variant| LearnedWeights::from_bytes(variant, embedded_file(variant)).expect("the embedded weights read");
        &EMBEDDED.get_or_init(|| Variant::ALL.map(read))[variant as usize]
    }

    /// The value of `position` for the side to move, in hundredths of a man.
    #[must_use]
    pub fn evaluate(&self, position: &Position) -> i32 {
        let view = View::of(position);
        let variant = position.variant();
        let (mut open, mut end) = match window_bytes(variant) {
            2 => self.window_sums::<2>(&view, variant),
            _ => self.window_sums::<SPAN>(&view, variant),
        };
        let terms = terms(position);
        for (t, value) in terms.iter().enumerate() {
            open += i32::from(self.terms[0][t]) * value;
            end += i32::from(self.terms[1][t]) * value;
        }
        let (men, full) = (position.men().count() as i32, 2 * position.variant().men_per_side() as i32);
        (open * men + end * (full - men)) / (full * QUANTUM)
    }

    /// The opening's and the endgame's weights of the windows' arrangements, summed; each window
    /// read from the first `BYTES` of its bytes.
    #[inline]
    fn window_sums<const BYTES: usize>(&self, view: &View, variant: Variant) -> (i32, i32) {
        let weights = self.windows.chunks_exact(ARRANGEMENTS);
        readers(variant).iter().zip(weights).fold((0, 0), |(open, end), (reader, weights)| {
            let [o, e] = weights[usize::from(view.arrangement::<BYTES>(reader))];
            (open + i32::from(o), end + i32::from(e))
        })
    }
}

/// The weights files built into the engine.
fn embedded_file(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::Italian => include_bytes!("../../../data/eval/italian.bin"),
        Variant::Turkish => include_bytes!("../../../data/eval/turkish.bin"),
        Variant::Triestina => include_bytes!("../../../data/eval/triestina.bin"),
    }
}

/// What `position` shows the learned evaluation.
#[must_use]
pub fn features(position: &Position) -> Features {
    let view = View::of(position);
    Features {
        arrangements: readers(position.variant()).iter().map(|r| view.arrangement::<SPAN>(r)).collect(),
        terms: terms(position),
        men: position.men().count(),
        full: 2 * position.variant().men_per_side(),
    }
}

/// The whole-board terms, ours less theirs, and the constant 1.
fn terms(position: &Position) -> [i32; TERMS] {
    let [men, kings, king_steps, runaways] = hand::term_differences(position);
    [men, kings, king_steps, runaways, 1]
}

/// The men of both sides as the side to move sees them: its own moving up the board.
struct View {
    ours: u64,
    theirs: u64,
}

impl View {
    fn of(position: &Position) -> View {
        let men = position.men().0;
        let us = position.turn();
        let (ours, theirs) = (position.pieces_of(us).0 & men, position.pieces_of(us.opposite()).0 & men);
        if us == Color::White {
            return View { ours, theirs };
        }
        // Half a turn maps bit b to bit (top - b) on every layout: 35 on 8x8 and 54 on 10x10
        // (ghost bits included), 63 on the Turkish board.
        let spare = 63 - top_bit(position.variant());
        View { ours: ours.reverse_bits() >> spare, theirs: theirs.reverse_bits() >> spare }
    }

    /// The window's arrangement: ours as base-3 digit 1, theirs as 2; the window must lie in the
    /// reader's first `BYTES` bytes.
    #[inline]
    fn arrangement<const BYTES: usize>(&self, reader: &WindowReader) -> u16 {
        reader.digits::<BYTES>(self.ours) + 2 * reader.digits::<BYTES>(self.theirs)
    }
}

/// The highest bit a square of `variant` uses.
fn top_bit(variant: Variant) -> u32 {
    match variant {
        Variant::Italian => 35,
        Variant::Triestina => 54,
        Variant::Turkish => 63,
    }
}

/// Bytes of the board a window's squares lie in, at most: [`window_bytes`] of the largest board.
const SPAN: usize = 3;

/// Bytes that each of `variant`'s windows lies in, counted from its lowest square: reading more
/// would add zeros. A Turkish window (two ranks of four) spans 12 bits, an Italian one (four rows
/// of two) 16, a Triestina one up to 19.
fn window_bytes(variant: Variant) -> usize {
    match variant {
        Variant::Turkish | Variant::Italian => 2,
        Variant::Triestina => SPAN,
    }
}

/// A window read a byte at a time from its lowest square: the board shifted down by `shift` holds
/// the window's squares in its first [`window_bytes`] bytes, and `digits[j][b]` is the sum of 3^d
/// over the window's digits d that byte j of it holding `b` sets (zero past the board). A look-up
/// a byte and side replaces gathering the window's eight bits from its runs, which was most of
/// the evaluation's cost.
struct WindowReader {
    shift: u32,
    digits: [[u16; 256]; SPAN],
}

impl WindowReader {
    fn new(window: &Window, bytes: usize) -> WindowReader {
        let mut digit_of = [None; 64];
        let mut digit = 0;
        for &(start, length) in &window.runs {
            for bit in start..start + length {
                digit_of[usize::from(bit)] = Some(digit);
                digit += 1;
            }
        }
        let lowest = digit_of.iter().position(Option::is_some).expect("a window has squares") as u32;
        let highest = digit_of.iter().rposition(Option::is_some).expect("a window has squares") as u32;
        assert!(highest - lowest < 8 * bytes as u32, "a window spans more than {bytes} bytes");
        let mut digits = [[0u16; 256]; SPAN];
        for (j, table) in digits.iter_mut().enumerate() {
            for (b, value) in table.iter_mut().enumerate() {
                *value = (0..8)
                    .filter(|bit| b >> bit & 1 == 1)
                    .filter_map(|bit| digit_of.get(lowest as usize + j * 8 + bit).copied().flatten())
                    .map(|d| 3u16.pow(d))
                    .sum();
            }
        }
        WindowReader { shift: lowest, digits }
    }

    /// The sum of 3^d over the window's digits d that `bits` set, from the first `BYTES` of its
    /// bytes (all of them unless the window lies in fewer).
    #[inline]
    fn digits<const BYTES: usize>(&self, bits: u64) -> u16 {
        let bytes = (bits >> self.shift).to_le_bytes();
        (0..BYTES).map(|j| self.digits[j][usize::from(bytes[j])]).sum()
    }
}

/// The window readers of `variant`, in its windows' order, computed once.
fn readers(variant: Variant) -> &'static [WindowReader] {
    static READERS: OnceLock<[Vec<WindowReader>; 3]> = OnceLock::new();
    let build = |v: Variant| windows(v).iter().map(|w| WindowReader::new(w, window_bytes(v))).collect();
    &READERS.get_or_init(|| Variant::ALL.map(build))[variant as usize]
}

/// The windows of `variant`, computed once.
fn windows(variant: Variant) -> &'static [Window] {
    static WINDOWS: OnceLock<[Vec<Window>; 3]> = OnceLock::new();
    &WINDOWS.get_or_init(|| Variant::ALL.map(build_windows))[variant as usize]
}

/// Windows in a fixed order: row by row from Black's side, left to right.
fn build_windows(variant: Variant) -> Vec<Window> {
    let mut list = Vec::new();
    match variant {
        Variant::Turkish => {
            for rank in 0..7u8 {
                for file in [0u8, 2, 4] {
                    let run = |r: u8| (r * 8 + file, 4);
                    list.push(Window { runs: [run(rank), run(rank + 1), (0, 0), (0, 0)] });
                }
            }
        }
        Variant::Italian | Variant::Triestina => {
            let half = variant.board_size() / 2;
            for row in (0..variant.board_size() - 3).step_by(2) {
                for k in 0..half - 1 {
                    let run = |r: u32| (crate::geometry::diagonal_bit(half, r * half + k) as u8, 2);
                    list.push(Window { runs: [run(row), run(row + 1), run(row + 2), run(row + 3)] });
                }
            }
        }
    }
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    #[test]
    fn each_variant_has_its_windows_of_eight_squares() {
        for (variant, count) in [(Variant::Italian, 9), (Variant::Triestina, 16), (Variant::Turkish, 21)] {
            let list = windows(variant);
            assert_eq!(list.len(), count, "{variant:?}");
            for window in list {
                let squares: u32 = window.runs.iter().map(|&(_, length)| u32::from(length)).sum();
                assert_eq!(squares as usize, WINDOW_SQUARES);
                let bits = window.runs.iter().fold(0u64, |all, &(start, length)| all | ((1u64 << length) - 1) << start);
                assert_eq!(bits & !variant.board().0, 0, "{variant:?}: a window bit off the board");
            }
        }
    }

    #[test]
    fn every_square_is_in_some_window() {
        for variant in Variant::ALL {
            let covered = windows(variant)
                .iter()
                .flat_map(|w| w.runs)
                .fold(0u64, |all, (start, length)| all | ((1u64 << length) - 1) << start);
            assert_eq!(covered, variant.board().0, "{variant:?}");
        }
    }

    #[test]
    fn each_reader_gives_each_square_its_digit_in_the_window() {
        // The window's squares in run order are its digits 0 to 7: a lone man on the k-th square
        // reads 3^k, every other square of the board 0, and the digits of several men add up.
        for variant in Variant::ALL {
            for (window, reader) in windows(variant).iter().zip(readers(variant)) {
                let squares: Vec<u8> = window.runs.iter().flat_map(|&(start, length)| start..start + length).collect();
                for bit in 0..64u8 {
                    let expected = squares.iter().position(|&square| square == bit).map_or(0, |k| 3u16.pow(k as u32));
                    assert_eq!(reader.digits::<SPAN>(1 << bit), expected, "{variant:?}, bit {bit}");
                    let read =
                        (reader.shift..reader.shift + 8 * window_bytes(variant) as u32).contains(&u32::from(bit));
                    assert!(read || expected == 0, "{variant:?}: bit {bit} of the window lies past the bytes read");
                }
                let all = squares.iter().fold(0u64, |all, &square| all | 1 << square);
                assert_eq!(reader.digits::<SPAN>(all), (0..8).map(|k| 3u16.pow(k)).sum::<u16>(), "{variant:?}");
            }
        }
    }

    #[test]
    fn the_colours_swapped_and_the_board_turned_read_the_same() {
        // The same men, once with White to move and once turned half round with Black to move:
        // the side to move sees the same board.
        let cases = [
            (Variant::Italian, "W:W21,22,30,K5:B1,9,10", "B:W23,24,32:B12,11,3,K28"),
            (Variant::Turkish, "W:Wa3,b3,c4,Kh8:Ba6,d7", "B:Wh3,e2:Bh6,g6,f5,Ka1"),
        ];
        for (variant, white, black) in cases {
            let (a, b) = (fen::parse(variant, white).unwrap(), fen::parse(variant, black).unwrap());
            assert_eq!(features(&a), features(&b), "{white} / {black}");
        }
    }

    #[test]
    fn arrangements_read_ours_and_theirs_as_digits() {
        // White to move, its man on square 29 alone in the bottom-left window (rows 4-7, k = 0):
        // square 29 is row 7's first dark square, the window's last run's first bit: digit 6,
        // 3^6 = 729. Black's man on 1 (row 0, k = 0) is the first window's first square: 2.
        let position = fen::parse(Variant::Italian, "W:W29:B1").unwrap();
        let f = features(&position);
        assert_eq!(f.arrangements[6], 729);
        assert_eq!(f.arrangements[0], 2);
        assert_eq!(f.terms, [0, 0, 0, 0, 1]);
        assert_eq!((f.men, f.full), (2, 24));
    }

    #[test]
    fn weights_files_round_trip_and_are_checked() {
        let mut weights = LearnedWeights::zero(Variant::Italian);
        weights.terms[1][0] = 1234;
        weights.windows[5][0] = -7;
        let bytes = weights.to_bytes();
        assert_eq!(LearnedWeights::from_bytes(Variant::Italian, &bytes), Ok(weights));
        assert_eq!(LearnedWeights::from_bytes(Variant::Italian, &bytes[1..]), Err(WeightsError::Header));
        assert!(matches!(LearnedWeights::from_bytes(Variant::Turkish, &bytes), Err(WeightsError::Variant { .. })));
        let short = &bytes[..bytes.len() - 2];
        assert!(matches!(LearnedWeights::from_bytes(Variant::Italian, short), Err(WeightsError::Size { .. })));
    }

    #[test]
    fn every_variant_plays_with_its_embedded_weights() {
        for variant in Variant::ALL {
            assert_eq!(LearnedWeights::of(variant).variant, variant);
        }
    }

    #[test]
    fn evaluation_blends_opening_and_endgame_by_the_men_left() {
        let position = fen::parse(Variant::Italian, "W:W21,22,23,K5:B1,2").unwrap();
        let mut weights = LearnedWeights::zero(Variant::Italian);
        weights.terms[0][0] = (100 * QUANTUM) as i16; // a man is worth 100 in the opening
        weights.terms[1][0] = (200 * QUANTUM) as i16; // and 200 in the endgame
                                                      // 5 men of 24: (100 * 5 + 200 * 19) / 24 per man ahead, one man ahead.
        assert_eq!(weights.evaluate(&position), (100 * 5 + 200 * 19) / 24);
    }
}
