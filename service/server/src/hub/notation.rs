//! Moves and positions as the Hub protocol writes them, per variant.
//!
//! A move is its start and end squares, then (for a capture) every captured square, in ascending
//! order: `21-17`, `22x6x13x18` (a man on 22 takes 18 and 13 and lands on 6). Squares are numbers:
//! 1-32 in Dama Italiana and 1-50 in Dama Triestina, as their rules number them; in Dama Turca
//! 1-64 with a1 = 1, b1 = 2, ..., h8 = 64 (rank by rank from White's side), which is how
//! pydraughts numbers Turkish squares in the moves it sends and reads. On input a Turkish square
//! may also be written by name (`e3`), and a capture may give only its start and end when one
//! legal move fits them.
//!
//! A position is either our PDN FEN (`W:W21-32:B1-12`) or the Hub form: `W` or `B` for the side
//! to move, then one letter per playable square (`w`/`b` a man, `W`/`B` a king, `e` empty) in
//! reading order as White sees the board, from the top-left corner: squares 1 to 32 (or 50) in the
//! numbered variants; a8, b8, ..., h8, a7, ..., h1 in Dama Turca (pydraughts' order).
//!
//! ```
//! use damiera_engine::{Position, Variant};
//! use damiera_server::hub::notation;
//! let start = Position::start(Variant::Italian);
//! assert_eq!(notation::write_position(&start), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
//! let mv = notation::read_move(&start, "22-18").unwrap();
//! assert_eq!(notation::write_move(Variant::Italian, &mv), "22-18");
//! ```

use damiera_engine::{fen, Color, Move, Piece, PieceKind, Position, Square, Variant};

/// Why a Hub move or position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HubNotationError {
    /// Not written as a Hub move.
    #[error("'{0}' is not a move: expected from-to or from x to x captured squares")]
    MoveSyntax(String),
    /// A square that is not on this variant's board.
    #[error("'{text}': {reason}")]
    Square {
        /// The move as given.
        text: String,
        /// What is wrong with the square.
        reason: String,
    },
    /// Well written, but no legal move fits it.
    #[error("{0} is not a legal move here")]
    Illegal(String),
    /// Start and end only, and several legal moves fit.
    #[error("{0} is ambiguous: give the captured squares")]
    Ambiguous(String),
    /// Neither a FEN nor a Hub position of the right length.
    #[error("bad position '{text}': {reason}")]
    Position {
        /// The position as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// The Hub number of a square.
fn number(variant: Variant, square: Square) -> u32 {
    variant.square_number(square)
}

/// Reads a Hub square: a number in every variant, or a Turkish square's name.
fn read_square(variant: Variant, text: &str) -> Result<Square, String> {
    if variant.is_numbered() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return variant.parse_square(text).map_err(|e| e.to_string());
    }
    match text.parse::<u32>() {
        Ok(n @ 1..=64) => variant.square_at((n - 1) % 8, (n - 1) / 8).ok_or_else(|| format!("no square {n}")),
        _ => Err(format!("square '{text}' is off the board")),
    }
}

/// Writes a move in Hub form: start, end, then the captured squares in ascending order.
#[must_use]
pub fn write_move(variant: Variant, mv: &Move) -> String {
    let mut squares = vec![number(variant, mv.from()), number(variant, mv.to())];
    let mut captured: Vec<u32> = mv.captured().map(|s| number(variant, s)).collect();
    captured.sort_unstable();
    squares.extend(captured);
    let separator = if mv.is_capture() { "x" } else { "-" };
    squares.iter().map(u32::to_string).collect::<Vec<_>>().join(separator)
}

/// Reads a Hub move and finds the legal move it stands for.
pub fn read_move(position: &Position, text: &str) -> Result<Move, HubNotationError> {
    let variant = position.variant();
    let capture = text.contains('x');
    let parts: Vec<&str> = text.split(if capture { 'x' } else { '-' }).collect();
    if parts.len() < 2 || (!capture && parts.len() > 2) {
        return Err(HubNotationError::MoveSyntax(text.to_string()));
    }
    let squares = parts
        .iter()
        .map(|p| read_square(variant, p))
        .collect::<Result<Vec<Square>, String>>()
        .map_err(|reason| HubNotationError::Square { text: text.to_string(), reason })?;
    let (from, to, captured) = (squares[0], squares[1], &squares[2..]);
    let fits = |mv: &&Move| {
        mv.from() == from
            && mv.to() == to
            && mv.is_capture() == capture
            && (captured.is_empty()
                || (mv.captured().count() as usize == captured.len()
                    && captured.iter().all(|&s| mv.captured().contains(s))))
    };
    let moves = position.legal_moves();
    let mut candidates = moves.iter().filter(fits);
    match (candidates.next(), candidates.next()) {
        (Some(mv), None) => Ok(*mv),
        (Some(_), Some(_)) => Err(HubNotationError::Ambiguous(text.to_string())),
        (None, _) => Err(HubNotationError::Illegal(text.to_string())),
    }
}

/// The playable squares in the Hub position's order: reading order from the top-left corner.
fn reading_order(variant: Variant) -> impl Iterator<Item = Square> {
    let n = variant.board_size();
    (0..n).rev().flat_map(move |rank| (0..n).filter_map(move |file| variant.square_at(file, rank)))
}

/// Writes a position in Hub form.
#[must_use]
pub fn write_position(position: &Position) -> String {
    let side = if position.turn() == Color::White { 'W' } else { 'B' };
    let squares = reading_order(position.variant()).map(|square| match position.piece_at(square) {
        None => 'e',
        Some(Piece { color: Color::White, kind: PieceKind::Man }) => 'w',
        Some(Piece { color: Color::Black, kind: PieceKind::Man }) => 'b',
        Some(Piece { color: Color::White, kind: PieceKind::King }) => 'W',
        Some(Piece { color: Color::Black, kind: PieceKind::King }) => 'B',
    });
    std::iter::once(side).chain(squares).collect()
}

/// Reads a position: PDN FEN when it holds a `:`, the Hub form otherwise.
pub fn read_position(variant: Variant, text: &str) -> Result<Position, HubNotationError> {
    let bad = |reason: String| HubNotationError::Position { text: text.to_string(), reason };
    if text.contains(':') {
        return fen::parse(variant, text).map_err(|e| bad(e.to_string()));
    }
    let mut chars = text.chars();
    let turn = match chars.next() {
        Some('W' | 'w') => Color::White,
        Some('B' | 'b') => Color::Black,
        _ => return Err(bad("it starts with neither W nor B".into())),
    };
    let letters: Vec<char> = chars.collect();
    let count = variant.square_count() as usize;
    if letters.len() != count {
        return Err(bad(format!("{} squares where {} has {count}", letters.len(), variant.name())));
    }
    let mut pieces = Vec::new();
    for (square, letter) in reading_order(variant).zip(letters) {
        let (color, kind) = match letter {
            'e' => continue,
            'w' => (Color::White, PieceKind::Man),
            'b' => (Color::Black, PieceKind::Man),
            'W' => (Color::White, PieceKind::King),
            'B' => (Color::Black, PieceKind::King),
            other => return Err(bad(format!("'{other}' is not one of w, b, W, B, e"))),
        };
        pieces.push((square, Piece { color, kind }));
    }
    Position::from_pieces(variant, turn, pieces).map_err(|e| bad(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_round_trip_in_every_variant() {
        for variant in Variant::ALL {
            let start = Position::start(variant);
            let written = write_position(&start);
            assert_eq!(written.len(), 1 + variant.square_count() as usize);
            assert_eq!(read_position(variant, &written).unwrap(), start, "{variant}");
            assert_eq!(read_position(variant, variant.start_fen()).unwrap(), start);
        }
    }

    #[test]
    fn turkish_positions_list_rank_eight_first_and_moves_number_from_a1() {
        let start = Position::start(Variant::Turkish);
        assert_eq!(
            write_position(&start),
            format!("W{}{}{}{}", "e".repeat(8), "b".repeat(16), "e".repeat(16), "w".repeat(16) + &"e".repeat(8))
        );
        // a3-a4 is 17-25 with a1 = 1, as pydraughts writes it.
        let mv = read_move(&start, "17-25").unwrap();
        assert_eq!(damiera_engine::notation::write(Variant::Turkish, &mv), "a3-a4");
        assert_eq!(write_move(Variant::Turkish, &mv), "17-25");
        assert_eq!(read_move(&start, "a3-a4").unwrap(), mv);
    }

    #[test]
    fn captures_list_the_captured_squares_in_ascending_order() {
        // A man on 22 takes 18, then 10, landing on 6 (RULES.md's notation: 22x13x6).
        let position = fen::parse(Variant::Italian, "W:W22:B18,10").unwrap();
        let mv = damiera_engine::notation::parse(&position, "22x13x6").unwrap();
        assert_eq!(write_move(Variant::Italian, &mv), "22x6x10x18");
        for text in ["22x6x10x18", "22x6x18x10", "22x6"] {
            assert_eq!(read_move(&position, text).unwrap(), mv, "{text}");
        }
    }

    #[test]
    fn bad_moves_and_positions_say_why() {
        let start = Position::start(Variant::Italian);
        let message = |text: &str| read_move(&start, text).unwrap_err().to_string();
        assert_eq!(message("22"), "'22' is not a move: expected from-to or from x to x captured squares");
        assert_eq!(message("22-18-14"), "'22-18-14' is not a move: expected from-to or from x to x captured squares");
        assert_eq!(message("22-33"), "'22-33': square '33' is off the board");
        assert_eq!(message("22-17"), "22-17 is not a legal move here");
        let message = |text: &str| read_position(Variant::Italian, text).unwrap_err().to_string();
        assert_eq!(message("Xeee"), "bad position 'Xeee': it starts with neither W nor B");
        assert_eq!(message("Weee"), "bad position 'Weee': 3 squares where italian has 32");
        assert!(message("W:W33:B1").contains("off the board"));
    }
}
