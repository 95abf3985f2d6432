//! The training positions' file: one 28-byte record per quiet position of a self-play game, with
//! the game's result and the search's score.
//!
//! A record is, little-endian: White's pieces, Black's pieces and the kings as the engine's
//! bitboards (`u64` each), the side to move (0 White, 1 Black), the game's result for White
//! (0 loss, 1 draw, 2 win) and the search score for the side to move in hundredths of a man
//! (`i16::MIN` when the search found a decided score instead).

use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use damiera_engine::{Bitboard, Color, Piece, PieceKind, Position, Variant};

/// Bytes in a record.
const SIZE: usize = 28;
/// The score field of a position whose search score was a win, loss or database value.
pub const NO_SCORE: i16 = i16::MIN;

/// One training position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// White's pieces.
    pub white: u64,
    /// Black's pieces.
    pub black: u64,
    /// Both sides' kings.
    pub kings: u64,
    /// The side to move.
    pub turn: Color,
    /// The game's result for White: 0, 1 or 2 half points.
    pub white_result: u8,
    /// The search score for the side to move, or [`NO_SCORE`].
    pub score: i16,
}

impl Record {
    /// `position`, from a game White scored `white_result` half points in, searched to `score`.
    pub fn new(position: &Position, white_result: u8, score: i16) -> Record {
        Record {
            white: position.pieces_of(Color::White).0,
            black: position.pieces_of(Color::Black).0,
            kings: position.kings().0,
            turn: position.turn(),
            white_result,
            score,
        }
    }

    /// The record's position in `variant`.
    ///
    /// # Panics
    /// If the record is not a position of `variant` (a file of another variant).
    pub fn position(&self, variant: Variant) -> Position {
        let piece = |color, square: damiera_engine::Square| {
            let kind = if Bitboard(self.kings).contains(square) { PieceKind::King } else { PieceKind::Man };
            (square, Piece { color, kind })
        };
        let white = Bitboard(self.white).map(|s| piece(Color::White, s));
        let black = Bitboard(self.black).map(|s| piece(Color::Black, s));
        Position::from_pieces(variant, self.turn, white.chain(black)).expect("a record of this variant")
    }

    /// The game's result for the side to move: 0, ½ or 1.
    pub fn result(&self) -> f64 {
        let white = f64::from(self.white_result) / 2.0;
        if self.turn == Color::White {
            white
        } else {
            1.0 - white
        }
    }

    fn to_bytes(self) -> [u8; SIZE] {
        let mut bytes = [0; SIZE];
        bytes[0..8].copy_from_slice(&self.white.to_le_bytes());
        bytes[8..16].copy_from_slice(&self.black.to_le_bytes());
        bytes[16..24].copy_from_slice(&self.kings.to_le_bytes());
        bytes[24] = self.turn.index() as u8;
        bytes[25] = self.white_result;
        bytes[26..28].copy_from_slice(&self.score.to_le_bytes());
        bytes
    }

    fn from_bytes(bytes: &[u8; SIZE]) -> Record {
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"));
        Record {
            white: word(0),
            black: word(8),
            kings: word(16),
            turn: if bytes[24] == 0 { Color::White } else { Color::Black },
            white_result: bytes[25],
            score: i16::from_le_bytes([bytes[26], bytes[27]]),
        }
    }
}

/// Appends `records` to the file at `path`.
pub fn append(path: &Path, records: &[Record]) -> io::Result<()> {
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path)?;
    let mut out = BufWriter::new(file);
    for record in records {
        out.write_all(&record.to_bytes())?;
    }
    out.flush()
}

/// Every record of the file at `path`.
pub fn read(path: &Path) -> io::Result<Vec<Record>> {
    let mut input = BufReader::new(std::fs::File::open(path)?);
    let mut records = Vec::new();
    let mut bytes = [0; SIZE];
    loop {
        match input.read_exact(&mut bytes) {
            Ok(()) => records.push(Record::from_bytes(&bytes)),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(records),
            Err(e) => return Err(e),
        }
    }
}
