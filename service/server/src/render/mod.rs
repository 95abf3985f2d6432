//! Board pictures for chat platforms and clients: an SVG, a PNG rasterised from it, and a plain-text
//! board, all drawn the same way round from the engine's own board geometry.
//!
//! ```
//! use damiera_engine::{Position, Variant};
//! use damiera_server::render::{self, RenderOptions};
//! let start = Position::start(Variant::Italian);
//! let board = render::text(&start, &RenderOptions::default());
//! assert_eq!(board.lines().next(), Some(" b     b     b     b"));
//! assert!(render::png(&start, &RenderOptions::default()).unwrap().starts_with(b"\x89PNG"));
//! ```

mod chart;
mod png;
mod svg;
mod text;

use std::ops::RangeInclusive;

pub use chart::{ChartMark, ChartPoint};

use damiera_engine::{Bitboard, Move, Position, Square, Variant};

/// The PNG widths (and heights: the picture is square) [`png`] accepts, in pixels. Below 64 a
/// square of the 10x10 board is too small to tell a man from a king; above 2048 an image costs
/// memory and bandwidth no chat platform needs.
pub const SIZES: RangeInclusive<u32> = 64..=2048;

/// How to draw a position. [`RenderOptions::default`] is White at the bottom, no labels, no
/// highlight, 512 pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Black's side at the bottom, for a player who sits on that side; the default is White's.
    pub flipped: bool,
    /// Square names, so readers can write moves: numbers on the playing squares of Italian and
    /// Triestina, files and ranks along the edges of the Turkish board.
    pub labels: bool,
    /// A move to show: its start and landing squares tinted, the pieces it captures crossed out.
    /// It may be a move about to be played or the last one played; squares off this position's
    /// board (a move of another variant) are ignored.
    pub highlight: Option<Move>,
    /// Width and height of the picture in pixels. The SVG is vector and carries it as its size;
    /// [`png`] refuses one outside [`SIZES`]; [`text`] ignores it.
    pub size: u32,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions { flipped: false, labels: false, highlight: None, size: 512 }
    }
}

/// Why a PNG could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RenderError {
    /// The requested size is outside [`SIZES`].
    #[error("image size {0} is out of range: it must be {min} to {max} pixels", min = SIZES.start(), max = SIZES.end())]
    Size(u32),
    /// Labels were asked for and the machine has no font to draw them with.
    #[error("labels need a font and none is installed (install fonts-dejavu-core)")]
    NoFont,
    /// The rasteriser refused the picture: a bug in the SVG we wrote, not bad input.
    #[error("could not rasterise the board: {0}")]
    Rasterise(String),
}

/// The position as an SVG document, `options.size` pixels square with a `viewBox`, so it scales.
#[must_use]
pub fn svg(position: &Position, options: &RenderOptions) -> String {
    svg::document(position, options)
}

/// The position as a PNG image, the SVG rasterised at `options.size` pixels square.
pub fn png(position: &Position, options: &RenderOptions) -> Result<Vec<u8>, RenderError> {
    png::rasterise(&svg(position, options), options.size, options.size, options.labels)
}

/// A game review's evaluation chart as an SVG document `width` pixels by half of it: White's
/// expected score from `start` (before the first move) through `points` (after each ply).
#[must_use]
pub fn chart_svg(start: f64, points: &[ChartPoint], width: u32) -> String {
    chart::document(start, points, width)
}

/// The evaluation chart as a PNG image, `width` pixels (in [`SIZES`]) by half of it.
pub fn chart_png(start: f64, points: &[ChartPoint], width: u32) -> Result<Vec<u8>, RenderError> {
    png::rasterise(&chart_svg(start, points, width), width, width / 2, false)
}

/// The position as a monospace text board, the same way round as the pictures: `w`/`b` for men,
/// `W`/`B` for kings, `.` for an empty playing square, a blank for a light square of Italian and
/// Triestina. A highlighted move's start and landings are in `[ ]`, its captured squares in `( )`.
/// With labels, Turkish gets ranks and files along the edges, the numbered boards a key of square
/// numbers beside the board.
#[must_use]
pub fn text(position: &Position, options: &RenderOptions) -> String {
    text::board(position, options)
}

/// Which way round the board is drawn: maps picture columns and rows (from the top-left) to the
/// engine's files and ranks (from White's bottom-left) and back.
#[derive(Clone, Copy)]
struct View {
    /// Squares along a side.
    n: u32,
    /// Whether Black's side is at the bottom.
    flipped: bool,
}

impl View {
    fn new(variant: Variant, options: &RenderOptions) -> View {
        View { n: variant.board_size(), flipped: options.flipped }
    }

    /// The `(file, rank)` drawn at `column` (from the left) and `row` (from the top).
    fn file_rank(self, column: u32, row: u32) -> (u32, u32) {
        let last = self.n - 1;
        if self.flipped {
            (last - column, row)
        } else {
            (column, last - row)
        }
    }

    /// The `(column, row)` where `(file, rank)` is drawn: either mapping is its own inverse.
    fn column_row(self, (file, rank): (u32, u32)) -> (u32, u32) {
        self.file_rank(file, rank)
    }
}

/// The squares a highlighted move marks, restricted to the board being drawn.
#[derive(Clone, Debug, Default)]
struct Highlight {
    /// The start square, then every landing square, in order.
    path: Vec<Square>,
    /// The squares of the pieces the move captures.
    captured: Bitboard,
}

/// How one square is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// Not part of the highlighted move.
    None,
    /// The start or a landing square.
    Path,
    /// A captured piece's square.
    Captured,
}

impl Highlight {
    fn new(variant: Variant, options: &RenderOptions) -> Highlight {
        let Some(mv) = options.highlight else { return Highlight::default() };
        let board = variant.board();
        Highlight {
            path: mv.squares().filter(|&square| board.contains(square)).collect(),
            captured: mv.captured() & board,
        }
    }

    /// A landing on a square freed earlier in the same capture counts as a landing.
    fn mark(&self, square: Square) -> Mark {
        if self.path.contains(&square) {
            Mark::Path
        } else if self.captured.contains(square) {
            Mark::Captured
        } else {
            Mark::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_and_its_inverse_agree_both_ways_round() {
        for flipped in [false, true] {
            let view = View { n: 10, flipped };
            for (column, row) in [(0, 0), (3, 7), (9, 9), (9, 0)] {
                assert_eq!(view.column_row(view.file_rank(column, row)), (column, row));
            }
        }
        assert_eq!(View { n: 8, flipped: false }.file_rank(0, 7), (0, 0), "a1 at the bottom-left");
        assert_eq!(View { n: 8, flipped: true }.file_rank(0, 7), (7, 7), "h8 at the bottom-left");
    }

    #[test]
    fn squares_off_the_board_are_left_out_of_a_highlight() {
        // Bit 4 is a ghost of the Italian layout, bit 63 past its end: only a Turkish move has them.
        let foreign = Move::quiet(Square::new(4), Square::new(63), false);
        let options = RenderOptions { highlight: Some(foreign), ..RenderOptions::default() };
        let highlight = Highlight::new(Variant::Italian, &options);
        assert!(highlight.path.is_empty() && highlight.captured.is_empty());
        let start = Position::start(Variant::Italian);
        assert_eq!(text(&start, &options), text(&start, &RenderOptions::default()));
        assert!(!svg(&start, &options).contains("highlight"));
    }

    #[test]
    fn a_bad_size_says_what_is_allowed() {
        assert_eq!(RenderError::Size(10).to_string(), "image size 10 is out of range: it must be 64 to 2048 pixels");
    }
}
