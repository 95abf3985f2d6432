//! Match statistics: the score and the Elo difference it implies, with a 95% confidence interval.
//!
//! The interval comes from the standard error of the per-game scores (1, ½ or 0), turned into Elo
//! at both ends. When every game ended alike (a clean sweep, say) that error is zero and says
//! nothing, so the interval is then Wilson's for a proportion: 200 wins out of 200 put the low end
//! at +686.6 Elo, not at infinity. A score of 0% or 100% itself has no finite Elo and says so.
//!
//! [`Pentanomial`] counts game pairs (one opening, colours swapped) by their score, 0 to 2 in
//! halves, as fishtest and fastchess do: the pair, not the game, is the independent trial, so
//! its variance (smaller when an opening favours one colour) gives the truer interval. Elo is
//! logistic throughout: a score `s` is `-400 log10(1/s - 1)`.

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
        elo_interval(score, deviation, n)
    }
}

/// A mean score over `n` trials with its standard deviation, as Elo with its 95% interval; the
/// interval is Wilson's when the deviation is zero (every trial ended alike).
fn elo_interval(score: f64, deviation: f64, n: f64) -> (Elo, Elo, Elo) {
    let (low, high) = if deviation > 0.0 {
        let margin = Z95 * deviation / n.sqrt();
        (score - margin, score + margin)
    } else {
        wilson(score, n)
    };
    (elo_of(score), elo_of(low), elo_of(high))
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

/// Game pairs by the first engine's score in the pair: LL, LD+DL, DD+WL+LW, WD+DW, WW.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs that scored 0, ½, 1, 1½ and 2 points.
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// Counts one pair from its games' scores in half points (0 loss, 1 draw, 2 win).
    pub fn add(&mut self, first: u8, second: u8) {
        self.counts[usize::from(first + second)] += 1;
    }

    /// Pairs counted.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The pairs and the frequency of each bin, every empty bin counted as 0.001 pairs, as
    /// fishtest does for the LLR, so that no score has a likelihood of zero.
    #[must_use]
    pub fn frequencies(&self) -> (f64, [f64; 5]) {
        let counts = self.counts.map(|c| if c == 0 { 1e-3 } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        (n, counts.map(|c| c / n))
    }

    /// The Elo difference and its 95% interval from the pairs' variance (Wilson's, over pairs,
    /// when every pair ended alike).
    #[must_use]
    pub fn elo(&self) -> (Elo, Elo, Elo) {
        let pairs = f64::from(self.pairs().max(1));
        let score = |i: usize| i as f64 / 4.0;
        let mean = (0..5).map(|i| f64::from(self.counts[i]) * score(i)).sum::<f64>() / pairs;
        let variance = (0..5).map(|i| f64::from(self.counts[i]) * (score(i) - mean).powi(2)).sum::<f64>() / pairs;
        elo_interval(mean, variance.sqrt(), pairs)
    }
}

/// The expected score of an Elo difference (the logistic model).
#[must_use]
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
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

    #[test]
    fn pairs_are_binned_by_their_score() {
        let mut pentanomial = Pentanomial::default();
        pentanomial.add(0, 0); // LL
        pentanomial.add(2, 0); // WL
        pentanomial.add(1, 1); // DD
        pentanomial.add(1, 2); // DW
        assert_eq!(pentanomial.counts, [1, 0, 2, 1, 0]);
        assert_eq!(pentanomial.pairs(), 4);
    }

    #[test]
    fn pentanomial_elo_matches_an_independent_calculation() {
        // Expected values from a separate short Python script (plain floats, no Damiera code):
        // per-pair scores 0, .25, .5, .75, 1 weighted by the counts, mean mu and variance var,
        // interval mu -+ 1.96 sqrt(var / pairs), each end through -400 log10(1/s - 1):
        // [10, 40, 100, 50, 20] -> 23.7256 (1.4805 .. 46.1669)
        // [30, 60, 100, 80, 40] -> 22.4464 (0.0446 .. 45.0364)
        // [5, 20, 50, 20, 5]    -> 0 (-30.5324 .. 30.5324)
        let cases = [
            ([10, 40, 100, 50, 20], [23.7256, 1.4805, 46.1669]),
            ([30, 60, 100, 80, 40], [22.4464, 0.0446, 45.0364]),
            ([5, 20, 50, 20, 5], [0.0, -30.5324, 30.5324]),
        ];
        for (counts, expected) in cases {
            let (elo, low, high) = Pentanomial { counts }.elo();
            for (got, want) in [elo.0, low.0, high.0].into_iter().zip(expected) {
                assert!((got - want).abs() < 1e-3, "{counts:?}: {got} against {want}");
            }
        }
        // Ten won pairs: Wilson's interval over ten trials, as for ten won games above.
        let (elo, low, high) = Pentanomial { counts: [0, 0, 0, 0, 10] }.elo();
        assert_eq!([elo, low, high].map(|e| e.to_string()), ["+inf", "+166.2", "+inf"]);
    }
}
