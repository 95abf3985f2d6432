//! [`Termination`]: how a game ended, as PDN's `Termination` tag says it in PGN's words, for what
//! the moves and the result do not show (a game lost on time is ongoing on the board).
//!
//! ```
//! use damiera_engine::pdn::Termination;
//! use damiera_engine::{Color, Outcome, WinReason};
//!
//! let lost_on_time = Outcome::Win { winner: Color::Black, reason: WinReason::Time };
//! assert_eq!(Termination::of(lost_on_time), Some(Termination::TimeForfeit));
//! assert_eq!(Termination::TimeForfeit.tag_value(), "time forfeit");
//! assert_eq!(Termination::from_tag(" Time forfeit "), Some(Termination::TimeForfeit));
//! ```

use crate::{Outcome, WinReason};

/// How a finished game ended, beyond its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules on the board, a resignation or an agreed draw.
    Normal,
    /// The loser's time ran out.
    TimeForfeit,
    /// The loser left the game (did not move for too long).
    Abandoned,
    /// The loser broke a rule: a Turkish capture fault under the forfeit option.
    RulesInfraction,
}

/// Each termination and its tag value.
const VALUES: [(Termination, &str); 4] = [
    (Termination::Normal, "normal"),
    (Termination::TimeForfeit, "time forfeit"),
    (Termination::Abandoned, "abandoned"),
    (Termination::RulesInfraction, "rules infraction"),
];

impl Termination {
    /// How a game with `outcome` ended; `None` while it goes on.
    #[must_use]
    pub fn of(outcome: Outcome) -> Option<Termination> {
        match outcome {
            Outcome::Ongoing => None,
            Outcome::Win { reason: WinReason::Time, .. } => Some(Termination::TimeForfeit),
            Outcome::Win { reason: WinReason::Abandonment, .. } => Some(Termination::Abandoned),
            Outcome::Win { reason: WinReason::CaptureFault, .. } => Some(Termination::RulesInfraction),
            Outcome::Win { .. } | Outcome::Draw { .. } => Some(Termination::Normal),
        }
    }

    /// The tag value Damiera writes: `normal`, `time forfeit`, `abandoned`, `rules infraction`.
    #[must_use]
    pub fn tag_value(self) -> &'static str {
        VALUES.iter().find(|(termination, _)| *termination == self).map(|(_, value)| *value).expect("listed")
    }

    /// Reads a tag value, ignoring case and surrounding spaces; `None` for any other value.
    #[must_use]
    pub fn from_tag(value: &str) -> Option<Termination> {
        let value = value.trim();
        VALUES.iter().find(|(_, text)| text.eq_ignore_ascii_case(value)).map(|(termination, _)| *termination)
    }
}
