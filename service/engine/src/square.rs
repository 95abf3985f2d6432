//! [`Square`]: one playable square, as a bit index into the variant's [`crate::Bitboard`] layout.
//!
//! A square only has a name together with its variant: Italian and Triestina number their dark
//! squares (`21`), Turkish names all 64 like chess (`e3`). [`crate::Variant`] reads and writes names.
//!
//! ```
//! use damiera_engine::Variant;
//! let square = Variant::Italian.parse_square("21").unwrap();
//! assert_eq!(Variant::Italian.square_name(square), "21");
//! assert_eq!(Variant::Italian.coordinates(square), (1, 2)); // b3
//! ```

/// A square of the board, by its bit index in the variant's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at bit `index` (0..64). Whether it is on a given board is the variant's business.
    #[must_use]
    pub const fn new(index: u8) -> Square {
        assert!(index < 64);
        Square(index)
    }

    /// The bit index.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.0 as u32
    }
}
