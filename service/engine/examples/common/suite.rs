//! The opening suite the examples play from: `data/openings/<variant>.txt`, one line of moves
//! each (`#` starts a comment).

use damiera_engine::Variant;

/// Every opening of `variant`'s suite, as its moves' texts.
pub fn openings(variant: Variant) -> Vec<Vec<String>> {
    let path = format!("{}/data/openings/{}.txt", env!("CARGO_MANIFEST_DIR"), variant.name());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}
