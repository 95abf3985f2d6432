//! What `ListVariants` tells a client about each variant: its board and its rules in brief.
//!
//! The facts come from the engine's [`Variant`]; the summaries restate `RULES.md` for help pages.

use damiera_engine::{Position, RuleFamily, Variant, MOVE_COUNT_LIMIT};

use super::convert::{position_to_pb, variant_to_pb};
use crate::proto as pb;

/// Every variant the server plays, in the order clients list them.
pub const ALL: [Variant; 3] = [Variant::Italian, Variant::Triestina, Variant::Turkish];

/// One variant, described.
pub fn describe(variant: Variant) -> pb::VariantInfo {
    let naming = if variant.is_numbered() { pb::SquareNaming::Numbers } else { pb::SquareNaming::Algebraic };
    pb::VariantInfo {
        variant: variant_to_pb(variant).into(),
        name: variant.name().to_string(),
        display_name: variant.display_name().to_string(),
        board_size: variant.board_size() as i32,
        square_naming: naming.into(),
        playable_squares: variant.square_count() as i32,
        men_per_side: variant.men_per_side() as i32,
        start_position: Some(position_to_pb(&Position::start(variant))),
        rule_summary: summary(variant),
    }
}

fn summary(variant: Variant) -> Vec<String> {
    match variant.family() {
        RuleFamily::Diagonal => [
            "Played on the dark squares, numbered from Black's side; White moves first.",
            "Men move one square diagonally forward; kings one square diagonally in any direction.",
            "Capturing is mandatory and a capture goes on while it can; a man never captures backwards \
             and never captures a king.",
            "Among captures: take the most pieces, then capture with a king, then take the most kings, \
             then meet kings first.",
            "A man that ends its move on the far row becomes a king.",
            &format!(
                "Lost with no piece or no legal move to play; drawn on the fourth repetition, by the move \
                 count ({MOVE_COUNT_LIMIT} king moves each), or by agreement."
            ),
        ]
        .map(str::to_string)
        .to_vec(),
        RuleFamily::Orthogonal => [
            "Played on all 64 squares; White moves first unless the game says otherwise.",
            "Men move one square forward, left or right; kings move any distance along ranks and files.",
            "Capturing is mandatory and the sequence that takes the most pieces must be played; men capture \
             men and kings; kings capture at a distance; no 180-degree turn between jumps.",
            "A man that ends its move on the last rank becomes a king.",
            "Lost with no piece, no legal move, or a single man against a king; drawn with one piece each of \
             the same kind, on the third repetition, or by agreement.",
        ]
        .map(str::to_string)
        .to_vec(),
    }
}
