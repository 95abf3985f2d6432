//! The sequential probability ratio test of `damiera match --sprt elo0,elo1`: play game pairs
//! until the pairs say "at least elo1" (H1) or "at most elo0" (H0) with the error rates asked for.
//!
//! The log-likelihood ratio is the generalized SPRT of fishtest and fastchess on the pentanomial
//! counts, in its normal approximation: with `s0`, `s1` the scores the two hypotheses expect
//! (logistic Elo, [`score_of`]), `mu` the mean pair score and `var` its variance over `N` pairs,
//! `LLR = N (s1 - s0) (2 mu - s0 - s1) / (2 var)`. Empty bins count as 0.001 pairs (fishtest's
//! regularization, in `N` too), so that a clean sweep still decides. The bounds are Wald's:
//! `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.

use std::fmt;
use std::str::FromStr;

use super::elo::{score_of, Pentanomial};

/// The two hypotheses, in logistic Elo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hypotheses {
    /// H0: the first engine is this much stronger at most.
    pub elo0: f64,
    /// H1: it is this much stronger at least.
    pub elo1: f64,
}

impl FromStr for Hypotheses {
    type Err = String;

    fn from_str(text: &str) -> Result<Hypotheses, String> {
        let bad = || format!("'{text}' is not ELO0,ELO1 (e.g. 0,5)");
        let (elo0, elo1) = text.split_once(',').ok_or_else(bad)?;
        let (elo0, elo1): (f64, f64) =
            (elo0.trim().parse().map_err(|_| bad())?, elo1.trim().parse().map_err(|_| bad())?);
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("'{text}': elo0 must be below elo1"));
        }
        Ok(Hypotheses { elo0, elo1 })
    }
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Neither bound crossed: play on.
    Undecided,
    /// The lower bound crossed: the first engine is stronger by elo0 at most (H0).
    H0,
    /// The upper bound crossed: it is stronger by elo1 at least (H1).
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Undecided => "undecided",
            Verdict::H0 => "H0 accepted",
            Verdict::H1 => "H1 accepted",
        })
    }
}

/// A test: its hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0 and H1.
    pub hypotheses: Hypotheses,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// The lower and upper bounds of the LLR.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 after these pairs.
    #[must_use]
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let (n, mean, variance) = pairs.mean_and_variance(true);
        let (s0, s1) = (score_of(self.hypotheses.elo0), score_of(self.hypotheses.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }

    /// The verdict for an LLR.
    #[must_use]
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Undecided
        }
    }

    /// One line of the test's state: `LLR 1.23 [-2.94, 2.94] undecided`.
    #[must_use]
    pub fn report(&self, pairs: &Pentanomial) -> String {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        format!("LLR {llr:.2} [{lower:.2}, {upper:.2}] {}", self.verdict(llr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt { hypotheses: Hypotheses { elo0, elo1 }, alpha: 0.05, beta: 0.05 }
    }

    #[test]
    fn bounds_are_walds() {
        // ln(0.05 / 0.95) = -2.944439, by hand.
        let (lower, upper) = sprt(0.0, 5.0).bounds();
        assert!((lower + 2.944_439).abs() < 1e-6 && (upper - 2.944_439).abs() < 1e-6);
        let (lower, upper) = Sprt { alpha: 0.1, beta: 0.2, ..sprt(0.0, 5.0) }.bounds();
        assert!((lower - (0.2f64 / 0.9).ln()).abs() < 1e-12 && (upper - 8f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn the_llr_matches_an_independent_calculation() {
        // From a separate short Python script: the same formula on plain floats, empty bins 1e-3
        // (N is then their sum, 10.004 for the sweep).
        let cases = [
            ([10, 40, 100, 50, 20], 0.0, 5.0, 0.825_146),
            ([10, 40, 100, 50, 20], 0.0, 10.0, 1.455_374),
            ([5, 20, 50, 20, 5], 0.0, 5.0, -0.051_769),
            ([5, 20, 50, 20, 5], 0.0, 10.0, -0.206_991),
            ([30, 60, 100, 80, 40], 0.0, 5.0, 0.764_335),
            ([0, 0, 0, 0, 10], 0.0, 5.0, 190.608_293),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = sprt(elo0, elo1).llr(&Pentanomial { counts });
            assert!((llr - expected).abs() < 1e-5, "{counts:?} ({elo0},{elo1}): {llr} against {expected}");
        }
    }

    #[test]
    fn verdicts_follow_the_bounds() {
        let test = sprt(0.0, 5.0);
        assert_eq!(test.verdict(0.0), Verdict::Undecided);
        assert_eq!(test.verdict(3.0), Verdict::H1);
        assert_eq!(test.verdict(-3.0), Verdict::H0);
        assert_eq!(test.report(&Pentanomial { counts: [0, 0, 0, 0, 10] }), "LLR 190.61 [-2.94, 2.94] H1 accepted");
        assert_eq!(test.report(&Pentanomial::default()), "LLR 0.00 [-2.94, 2.94] undecided");
    }

    #[test]
    fn hypotheses_read_as_two_numbers_in_order() {
        assert_eq!("0,5".parse::<Hypotheses>(), Ok(Hypotheses { elo0: 0.0, elo1: 5.0 }));
        assert_eq!("-3, 2.5".parse::<Hypotheses>(), Ok(Hypotheses { elo0: -3.0, elo1: 2.5 }));
        assert_eq!("5".parse::<Hypotheses>(), Err("'5' is not ELO0,ELO1 (e.g. 0,5)".into()));
        assert_eq!("5,0".parse::<Hypotheses>(), Err("'5,0': elo0 must be below elo1".into()));
    }
}
