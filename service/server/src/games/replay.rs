//! [`Replayed`]: a stored game brought to life by replaying its events through the rules.
//!
//! The same [`Replayed::apply`] checks a new action before it is stored and replays it after, so
//! what the store holds can only be what the rules allowed, and what the clocks allowed: a seat's
//! action after the game's deadline is refused, and the server's endings (a fallen flag, an
//! abandonment, an abort for a missing first move) only count at or after it. It answers the
//! canonical event text (a move in full notation), which is what gets stored.

use damiera_engine::{fen, Color, Game, GameError, Move, MoveResult, Outcome};

use super::clock::{Clocks, Deadline, DeadlineKind};
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
    /// The game's deadline passed before the action: it ends (on time, aborted, abandoned).
    #[error("too late: {} at {}", deadline_text(.0.kind, .0.color), .0.at_ms)]
    Overdue(Deadline),
    /// The game was aborted.
    #[error("the game was aborted ({})", .0.name())]
    Aborted(AbortReason),
    /// An abort once each side has made its first move.
    #[error("a game can be aborted only until each side has made its first move")]
    TooLateToAbort,
    /// A server's ending before its deadline: the log is wrong.
    #[error("{kind:?} before the deadline")]
    NotDue {
        /// The ending.
        kind: EventKind,
    },
    /// Takebacks are off for this game.
    #[error("takebacks are off in this game (a CreateGame option, for two people)")]
    TakebacksOff,
    /// A takeback offer while one stands, or with no move of one's own to take back.
    #[error("{0}")]
    NoTakeback(&'static str),
}

/// Why a game was aborted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AbortReason {
    /// A seat aborted it before each side had moved.
    Seat,
    /// The first move of the side to move did not come in time.
    NoFirstMove,
}

impl AbortReason {
    /// The stored event text and API name.
    pub fn name(self) -> &'static str {
        match self {
            AbortReason::Seat => "seat",
            AbortReason::NoFirstMove => "no_first_move",
        }
    }
}

fn deadline_text(kind: DeadlineKind, color: Color) -> String {
    match kind {
        DeadlineKind::FirstMove => format!("{color}'s first move did not come in time: the game is aborted"),
        DeadlineKind::Flag => format!("{color}'s clock ran out: {color} loses on time"),
        DeadlineKind::Abandonment => format!("{color} stayed away too long: {color} loses by abandonment"),
    }
}

/// A game replayed from its record.
#[derive(Clone, Debug)]
pub struct Replayed {
    /// The game by the rules: positions, moves, outcome, move count.
    pub game: Game,
    /// The seat whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The seat whose takeback offer stands.
    pub takeback_offer: Option<Color>,
    /// When each move was stored, by ply.
    pub move_times_ms: Vec<i64>,
    /// The mover's time left after each move, by ply (`None`: untimed).
    pub move_clocks_ms: Vec<Option<i64>>,
    /// When the game last changed.
    pub updated_at_ms: i64,
    /// Both sides' clocks.
    pub clocks: Clocks,
    /// Why the game was aborted, if it was.
    pub aborted: Option<AbortReason>,
    /// Whether takebacks are on.
    takebacks: bool,
    /// Events applied so far.
    events: u32,
    /// The ply the game had once its imported events were replayed: later moves were played here.
    hosted_from_ply: usize,
}

impl Replayed {
    /// The game as created, before any event.
    pub fn start(header: &GameHeader) -> Result<Replayed, String> {
        let start = fen::parse(header.variant, &header.start_fen)
            .map_err(|e| format!("game {}: stored start position: {e}", header.id))?;
        let game = Game::setup(start, header.forfeit_on_capture_fault)
            .map_err(|e| format!("game {}: stored options: {e}", header.id))?;
        Ok(Replayed {
            game,
            draw_offer: None,
            takeback_offer: None,
            move_times_ms: Vec::new(),
            move_clocks_ms: Vec::new(),
            updated_at_ms: header.created_at_ms,
            clocks: Clocks::new(header.timing, header.created_at_ms),
            aborted: None,
            takebacks: header.takebacks,
            events: 0,
            hosted_from_ply: 0,
        })
    }

    /// The game after every stored event; an event the rules refuse means the record is corrupt.
    pub fn from_stored(stored: &StoredGame) -> Result<Replayed, String> {
        let mut replayed = Replayed::start(&stored.header)?;
        replayed.replay(&stored.header.id, 0, &stored.events)?;
        Ok(replayed)
    }

    /// Whether the game is over: won, drawn or aborted.
    pub fn is_over(&self) -> bool {
        self.aborted.is_some() || self.game.outcome().is_over()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.game.position().turn()
    }

    /// When the game ends by itself if nobody acts; `None` once it is over.
    pub fn deadline(&self) -> Option<Deadline> {
        if self.is_over() {
            return None;
        }
        self.clocks.deadline(self.to_move())
    }

    /// The deadline, if it has passed at `at_ms`.
    pub fn overdue(&self, at_ms: i64) -> Option<Deadline> {
        self.deadline().filter(|deadline| at_ms >= deadline.at_ms)
    }

    /// The server's action that ends the game at its passed `deadline`: the event's kind and text.
    pub fn ending(deadline: Deadline) -> (EventKind, &'static str) {
        match deadline.kind {
            DeadlineKind::FirstMove => (EventKind::Abort, AbortReason::NoFirstMove.name()),
            DeadlineKind::Flag => (EventKind::Flag, ""),
            DeadlineKind::Abandonment => (EventKind::Abandon, ""),
        }
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
        let imported = self.events < self.clocks.timing.imported_events;
        let server_ending = kind.is_servers() || (kind == EventKind::Abort && text == AbortReason::NoFirstMove.name());
        if !imported && !server_ending {
            if let Some(deadline) = self.overdue(at_ms) {
                return Err(ActionError::Overdue(deadline));
            }
        }
        let stored_text = match kind {
            EventKind::Move => self.play(color, text, at_ms, !imported)?,
            EventKind::Resign => {
                self.ensure_ongoing()?;
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
                self.ensure_ongoing()?;
                self.game.request_move_count(color)?;
                String::new()
            }
            EventKind::Abort => self.abort(color, text, at_ms)?,
            EventKind::Flag | EventKind::Abandon => {
                if imported {
                    // A record's ending was decided where the game was played, by its clocks.
                    self.ensure_ongoing()?;
                } else {
                    self.ensure_due(kind, color, at_ms)?;
                }
                match kind {
                    EventKind::Flag => self.game.lose_on_time(color)?,
                    _ => self.game.abandon(color)?,
                }
                String::new()
            }
            EventKind::Resume => {
                self.ensure_ongoing()?;
                self.clocks.resumed(at_ms);
                String::new()
            }
            EventKind::OfferTakeback => {
                self.offer_takeback(color)?;
                String::new()
            }
            EventKind::AnswerTakeback => self.answer_takeback(color, text == ACCEPT, at_ms)?,
        };
        if self.is_over() {
            // The clock of the side to move stops, charged for its turn (a flag: to zero).
            self.clocks.stopped(self.to_move(), at_ms);
        }
        self.events += 1;
        if imported {
            self.hosted_from_ply = self.game.ply();
        }
        self.updated_at_ms = at_ms;
        Ok(stored_text)
    }

    /// Checks and plays `color`'s move `mv`, chosen as a value (by an engine seat), at `at_ms`;
    /// answers the text to store.
    pub fn play_move(&mut self, color: Color, mv: &Move, at_ms: i64) -> Result<String, ActionError> {
        if let Some(deadline) = self.overdue(at_ms) {
            return Err(ActionError::Overdue(deadline));
        }
        self.ensure_to_move(color)?;
        let played = self.game.play_move(mv)?;
        self.moved(color, at_ms, true, true);
        self.events += 1;
        self.updated_at_ms = at_ms;
        Ok(played.notation)
    }

    fn play(&mut self, color: Color, text: &str, at_ms: i64, counted: bool) -> Result<String, ActionError> {
        self.ensure_to_move(color)?;
        let (stored, played) = match self.game.play(text)? {
            MoveResult::Played(played) => (played.notation, true),
            MoveResult::Forfeited { text } => (text, false),
        };
        self.moved(color, at_ms, played, counted);
        Ok(stored)
    }

    fn abort(&mut self, color: Color, text: &str, at_ms: i64) -> Result<String, ActionError> {
        let reason = if text == AbortReason::NoFirstMove.name() {
            self.ensure_due(EventKind::Abort, color, at_ms)?;
            AbortReason::NoFirstMove
        } else {
            self.ensure_ongoing()?;
            if !self.clocks.may_abort() {
                return Err(ActionError::TooLateToAbort);
            }
            AbortReason::Seat
        };
        self.aborted = Some(reason);
        Ok(reason.name().to_string())
    }

    /// A server's ending must come at or after its deadline, of that kind, for that seat.
    fn ensure_due(&self, kind: EventKind, color: Color, at_ms: i64) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        match self.overdue(at_ms) {
            Some(deadline) if deadline.color == color && Replayed::ending(deadline).0 == kind => Ok(()),
            _ => Err(ActionError::NotDue { kind }),
        }
    }

    fn offer_takeback(&mut self, color: Color) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        if !self.takebacks {
            return Err(ActionError::TakebacksOff);
        }
        if self.takeback_offer.is_some() {
            return Err(ActionError::NoTakeback("a takeback offer stands already; it must be answered first"));
        }
        if self.takeback_plies(color).is_none() {
            return Err(ActionError::NoTakeback("there is no move of yours to take back"));
        }
        self.takeback_offer = Some(color);
        Ok(())
    }

    fn answer_takeback(&mut self, color: Color, accept: bool, at_ms: i64) -> Result<String, ActionError> {
        self.ensure_ongoing()?;
        let Some(offerer) = self.takeback_offer.filter(|&offerer| offerer == color.opposite()) else {
            return Err(ActionError::NoTakeback("there is no takeback offer of the other seat to answer"));
        };
        self.takeback_offer = None;
        if accept {
            let plies = self.takeback_plies(offerer).expect("an offer stands only while its move does");
            let to_move = self.to_move();
            let mut undone = Vec::with_capacity(plies);
            for _ in 0..plies {
                self.game.undo()?;
                self.move_times_ms.pop();
                self.move_clocks_ms.pop();
                undone.push(self.to_move());
            }
            self.clocks.took_back(to_move, &undone, at_ms);
        }
        Ok(answer_text(accept).to_string())
    }

    /// How many plies take back `color`'s last move played under this host (not imported):
    /// 1 if it was the last move, 2 if the other side has replied.
    fn takeback_plies(&self, color: Color) -> Option<usize> {
        let hosted = self.game.ply().saturating_sub(self.hosted_from_ply);
        let plies = if self.to_move() == color { 2 } else { 1 };
        (plies <= hosted).then_some(plies)
    }

    fn ensure_to_move(&self, color: Color) -> Result<(), ActionError> {
        self.ensure_ongoing()?;
        let to_move = self.to_move();
        if color != to_move {
            return Err(ActionError::NotYourTurn { color, to_move });
        }
        Ok(())
    }

    /// After `color` moved (`played`) or forfeited: the move's time, the clocks, the offers.
    fn moved(&mut self, color: Color, at_ms: i64, played: bool, counted: bool) {
        if played {
            self.move_times_ms.push(at_ms);
            self.clocks.moved(color, at_ms, counted);
            self.move_clocks_ms.push(self.clocks.left_at(color, color.opposite(), at_ms));
        }
        // Moving on declines the other seat's offer; one's own offer stands.
        if self.draw_offer == Some(color.opposite()) {
            self.draw_offer = None;
        }
        self.takeback_offer = None;
    }

    fn ensure_ongoing(&self) -> Result<(), ActionError> {
        if let Some(reason) = self.aborted {
            return Err(ActionError::Aborted(reason));
        }
        if self.game.outcome().is_over() {
            return Err(GameError::Over(self.game.outcome()).into());
        }
        Ok(())
    }

    /// The facts kept beside the header: ply, state, whether the engine has to act, the deadline.
    pub fn summary(&self, header: &GameHeader) -> Summary {
        Summary {
            ply: self.game.ply() as u32,
            state: self.state_kind(),
            engine_due: self.engine_due(header),
            updated_at_ms: self.updated_at_ms,
            deadline_ms: self.deadline().map(|deadline| deadline.at_ms),
            reason: self.reason(),
        }
    }

    /// Ongoing, won, drawn or aborted.
    pub fn state_kind(&self) -> GameStateKind {
        if self.aborted.is_some() {
            return GameStateKind::Aborted;
        }
        match self.game.outcome() {
            Outcome::Ongoing => GameStateKind::Ongoing,
            Outcome::Win { .. } => GameStateKind::Won,
            Outcome::Draw { .. } => GameStateKind::Drawn,
        }
    }

    /// Why the game ended: the win, draw or abort reason's name; empty while it goes on.
    pub fn reason(&self) -> &'static str {
        if let Some(reason) = self.aborted {
            return reason.name();
        }
        match self.game.outcome() {
            Outcome::Ongoing => "",
            Outcome::Win { reason, .. } => reason.name(),
            Outcome::Draw { reason } => reason.name(),
        }
    }

    /// Whether an engine seat must act: it is to move, or a draw offer to it stands.
    pub fn engine_due(&self, header: &GameHeader) -> bool {
        if self.is_over() {
            return false;
        }
        let to_move = self.to_move();
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

#[cfg(test)]
mod tests {
    use damiera_engine::{Variant, WinReason};

    use super::*;
    use crate::games::clock::{TimeControl, TimingPolicy};
    use crate::games::record::{FirstMoverChoice, SeatSpec};

    /// A game between two people under 1 s + 0, created at 0 ms.
    fn one_second_game() -> Replayed {
        let person = || SeatSpec::Person { display_name: String::new() };
        let header = GameHeader {
            id: "g".to_string(),
            tenant: crate::tenants::TenantId::default(),
            variant: Variant::Italian,
            start_fen: Variant::Italian.start_fen().to_string(),
            forfeit_on_capture_fault: false,
            first_mover: FirstMoverChoice::White,
            white: person(),
            black: person(),
            white_token_hash: None,
            black_token_hash: None,
            created_at_ms: 0,
            timing: TimingPolicy::default().timing(TimeControl::Fischer { base_ms: 1_000, increment_ms: 0 }, 0),
            takebacks: false,
        };
        let mut replayed = Replayed::start(&header).unwrap();
        replayed.apply(EventKind::Move, Color::White, "22-18", 1_000).unwrap();
        replayed.apply(EventKind::Move, Color::Black, "12-16", 2_000).unwrap();
        replayed
    }

    #[test]
    fn a_move_at_or_after_the_deadline_is_refused() {
        let mut replayed = one_second_game();
        let refused = replayed.apply(EventKind::Move, Color::White, "21-17", 3_000);
        let Err(ActionError::Overdue(deadline)) = refused else { panic!("{refused:?}") };
        assert_eq!((deadline.at_ms, deadline.kind, deadline.color), (3_000, DeadlineKind::Flag, Color::White));
        assert_eq!(replayed.game.ply(), 2, "nothing changed");
        replayed.apply(EventKind::Move, Color::White, "21-17", 2_999).unwrap();
    }

    #[test]
    fn the_servers_ending_counts_only_at_its_deadline_and_for_its_seat() {
        let mut replayed = one_second_game();
        let early = replayed.apply(EventKind::Flag, Color::White, "", 2_999);
        assert!(matches!(early, Err(ActionError::NotDue { kind: EventKind::Flag })), "{early:?}");
        let wrong_seat = replayed.apply(EventKind::Flag, Color::Black, "", 3_000);
        assert!(matches!(wrong_seat, Err(ActionError::NotDue { .. })), "{wrong_seat:?}");
        let wrong_kind = replayed.apply(EventKind::Abandon, Color::White, "", 3_000);
        assert!(matches!(wrong_kind, Err(ActionError::NotDue { .. })), "{wrong_kind:?}");
        replayed.apply(EventKind::Flag, Color::White, "", 3_000).unwrap();
        assert_eq!(replayed.game.outcome(), Outcome::Win { winner: Color::Black, reason: WinReason::Time });
        assert_eq!(replayed.clocks.left_at(Color::White, Color::White, 5_000), Some(0));
        assert_eq!(replayed.deadline(), None);
    }

    #[test]
    fn a_seat_may_abort_only_until_each_side_has_moved() {
        let mut replayed = one_second_game();
        let refused = replayed.apply(EventKind::Abort, Color::White, AbortReason::Seat.name(), 2_500);
        assert!(matches!(refused, Err(ActionError::TooLateToAbort)), "{refused:?}");
    }

    #[test]
    fn a_resume_is_never_late_and_gives_the_turn_back() {
        let mut replayed = one_second_game();
        replayed.apply(EventKind::Resume, Color::White, "", 60_000).unwrap();
        assert_eq!(replayed.deadline().map(|d| d.at_ms), Some(61_000));
        replayed.apply(EventKind::Move, Color::White, "21-17", 60_900).unwrap();
    }
}
