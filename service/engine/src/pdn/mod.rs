//! PDN (Portable Draughts Notation): whole games with their tags, read from and written to text.
//!
//! Reading replays the main line of each game through [`Game::play`], so every move is checked
//! and any notation the engine accepts (full or short captures) may be used; comments,
//! variations, NAGs and move suffixes are skipped. Writing gives the canonical form: the seven
//! standard tags, `GameType`, `SetUp`/`FEN` when the game does not start from the standard
//! position, then numbered moves in full notation. The `GameType` tag picks the variant
//! ([`game_type`]); without it the caller's default applies.
//!
//! ```
//! use damiera_engine::pdn::{self, GameResult};
//! use damiera_engine::Variant;
//!
//! let text = r#"[Event "Club evening"]
//! [GameType "22,W,8,8,N2,1"]
//!
//! 1. 23-19 {the usual start} 10-14 2. 19x10 (2. 22-18 $2) 5x14 1-0
//! "#;
//! let games = pdn::read_games(text, Variant::Italian).unwrap();
//! let moves: Vec<&str> = games[0].game.moves().iter().map(|m| m.notation.as_str()).collect();
//! assert_eq!(moves, ["23-19", "10-14", "19x10", "5x14"]);
//! assert_eq!(games[0].result, Some(GameResult::WhiteWins)); // a resignation: the game goes on
//! assert_eq!(games[0].tag("Event"), Some("Club evening"));
//!
//! let written = games[0].to_pdn();
//! assert!(written.starts_with("[Event \"Club evening\"]\n[Site \"?\"]\n"));
//! assert!(written.ends_with("\n\n1. 23-19 10-14 2. 19x10 5x14 1-0\n"));
//! ```

mod lexer;
mod reader;
mod termination;
mod writer;

use std::fmt;

use crate::{Color, FenError, Game, GameError, Outcome, Variant};

pub use reader::read_games;
pub use termination::Termination;
pub use writer::{write_annotated_game, write_game};

/// One game read from PDN.
#[derive(Clone, Debug)]
pub struct PdnGame {
    /// Every tag as given, in file order, `GameType`, `SetUp` and `FEN` included: the caller may
    /// keep tags Damiera does not interpret.
    pub tags: Vec<(String, String)>,
    /// The main line replayed from the start position; its outcome is what the rules decide.
    pub game: Game,
    /// The result the record declares (the move text's, else the `Result` tag's). It may differ
    /// from `game.outcome()`: a game that ends by resignation or on time is ongoing on the board.
    pub result: Option<GameResult>,
}

impl PdnGame {
    /// The value of the first tag called `name` (ignoring case).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }

    /// The game written back as PDN, with its tags and its declared result.
    #[must_use]
    pub fn to_pdn(&self) -> String {
        writer::write(&self.game, &self.tags, self.result, &[])
    }
}

/// A game's result as PDN records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0` (`2-0` in international scoring).
    WhiteWins,
    /// `0-1` (`0-2`).
    BlackWins,
    /// `1/2-1/2` (`1-1`).
    Draw,
    /// `0-0`, international scoring only: neither player scores (both forfeited, say).
    NeitherScores,
    /// `*`: unfinished or unknown.
    Unfinished,
}

impl GameResult {
    /// Reads a result token: `1-0`, `0-1`, `1/2-1/2`, `*`, or international `2-0`, `0-2`, `1-1`, `0-0`.
    #[must_use]
    pub fn from_token(token: &str) -> Option<GameResult> {
        match token {
            "1-0" | "2-0" => Some(GameResult::WhiteWins),
            "0-1" | "0-2" => Some(GameResult::BlackWins),
            "1/2-1/2" | "1-1" => Some(GameResult::Draw),
            "0-0" => Some(GameResult::NeitherScores),
            "*" => Some(GameResult::Unfinished),
            _ => None,
        }
    }

    /// The token Damiera writes: `1-0`, `0-1`, `1/2-1/2`, `0-0` or `*`.
    #[must_use]
    pub fn token(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::NeitherScores => "0-0",
            GameResult::Unfinished => "*",
        }
    }

    /// The result a game's outcome declares.
    #[must_use]
    pub fn from_outcome(outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Ongoing => GameResult::Unfinished,
            Outcome::Win { winner: Color::White, .. } => GameResult::WhiteWins,
            Outcome::Win { winner: Color::Black, .. } => GameResult::BlackWins,
            Outcome::Draw { .. } => GameResult::Draw,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Each variant's FMJD `GameType`: type number, board width and height, notation and invert
/// fields. Triestina is Italian rules (22) on a 10x10 board.
const GAME_TYPES: [(Variant, u32, u32, u32, &str, &str); 3] = [
    (Variant::Italian, 22, 8, 8, "N2", "1"),
    (Variant::Triestina, 22, 10, 10, "N2", "1"),
    (Variant::Turkish, 30, 8, 8, "A0", "0"),
];

/// The `GameType` tag value Damiera writes for `variant` (FMJD PDN): Italian `22,W,8,8,N2,1`,
/// Triestina (Italian rules on 10x10) `22,W,10,10,N2,1`, Turkish `30,W,8,8,A0,0`.
#[must_use]
pub fn game_type(variant: Variant) -> String {
    let (_, number, width, height, notation, invert) =
        GAME_TYPES.into_iter().find(|entry| entry.0 == variant).expect("every variant has a GameType");
    format!("{number},W,{width},{height},{notation},{invert}")
}

/// The variant of a `GameType` number on a `width` x `height` board (none given: the number's
/// usual board).
fn variant_of_game_type(number: u32, board: Option<(u32, u32)>) -> Option<Variant> {
    GAME_TYPES
        .into_iter()
        .find(|&(_, n, width, height, _, _)| n == number && board.is_none_or(|size| size == (width, height)))
        .map(|entry| entry.0)
}

/// Why PDN text was refused, and where: the 1-based line and column of the token at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct PdnError {
    /// The line of the offending token (for something never closed, the line that opened it).
    pub line: usize,
    /// The column of that token, counted in characters.
    pub column: usize,
    /// What is wrong.
    pub kind: PdnErrorKind,
}

/// What is wrong with PDN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PdnErrorKind {
    /// A `{` comment with no `}`.
    #[error("unterminated comment: this '{{' is never closed")]
    UnterminatedComment,
    /// A `[` tag that does not close on its line.
    #[error("unterminated tag: a tag must end with '\"]' on its line")]
    UnterminatedTag,
    /// A `(` variation with no `)` before the game ends.
    #[error("unterminated variation: this '(' is never closed")]
    UnterminatedVariation,
    /// A character that closes nothing, such as `)`, `}` or `]` on its own.
    #[error("'{0}' closes nothing")]
    Unopened(char),
    /// A tag that is not `[Name "value"]`.
    #[error("bad tag: {0}")]
    BadTag(String),
    /// A `GameType` value that does not have the FMJD syntax.
    #[error("bad GameType \"{0}\": expected Typenumber[,Startcolour,Boardwidth,Boardheight,Notation[,Invertflag]]")]
    BadGameType(String),
    /// A well-formed `GameType` for a game Damiera does not play.
    #[error(
        "unsupported GameType \"{value}\" ({what}): Damiera plays 22 on 8x8 (Dama Italiana) or \
         10x10 (Dama Triestina), and 30 on 8x8 (Dama Turca); only Dama Turca may start with Black"
    )]
    UnsupportedGameType {
        /// The tag value.
        value: String,
        /// What it describes.
        what: String,
    },
    /// `SetUp "1"` with no `FEN` tag to say what was set up.
    #[error("SetUp \"1\" needs a FEN tag")]
    MissingFen,
    /// The `FEN` tag is not a position of the game's variant.
    #[error(transparent)]
    Fen(FenError),
    /// A move that is not legal where it stands, or not a move at all.
    #[error(transparent)]
    Move(GameError),
    /// A move after the rules ended the game.
    #[error("{text} comes after the end of the game ({outcome})")]
    MoveAfterEnd {
        /// The move as written.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// The move text and the `Result` tag declare different results.
    #[error("the move text ends with {movetext} but the Result tag says {tag}")]
    ResultMismatch {
        /// The result token of the move text.
        movetext: GameResult,
        /// The `Result` tag's.
        tag: GameResult,
    },
    /// Something other than a tag after a game's result: a new game must start with its tags.
    #[error("'{0}' after the result: a game ends with its result, and the next one starts with a tag")]
    TextAfterResult(String),
}

/// The value of the first tag called `name`, ignoring case as lenient readers do.
fn find_tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
}
