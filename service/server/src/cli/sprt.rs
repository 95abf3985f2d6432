//! The sequential probability ratio test of `damiera match --sprt elo0,elo1`: play game pairs
//! until the pairs say "at least elo1" (H1) or "at most elo0" (H0) with the error rates asked for.
//!
//! The log-likelihood ratio is the generalized SPRT of fishtest on the pentanomial counts, exact
//! rather than its normal approximation (which says "decided" after a single won pair): for each
//! hypothesis, the five-bin distribution most likely to give the observed pairs among those whose
//! mean is the score the hypothesis expects (logistic Elo, [`score_of`]); the LLR is
//! `N * sum p_i ln(q1_i / q0_i)` over the observed frequencies `p`. Empty bins count as 0.001 pairs
//! (fishtest's regularization, in `N` too). The bounds are Wald's: `ln(beta / (1 - alpha))` and
//! `ln((1 - beta) / alpha)`.

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
        let (n, observed) = pairs.frequencies();
        let q0 = most_likely_with_mean(&observed, score_of(self.hypotheses.elo0));
        let q1 = most_likely_with_mean(&observed, score_of(self.hypotheses.elo1));
        n * (0..5).map(|i| observed[i] * (q1[i] / q0[i]).ln()).sum::<f64>()
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

/// The distribution over pair scores 0, 1/4, ..., 1 that is most likely to give the `observed`
/// frequencies (all positive) among those with mean `mean` (0 < mean < 1).
///
/// By Lagrange, `q_i = p_i / (1 + x (s_i - mean))` for the `x` where the weights `sum q_i = 1`,
/// that is where `f(x) = sum p_i (s_i - mean) / (1 + x (s_i - mean))` is zero. `f` falls from
/// +inf to -inf over the `x` that keep every `q_i` positive, so halving that interval finds it.
fn most_likely_with_mean(observed: &[f64; 5], mean: f64) -> [f64; 5] {
    let offset = |i: usize| i as f64 / 4.0 - mean;
    let f = |x: f64| (0..5).map(|i| observed[i] * offset(i) / (1.0 + x * offset(i))).sum::<f64>();
    let (mut low, mut high) = (-1.0 / offset(4), -1.0 / offset(0));
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if f(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let x = (low + high) / 2.0;
    std::array::from_fn(|i| observed[i] / (1.0 + x * offset(i)))
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
        // From a separate short Python script that solves for each hypothesis' most likely
        // distribution by Newton's method (this code halves an interval), empty bins 1e-3.
        let cases = [
            ([10, 40, 100, 50, 20], 0.0, 5.0, 0.816_450),
            ([10, 40, 100, 50, 20], 0.0, 10.0, 1.443_155),
            ([5, 20, 50, 20, 5], 0.0, 5.0, -0.051_739),
            ([5, 20, 50, 20, 5], 0.0, 10.0, -0.206_512),
            ([30, 60, 100, 80, 40], 0.0, 5.0, 0.753_028),
            ([0, 0, 0, 0, 10], 0.0, 5.0, 0.142_904),
            ([0, 0, 0, 0, 1], 0.0, 50.0, 0.133_837),
            ([1, 3, 10, 4, 2], -5.0, 5.0, 0.182_119),
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
        // One won pair decides nothing (the normal approximation would say 17.8 here).
        assert_eq!(
            sprt(0.0, 50.0).report(&Pentanomial { counts: [0, 0, 0, 0, 1] }),
            "LLR 0.13 [-2.94, 2.94] undecided"
        );
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
