//! [`Game`]: a game record: moves played by notation, undo, repetitions, the move count, the result.
//!
//! The server and the AI share this one account of how a game ends: no pieces, no moves, the
//! Turkish lone man, repetition (fourth time in Italian and Triestina, third in Turkish), the
//! Italian move count once asked for, the Turkish one piece each, agreement and resignation; and
//! the Turkish options of RULES.md 3.11 (who moves first, forfeit on a capture fault).
//!
//! ```
//! use damiera_engine::{Game, Outcome, Variant};
//! let mut game = Game::new(Variant::Italian);
//! game.play("23-19").unwrap();
//! game.play("10-14").unwrap();
//! game.play("19x10").unwrap();
//! assert_eq!(game.moves().len(), 3);
//! game.undo().unwrap();
//! assert_eq!(game.position().to_fen(), "W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,11,12,14");
//! assert_eq!(game.outcome(), Outcome::Ongoing);
//! ```

use crate::notation::{self, WrittenMove};
use crate::{movegen, Color, DrawReason, IllegalMove, Move, NotationError, Outcome, Position, Variant, WinReason};

/// King moves each player must make under the move count before the game is drawn (RULES.md 2.11).
pub const MOVE_COUNT_LIMIT: u32 = 40;

/// Who moves first in a Turkish game (RULES.md 1, seed 003).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FirstMover {
    /// White, as in every variant by default.
    #[default]
    White,
    /// Black (Turkish only).
    Black,
    /// Drawn by lot when the game is created (Turkish only).
    ByLot,
}

/// How a game is set up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GameOptions {
    /// Who moves first from the start position.
    pub first_mover: FirstMover,
    /// Turkish: a capture fault loses the game instead of being refused (RULES.md 3.11).
    pub forfeit_on_capture_fault: bool,
}

/// One move of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The move in full notation.
    pub notation: String,
    /// Who played it.
    pub color: Color,
}

/// The move count of RULES.md 2.11, once a player has asked for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveCount {
    /// Who asked for it.
    pub requested_by: Color,
    /// The ply at which it was asked for.
    pub started_at_ply: usize,
    /// King moves made since then by White and by Black: `[white, black]`.
    pub king_moves: [u32; 2],
}

/// What became of a submitted move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveResult {
    /// It was legal and is now part of the record.
    Played(PlayedMove),
    /// It was a capture fault in a Turkish game with the forfeit option: the mover lost.
    Forfeited {
        /// The move as submitted.
        text: String,
    },
}

/// What [`Game::undo`] took back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Undone {
    /// The last move.
    Move(PlayedMove),
    /// An ending a player declared after the last move; the game is ongoing again.
    Ending(Outcome),
}

/// Why a game refused a request.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game has ended; nothing more can be played.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// The move text is not a legal move.
    #[error(transparent)]
    Move(#[from] NotationError),
    /// The move is not one of the legal moves.
    #[error(transparent)]
    IllegalMove(#[from] IllegalMove),
    /// An option that only Turkish games have.
    #[error("{option} is a Dama Turca option; {variant} has no such rule")]
    TurkishOnly {
        /// The option.
        option: &'static str,
        /// The game's variant.
        variant: Variant,
    },
    /// The move count cannot be asked for now.
    #[error("the move count cannot start: {0}")]
    MoveCountRefused(&'static str),
    /// Undo at the start of the game.
    #[error("no move to take back")]
    NothingToUndo,
}

/// A game: its start, every move, the positions they led to, and how it stands.
#[derive(Clone, Debug)]
pub struct Game {
    /// How the game was set up.
    options: GameOptions,
    /// The position before each move, then the current one: `positions.len() == moves.len() + 1`.
    positions: Vec<Position>,
    /// The moves in order.
    moves: Vec<PlayedMove>,
    /// The move count as it stood at each position (same indices as `positions`).
    move_counts: Vec<Option<MoveCount>>,
    /// How the game stands now.
    outcome: Outcome,
    /// The move submitted as a capture fault, when that ended the game.
    faulty_move: Option<String>,
}

impl Game {
    /// A game from the variant's start position, White first.
    #[must_use]
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant))
    }

    /// A game from the start position with `options`.
    pub fn with_options(variant: Variant, options: GameOptions) -> Result<Game, GameError> {
        if variant != Variant::Turkish && options.first_mover != FirstMover::White {
            return Err(GameError::TurkishOnly { option: "first_mover", variant });
        }
        let first = match options.first_mover {
            FirstMover::White => Color::White,
            FirstMover::Black => Color::Black,
            FirstMover::ByLot => draw_lot(),
        };
        let mut game = Game::setup(Position::start(variant).with_turn(first), options.forfeit_on_capture_fault)?;
        game.options.first_mover = options.first_mover;
        Ok(game)
    }

    /// A game from a set-up position (its FEN says who moves first), default options.
    #[must_use]
    pub fn from_position(start: Position) -> Game {
        Game::setup(start, false).expect("default options suit every variant")
    }

    /// A game from a set-up position, with or without the Turkish forfeit on a capture fault.
    pub fn setup(start: Position, forfeit_on_capture_fault: bool) -> Result<Game, GameError> {
        if forfeit_on_capture_fault && start.variant() != Variant::Turkish {
            return Err(GameError::TurkishOnly { option: "forfeit_on_capture_fault", variant: start.variant() });
        }
        let first_mover = match start.turn() {
            Color::White => FirstMover::White,
            Color::Black => FirstMover::Black,
        };
        let mut game = Game {
            options: GameOptions { first_mover, forfeit_on_capture_fault },
            positions: vec![start],
            moves: Vec::new(),
            move_counts: vec![None],
            outcome: Outcome::Ongoing,
            faulty_move: None,
        };
        game.outcome = game.decide();
        Ok(game)
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.start().variant()
    }

    /// The options the game was created with.
    #[must_use]
    pub fn options(&self) -> GameOptions {
        self.options
    }

    /// The position the game started from.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    /// Every position so far, the start first and the current one last.
    #[must_use]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    #[must_use]
    pub fn moves(&self) -> &[PlayedMove] {
        &self.moves
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How the game stands.
    #[must_use]
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }

    /// The move that forfeited the game, if a capture fault ended it.
    #[must_use]
    pub fn faulty_move(&self) -> Option<&str> {
        self.faulty_move.as_deref()
    }

    /// The move count, if one is running.
    #[must_use]
    pub fn move_count(&self) -> Option<MoveCount> {
        *self.move_counts.last().expect("one entry per position")
    }

    /// How many times the current position (same pieces, same player to move) has occurred.
    #[must_use]
    pub fn repetitions(&self) -> usize {
        // Only the positions since the last move that cannot be undone can come back: count among those.
        let reversible_moves = self
            .moves
            .iter()
            .zip(&self.positions)
            .rev()
            .take_while(|(played, before)| !before.is_irreversible(&played.mv))
            .count();
        let current = self.position();
        let since = self.positions.len() - 1 - reversible_moves;
        self.positions[since..].iter().filter(|p| p.hash() == current.hash() && *p == current).count()
    }

    /// Plays a move written in the variant's notation.
    pub fn play(&mut self, text: &str) -> Result<MoveResult, GameError> {
        self.ensure_ongoing()?;
        match notation::parse(self.position(), text) {
            Ok(mv) => Ok(MoveResult::Played(self.push(mv))),
            Err(err @ NotationError::Illegal { .. }) if self.options.forfeit_on_capture_fault => {
                let written = notation::read(self.variant(), text)?;
                if !is_capture_fault(self.position(), &written) {
                    return Err(err.into());
                }
                let loser = self.position().turn();
                self.outcome = Outcome::Win { winner: loser.opposite(), reason: WinReason::CaptureFault };
                self.faulty_move = Some(text.trim().to_string());
                Ok(MoveResult::Forfeited { text: text.trim().to_string() })
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Plays a move given as a value; it must be one of the legal moves.
    pub fn play_move(&mut self, mv: &Move) -> Result<PlayedMove, GameError> {
        self.ensure_ongoing()?;
        let legal = self.position().legal_move(mv)?;
        Ok(self.push(legal))
    }

    /// Takes back the last event: a declared ending (resignation, agreed draw, capture fault, a
    /// fallen flag, abandonment) if there is one, else the last move.
    pub fn undo(&mut self) -> Result<Undone, GameError> {
        let declared = matches!(
            self.outcome,
            Outcome::Win {
                reason: WinReason::Resignation | WinReason::CaptureFault | WinReason::Time | WinReason::Abandonment,
                ..
            } | Outcome::Draw { reason: DrawReason::Agreement }
        );
        if declared {
            let ending = std::mem::replace(&mut self.outcome, Outcome::Ongoing);
            self.faulty_move = None;
            return Ok(Undone::Ending(ending));
        }
        let played = self.moves.pop().ok_or(GameError::NothingToUndo)?;
        self.positions.pop();
        self.move_counts.pop();
        self.outcome = self.decide();
        Ok(Undone::Move(played))
    }

    /// `color` resigns: the opponent wins.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError> {
        self.concede(color, WinReason::Resignation)
    }

    /// `color`'s clock ran out: the opponent wins. The rules of draughts always leave the
    /// opponent a way to win (a lone man promotes, a king captures anything, a side without moves
    /// loses), so a fallen flag always loses.
    pub fn lose_on_time(&mut self, color: Color) -> Result<(), GameError> {
        self.concede(color, WinReason::Time)
    }

    /// `color`, to move, left the game: the opponent wins.
    pub fn abandon(&mut self, color: Color) -> Result<(), GameError> {
        self.concede(color, WinReason::Abandonment)
    }

    /// `loser` loses for `reason`, declared rather than played.
    fn concede(&mut self, loser: Color, reason: WinReason) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        self.outcome = Outcome::Win { winner: loser.opposite(), reason };
        Ok(())
    }

    /// The players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.ensure_ongoing()?;
        self.outcome = Outcome::Draw { reason: DrawReason::Agreement };
        Ok(())
    }

    /// `color` asks for the move count (Italian and Triestina, each side with a king: RULES.md 2.11).
    pub fn request_move_count(&mut self, color: Color) -> Result<MoveCount, GameError> {
        self.ensure_ongoing()?;
        if !self.variant().has_move_count() {
            return Err(GameError::MoveCountRefused("Dama Turca has no move count"));
        }
        if self.move_count().is_some() {
            return Err(GameError::MoveCountRefused("a move count is already running"));
        }
        let position = self.position();
        if Color::ALL.iter().any(|&c| (position.pieces_of(c) & position.kings()).is_empty()) {
            return Err(GameError::MoveCountRefused("each side needs at least one king"));
        }
        let count = MoveCount { requested_by: color, started_at_ply: self.ply(), king_moves: [0, 0] };
        *self.move_counts.last_mut().expect("one entry per position") = Some(count);
        Ok(count)
    }

    fn ensure_ongoing(&self) -> Result<(), GameError> {
        match self.outcome {
            Outcome::Ongoing => Ok(()),
            over => Err(GameError::Over(over)),
        }
    }

    fn push(&mut self, mv: Move) -> PlayedMove {
        let before = *self.position();
        let color = before.turn();
        let count = self.move_count().and_then(|mut count| {
            if mv.is_capture() {
                return None; // a capture ends the count without a draw
            }
            if before.kings().contains(mv.from()) {
                count.king_moves[color.index()] += 1;
            }
            Some(count)
        });
        let played = PlayedMove { mv, notation: notation::write(before.variant(), &mv), color };
        self.positions.push(before.play_unchecked(&mv));
        self.move_counts.push(count);
        self.moves.push(played.clone());
        self.outcome = self.decide();
        played
    }

    /// The outcome from the current position and the history.
    fn decide(&self) -> Outcome {
        let status = self.position().status();
        if status.is_over() {
            return status;
        }
        if self.repetitions() >= self.variant().repetition_limit() {
            return Outcome::Draw { reason: DrawReason::Repetition };
        }
        if self.move_count().is_some_and(|c| c.king_moves.iter().all(|&n| n >= MOVE_COUNT_LIMIT)) {
            return Outcome::Draw { reason: DrawReason::MoveCount };
        }
        Outcome::Ongoing
    }
}

/// Whether `written` is a capture fault (RULES.md 3.11): a move that would be legal if captures
/// were not mandatory, or a real capture sequence, complete or stopped part way, that takes fewer
/// pieces than the most.
fn is_capture_fault(position: &Position, written: &WrittenMove) -> bool {
    if !position.must_capture() {
        return false;
    }
    let mut candidates = Vec::new();
    if written.capture {
        movegen::all_capture_sequences(position, &mut candidates);
    } else {
        movegen::quiet_moves(position, &mut candidates);
    }
    candidates.iter().any(|m| written.is_path_of(m) || written.is_short_form_of(m))
}

/// A fair coin from the operating system, for [`FirstMover::ByLot`].
fn draw_lot() -> Color {
    let mut byte = [0u8; 1];
    getrandom::fill(&mut byte).expect("the operating system provides randomness");
    if byte[0] & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}
