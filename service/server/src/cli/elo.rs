//! Match statistics: the score and the Elo difference it implies, with a 95% confidence interval.
//!
//! The interval comes from the standard error of the per-game scores (1, ½ or 0), turned into Elo
//! at both ends. When every game ended alike (a clean sweep, say) that error is zero and says
//! nothing, so the interval is then Wilson's for a proportion: 200 wins out of 200 put the low end
//! at +686.6 Elo, not at infinity. A score of 0% or 100% itself has no finite Elo and says so.

use std::fmt;

/// Wins, draws and losses, from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// An Elo difference, which may be infinite for a clean sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo(pub f64);

impl fmt::Display for Elo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_infinite() {
            f.write_str(if self.0 > 0.0 { "+inf" } else { "-inf" })
        } else {
            write!(f, "{:+.1}", self.0 + 0.0) // + 0.0 turns -0.0 into 0.0
        }
    }
}

impl Tally {
    /// Games played.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score, 0 to 1.
    #[must_use]
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference the score implies, and its 95% interval.
    #[must_use]
    pub fn elo(&self) -> (Elo, Elo, Elo) {
        let n = f64::from(self.games().max(1));
        let score = self.score();
        let mean_square = (f64::from(self.wins) + 0.25 * f64::from(self.draws)) / n;
        let deviation = (mean_square - score * score).max(0.0).sqrt();
        let (low, high) = if deviation > 0.0 {
            let margin = Z95 * deviation / n.sqrt();
            (score - margin, score + margin)
        } else {
            wilson(score, n)
        };
        (elo_of(score), elo_of(low), elo_of(high))
    }
}

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.96;

/// Wilson's 95% interval for a proportion `p` observed in `n` trials: finite at 0 and 1.
fn wilson(p: f64, n: f64) -> (f64, f64) {
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    (centre - half, centre + half)
}

fn elo_of(score: f64) -> Elo {
    if score <= 0.0 {
        Elo(f64::NEG_INFINITY)
    } else if score >= 1.0 {
        Elo(f64::INFINITY)
    } else {
        Elo(-400.0 * (1.0 / score - 1.0).log10())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_match_is_zero_elo_with_a_symmetric_interval() {
        let tally = Tally { wins: 30, draws: 40, losses: 30 };
        let (elo, low, high) = tally.elo();
        assert_eq!(elo.0, 0.0);
        assert_eq!(format!("{elo}"), "+0.0");
        assert!((low.0 + high.0).abs() < 1e-9 && high.0 > 20.0 && high.0 < 60.0, "{low} {high}");
    }

    #[test]
    fn known_scores_give_known_differences() {
        // 75% is +190.8 Elo; a clean sweep is infinite.
        let (elo, ..) = Tally { wins: 75, draws: 0, losses: 25 }.elo();
        assert_eq!(format!("{elo}"), "+190.8");
        let (elo, low, high) = Tally { wins: 10, draws: 0, losses: 0 }.elo();
        assert_eq!([elo, low, high].map(|e| e.to_string()), ["+inf", "+166.2", "+inf"]);
        assert_eq!(Tally { wins: 1, draws: 2, losses: 1 }.score(), 0.5);
    }

    #[test]
    fn games_that_all_ended_alike_still_have_an_interval() {
        let (_, low, _) = Tally { wins: 200, draws: 0, losses: 0 }.elo();
        assert_eq!(low.to_string(), "+686.6");
        let (_, _, high) = Tally { wins: 0, draws: 0, losses: 200 }.elo();
        assert_eq!(high.to_string(), "-686.6");
        let (elo, low, high) = Tally { wins: 0, draws: 100, losses: 0 }.elo();
        assert_eq!([elo, low, high].map(|e| e.to_string()), ["+0.0", "-67.7", "+67.7"]);
    }
}
