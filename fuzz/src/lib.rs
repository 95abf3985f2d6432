//! What the fuzz targets share: the variant a byte picks, and a position reached by playing the
//! legal moves that fuzz bytes choose, so that notation is read against positions with captures,
//! kings and promotions, not only the start; and the server in process ([`server`]).

pub mod server;

use damiera_engine::{Position, Variant};

/// The variant `byte` picks.
#[must_use]
pub fn variant(byte: u8) -> Variant {
    Variant::ALL[usize::from(byte) % Variant::ALL.len()]
}

/// The position after playing, from `variant`'s start, the legal move each byte of `choices`
/// picks (by index, wrapping), stopping early where no move is left.
#[must_use]
pub fn position_after(variant: Variant, choices: &[u8]) -> Position {
    let mut position = Position::start(variant);
    for &choice in choices {
        let moves = position.legal_moves();
        let Some(mv) = moves.get(usize::from(choice) % moves.len().max(1)) else {
            break;
        };
        position = position.play_unchecked(mv);
    }
    position
}
