//! Static evaluation, from the point of view of the side to move, in hundredths of a man.
//!
//! Two evaluations exist: the learned one ([`learned`]: weights for every arrangement of men in
//! small regions of the board, fitted to self-play) and the hand-written one (`hand`: a dozen
//! features with Texel-tuned weights). The engine plays with the learned one in all three
//! variants; the hand-written one is what it is measured against.
//!
//! ```
//! use damiera_engine::search::{evaluate, evaluate_with, Evaluation};
//! use damiera_engine::{Position, Variant};
//! // The hand-written evaluation counts both sides alike: the symmetric start is level.
//! assert_eq!(evaluate_with(&Position::start(Variant::Turkish), Evaluation::Hand), 0);
//! // The learned one has learned what having the move is worth there.
//! assert_eq!(evaluate(&Position::start(Variant::Turkish)), 26);
//! // White, to move, is a man up: both evaluations say so.
//! let position = damiera_engine::fen::parse(Variant::Italian, "W:W21,22:B1").unwrap();
//! assert!(evaluate_with(&position, Evaluation::Hand) > 50);
//! assert!(evaluate(&position) > 50);
//! ```

mod hand;
pub mod learned;

pub use hand::{evaluate_with_weights, Weights};
use learned::LearnedWeights;

use crate::Position;

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    /// The engine's: the learned evaluation with the embedded weights.
    #[default]
    Full,
    /// The hand-written evaluation with the engine's weights, learned weights or not: what the
    /// learned one is measured against.
    Hand,
    /// Material alone (men and kings at the variant's values): the baseline the full evaluation
    /// is measured against.
    MaterialOnly,
    /// The hand-written evaluation with other weights: what the Texel tuner compares.
    Weights(Weights),
    /// The learned evaluation with other weights: what the evaluation learner compares.
    Learned(&'static LearnedWeights),
}

/// The position's value for the side to move, in hundredths of a man.
#[must_use]
pub fn evaluate(position: &Position) -> i32 {
    evaluate_with(position, Evaluation::Full)
}

/// The position's value for the side to move under `evaluation`.
#[must_use]
pub fn evaluate_with(position: &Position, evaluation: Evaluation) -> i32 {
    let variant = position.variant();
    match evaluation {
        Evaluation::Full => LearnedWeights::of(variant).evaluate(position),
        Evaluation::Hand => evaluate_with_weights(position, hand::weights(variant)),
        Evaluation::MaterialOnly => hand::material_balance(position, hand::weights(variant)),
        Evaluation::Weights(other) => evaluate_with_weights(position, &other),
        Evaluation::Learned(learned) => learned.evaluate(position),
    }
}
