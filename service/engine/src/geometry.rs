//! Board layouts: which bit stands for which square, and the masks the move generators use.
//!
//! The diagonal boards (8x8 Italian, 10x10 Triestina) keep only dark squares, `h` to a row, in a
//! padded layout: square `s` (0-based number, row `r = s / h` from Black's side) sits at bit
//! `s + (r + 1) / 2`. One never-used "ghost" bit follows every even row, which makes each diagonal
//! step a constant shift (`h` or `h + 1`, up or down) and sends every step off the board's side
//! onto a ghost bit, outside [`DiagonalGeometry::VALID`]. 8x8 uses 36 bits and 10x10 uses 55, so
//! both fit one `u64`, as do Turkish's 64 squares (bit = rank * 8 + file).

/// The shape of a diagonal board, for the generic diagonal move generator.
pub(crate) trait DiagonalGeometry {
    /// Dark squares per row.
    const HALF: u32;
    /// Rows of the board.
    const ROWS: u32;
    /// Bits that are squares of this board.
    const VALID: u64 = diagonal_valid(Self::HALF, Self::ROWS);
    /// Black's base row, where White's men promote.
    const TOP_ROW: u64 = diagonal_row(Self::HALF, 0);
    /// White's base row, where Black's men promote.
    const BOTTOM_ROW: u64 = diagonal_row(Self::HALF, Self::ROWS - 1);
    /// The two steps toward Black's side (White's forward), as negative bit offsets.
    const UP: [i32; 2] = [-(Self::HALF as i32) - 1, -(Self::HALF as i32)];
    /// The two steps toward White's side (Black's forward).
    const DOWN: [i32; 2] = [Self::HALF as i32, Self::HALF as i32 + 1];
    /// All four steps, in the generator's fixed order.
    const ALL: [i32; 4] = [Self::UP[0], Self::UP[1], Self::DOWN[0], Self::DOWN[1]];
}

/// The 8x8 board of Dama Italiana.
pub(crate) struct Board8;
impl DiagonalGeometry for Board8 {
    const HALF: u32 = 4;
    const ROWS: u32 = 8;
}

/// The 10x10 board of Dama Triestina.
pub(crate) struct Board10;
impl DiagonalGeometry for Board10 {
    const HALF: u32 = 5;
    const ROWS: u32 = 10;
}

/// The bit of 0-based dark square `s` on a diagonal board with `half` squares a row.
pub(crate) const fn diagonal_bit(half: u32, s: u32) -> u32 {
    s + (s / half).div_ceil(2)
}

/// The bits of every dark square of a `half`-wide, `rows`-high diagonal board.
pub(crate) const fn diagonal_valid(half: u32, rows: u32) -> u64 {
    let mut mask = 0;
    let mut s = 0;
    while s < half * rows {
        mask |= 1 << diagonal_bit(half, s);
        s += 1;
    }
    mask
}

/// The bits of row `row` (0 = Black's side) of a diagonal board.
pub(crate) const fn diagonal_row(half: u32, row: u32) -> u64 {
    let mut mask = 0;
    let mut k = 0;
    while k < half {
        mask |= 1 << diagonal_bit(half, row * half + k);
        k += 1;
    }
    mask
}

/// `bits` moved by `offset` bit positions: up for a positive offset, down for a negative one.
/// Called with constant offsets, it compiles to one shift.
#[inline(always)]
pub(crate) fn shift(bits: u64, offset: i32) -> u64 {
    if offset >= 0 {
        bits << offset
    } else {
        bits >> -offset
    }
}

/// Orthogonal directions on the Turkish board, in the generator's fixed order.
pub(crate) const NORTH: usize = 0;
pub(crate) const SOUTH: usize = 1;
pub(crate) const EAST: usize = 2;
pub(crate) const WEST: usize = 3;

/// The direction straight back along the same line: the 180-degree turn Turkish forbids.
pub(crate) const fn reverse(direction: usize) -> usize {
    direction ^ 1
}

/// `NEIGHBOUR[square][direction]`: the adjacent square on the Turkish board, or 64 at the edge.
pub(crate) const NEIGHBOUR: [[u8; 4]; 64] = {
    let mut table = [[64u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        if rank < 7 {
            table[sq][NORTH] = (sq + 8) as u8;
        }
        if rank > 0 {
            table[sq][SOUTH] = (sq - 8) as u8;
        }
        if file < 7 {
            table[sq][EAST] = (sq + 1) as u8;
        }
        if file > 0 {
            table[sq][WEST] = (sq - 1) as u8;
        }
        sq += 1;
    }
    table
};

/// `RAY[direction][square]`: the squares from `square` (not included) to the edge of the Turkish
/// board in `direction`.
pub(crate) const RAY: [[u64; 64]; 4] = {
    let mut table = [[0u64; 64]; 4];
    let mut direction = 0;
    while direction < 4 {
        let mut sq = 0;
        while sq < 64 {
            let mut next = NEIGHBOUR[sq][direction];
            while next != 64 {
                table[direction][sq] |= 1 << next;
                next = NEIGHBOUR[next as usize][direction];
            }
            sq += 1;
        }
        direction += 1;
    }
    table
};

/// Whether `direction` goes up the bit order (north and east) rather than down it.
pub(crate) const fn ascends(direction: usize) -> bool {
    direction == NORTH || direction == EAST
}

/// Rank 1 of the Turkish board, where Black's men promote.
pub(crate) const RANK_1: u64 = 0xFF;
/// Rank 8 of the Turkish board, where White's men promote.
pub(crate) const RANK_8: u64 = 0xFF << 56;
/// File a of the Turkish board.
pub(crate) const FILE_A: u64 = 0x0101_0101_0101_0101;
/// File h of the Turkish board.
pub(crate) const FILE_H: u64 = FILE_A << 7;

#[cfg(test)]
mod tests {
    use super::*;

    /// The square one step from `index` by `offset`, if that bit is a square of the board.
    fn step(index: u32, offset: i32, valid: u64) -> Option<u32> {
        let target = index as i32 + offset;
        ((0..64).contains(&target) && valid >> target & 1 != 0).then_some(target as u32)
    }

    #[test]
    fn padded_layouts_fit_and_have_the_right_number_of_squares() {
        assert_eq!(Board8::VALID.count_ones(), 32);
        assert_eq!(Board10::VALID.count_ones(), 50);
        assert_eq!(64 - Board8::VALID.leading_zeros(), 36);
        assert_eq!(64 - Board10::VALID.leading_zeros(), 55);
    }

    #[test]
    fn diagonal_steps_are_constant_shifts() {
        let bit = |n: u32| diagonal_bit(4, n - 1);
        // Italian 22 is d3: it steps up to c4 (18) and e4 (19).
        assert_eq!(step(bit(22), Board8::UP[0], Board8::VALID), Some(bit(18)));
        assert_eq!(step(bit(22), Board8::UP[1], Board8::VALID), Some(bit(19)));
        // 17 is a4, on the left edge: up-left falls on a ghost bit, up-right is b5 (13).
        assert_eq!(step(bit(17), Board8::UP[0], Board8::VALID), None);
        assert_eq!(step(bit(17), Board8::UP[1], Board8::VALID), Some(bit(13)));
        // 16 is h5, on the right edge: down-right is off the board, down-left is g4 (20).
        assert_eq!(step(bit(16), Board8::DOWN[1], Board8::VALID), None);
        assert_eq!(step(bit(16), Board8::DOWN[0], Board8::VALID), Some(bit(20)));
        // 29 is b1, on the bottom row: nothing below it.
        assert_eq!(step(bit(29), Board8::DOWN[0], Board8::VALID), None);
    }
}
