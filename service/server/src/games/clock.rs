//! Clocks of hosted games: the time controls a game is played under ([`TimeControl`], kept with
//! the game as its [`Timing`]), and each side's time as the log's stored timestamps say
//! ([`Clocks`]). The server's own times decide, never a client's.
//!
//! A turn begins when the previous move is stored (or the game created, or the server resumed
//! after being down). Until the side to move has made its first move no clock runs: the first
//! move has a window of its own, after which the game is aborted. From then on the side to move's
//! clock runs; when it reaches zero the game is lost on time. An untimed game whose side to move
//! does not move for the host's abandonment time is lost by abandonment.

use damiera_engine::Color;
use serde::{Deserialize, Serialize};

/// Milliseconds in a day.
const DAY_MS: u64 = 24 * 60 * 60 * 1000;

/// How much time the players have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock; the game is still ended when it is abandoned.
    #[default]
    None,
    /// A base time for the game, plus an increment after each move (3+2, 10+0).
    Fischer {
        /// Each side's time at the start.
        base_ms: u64,
        /// Added to the mover's clock after each of its moves.
        increment_ms: u64,
    },
    /// The same time for every move; what a move does not use is lost.
    PerMove {
        /// The time for each move.
        move_ms: u64,
    },
    /// Correspondence: days for each move.
    Correspondence {
        /// The days for each move.
        days_per_move: u32,
    },
}

impl TimeControl {
    /// Whether a clock runs at all.
    pub fn is_timed(self) -> bool {
        self != TimeControl::None
    }

    /// Whether the clock counts seconds and minutes (base and increment, or a time per move),
    /// not days.
    pub fn is_real_time(self) -> bool {
        matches!(self, TimeControl::Fischer { .. } | TimeControl::PerMove { .. })
    }

    /// Each side's time when the game begins: the base, or the time for one move.
    pub fn initial_ms(self) -> u64 {
        match self {
            TimeControl::None => 0,
            TimeControl::Fischer { base_ms, .. } => base_ms,
            TimeControl::PerMove { move_ms } => move_ms,
            TimeControl::Correspondence { days_per_move } => u64::from(days_per_move) * DAY_MS,
        }
    }

    /// A side's time after a move that left it `left_ms`: the increment added, or a fresh move's time.
    fn after_move_ms(self, left_ms: i64) -> i64 {
        match self {
            TimeControl::None => 0,
            TimeControl::Fischer { increment_ms, .. } => left_ms + increment_ms as i64,
            TimeControl::PerMove { .. } | TimeControl::Correspondence { .. } => self.initial_ms() as i64,
        }
    }

    /// The PDN `TimeControl` tag: `-` untimed, `180+2` (seconds), `1/30` for 30 s a move.
    pub fn pdn_tag(self) -> String {
        let seconds = |ms: u64| {
            if ms.is_multiple_of(1000) {
                (ms / 1000).to_string()
            } else {
                format!("{:.3}", ms as f64 / 1000.0)
            }
        };
        match self {
            TimeControl::None => "-".to_string(),
            TimeControl::Fischer { base_ms, increment_ms } => format!("{}+{}", seconds(base_ms), seconds(increment_ms)),
            TimeControl::PerMove { .. } | TimeControl::Correspondence { .. } => {
                format!("1/{}", seconds(self.initial_ms()))
            }
        }
    }
}

/// A game's timing, fixed when it is created: its time control and how long the host waits
/// before ending a game nobody plays. Stored with the game, so every replica and every replay
/// decides alike.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    /// The time control.
    pub control: TimeControl,
    /// How long each side has for its first move before the server aborts the game; `None`:
    /// no limit (games stored before clocks existed).
    pub first_move_ms: Option<u64>,
    /// Untimed games: how long the side to move may stay away before it loses by abandonment;
    /// `None`: never.
    pub abandon_after_ms: Option<u64>,
    /// Events stored at creation (an import): they were not played under this clock.
    pub imported_events: u32,
}

/// What a host allows when it sets a game's [`Timing`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimingPolicy {
    /// The least time for a first move; a slower control's time for one move counts if longer.
    pub first_move_ms: u64,
    /// How long an untimed game's side to move may stay away.
    pub abandon_after_ms: u64,
}

impl Default for TimingPolicy {
    fn default() -> Self {
        TimingPolicy { first_move_ms: 60_000, abandon_after_ms: 7 * DAY_MS }
    }
}

impl TimingPolicy {
    /// The timing of a new game under `control`, `imported_events` of which were stored at
    /// creation. The first move may take the policy's time or one move's time under the control,
    /// whichever is longer; an untimed game's first move, the abandonment time.
    pub fn timing(self, control: TimeControl, imported_events: u32) -> Timing {
        let first_move_ms = match control {
            TimeControl::None => self.abandon_after_ms,
            TimeControl::Fischer { .. } => self.first_move_ms,
            TimeControl::PerMove { .. } | TimeControl::Correspondence { .. } => {
                self.first_move_ms.max(control.initial_ms())
            }
        };
        let abandon_after_ms = (!control.is_timed()).then_some(self.abandon_after_ms);
        Timing { control, first_move_ms: Some(first_move_ms), abandon_after_ms, imported_events }
    }
}

/// What happens at a game's deadline if nobody acts first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadlineKind {
    /// The side to move has not made its first move: the game is aborted.
    FirstMove,
    /// The side to move's clock runs out: it loses on time.
    Flag,
    /// The side to move of an untimed game stayed away: it loses by abandonment.
    Abandonment,
}

/// When a game ends by itself, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deadline {
    /// The moment, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// What happens then.
    pub kind: DeadlineKind,
    /// The side to move, whose time it is.
    pub color: Color,
}

/// Both sides' clocks, as the log so far says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The game's timing.
    pub timing: Timing,
    /// Each side's time left when its current (or last) turn began, White first.
    left_ms: [i64; 2],
    /// When the side to move's turn began.
    turn_began_ms: i64,
    /// Moves each side has made under this clock, White first.
    moves_made: [u32; 2],
}

impl Clocks {
    /// The clocks of a game with `timing`, created at `created_at_ms`.
    pub fn new(timing: Timing, created_at_ms: i64) -> Clocks {
        let initial = timing.control.initial_ms() as i64;
        Clocks { timing, left_ms: [initial; 2], turn_began_ms: created_at_ms, moves_made: [0; 2] }
    }

    /// When `to_move`'s turn began.
    pub fn turn_began_ms(&self) -> i64 {
        self.turn_began_ms
    }

    /// Whether `to_move`'s clock runs: a timed game, and it has made its first move.
    pub fn runs_for(&self, to_move: Color) -> bool {
        self.timing.control.is_timed() && self.moves_made[index(to_move)] > 0
    }

    /// Whether either side has yet to make its first move: until then either seat may abort.
    pub fn may_abort(&self) -> bool {
        self.moves_made.contains(&0)
    }

    /// `color`'s time left at `now_ms`, with `to_move` to move; `None` for an untimed game.
    /// Never below zero.
    pub fn left_at(&self, color: Color, to_move: Color, now_ms: i64) -> Option<i64> {
        if !self.timing.control.is_timed() {
            return None;
        }
        let left = self.left_ms[index(color)];
        let used = if color == to_move && self.runs_for(to_move) { (now_ms - self.turn_began_ms).max(0) } else { 0 };
        Some((left - used).max(0))
    }

    /// When the game, ongoing with `to_move` to move, ends by itself if nobody acts.
    pub fn deadline(&self, to_move: Color) -> Option<Deadline> {
        let (after_ms, kind) = if self.moves_made[index(to_move)] == 0 {
            (self.timing.first_move_ms? as i64, DeadlineKind::FirstMove)
        } else if self.timing.control.is_timed() {
            (self.left_ms[index(to_move)], DeadlineKind::Flag)
        } else {
            (self.timing.abandon_after_ms? as i64, DeadlineKind::Abandonment)
        };
        Some(Deadline { at_ms: self.turn_began_ms.saturating_add(after_ms), kind, color: to_move })
    }

    /// `color` moved at `at_ms`: its clock is charged (and the increment added) and the other
    /// side's turn begins. `counted` is false for a move stored at creation (an import).
    pub fn moved(&mut self, color: Color, at_ms: i64, counted: bool) {
        if counted {
            if self.runs_for(color) {
                let left = self.left_ms[index(color)] - (at_ms - self.turn_began_ms).max(0);
                self.left_ms[index(color)] = self.timing.control.after_move_ms(left);
            }
            self.moves_made[index(color)] += 1;
        }
        self.turn_began_ms = at_ms;
    }

    /// `undone` moves were taken back at `at_ms`, with `to_move` to move before: its time so far
    /// is charged (no increment), the moves no longer count, and the new side to move's turn begins.
    pub fn took_back(&mut self, to_move: Color, undone: &[Color], at_ms: i64) {
        if self.runs_for(to_move) {
            self.left_ms[index(to_move)] -= (at_ms - self.turn_began_ms).max(0);
        }
        for color in undone {
            let made = &mut self.moves_made[index(*color)];
            *made = made.saturating_sub(1);
        }
        self.turn_began_ms = at_ms;
    }

    /// The game ended at `at_ms` with `to_move` to move: its clock stops, charged for the turn.
    pub fn stopped(&mut self, to_move: Color, at_ms: i64) {
        if self.runs_for(to_move) {
            let left = &mut self.left_ms[index(to_move)];
            *left = (*left - (at_ms - self.turn_began_ms).max(0)).max(0);
        }
        self.turn_began_ms = at_ms;
    }

    /// The server resumed at `at_ms` after being down: the side to move's turn begins afresh,
    /// with the time it had when the turn began.
    pub fn resumed(&mut self, at_ms: i64) {
        self.turn_began_ms = at_ms;
    }
}

fn index(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FISCHER: TimeControl = TimeControl::Fischer { base_ms: 3_000, increment_ms: 100 };

    fn clocks(control: TimeControl) -> Clocks {
        Clocks::new(TimingPolicy::default().timing(control, 0), 1_000)
    }

    #[test]
    fn no_clock_runs_before_each_side_has_moved_and_the_first_move_has_a_window() {
        let mut clocks = clocks(FISCHER);
        assert_eq!(
            clocks.deadline(Color::White),
            Some(Deadline { at_ms: 61_000, kind: DeadlineKind::FirstMove, color: Color::White })
        );
        clocks.moved(Color::White, 5_000, true);
        assert_eq!(clocks.left_at(Color::White, Color::Black, 9_000), Some(3_000));
        assert_eq!(clocks.deadline(Color::Black).map(|d| (d.at_ms, d.kind)), Some((65_000, DeadlineKind::FirstMove)));
        assert!(clocks.may_abort());
        clocks.moved(Color::Black, 7_000, true);
        assert!(!clocks.may_abort());
        // White's clock runs from Black's move: 3 s.
        assert_eq!(clocks.deadline(Color::White).map(|d| (d.at_ms, d.kind)), Some((10_000, DeadlineKind::Flag)));
        assert_eq!(clocks.left_at(Color::White, Color::White, 8_000), Some(2_000));
        assert_eq!(clocks.left_at(Color::White, Color::White, 20_000), Some(0));
        // 1.5 s used, 0.1 s added.
        clocks.moved(Color::White, 8_500, true);
        assert_eq!(clocks.left_at(Color::White, Color::Black, 9_000), Some(1_600));
        assert_eq!(clocks.left_at(Color::Black, Color::Black, 9_000), Some(2_500));
    }

    #[test]
    fn a_move_time_is_fresh_each_move_and_unused_time_is_lost() {
        let mut clocks = clocks(TimeControl::PerMove { move_ms: 30_000 });
        assert_eq!(clocks.deadline(Color::White).map(|d| d.at_ms), Some(61_000), "the first move's window: 60 s");
        clocks.moved(Color::White, 2_000, true);
        clocks.moved(Color::Black, 3_000, true);
        clocks.moved(Color::White, 4_000, true);
        assert_eq!(clocks.deadline(Color::Black).map(|d| (d.at_ms, d.kind)), Some((34_000, DeadlineKind::Flag)));
    }

    #[test]
    fn correspondence_counts_days_and_its_first_move_has_as_long() {
        let clocks = clocks(TimeControl::Correspondence { days_per_move: 3 });
        assert_eq!(clocks.deadline(Color::White).map(|d| d.at_ms), Some(1_000 + 3 * DAY_MS as i64));
    }

    #[test]
    fn an_untimed_game_is_abandoned_after_the_policys_time() {
        let mut clocks = clocks(TimeControl::None);
        assert_eq!(clocks.left_at(Color::White, Color::White, 5_000), None);
        clocks.moved(Color::White, 2_000, true);
        clocks.moved(Color::Black, 3_000, true);
        let week = 7 * DAY_MS as i64;
        assert_eq!(
            clocks.deadline(Color::White).map(|d| (d.at_ms, d.kind)),
            Some((3_000 + week, DeadlineKind::Abandonment))
        );
    }

    #[test]
    fn games_from_before_clocks_never_end_by_themselves() {
        let clocks = Clocks::new(Timing::default(), 0);
        assert_eq!(clocks.deadline(Color::White), None);
    }

    #[test]
    fn a_resume_gives_the_side_to_move_its_turn_again() {
        let mut clocks = clocks(FISCHER);
        clocks.moved(Color::White, 2_000, true);
        clocks.moved(Color::Black, 3_000, true);
        assert_eq!(clocks.left_at(Color::White, Color::White, 4_000), Some(2_000));
        clocks.resumed(50_000);
        assert_eq!(clocks.left_at(Color::White, Color::White, 50_250), Some(2_750));
    }

    #[test]
    fn a_takeback_charges_the_time_used_and_uncounts_the_moves() {
        let mut clocks = clocks(FISCHER);
        clocks.moved(Color::White, 2_000, true);
        clocks.moved(Color::Black, 3_000, true);
        clocks.moved(Color::White, 4_000, true);
        // Black to move takes back White's last move after 0.5 s.
        clocks.took_back(Color::Black, &[Color::White], 4_500);
        assert_eq!(clocks.left_at(Color::Black, Color::White, 4_500), Some(2_500));
        assert_eq!(clocks.left_at(Color::White, Color::White, 4_500), Some(2_100), "White keeps its increment");
        assert_eq!(clocks.deadline(Color::White).map(|d| d.at_ms), Some(6_600));
    }

    #[test]
    fn pdn_tags() {
        assert_eq!(TimeControl::None.pdn_tag(), "-");
        assert_eq!(FISCHER.pdn_tag(), "3+0.100");
        assert_eq!(TimeControl::Fischer { base_ms: 180_000, increment_ms: 2_000 }.pdn_tag(), "180+2");
        assert_eq!(TimeControl::PerMove { move_ms: 30_000 }.pdn_tag(), "1/30");
        assert_eq!(TimeControl::Correspondence { days_per_move: 1 }.pdn_tag(), "1/86400");
    }
}
