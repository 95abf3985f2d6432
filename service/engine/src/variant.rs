//! [`Variant`]: the three games as values, with their boards, square names and start positions.
//!
//! ```
//! use damiera_engine::Variant;
//! let v: Variant = "turkish".parse().unwrap();
//! assert_eq!(v.board_size(), 8);
//! assert_eq!(v.square_name(v.parse_square("e3").unwrap()), "e3");
//! ```

use std::fmt;
use std::str::FromStr;

use crate::geometry::{diagonal_bit, diagonal_valid};
use crate::{Bitboard, Color, Square};

/// One of the three games Damiera plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    /// Dama Italiana: 8x8, dark squares numbered 1-32, short kings that men cannot capture.
    Italian,
    /// Dama Triestina: Italian rules on 10x10, squares 1-50.
    Triestina,
    /// Dama Turca: 8x8, every square, orthogonal moves, flying kings.
    Turkish,
}

/// The two move generators: each variant is one of these on its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleFamily {
    /// Diagonal moves on dark squares, short kings, the Italian capture hierarchy.
    Diagonal,
    /// Orthogonal moves on every square, flying kings, the most-pieces capture rule.
    Orthogonal,
}

/// A square name that does not fit the variant's board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    /// Neither a square number nor a file-and-rank name.
    #[error("{}", if .0.is_empty() { "a square is missing".to_string() } else { format!("'{}' is not a square name", .0) })]
    NotASquare(String),
    /// A number or coordinate outside the board.
    #[error("square '{0}' is off the board")]
    OffBoard(String),
    /// A light square, where nothing stands on a diagonal board.
    #[error("square '{0}' is a light square")]
    LightSquare(String),
}

impl Variant {
    /// Every variant, in a fixed order.
    pub const ALL: [Variant; 3] = [Variant::Italian, Variant::Triestina, Variant::Turkish];

    /// The name used on the command line and in the API: `italian`, `triestina`, `turkish`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Variant::Italian => "italian",
            Variant::Triestina => "triestina",
            Variant::Turkish => "turkish",
        }
    }

    /// The name players use.
    #[must_use]
    pub fn display_name(self) -> &'static str {
        match self {
            Variant::Italian => "Dama Italiana",
            Variant::Triestina => "Dama Triestina",
            Variant::Turkish => "Dama Turca",
        }
    }

    /// Which move generator plays this variant.
    #[must_use]
    pub fn family(self) -> RuleFamily {
        match self {
            Variant::Italian | Variant::Triestina => RuleFamily::Diagonal,
            Variant::Turkish => RuleFamily::Orthogonal,
        }
    }

    /// Squares along one side of the board.
    #[must_use]
    pub fn board_size(self) -> u32 {
        match self {
            Variant::Italian | Variant::Turkish => 8,
            Variant::Triestina => 10,
        }
    }

    /// Whether squares are named by number (Italian, Triestina) rather than by file and rank.
    #[must_use]
    pub fn is_numbered(self) -> bool {
        self.family() == RuleFamily::Diagonal
    }

    /// Men each player has at the start, and so the most pieces a side may ever have.
    #[must_use]
    pub fn men_per_side(self) -> u32 {
        match self {
            Variant::Italian => 12,
            Variant::Triestina => 20,
            Variant::Turkish => 16,
        }
    }

    /// Squares pieces stand on: 32, 50 or 64.
    #[must_use]
    pub fn square_count(self) -> u32 {
        self.board().count()
    }

    /// Every playable square.
    #[must_use]
    pub fn board(self) -> Bitboard {
        Bitboard(match self {
            Variant::Italian => diagonal_valid(4, 8),
            Variant::Triestina => diagonal_valid(5, 10),
            Variant::Turkish => u64::MAX,
        })
    }

    /// The row where `color`'s men promote: the opponent's base row.
    #[must_use]
    pub fn promotion_row(self, color: Color) -> Bitboard {
        let n = self.board_size();
        let rank = match color {
            Color::White => n - 1,
            Color::Black => 0,
        };
        (0..n).filter_map(|file| self.square_at(file, rank)).collect()
    }

    /// How many times a position must occur, the same player to move, for the game to be drawn:
    /// four in Italian and Triestina (RULES.md 2.11), three in Turkish (3.10).
    #[must_use]
    pub fn repetition_limit(self) -> usize {
        match self.family() {
            RuleFamily::Diagonal => 4,
            RuleFamily::Orthogonal => 3,
        }
    }

    /// Whether a player may ask for the 40-king-move count (RULES.md 2.11): Italian and Triestina.
    #[must_use]
    pub fn has_move_count(self) -> bool {
        self.family() == RuleFamily::Diagonal
    }

    /// The start position in FEN, White to move.
    #[must_use]
    pub fn start_fen(self) -> &'static str {
        match self {
            Variant::Italian => "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            Variant::Triestina => {
                "W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50\
                 :B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"
            }
            Variant::Turkish => {
                "W:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e3,f2,f3,g2,g3,h2,h3\
                 :Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7"
            }
        }
    }

    /// The square at `file` (0 = a, White's left) and `rank` (0 = White's side), if it is playable.
    #[must_use]
    pub fn square_at(self, file: u32, rank: u32) -> Option<Square> {
        let n = self.board_size();
        if file >= n || rank >= n {
            return None;
        }
        if !self.is_numbered() {
            return Some(Square::new((rank * 8 + file) as u8));
        }
        if (file + rank).is_multiple_of(2) {
            return None; // light square: the bottom-right corner is dark
        }
        let row = n - 1 - rank;
        let number0 = row * (n / 2) + file / 2;
        Some(Square::new(diagonal_bit(n / 2, number0) as u8))
    }

    /// The `(file, rank)` of a square, both 0-based from White's bottom-left corner.
    #[must_use]
    pub fn coordinates(self, square: Square) -> (u32, u32) {
        if !self.is_numbered() {
            return (square.index() % 8, square.index() / 8);
        }
        let number0 = self.square_number(square) - 1;
        let n = self.board_size();
        let row = number0 / (n / 2);
        let file = 2 * (number0 % (n / 2)) + row % 2;
        (file, n - 1 - row)
    }

    /// The square's number (1-based) on a numbered board; on the Turkish board, 1 (a1) to 64 (h8).
    #[must_use]
    pub fn square_number(self, square: Square) -> u32 {
        if !self.is_numbered() {
            return square.index() + 1;
        }
        let half = self.board_size() / 2;
        // Invert bit = s + (s / half + 1) / 2: one ghost bit precedes every odd row.
        let bit = square.index();
        let row = (bit * 2) / (2 * half + 1);
        bit - row.div_ceil(2) + 1
    }

    /// The square's name as the variant writes it: `21` or `e3`.
    #[must_use]
    pub fn square_name(self, square: Square) -> String {
        let mut name = String::with_capacity(3);
        self.push_square_name(square, &mut name);
        name
    }

    /// Appends the square's name to `out`: what [`Variant::square_name`] returns, without a
    /// `String` of its own. Moves, FENs and move lists are written this way, a name at a time.
    ///
    /// ```
    /// use damiera_engine::Variant;
    /// let mut text = String::from("K");
    /// Variant::Turkish.push_square_name(Variant::Turkish.parse_square("e3").unwrap(), &mut text);
    /// assert_eq!(text, "Ke3");
    /// ```
    pub fn push_square_name(self, square: Square, out: &mut String) {
        // Written by hand rather than with `format!`: servers write thousands of names a second.
        let push_number = |out: &mut String, n: u32| {
            if n >= 10 {
                out.push(char::from(b'0' + (n / 10) as u8));
            }
            out.push(char::from(b'0' + (n % 10) as u8));
        };
        if self.is_numbered() {
            push_number(out, self.square_number(square));
        } else {
            let (file, rank) = self.coordinates(square);
            out.push(char::from(b'a' + file as u8));
            push_number(out, rank + 1);
        }
    }

    /// Reads a square name. Numbered variants take numbers and also file-and-rank names (`b3`).
    pub fn parse_square(self, text: &str) -> Result<Square, SquareError> {
        let not_a_square = || SquareError::NotASquare(text.to_string());
        if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
            if !self.is_numbered() {
                return Err(not_a_square());
            }
            let number: u32 = text.parse().map_err(|_| SquareError::OffBoard(text.to_string()))?;
            if number == 0 || number > self.square_count() {
                return Err(SquareError::OffBoard(text.to_string()));
            }
            let half = self.board_size() / 2;
            return Ok(Square::new(diagonal_bit(half, number - 1) as u8));
        }
        let mut chars = text.chars();
        let file_char = chars.next().filter(char::is_ascii_alphabetic).ok_or_else(not_a_square)?;
        let rank_text = chars.as_str();
        if rank_text.is_empty() || !rank_text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_a_square());
        }
        let file = u32::from(file_char.to_ascii_lowercase() as u8 - b'a');
        let rank: u32 = rank_text.parse().map_err(|_| SquareError::OffBoard(text.to_string()))?;
        let n = self.board_size();
        if file >= n || rank == 0 || rank > n {
            return Err(SquareError::OffBoard(text.to_string()));
        }
        self.square_at(file, rank - 1).ok_or_else(|| SquareError::LightSquare(text.to_string()))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A variant name that is none of Damiera's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown variant '{0}' (expected italian, triestina or turkish)")]
pub struct UnknownVariant(pub String);

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Reads `italian`, `triestina` or `turkish`, also in Italian (`italiana`, `turca`), any case.
    fn from_str(text: &str) -> Result<Variant, UnknownVariant> {
        match text.to_ascii_lowercase().as_str() {
            "italian" | "italiana" => Ok(Variant::Italian),
            "triestina" => Ok(Variant::Triestina),
            "turkish" | "turca" => Ok(Variant::Turkish),
            _ => Err(UnknownVariant(text.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RULES.md section 1 gives these coordinates.
    #[test]
    fn numbered_squares_sit_where_the_rules_say() {
        let cases = [
            (Variant::Italian, "1", "a8"),
            (Variant::Italian, "4", "g8"),
            (Variant::Italian, "5", "b7"),
            (Variant::Italian, "21", "b3"),
            (Variant::Italian, "29", "b1"),
            (Variant::Italian, "32", "h1"),
            (Variant::Triestina, "1", "a10"),
            (Variant::Triestina, "5", "i10"),
            (Variant::Triestina, "6", "b9"),
            (Variant::Triestina, "46", "b1"),
            (Variant::Triestina, "50", "j1"),
        ];
        for (variant, number, coordinate) in cases {
            let by_number = variant.parse_square(number).unwrap();
            assert_eq!(variant.parse_square(coordinate).unwrap(), by_number, "{variant} {number}");
            assert_eq!(variant.square_name(by_number), number);
        }
    }

    #[test]
    fn every_square_round_trips_through_its_name_and_coordinates() {
        for variant in Variant::ALL {
            for square in variant.board() {
                let name = variant.square_name(square);
                assert_eq!(variant.parse_square(&name), Ok(square));
                let (file, rank) = variant.coordinates(square);
                assert_eq!(variant.square_at(file, rank), Some(square));
            }
            assert_eq!(variant.square_count(), variant.board().count());
        }
    }

    #[test]
    fn bad_square_names_say_what_is_wrong() {
        let it = Variant::Italian;
        assert_eq!(it.parse_square("33"), Err(SquareError::OffBoard("33".into())));
        assert_eq!(it.parse_square("0"), Err(SquareError::OffBoard("0".into())));
        assert_eq!(it.parse_square("a1"), Err(SquareError::LightSquare("a1".into())));
        assert_eq!(it.parse_square("x"), Err(SquareError::NotASquare("x".into())));
        assert_eq!(it.parse_square("x").unwrap_err().to_string(), "'x' is not a square name");
        assert_eq!(it.parse_square("").unwrap_err().to_string(), "a square is missing");
        assert_eq!(Variant::Turkish.parse_square("i1"), Err(SquareError::OffBoard("i1".into())));
        assert_eq!(Variant::Turkish.parse_square("12"), Err(SquareError::NotASquare("12".into())));
    }
}
