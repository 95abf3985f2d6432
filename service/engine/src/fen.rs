//! PDN FEN: reading and writing positions (`W:W21,22,K30:B1,2`, `W:Wa2,Kd4:Ba7`).
//!
//! Input takes ranges for numbered variants (`W21-32`, also `W32-21`), any order, either case, and file-and-rank
//! names on numbered boards too (so a light square can be named, and refused). Output is canonical:
//! pieces in ascending order (by number, or by file then rank on the Turkish board), no ranges.
//!
//! ```
//! use damiera_engine::{fen, Variant};
//! let position = fen::parse(Variant::Italian, "w:b12-10:wK30,21").unwrap();
//! assert_eq!(position.to_fen(), "W:W21,K30:B10,11,12");
//! let err = fen::parse(Variant::Italian, "W:W21,21:B1").unwrap_err();
//! assert_eq!(err.to_string(), "invalid FEN: token '21': square '21' is listed twice");
//! ```

use crate::position::{check_piece, SetupError};
use crate::{Color, Piece, PieceKind, Position, Square, SquareError, Variant};

/// Why a FEN was refused, with the token at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN: {}{reason}", token.as_ref().map(|t| format!("token '{t}': ")).unwrap_or_default())]
pub struct FenError {
    /// The offending token, when one is to blame.
    pub token: Option<String>,
    /// What is wrong with it.
    pub reason: FenProblem,
}

/// What is wrong with a FEN.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenProblem {
    /// The text does not have the `side:W...:B...` shape.
    #[error("{0}")]
    Syntax(String),
    /// A square name that does not fit the board.
    #[error(transparent)]
    Square(#[from] SquareError),
    /// The pieces do not make a position of the variant.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

fn error(token: &str, reason: impl Into<FenProblem>) -> FenError {
    FenError { token: Some(token.to_string()), reason: reason.into() }
}

fn syntax(token: Option<&str>, message: &str) -> FenError {
    FenError { token: token.map(str::to_string), reason: FenProblem::Syntax(message.to_string()) }
}

/// Reads a FEN for `variant`.
pub fn parse(variant: Variant, text: &str) -> Result<Position, FenError> {
    let text = text.trim().trim_end_matches('.');
    let mut fields = text.split(':');
    let turn_field = fields.next().unwrap_or("").trim();
    let turn =
        Color::from_field(turn_field).ok_or_else(|| syntax(Some(turn_field), "the side to move must be W or B"))?;
    let mut pieces: Vec<(Square, Piece, &str)> = Vec::with_capacity(2 * variant.men_per_side() as usize);
    let mut occupied = 0u64;
    let mut seen_colors = Vec::new();
    for field in fields {
        let field = field.trim();
        let mut chars = field.chars();
        let color = chars
            .next()
            .and_then(Color::from_letter)
            .ok_or_else(|| syntax(Some(field), "each piece list must start with W or B"))?;
        if seen_colors.contains(&color) {
            return Err(syntax(Some(field), "this colour's piece list is given twice"));
        }
        seen_colors.push(color);
        for token in chars.as_str().split(',').map(str::trim).filter(|t| !t.is_empty()) {
            for (square, kind) in parse_piece_token(variant, token)? {
                if occupied & 1 << square.index() != 0 {
                    let name = variant.square_name(square);
                    return Err(error(token, SetupError::DuplicateSquare(name)));
                }
                occupied |= 1 << square.index();
                pieces.push((square, Piece { color, kind }, token));
            }
        }
    }
    if seen_colors.is_empty() {
        return Err(syntax(Some(text), "expected 'side:W<pieces>:B<pieces>'"));
    }
    // Check piece by piece first, so that an error names its token; then the whole position.
    for (square, piece, token) in &pieces {
        check_piece(variant, *square, *piece).map_err(|e| error(token, e))?;
    }
    Position::from_pieces(variant, turn, pieces.iter().map(|(s, p, _)| (*s, *p)))
        .map_err(|e| FenError { token: None, reason: e.into() })
}

/// One token: `21`, `K30`, `a2`, `Kd4`, or a range `21-32` / `K1-3` on numbered boards.
fn parse_piece_token(variant: Variant, token: &str) -> Result<Vec<(Square, PieceKind)>, FenError> {
    let (kind, body) = match token.strip_prefix(['K', 'k']) {
        Some(rest) if !rest.is_empty() && (variant.is_numbered() || rest.len() >= 2) => (PieceKind::King, rest),
        _ => (PieceKind::Man, token),
    };
    let square = |name: &str| variant.parse_square(name).map_err(|e| error(token, e));
    match body.split_once('-') {
        None => Ok(vec![(square(body)?, kind)]),
        Some((first, last)) if variant.is_numbered() => {
            let (first, last) = (square(first)?, square(last)?);
            let (a, b) = (variant.square_number(first), variant.square_number(last));
            (a.min(b)..=a.max(b)).map(|n| Ok((square(&n.to_string())?, kind))).collect()
        }
        Some(_) => Err(syntax(Some(token), "ranges are only for numbered boards")),
    }
}

/// Writes `position` as canonical FEN.
#[must_use]
pub fn write(position: &Position) -> String {
    let variant = position.variant();
    // "W:W…:B…": a king's letter, up to two digits and a comma for each piece.
    let mut out = String::with_capacity(5 + 4 * position.occupied().count() as usize);
    out.push(position.turn().letter());
    for color in Color::ALL {
        out.push(':');
        out.push(color.letter());
        let mut squares: Vec<Square> = position.pieces_of(color).collect();
        if !variant.is_numbered() {
            squares.sort_by_key(|&sq| variant.coordinates(sq)); // a1, a2, ..., b1: by file, then rank
        }
        for (index, sq) in squares.into_iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            if position.kings().contains(sq) {
                out.push('K');
            }
            variant.push_square_name(sq, &mut out);
        }
    }
    out
}
