//! Fitting the learned evaluation's weights to training positions: logistic regression of each
//! position's target (its game's result blended with its search score) on the windows'
//! arrangements and the whole-board terms, by full-batch Adam, on every core.
//!
//! The win probability of a value `v` (hundredths of a man) is `1 / (1 + e^(-c·v))`, with `c`
//! fitted first to the hand-written evaluation, so that the learned values keep its scale: a man
//! is still worth about 100, which the search's margins assume.

use damiera_engine::search::learned::{self, LearnedWeights, ARRANGEMENTS, QUANTUM, TERMS};
use damiera_engine::search::{evaluate_with, Evaluation};
use damiera_engine::Variant;
use rayon::prelude::*;

use crate::records::{Record, NO_SCORE};

/// One position out of every this many goes to the validation set, by blocks of this many.
const VALIDATION_EVERY: usize = 20;
const BLOCK: usize = 1024;

/// How the weights are fitted.
pub struct Fit {
    /// The variant.
    pub variant: Variant,
    /// Passes over the positions.
    pub epochs: usize,
    /// The result's share of the target; the search score's is the rest.
    pub result_share: f64,
    /// Adam's first step size, in hundredths of a man; it falls linearly to a tenth.
    pub rate: f64,
    /// L2 pull of every window weight toward 0, per epoch and weight.
    pub decay: f64,
    /// The prior's weight, in positions: each window weight is pulled toward 0 as strongly as
    /// this many positions holding its arrangement pull it toward their value (0: no prior).
    pub prior: f64,
}

/// The positions as the fit reads them.
struct Samples {
    windows: usize,
    /// `arrangements[i * windows + w]`.
    arrangements: Vec<u16>,
    terms: Vec<[f32; TERMS]>,
    /// The opening's share of the blend: men left over men at the start.
    opening: Vec<f32>,
    target: Vec<f32>,
}

impl Samples {
    fn len(&self) -> usize {
        self.target.len()
    }
}

/// Fits weights to `records` and reports the losses on the way.
pub fn fit(settings: &Fit, records: &[Record]) -> LearnedWeights {
    let variant = settings.variant;
    let positions: Vec<_> = records.par_iter().map(|r| r.position(variant)).collect();
    let hand: Vec<f64> = positions.par_iter().map(|p| f64::from(evaluate_with(p, Evaluation::Hand))).collect();
    let results: Vec<f64> = records.iter().map(Record::result).collect();
    let scale = fit_scale(&hand, &results);
    eprintln!("{} positions; scale c = {scale:.5} (fitted to the hand-written evaluation)", records.len());

    let target = |r: &Record| {
        if r.score == NO_SCORE {
            return r.result();
        }
        let searched = sigmoid(scale * f64::from(r.score));
        settings.result_share * r.result() + (1.0 - settings.result_share) * searched
    };
    let validation = |i: usize| (i / BLOCK).is_multiple_of(VALIDATION_EVERY);
    let split = |keep: bool| {
        let chosen: Vec<usize> = (0..records.len()).filter(|&i| validation(i) == keep).collect();
        let features: Vec<_> = chosen.par_iter().map(|&i| learned::features(&positions[i])).collect();
        let windows = features.first().map_or(0, |f| f.arrangements.len());
        Samples {
            windows,
            arrangements: features.iter().flat_map(|f| f.arrangements.iter().copied()).collect(),
            terms: features.iter().map(|f| f.terms.map(|t| t as f32)).collect(),
            opening: features.iter().map(|f| f.men as f32 / f.full as f32).collect(),
            target: chosen.iter().map(|&i| target(&records[i]) as f32).collect(),
        }
    };
    let (train, check) = (split(false), split(true));
    let hand_check: f64 = {
        let chosen = (0..records.len()).filter(|&i| validation(i));
        let (sum, n) = chosen.fold((0.0, 0), |(sum, n), i| {
            (sum + cross_entropy(sigmoid(scale * hand[i]), f64::from(check.target[n])), n + 1)
        });
        sum / n.max(1) as f64
    };
    eprintln!(
        "{} to fit, {} to check; the hand-written evaluation's loss on them: {hand_check:.5}",
        train.len(),
        check.len()
    );

    let mut model = Model::start(variant, train.windows);
    let mut best = (f64::INFINITY, model.weights.clone(), 0);
    for epoch in 1..=settings.epochs {
        let rate = settings.rate * (1.0 - 0.9 * (epoch - 1) as f64 / settings.epochs as f64);
        let (loss, mut gradient) = model.gradient(&train, scale);
        model.add_prior(&mut gradient, settings.prior, scale, train.len());
        model.step(&gradient, rate, settings.decay);
        if epoch % 10 == 0 || epoch == settings.epochs {
            let checked = model.loss(&check, scale);
            eprintln!("epoch {epoch}: fit loss {loss:.5}, check loss {checked:.5}");
            if checked < best.0 {
                best = (checked, model.weights.clone(), epoch);
            }
        }
    }
    eprintln!("kept epoch {}: check loss {:.5} (hand-written {hand_check:.5})", best.2, best.0);
    model.weights = best.1;
    model.export(variant)
}

/// The `c` of `1 / (1 + e^(-c·v))` that fits the hand-written values to the results best.
fn fit_scale(values: &[f64], results: &[f64]) -> f64 {
    let loss = |c: f64| {
        values.par_iter().zip(results).map(|(v, r)| cross_entropy(sigmoid(c * v), *r)).sum::<f64>()
            / values.len() as f64
    };
    let (mut low, mut high) = (0.0005f64, 0.05f64);
    for _ in 0..60 {
        let (a, b) = (low + (high - low) / 3.0, high - (high - low) / 3.0);
        if loss(a) < loss(b) {
            high = b;
        } else {
            low = a;
        }
    }
    (low + high) / 2.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The cross-entropy of predicting `p` for target `t`.
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The weights being fitted, in hundredths of a man, with Adam's moments. Layout: the opening's
/// terms, the endgame's terms, the opening's windows, the endgame's windows.
struct Model {
    windows: usize,
    weights: Vec<f64>,
    first: Vec<f64>,
    second: Vec<f64>,
    steps: i32,
}

impl Model {
    /// Men at 100 and kings at the hand-written evaluation's value, everything else 0.
    fn start(variant: Variant, windows: usize) -> Model {
        let size = 2 * TERMS + 2 * windows * ARRANGEMENTS;
        let mut weights = vec![0.0; size];
        let king = damiera_engine::search::Weights::of(variant).king;
        for phase in 0..2 {
            weights[phase * TERMS] = 100.0;
            weights[phase * TERMS + 1] = f64::from(king);
        }
        Model { windows, weights, first: vec![0.0; size], second: vec![0.0; size], steps: 0 }
    }

    /// Where window `w`'s arrangement `a` sits for `phase`.
    fn window_at(&self, phase: usize, w: usize, a: u16) -> usize {
        2 * TERMS + (phase * self.windows + w) * ARRANGEMENTS + usize::from(a)
    }

    /// The value of sample `i`.
    fn value(&self, samples: &Samples, i: usize) -> f64 {
        let opening = f64::from(samples.opening[i]);
        let (mut open, mut end) = (0.0, 0.0);
        for (t, &x) in samples.terms[i].iter().enumerate() {
            open += self.weights[t] * f64::from(x);
            end += self.weights[TERMS + t] * f64::from(x);
        }
        for (w, &a) in samples.arrangements[i * self.windows..(i + 1) * self.windows].iter().enumerate() {
            open += self.weights[self.window_at(0, w, a)];
            end += self.weights[self.window_at(1, w, a)];
        }
        opening * open + (1.0 - opening) * end
    }

    fn loss(&self, samples: &Samples, scale: f64) -> f64 {
        let sum: f64 = (0..samples.len())
            .into_par_iter()
            .map(|i| cross_entropy(sigmoid(scale * self.value(samples, i)), f64::from(samples.target[i])))
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// The mean loss over `samples` and its gradient.
    fn gradient(&self, samples: &Samples, scale: f64) -> (f64, Vec<f64>) {
        let chunk = samples.len().div_ceil(rayon::current_num_threads() * 4).max(1);
        let (loss, mut gradient) = (0..samples.len())
            .into_par_iter()
            .with_min_len(chunk)
            .fold(
                || (0.0, vec![0.0; self.weights.len()]),
                |(mut loss, mut gradient), i| {
                    let p = sigmoid(scale * self.value(samples, i));
                    let t = f64::from(samples.target[i]);
                    loss += cross_entropy(p, t);
                    let g = (p - t) * scale;
                    let opening = f64::from(samples.opening[i]);
                    let (g_open, g_end) = (g * opening, g * (1.0 - opening));
                    for (t, &x) in samples.terms[i].iter().enumerate() {
                        gradient[t] += g_open * f64::from(x);
                        gradient[TERMS + t] += g_end * f64::from(x);
                    }
                    for (w, &a) in samples.arrangements[i * self.windows..(i + 1) * self.windows].iter().enumerate() {
                        gradient[self.window_at(0, w, a)] += g_open;
                        gradient[self.window_at(1, w, a)] += g_end;
                    }
                    (loss, gradient)
                },
            )
            .reduce(
                || (0.0, vec![0.0; self.weights.len()]),
                |(l1, mut g1), (l2, g2)| {
                    g1.iter_mut().zip(g2).for_each(|(a, b)| *a += b);
                    (l1 + l2, g1)
                },
            );
        let n = samples.len().max(1) as f64;
        gradient.iter_mut().for_each(|g| *g /= n);
        (loss / n, gradient)
    }

    /// Adds to `gradient` the pull of a Gaussian prior at 0 on every window weight, `prior`
    /// positions strong. Near an even chance each position holding an arrangement bends the
    /// mean loss by `c² / 4n` per unit of its weight squared, so a prior of that curvature times
    /// `prior` shrinks an arrangement seen `k` times to about `k / (k + prior)` of its unshrunk
    /// value: the rare arrangements, whose weights would otherwise fit their few positions' noise
    /// (Adam moves every weight at the same pace, however few positions it has), stay near 0.
    fn add_prior(&self, gradient: &mut [f64], prior: f64, scale: f64, positions: usize) {
        let strength = prior * scale * scale / (4.0 * positions.max(1) as f64);
        for (g, w) in gradient.iter_mut().zip(&self.weights).skip(2 * TERMS) {
            *g += strength * w;
        }
    }

    /// One Adam step of size `rate`, window weights pulled toward 0 by `decay`.
    fn step(&mut self, gradient: &[f64], rate: f64, decay: f64) {
        const BETA1: f64 = 0.9;
        const BETA2: f64 = 0.999;
        self.steps += 1;
        let (c1, c2) = (1.0 - BETA1.powi(self.steps), 1.0 - BETA2.powi(self.steps));
        for (i, &g) in gradient.iter().enumerate() {
            self.first[i] = BETA1 * self.first[i] + (1.0 - BETA1) * g;
            self.second[i] = BETA2 * self.second[i] + (1.0 - BETA2) * g * g;
            self.weights[i] -= rate * (self.first[i] / c1) / ((self.second[i] / c2).sqrt() + 1e-12);
            if i >= 2 * TERMS {
                self.weights[i] *= 1.0 - decay;
            }
        }
    }

    /// The weights as the engine stores them.
    fn export(&self, variant: Variant) -> LearnedWeights {
        let quantise = |w: f64| (w * f64::from(QUANTUM)).round().clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        let mut out = LearnedWeights::zero(variant);
        for phase in 0..2 {
            for t in 0..TERMS {
                out.terms[phase][t] = quantise(self.weights[phase * TERMS + t]);
            }
            let start = 2 * TERMS + phase * self.windows * ARRANGEMENTS;
            let weights = &self.weights[start..start + self.windows * ARRANGEMENTS];
            out.windows.iter_mut().zip(weights).for_each(|(o, &w)| o[phase] = quantise(w));
        }
        out
    }
}
