//! Move notation: `21-17`, `22x13x6`, `e3-e4`, `b3xd3xd5`, and the short capture form `22x6`.
//!
//! The engine writes the full form: every landing square. Input may also give any other real path
//! of the same move, or only the start and end squares when exactly one legal move fits them.
//!
//! ```
//! use damiera_engine::{notation, Position, Variant, NotationError};
//! // White's man on 22 must take 18 and then 10: 22x13x6, also written short as 22x6.
//! let position = damiera_engine::fen::parse(Variant::Italian, "W:W22:B18,10").unwrap();
//! let mv = notation::parse(&position, "22x6").unwrap();
//! assert_eq!(notation::write(Variant::Italian, &mv), "22x13x6");
//! assert_eq!(notation::write_short(Variant::Italian, &mv), "22x6");
//! // Capture is mandatory, so the quiet move 22-19 is refused, and the error lists 22x13x6.
//! let err = notation::parse(&position, "22-19").unwrap_err();
//! assert!(matches!(err, NotationError::Illegal { ref legal, .. } if legal == &["22x13x6"]));
//! ```

use crate::{movegen, Move, Position, Square, SquareError, Variant};

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a move in this variant's notation.
    #[error("'{text}' is not a move: {reason}")]
    Syntax {
        /// The text as given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well written, but no legal move fits it.
    #[error("{text} is not a legal move here; legal moves: {}", legal.join(", "))]
    Illegal {
        /// The text as given.
        text: String,
        /// Every legal move, written in full.
        legal: Vec<String>,
    },
    /// The short form fits several legal moves.
    #[error("{text} is ambiguous: it fits {}", candidates.join(", "))]
    Ambiguous {
        /// The text as given.
        text: String,
        /// The legal moves it fits, written in full.
        candidates: Vec<String>,
    },
}

/// A move text split into its squares, before it is matched with the legal moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    /// The squares as written: start, then each landing square.
    pub squares: Vec<Square>,
    /// Whether it was written as a capture (`x`) rather than a quiet move (`-`).
    pub capture: bool,
}

impl WrittenMove {
    /// The start square.
    #[must_use]
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The end square.
    #[must_use]
    pub fn to(&self) -> Square {
        *self.squares.last().expect("a written move has two squares at least")
    }

    /// Whether this writes `mv` in full: the same kind of move, start and every landing square.
    #[must_use]
    pub fn is_path_of(&self, mv: &Move) -> bool {
        mv.is_capture() == self.capture && mv.from() == self.from() && mv.landings() == &self.squares[1..]
    }

    /// Whether this is the short form of the capture `mv`: its start and end only.
    #[must_use]
    pub fn is_short_form_of(&self, mv: &Move) -> bool {
        self.capture && self.squares.len() == 2 && mv.is_capture() && mv.from() == self.from() && mv.to() == self.to()
    }
}

/// Writes a move in full notation.
#[must_use]
pub fn write(variant: Variant, mv: &Move) -> String {
    let separator = if mv.is_capture() { 'x' } else { '-' };
    let mut text = String::with_capacity(4 * (mv.landings().len() + 1));
    for (index, square) in mv.squares().enumerate() {
        if index > 0 {
            text.push(separator);
        }
        variant.push_square_name(square, &mut text);
    }
    text
}

/// Writes a move in the short form: the start and end squares only (`22x6`). Several legal
/// captures may share a short form; [`parse`] then asks for the full notation.
#[must_use]
pub fn write_short(variant: Variant, mv: &Move) -> String {
    let mut text = String::with_capacity(8);
    variant.push_square_name(mv.from(), &mut text);
    text.push(if mv.is_capture() { 'x' } else { '-' });
    variant.push_square_name(mv.to(), &mut text);
    text
}

/// Splits a move text into squares, checking only its syntax.
pub fn read(variant: Variant, text: &str) -> Result<WrittenMove, NotationError> {
    let syntax = |reason: String| NotationError::Syntax { text: text.to_string(), reason };
    let trimmed = text.trim();
    let capture = trimmed.contains(['x', 'X', ':']);
    if capture && trimmed.contains('-') {
        return Err(syntax("it mixes '-' and 'x'".into()));
    }
    let parts: Vec<&str> =
        if capture { trimmed.split(['x', 'X', ':']).collect() } else { trimmed.split('-').collect() };
    if parts.len() < 2 {
        return Err(syntax("expected from-to or from x to".into()));
    }
    if !capture && parts.len() > 2 {
        return Err(syntax("a quiet move has exactly two squares".into()));
    }
    let squares = parts
        .iter()
        .map(|p| variant.parse_square(p.trim()))
        .collect::<Result<Vec<_>, SquareError>>()
        .map_err(|e| syntax(e.to_string()))?;
    Ok(WrittenMove { squares, capture })
}

/// Reads a move and finds the legal move it stands for.
pub fn parse(position: &Position, text: &str) -> Result<Move, NotationError> {
    let written = read(position.variant(), text)?;
    find(position, &written).map_err(|candidates| {
        let variant = position.variant();
        let names = |moves: Vec<Move>| moves.iter().map(|m| write(variant, m)).collect();
        if candidates.is_empty() {
            NotationError::Illegal { text: text.trim().to_string(), legal: names(position.legal_moves()) }
        } else {
            NotationError::Ambiguous { text: text.trim().to_string(), candidates: names(candidates) }
        }
    })
}

/// The legal move `written` stands for, or the candidates it fits (none, or several).
fn find(position: &Position, written: &WrittenMove) -> Result<Move, Vec<Move>> {
    let legal = position.legal_moves();
    if !written.capture {
        return legal.into_iter().find(|m| written.is_path_of(m)).ok_or_else(Vec::new);
    }
    // Any real path written in full names the move (start, end, captured set) it makes, and that
    // move must be legal: a path the choice rule ranks lower is still that move (RULES.md 1).
    let mut paths = Vec::new();
    movegen::all_capture_sequences(position, &mut paths);
    let named = paths.iter().filter(|p| written.is_path_of(p)).find_map(|p| legal.iter().find(|m| m.same_move(p)));
    if let Some(named) = named {
        return Ok(*named);
    }
    let fits: Vec<Move> = legal.into_iter().filter(|m| written.is_short_form_of(m)).collect();
    match fits.as_slice() {
        [only] => Ok(*only),
        _ => Err(fits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two men can take the same pieces along the same landing squares: the start square decides.
    #[test]
    fn a_full_path_is_matched_with_its_start_square() {
        let fen = "W:W26,28,30,34,36,37,39,40,41,44,45,46,48,49,50:B1,3,4,5,7,8,11,12,14,15,19,20,22,23,25";
        let position = crate::fen::parse(Variant::Triestina, fen).unwrap();
        let legal: Vec<String> = position.legal_moves().iter().map(|m| write(Variant::Triestina, m)).collect();
        assert_eq!(legal, ["26x17x6", "28x17x6"]);
        for text in ["26x17x6", "28x17x6"] {
            assert_eq!(write(Variant::Triestina, &parse(&position, text).unwrap()), text);
        }
    }

    /// A king's circle taken the other way round is the same move (RULES.md 1), even though the
    /// kings-first rule (2.8.4) ranks that path lower: it is accepted and written the engine's way.
    #[test]
    fn every_real_path_of_a_legal_move_names_it() {
        let position = crate::fen::parse(Variant::Italian, "W:WK21:BK18,19,26,27").unwrap();
        let legal: Vec<String> = position.legal_moves().iter().map(|m| write(Variant::Italian, m)).collect();
        assert_eq!(legal, ["21x14x23x30x21"]);
        let other_way = parse(&position, "21x30x23x14x21").unwrap();
        assert_eq!(write(Variant::Italian, &other_way), "21x14x23x30x21");
        // A path that is not a real path (it skips a jump) is still refused.
        assert!(matches!(parse(&position, "21x14x30x21"), Err(NotationError::Illegal { .. })));
    }

    /// Two squares may be a real jump that stops part way, and also the short form of a legal
    /// move: the short form wins, since stopping part way is no move.
    #[test]
    fn a_partial_path_that_is_also_a_short_form_names_the_legal_move() {
        let fen = "B:Wa2,b3,c6,d2,d4,g2:BKa1,a7,e6,Kf5,f7,g5,g7";
        let position = crate::fen::parse(Variant::Turkish, fen).unwrap();
        let mv = parse(&position, "a1xa6").unwrap();
        assert_eq!(write(Variant::Turkish, &mv), "a1xa3xd3xd6xa6");
    }
}
