//! The SVG picture: a framed board of 100 units a square, labels, the highlighted move, the pieces.
//!
//! Coordinates are whole units so the document is the same bytes on every machine, and pieces
//! carry a `class` (`piece white king`) for clients that style or inspect them.

use std::fmt::Write as _;

use damiera_engine::{Color, Piece, PieceKind, Position, Square, Variant};

use super::{Highlight, Mark, RenderOptions, View};

/// Side of a square in `viewBox` units.
const SQUARE: u32 = 100;
/// The border around the board.
const FRAME: u32 = 14;
/// The wider left and bottom border that holds Turkish ranks and files.
const LABEL_BAND: u32 = 44;
/// DejaVu first: the server's container installs it, so labels look the same everywhere.
const FONT: &str = "DejaVu Sans, sans-serif";

const FRAME_COLOR: &str = "#6b4a2f";
const LIGHT_COLOR: &str = "#f0d9b5";
const DARK_COLOR: &str = "#b58863";
const PATH_TINT: &str = r##"fill="#f5e663" fill-opacity="0.65""##;
const CAPTURE_TINT: &str = r##"fill="#e0503c" fill-opacity="0.5""##;
const NUMBER_ON_PATH: &str = "#6b4a2f";
const LINE_COLOR: &str = "#1e6fd9";
const LINE_STYLE: &str =
    r#"fill="none" stroke-opacity="0.75" stroke-width="9" stroke-linecap="round" stroke-linejoin="round""#;
const CROSS_STYLE: &str = r##"stroke="#b71c1c" stroke-width="9" stroke-linecap="round""##;
/// Three points over a band, centred on the piece.
const CROWN: &str = "M-19 6 L-23 -14 L-10 -3 L0 -19 L10 -3 L23 -14 L19 6 Z M-19 10 H19 V17 H-19 Z";
const CROWN_STYLE: &str = r##"fill="#e6b422" stroke="#7a5200" stroke-width="2" stroke-linejoin="round""##;

/// Where the board sits in the picture.
struct Canvas {
    view: View,
    /// The board's top-left corner.
    left: u32,
    top: u32,
    /// Width and height of the whole picture, frame included.
    side: u32,
}

impl Canvas {
    fn new(variant: Variant, options: &RenderOptions) -> Canvas {
        let view = View::new(variant, options);
        let band = if options.labels && !variant.is_numbered() { LABEL_BAND } else { FRAME };
        Canvas { view, left: band, top: FRAME, side: band + view.n * SQUARE + FRAME }
    }

    /// The top-left corner of the square at `(file, rank)`.
    fn corner(&self, file_rank: (u32, u32)) -> (u32, u32) {
        let (column, row) = self.view.column_row(file_rank);
        (self.left + column * SQUARE, self.top + row * SQUARE)
    }

    fn centre(&self, variant: Variant, square: Square) -> (u32, u32) {
        let (x, y) = self.corner(variant.coordinates(square));
        (x + SQUARE / 2, y + SQUARE / 2)
    }
}

// Writing to a `String` cannot fail, so the `fmt::Result`s below are dropped.
pub(super) fn document(position: &Position, options: &RenderOptions) -> String {
    let variant = position.variant();
    let canvas = Canvas::new(variant, options);
    let highlight = Highlight::new(variant, options);
    let (size, side) = (options.size, canvas.side);
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(out, r#"<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}""#);
    let _ = writeln!(out, r#" viewBox="0 0 {side} {side}" font-family="{FONT}">"#);
    let _ = writeln!(out, r#"<rect width="{side}" height="{side}" fill="{FRAME_COLOR}"/>"#);
    board(&mut out, &canvas, variant, &highlight);
    move_line(&mut out, &canvas, variant, &highlight);
    if options.labels && variant.is_numbered() {
        square_numbers(&mut out, &canvas, variant, &highlight);
    }
    for (square, piece) in position.pieces() {
        let captured = highlight.mark(square) == Mark::Captured;
        draw_piece(&mut out, canvas.centre(variant, square), piece, captured);
    }
    for square in highlight.captured {
        cross(&mut out, canvas.centre(variant, square));
    }
    if options.labels && !variant.is_numbered() {
        edge_labels(&mut out, &canvas);
    }
    out.push_str("</svg>\n");
    out
}

/// The squares and the highlighted move's tints.
fn board(out: &mut String, canvas: &Canvas, variant: Variant, highlight: &Highlight) {
    let (left, top, n) = (canvas.left, canvas.top, canvas.view.n);
    let width = n * SQUARE;
    let _ = writeln!(out, r#"<rect x="{left}" y="{top}" width="{width}" height="{width}" fill="{LIGHT_COLOR}"/>"#);
    for rank in 0..n {
        for file in 0..n {
            let (x, y) = canvas.corner((file, rank));
            let square = variant.square_at(file, rank);
            // The numbered boards play on the dark squares; Turkish is coloured like chess (a1 dark).
            let dark = if variant.is_numbered() { square.is_some() } else { (file + rank) % 2 == 0 };
            if dark {
                let _ =
                    writeln!(out, r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{DARK_COLOR}"/>"#);
            }
            let Some(square) = square else { continue };
            let tint = match highlight.mark(square) {
                Mark::None => None,
                Mark::Path => Some(PATH_TINT),
                Mark::Captured => Some(CAPTURE_TINT),
            };
            if let Some(tint) = tint {
                let _ = writeln!(
                    out,
                    r#"<rect class="highlight" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" {tint}/>"#
                );
            }
        }
    }
}

/// The numbers of the playing squares, small and in the corner, clear of a man's edge.
fn square_numbers(out: &mut String, canvas: &Canvas, variant: Variant, highlight: &Highlight) {
    for square in variant.board() {
        let (x, y) = canvas.corner(variant.coordinates(square));
        // Light on brown and on red, dark on the yellow that a light colour would vanish in.
        let fill = if highlight.mark(square) == Mark::Path { NUMBER_ON_PATH } else { LIGHT_COLOR };
        let (x, y, number) = (x + 5, y + 20, variant.square_number(square));
        let _ = writeln!(out, r#"<text x="{x}" y="{y}" font-size="18" fill="{fill}">{number}</text>"#);
    }
}

/// A line through the start and every landing, so the order of a multi-capture's jumps shows.
fn move_line(out: &mut String, canvas: &Canvas, variant: Variant, highlight: &Highlight) {
    if highlight.path.len() < 2 {
        return;
    }
    let centres: Vec<_> = highlight.path.iter().map(|&square| canvas.centre(variant, square)).collect();
    let points: Vec<String> = centres.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let _ = writeln!(out, r#"<polyline points="{}" stroke="{LINE_COLOR}" {LINE_STYLE}/>"#, points.join(" "));
    let (x, y) = centres[centres.len() - 1];
    let _ = writeln!(out, r#"<circle cx="{x}" cy="{y}" r="13" fill="{LINE_COLOR}" fill-opacity="0.75"/>"#);
}

/// A disc with an inner ring, a crown on a king; a captured piece is see-through.
fn draw_piece(out: &mut String, (x, y): (u32, u32), piece: Piece, captured: bool) {
    let (fill, edge, ring) = match piece.color {
        Color::White => ("#f7f3ea", "#4a4a4a", "#c9bfae"),
        Color::Black => ("#262626", "#000000", "#5e5e5e"),
    };
    let (color, kind) = (piece.color, if piece.kind == PieceKind::King { "king" } else { "man" });
    let opacity = if captured { r#" opacity="0.45""# } else { "" };
    let _ = writeln!(out, r#"<g class="piece {color} {kind}"{opacity}>"#);
    let shadow_y = y + 4;
    let _ = writeln!(out, r##"<circle cx="{x}" cy="{shadow_y}" r="38" fill="#000000" fill-opacity="0.3"/>"##);
    let _ = writeln!(out, r#"<circle cx="{x}" cy="{y}" r="38" fill="{fill}" stroke="{edge}" stroke-width="3"/>"#);
    let _ = writeln!(out, r#"<circle cx="{x}" cy="{y}" r="27" fill="none" stroke="{ring}" stroke-width="3"/>"#);
    if piece.kind == PieceKind::King {
        let _ = writeln!(out, r#"<path transform="translate({x} {y})" d="{CROWN}" {CROWN_STYLE}/>"#);
    }
    out.push_str("</g>\n");
}

/// The mark of a captured piece, also drawn when the piece is already gone (the move was played).
fn cross(out: &mut String, (x, y): (u32, u32)) {
    let (x0, y0, x1, y1) = (x - 22, y - 22, x + 22, y + 22);
    let _ = writeln!(out, r#"<path class="captured" d="M{x0} {y0} L{x1} {y1} M{x1} {y0} L{x0} {y1}" {CROSS_STYLE}/>"#);
}

/// Turkish files along the bottom and ranks along the left, in the order the board is drawn.
fn edge_labels(out: &mut String, canvas: &Canvas) {
    let n = canvas.view.n;
    let style = format!(r#"font-size="26" fill="{LIGHT_COLOR}" text-anchor="middle""#);
    let files_y = canvas.top + n * SQUARE + 31;
    let ranks_x = canvas.left / 2;
    for i in 0..n {
        let (file, _) = canvas.view.file_rank(i, 0);
        let (_, rank) = canvas.view.file_rank(0, i);
        let centre = SQUARE / 2 + i * SQUARE;
        let (x, y) = (canvas.left + centre, canvas.top + centre + 9);
        let name = char::from(b'a' + file as u8);
        let _ = writeln!(out, r#"<text x="{x}" y="{files_y}" {style}>{name}</text>"#);
        let _ = writeln!(out, r#"<text x="{ranks_x}" y="{y}" {style}>{}</text>"#, rank + 1);
    }
}

#[cfg(test)]
mod tests {
    use damiera_engine::{fen, notation};

    use super::*;

    fn draw(variant: Variant, fen_text: &str, options: &RenderOptions) -> String {
        document(&fen::parse(variant, fen_text).expect("a valid FEN"), options)
    }

    /// The class of the piece drawn with its centre at `(x, y)`, if one is.
    fn piece_centred_at(svg: &str, x: u32, y: u32) -> Option<&str> {
        let disc = format!(r#"<circle cx="{x}" cy="{y}" r="38""#);
        svg.split(r#"<g class=""#).skip(1).find(|group| group.contains(&disc)).and_then(|group| group.split('"').next())
    }

    #[test]
    fn every_piece_of_every_start_position_is_drawn_once() {
        for variant in Variant::ALL {
            let start = Position::start(variant);
            let svg = document(&start, &RenderOptions::default());
            assert_eq!(svg.matches(r#"<g class="piece "#).count(), start.pieces().count(), "{variant}");
            assert_eq!(svg.matches("piece white man").count(), variant.men_per_side() as usize, "{variant}");
            assert_eq!(svg.matches("piece black man").count(), variant.men_per_side() as usize, "{variant}");
            assert!(!svg.contains("king") && !svg.contains("highlight") && !svg.contains("<text"), "{variant}");
        }
    }

    #[test]
    fn kings_wear_a_crown() {
        let svg = draw(Variant::Italian, "W:W22,K32:B18,10,K11,1", &RenderOptions::default());
        assert_eq!(svg.matches("piece white king").count(), 1);
        assert_eq!(svg.matches("piece black king").count(), 1);
        assert_eq!(svg.matches("<path transform").count(), 2, "one crown a king");
    }

    #[test]
    fn the_picture_has_its_pixel_size_and_a_view_box_around_the_framed_board() {
        let options = RenderOptions { size: 300, ..RenderOptions::default() };
        let svg = document(&Position::start(Variant::Triestina), &options);
        assert!(svg.starts_with(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300" viewBox="0 0 1028 1028""#
        ));
        assert!(svg.ends_with("</svg>\n"));
    }

    #[test]
    fn a_highlighted_capture_tints_its_path_and_crosses_out_its_captures() {
        let position = fen::parse(Variant::Italian, "W:W22,K32:B18,10,K11,1").unwrap();
        let mv = notation::parse(&position, "22x13x6").unwrap();
        let svg = document(&position, &RenderOptions { highlight: Some(mv), ..RenderOptions::default() });
        assert_eq!(svg.matches(r#"class="highlight""#).count(), 5, "22, 13 and 6, then 18 and 10");
        // 22 is d3: the fourth column, the sixth row from the top.
        assert!(svg.contains(r#"<rect class="highlight" x="314" y="514""#));
        assert!(svg.contains(r#"<polyline points="364,564 164,364 364,164""#), "22, 13, 6 in order");
        assert_eq!(svg.matches(r#"<path class="captured""#).count(), 2);
        assert_eq!(svg.matches(r#"piece black man" opacity="0.45""#).count(), 2, "18 and 10 see-through");
    }

    #[test]
    fn flipping_puts_blacks_corner_at_the_bottom_left() {
        let (x, y) = (FRAME + SQUARE / 2, FRAME + 7 * SQUARE + SQUARE / 2);
        let plain = draw(Variant::Turkish, "W:Wa1:Bh8", &RenderOptions::default());
        assert_eq!(piece_centred_at(&plain, x, y), Some("piece white man"), "a1");
        let flipped = draw(Variant::Turkish, "W:Wa1:Bh8", &RenderOptions { flipped: true, ..RenderOptions::default() });
        assert_eq!(piece_centred_at(&flipped, x, y), Some("piece black man"), "h8");
    }

    #[test]
    fn labels_name_every_playing_square_or_every_file_and_rank() {
        let options = RenderOptions { labels: true, ..RenderOptions::default() };
        let italian = document(&Position::start(Variant::Italian), &options);
        assert_eq!(italian.matches("<text").count(), 32);
        assert!(italian.contains(r##"<text x="19" y="34" font-size="18" fill="#f0d9b5">1</text>"##), "1 top-left");
        let turkish = document(&Position::start(Variant::Turkish), &options);
        assert_eq!(turkish.matches("<text").count(), 16);
        assert!(turkish.contains(r#">a</text>"#) && turkish.contains(r#">8</text>"#));
    }
}
