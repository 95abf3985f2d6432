//! [`Replayed`]: a stored game brought to life by replaying its events through the rules.
//!
//! The same [`Replayed::apply`] checks a new action before it is stored and replays it after, so
//! what the store holds can only be what the rules allowed. It answers the canonical event text
//! (a move in full notation), which is what gets stored.

use damiera_engine::{fen, Color, Game, GameError, Move, MoveResult, Outcome};

use super::record::{Event, EventKind, GameHeader, GameStateKind, StoredGame, Summary};

/// Why an action was refused.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// A seat acted out of turn.
    #[error("it is {to_move}'s turn, not {color}'s")]
    NotYourTurn {
        /// The seat that acted.
        color: Color,
        /// The seat to move.
        to_move: Color,
    },
    /// The rules refused it: an illegal move, a game over, a move count that cannot start.
    #[error(transparent)]
    Game(#[from] GameError),
    /// A draw offer while one is already standing.
    #[error("{0} has already offered a draw; it must be answered first")]
    DrawAlreadyOffered(Color),
    /// An answer with no offer from the other seat.
    #[error("{0} has no draw offer to answer")]
    NoDrawOffer(Color),
}

/// A game replayed from its record.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game by the rules: positions, moves, outcome, move count.
    pub game: Game,
    /// The seat whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// When each move was stored, by ply.
    pub move_times_ms: Vec<i64>,
    /// When the game last changed.
    pub updated_at_ms: i64,
}

impl Replayed {
    /// The game as created, before any event.
    pub fn start(header: &GameHeader) -> Result<Replayed, String> {
        let start = fen::parse(header.variant, &header.start_fen)
            .map_err(|e| format!("game {}: stored start position: {e}", header.id))?;
        let game = Game::setup(start, header.forfeit_on_capture_fault)
            .map_err(|e| format!("game {}: stored options: {e}", header.id))?;
        Ok(Replayed { game, draw_offer: None, move_times_ms: Vec::new(), updated_at_ms: header.created_at_ms })
    }

    /// The game after every stored event; an event the rules refuse means the record is corrupt.
    pub fn from_stored(stored: &StoredGame) -> Result<Replayed, String> {
        let mut replayed = Replayed::start(&stored.header)?;
        replayed.replay(&stored.header.id, 0, &stored.events)?;
        Ok(replayed)
    }

    /// Applies game `id`'s stored `events`, which follow its first `done` (already applied); an
    /// event the rules refuse means the record is corrupt.
    pub fn replay(&mut self, id: &str, done: usize, events: &[Event]) -> Result<(), String> {
        for (number, event) in (done + 1..).zip(events) {
            self.apply(event.kind, event.color, &event.text, event.at_ms)
                .map_err(|e| format!("game {id}: stored event {number}: {e}"))?;
        }
        Ok(())
    }

    /// Checks and applies one action of `color`'s seat at `at_ms`; answers the text to store.
    pub fn apply(&mut self, kind: EventKind, color: Color, text: &str, at_ms: i64) -> Result<String, ActionError> {
        let stored_text = match kind {
            EventKind::Move => self.play(color, text, at_ms)?,
            EventKind::Resign => {
                self.game.resign(color)?;
                self.draw_offer = None;
                String::new()
            }
            EventKind::OfferDraw => {
                self.ensure_ongoing()?;
                if let Some(offerer) = self.draw_offer {
                    return Err(ActionError::DrawAlreadyOffered(offerer));
                }
                self.draw_offer = Some(color);
                String::new()
            }
            EventKind::AnswerDraw => {
                self.ensure_ongoing()?;
                if self.draw_offer != Some(color.opposite()) {
                    return Err(ActionError::NoDrawOffer(color));
                }
                let accept = text == ACCEPT;
                if accept {
                    self.game.agree_draw()?;
                }
                self.draw_offer = None;
                answer_text(accept).to_string()
            }
            EventKind::RequestMoveCount => {
                self.game.request_move_count(color)?;
                String::new()
            }
        };
        self.updated_at_ms = at_ms;
        Ok(stored_text)
    }

    /// Checks and plays `color`'s move `mv`, chosen as a value (by an engine seat), at `at_ms`;
    /// answers the text to store.
    pub fn play_move(&mut self, color: Color, mv: &Move, at_ms: i64) -> Result<String, ActionError> {
        self.ensure_to_move(color)?;
        let played = self.game.play_move(mv)?;
        self.moved(color, at_ms, true);
        self.updated_at_ms = at_ms;
        Ok(played.notation)
    }

    fn play(&mut self, color: Color, text: &str, at_ms: i64) -> Result<String, ActionError> {
        self.ensure_to_move(color)?;
        let (stored, played) = match self.game.play(text)? {
            MoveResult::Played(played) => (played.notation, true),
            MoveResult::Forfeited { text } => (text, false),
        };
        self.moved(color, at_ms, played);
        Ok(stored)
    }

    fn ensure_to_move(&self, color: Color) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        let to_move = self.game.position().turn();
        if color != to_move {
            return Err(ActionError::NotYourTurn { color, to_move });
        }
        Ok(())
    }

    /// After `color` moved (`played`) or forfeited: the move's time, and the draw offers.
    fn moved(&mut self, color: Color, at_ms: i64, played: bool) {
        if played {
            self.move_times_ms.push(at_ms);
        }
        // Moving on declines the other seat's offer; one's own offer stands.
        if self.draw_offer == Some(color.opposite()) {
            self.draw_offer = None;
        }
    }

    fn ensure_ongoing(&self) -> Result<(), ActionError> {
        if self.game.outcome().is_over() {
            return Err(GameError::Over(self.game.outcome()).into());
        }
        Ok(())
    }

    /// The facts kept beside the header: ply, state, and whether the engine has to act.
    pub fn summary(&self, header: &GameHeader) -> Summary {
        Summary {
            ply: self.game.ply() as u32,
            state: self.state_kind(),
            engine_due: self.engine_due(header),
            updated_at_ms: self.updated_at_ms,
        }
    }

    /// Ongoing, won or drawn.
    pub fn state_kind(&self) -> GameStateKind {
        match self.game.outcome() {
            Outcome::Ongoing => GameStateKind::Ongoing,
            Outcome::Win { .. } => GameStateKind::Won,
            Outcome::Draw { .. } => GameStateKind::Drawn,
        }
    }

    /// Whether an engine seat must act: it is to move, or a draw offer to it stands.
    pub fn engine_due(&self, header: &GameHeader) -> bool {
        if self.game.outcome().is_over() {
            return false;
        }
        let to_move = self.game.position().turn();
        let offered_to = self.draw_offer.map(Color::opposite);
        header.seat(to_move).is_engine() || offered_to.is_some_and(|color| header.seat(color).is_engine())
    }
}

/// The stored text of an accepted draw offer.
pub const ACCEPT: &str = "accept";
/// The stored text of a declined draw offer.
pub const DECLINE: &str = "decline";

/// The stored text of a draw answer.
pub fn answer_text(accept: bool) -> &'static str {
    if accept {
        ACCEPT
    } else {
        DECLINE
    }
}
