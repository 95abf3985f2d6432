//! Who owns a piece ([`Color`]) and what it is ([`PieceKind`], [`Piece`]).

use std::fmt;

/// One of the two players. White moves first unless a Turkish game says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The player whose men start at the bottom of the board as drawn.
    White,
    /// The player whose men start at the top of the board as drawn.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    #[must_use]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The letter FEN and PDN use: `W` or `B`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }

    /// Reads `W` or `B`, in either case.
    #[must_use]
    pub fn from_letter(letter: char) -> Option<Color> {
        match letter.to_ascii_uppercase() {
            'W' => Some(Color::White),
            'B' => Some(Color::Black),
            _ => None,
        }
    }

    /// Reads a field that is exactly `W` or `B`, in either case (FEN's side to move, PDN's
    /// GameType start colour).
    #[must_use]
    pub fn from_field(field: &str) -> Option<Color> {
        let mut chars = field.chars();
        let color = chars.next().and_then(Color::from_letter)?;
        chars.next().is_none().then_some(color)
    }

    /// Index for per-colour tables: White 0, Black 1.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// Whether a piece is a man or a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// A plain piece: moves forward only (sideways too in Turkish).
    Man,
    /// A promoted piece: moves in every direction of its rule family.
    King,
}

/// A piece on the board: its owner and its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The player who owns the piece.
    pub color: Color,
    /// Man or king.
    pub kind: PieceKind,
}

impl Piece {
    /// Index for Zobrist tables: white man, white king, black man, black king.
    #[must_use]
    pub fn index(self) -> usize {
        self.color.index() * 2 + self.kind as usize
    }
}
