//! The plain-text board: one line a row, three characters a square, for a chat's code block.

use std::fmt::Write as _;

use damiera_engine::{Color, Piece, PieceKind, Position, Variant};

use super::{Highlight, Mark, RenderOptions, View};

/// A light square of a numbered board: nothing ever stands there, so it stays blank.
const LIGHT: &str = "   ";

/// Between the board and its key of square numbers.
const GAP: &str = "   ";

pub(super) fn board(position: &Position, options: &RenderOptions) -> String {
    let variant = position.variant();
    let view = View::new(variant, options);
    let highlight = Highlight::new(variant, options);
    let edge_labels = options.labels && !variant.is_numbered();
    let number_key = options.labels && variant.is_numbered();
    let mut out = String::new();
    for row in 0..view.n {
        let mut line = String::new();
        if edge_labels {
            let (_, rank) = view.file_rank(0, row);
            let _ = write!(line, "{} ", rank + 1);
        }
        for column in 0..view.n {
            line.push_str(&square_cell(position, &highlight, view.file_rank(column, row)));
        }
        if number_key {
            line.push_str(GAP);
            for column in 0..view.n {
                line.push_str(&number_cell(variant, view.file_rank(column, row)));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if edge_labels {
        out.push_str("  ");
        for column in 0..view.n {
            let (file, _) = view.file_rank(column, 0);
            let _ = write!(out, " {} ", char::from(b'a' + file as u8));
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

/// The piece or `.` on a playing square, between the marks of the highlighted move.
fn square_cell(position: &Position, highlight: &Highlight, (file, rank): (u32, u32)) -> String {
    let Some(square) = position.variant().square_at(file, rank) else { return LIGHT.to_string() };
    let content = position.piece_at(square).map_or('.', letter);
    let (open, close) = match highlight.mark(square) {
        Mark::None => (' ', ' '),
        Mark::Path => ('[', ']'),
        Mark::Captured => ('(', ')'),
    };
    format!("{open}{content}{close}")
}

/// The square's number, its last digit under the board's piece letters.
fn number_cell(variant: Variant, (file, rank): (u32, u32)) -> String {
    match variant.square_at(file, rank) {
        Some(square) => format!("{:>2} ", variant.square_number(square)),
        None => LIGHT.to_string(),
    }
}

/// FEN's colour letter, in capitals for a king so it stands out.
fn letter(piece: Piece) -> char {
    match (piece.color, piece.kind) {
        (Color::White, PieceKind::Man) => 'w',
        (Color::White, PieceKind::King) => 'W',
        (Color::Black, PieceKind::Man) => 'b',
        (Color::Black, PieceKind::King) => 'B',
    }
}

#[cfg(test)]
mod tests {
    use damiera_engine::fen;

    use super::*;

    fn draw(variant: Variant, fen_text: &str, options: RenderOptions) -> String {
        board(&fen::parse(variant, fen_text).expect("a valid FEN"), &options)
    }

    #[test]
    fn the_italian_start_has_black_on_the_top_three_rows() {
        let expected = concat!(
            " b     b     b     b\n",
            "    b     b     b     b\n",
            " b     b     b     b\n",
            "    .     .     .     .\n",
            " .     .     .     .\n",
            "    w     w     w     w\n",
            " w     w     w     w\n",
            "    w     w     w     w\n",
        );
        assert_eq!(board(&Position::start(Variant::Italian), &RenderOptions::default()), expected);
    }

    #[test]
    fn the_triestina_start_has_black_on_the_top_four_rows() {
        let expected = concat!(
            " b     b     b     b     b\n",
            "    b     b     b     b     b\n",
            " b     b     b     b     b\n",
            "    b     b     b     b     b\n",
            " .     .     .     .     .\n",
            "    .     .     .     .     .\n",
            " w     w     w     w     w\n",
            "    w     w     w     w     w\n",
            " w     w     w     w     w\n",
            "    w     w     w     w     w\n",
        );
        assert_eq!(board(&Position::start(Variant::Triestina), &RenderOptions::default()), expected);
    }

    #[test]
    fn the_turkish_start_with_labels_has_ranks_and_files_along_the_edges() {
        let expected = concat!(
            "8  .  .  .  .  .  .  .  .\n",
            "7  b  b  b  b  b  b  b  b\n",
            "6  b  b  b  b  b  b  b  b\n",
            "5  .  .  .  .  .  .  .  .\n",
            "4  .  .  .  .  .  .  .  .\n",
            "3  w  w  w  w  w  w  w  w\n",
            "2  w  w  w  w  w  w  w  w\n",
            "1  .  .  .  .  .  .  .  .\n",
            "   a  b  c  d  e  f  g  h\n",
        );
        let options = RenderOptions { labels: true, ..RenderOptions::default() };
        assert_eq!(board(&Position::start(Variant::Turkish), &options), expected);
    }

    #[test]
    fn flipped_with_labels_the_key_turns_with_the_board() {
        let expected = concat!(
            " w     w     w     w       32    31    30    29\n",
            "    w     w     w     w       28    27    26    25\n",
            " w     w     w     w       24    23    22    21\n",
            "    .     .     .     .       20    19    18    17\n",
            " .     .     .     .       16    15    14    13\n",
            "    b     b     b     b       12    11    10     9\n",
            " b     b     b     b        8     7     6     5\n",
            "    b     b     b     b        4     3     2     1\n",
        );
        let options = RenderOptions { flipped: true, labels: true, ..RenderOptions::default() };
        assert_eq!(board(&Position::start(Variant::Italian), &options), expected);
    }

    #[test]
    fn flipping_puts_h8_at_the_bottom_left() {
        let plain = draw(Variant::Turkish, "W:Wa1:Bh8", RenderOptions { labels: true, ..RenderOptions::default() });
        assert_eq!(plain.lines().nth(7), Some("1  w  .  .  .  .  .  .  ."));
        let flipped = RenderOptions { flipped: true, labels: true, ..RenderOptions::default() };
        let flipped = draw(Variant::Turkish, "W:Wa1:Bh8", flipped);
        assert_eq!(flipped.lines().nth(7), Some("8  b  .  .  .  .  .  .  ."));
        assert_eq!(flipped.lines().nth(8), Some("   h  g  f  e  d  c  b  a"));
    }

    #[test]
    fn a_highlighted_capture_brackets_its_path_and_its_captures() {
        let position = fen::parse(Variant::Italian, "W:W22,K32:B18,10,K11,1").unwrap();
        let mv = damiera_engine::notation::parse(&position, "22x13x6").unwrap();
        let expected = concat!(
            " b     .     .     .\n",
            "    .    [.]    .     .\n",
            " .    (b)    B     .\n",
            "   [.]    .     .     .\n",
            " .    (b)    .     .\n",
            "    .    [w]    .     .\n",
            " .     .     .     .\n",
            "    .     .     .     W\n",
        );
        let options = RenderOptions { highlight: Some(mv), ..RenderOptions::default() };
        assert_eq!(board(&position, &options), expected);
        // After the move the same marks stand on the squares, now with the man on 6.
        let after = board(&position.play(&mv).unwrap(), &options);
        assert_eq!(after.lines().nth(1), Some("    .    [w]    .     ."));
        assert_eq!(after.lines().nth(2), Some(" .    (.)    B     ."));
    }
}
