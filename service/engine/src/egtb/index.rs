//! [`Material`] (a material balance) and the index of a position in its balance's table.
//!
//! A table holds every arrangement of one balance, both sides to move. Each group of pieces (white
//! men, white kings, black men, black kings) is ranked on its own as a combination of the squares
//! it may stand on (men never on their promotion row), in the combinatorial number system; the
//! index is the side to move and the four ranks as one mixed-radix number. Groups are ranked
//! independently, so some indices put two pieces on one square: those entries are not positions
//! and hold [`super::file::INVALID`]. The waste is small (a few percent at five pieces) and buys
//! an index that costs four popcounts a group to compute.
//!
//! ```
//! use damiera_engine::egtb::Material;
//! use damiera_engine::{fen, Variant};
//! let position = fen::parse(Variant::Italian, "W:WK1,K2:BK32").unwrap();
//! let material = Material::of(&position);
//! assert_eq!(material.to_string(), "0201");
//! assert_eq!(material.pieces(), 3);
//! ```

use std::fmt;

use crate::{Bitboard, Color, Piece, PieceKind, Position, Square, Variant};

/// The most pieces a table may hold: the index is ranked from a table of binomials up to it.
pub const MAX_PIECES: u32 = 8;

/// How many pieces of each kind each side has: what a table is a table of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White's men.
    pub white_men: u8,
    /// White's kings.
    pub white_kings: u8,
    /// Black's men.
    pub black_men: u8,
    /// Black's kings.
    pub black_kings: u8,
}

impl Material {
    /// The balance of `position`.
    #[must_use]
    pub fn of(position: &Position) -> Material {
        let count = |color: Color, kings: bool| {
            let mask = if kings { position.kings() } else { position.men() };
            (position.pieces_of(color) & mask).count() as u8
        };
        Material {
            white_men: count(Color::White, false),
            white_kings: count(Color::White, true),
            black_men: count(Color::Black, false),
            black_kings: count(Color::Black, true),
        }
    }

    /// Pieces on the board.
    #[must_use]
    pub fn pieces(self) -> u32 {
        u32::from(self.white_men + self.white_kings + self.black_men + self.black_kings)
    }

    /// Men on the board: a promotion lowers it, so balances are solved in order of it.
    #[must_use]
    pub fn men(self) -> u32 {
        u32::from(self.white_men + self.black_men)
    }

    /// Every balance of 2 to `max_pieces` pieces with at least one piece a side, in the order
    /// they can be solved: a capture leads to fewer pieces, a promotion to fewer men.
    #[must_use]
    pub fn up_to(max_pieces: u32) -> Vec<Material> {
        let n = max_pieces.min(MAX_PIECES) as u8;
        let mut all = Vec::new();
        for wm in 0..=n {
            for wk in 0..=n - wm {
                for bm in 0..=n - wm - wk {
                    for bk in 0..=n - wm - wk - bm {
                        let material = Material { white_men: wm, white_kings: wk, black_men: bm, black_kings: bk };
                        if wm + wk > 0 && bm + bk > 0 {
                            all.push(material);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }

    /// The counts in index order: white men, white kings, black men, black kings.
    fn counts(self) -> [u8; 4] {
        [self.white_men, self.white_kings, self.black_men, self.black_kings]
    }
}

impl fmt::Display for Material {
    /// Four digits, white men, white kings, black men, black kings: `0201` is two white kings
    /// against a black king. The file of the balance is named so.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d] = self.counts();
        write!(f, "{a}{b}{c}{d}")
    }
}

impl std::str::FromStr for Material {
    type Err = ();

    fn from_str(text: &str) -> Result<Material, ()> {
        let digits: Vec<u8> = text.bytes().map(|b| b.wrapping_sub(b'0')).collect();
        match digits[..] {
            [a, b, c, d] if digits.iter().all(|&x| x <= 9) => {
                Ok(Material { white_men: a, white_kings: b, black_men: c, black_kings: d })
            }
            _ => Err(()),
        }
    }
}

/// `BINOMIAL[n][k]` = n choose k, for the boards' 64 squares and up to [`MAX_PIECES`] pieces.
const BINOMIAL: [[u64; MAX_PIECES as usize + 1]; 65] = {
    let mut table = [[0u64; MAX_PIECES as usize + 1]; 65];
    let mut n = 0;
    while n <= 64 {
        table[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES as usize {
            table[n][k] = if n == 0 { 0 } else { table[n - 1][k - 1] + table[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    table
};

/// One group of like pieces: where it may stand and how many arrangements it has.
#[derive(Clone, Debug)]
struct Group {
    /// The piece all of the group are.
    piece: Piece,
    /// How many there are.
    count: u32,
    /// The squares they may stand on.
    allowed: u64,
    /// Those squares in ascending order, for unranking.
    squares: Vec<Square>,
    /// Arrangements: `squares.len()` choose `count`.
    size: u64,
}

/// How one balance's positions are numbered.
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The variant, which fixes the squares.
    variant: Variant,
    /// The balance.
    material: Material,
    /// White men, white kings, black men, black kings.
    groups: [Group; 4],
    /// Entries for one side to move.
    per_side: u64,
}

impl Layout {
    /// The layout of `material` on `variant`'s board.
    pub(crate) fn new(variant: Variant, material: Material) -> Layout {
        let kinds = [
            (Color::White, PieceKind::Man),
            (Color::White, PieceKind::King),
            (Color::Black, PieceKind::Man),
            (Color::Black, PieceKind::King),
        ];
        let counts = material.counts();
        let groups = std::array::from_fn(|g| {
            let (color, kind) = kinds[g];
            let mut allowed = variant.board();
            if kind == PieceKind::Man {
                allowed &= !variant.promotion_row(color);
            }
            let squares: Vec<Square> = allowed.collect();
            let count = u32::from(counts[g]).min(MAX_PIECES);
            let size = BINOMIAL[squares.len()][count as usize];
            Group { piece: Piece { color, kind }, count, allowed: allowed.0, squares, size }
        });
        let per_side = groups.iter().map(|g: &Group| g.size).product();
        Layout { variant, material, groups, per_side }
    }

    /// The balance.
    pub(crate) fn material(&self) -> Material {
        self.material
    }

    /// Entries of the table: both sides to move.
    pub(crate) fn entries(&self) -> u64 {
        2 * self.per_side
    }

    /// The index of `position`, which must have this layout's variant and balance.
    #[inline]
    pub(crate) fn index(&self, position: &Position) -> u64 {
        let sets = [
            position.pieces_of(Color::White) & !position.kings(),
            position.pieces_of(Color::White) & position.kings(),
            position.pieces_of(Color::Black) & !position.kings(),
            position.pieces_of(Color::Black) & position.kings(),
        ];
        let mut index = u64::from(position.turn() == Color::Black);
        for (group, set) in self.groups.iter().zip(sets) {
            index = index * group.size + rank(group.allowed, set);
        }
        index
    }

    /// The position at `index`, or `None` where two groups share a square.
    pub(crate) fn position(&self, index: u64) -> Option<Position> {
        let mut rest = index;
        let mut sets = [Bitboard::EMPTY; 4];
        for (g, group) in self.groups.iter().enumerate().rev() {
            sets[g] = unrank(&group.squares, group.count, rest % group.size);
            rest /= group.size;
        }
        let turn = if rest == 0 { Color::White } else { Color::Black };
        let all = sets.iter().fold(0u64, |acc, s| acc | s.0);
        if all.count_ones() != sets.iter().map(|s| s.count()).sum::<u32>() {
            return None;
        }
        let pieces = self.groups.iter().zip(sets).flat_map(|(group, set)| set.map(move |sq| (sq, group.piece)));
        Position::from_pieces(self.variant, turn, pieces).ok()
    }
}

/// The rank of `set` (squares of `allowed`) among the combinations of its size, colex order.
#[inline]
fn rank(allowed: u64, set: Bitboard) -> u64 {
    let mut rank = 0;
    for (i, square) in set.enumerate() {
        let below = (allowed & ((1u64 << square.index()) - 1)).count_ones() as usize;
        rank += BINOMIAL[below][i + 1];
    }
    rank
}

/// The combination of `count` of `squares` whose colex rank is `rank`.
fn unrank(squares: &[Square], count: u32, mut rank: u64) -> Bitboard {
    let mut set = Bitboard::EMPTY;
    let mut top = squares.len();
    for k in (1..=count as usize).rev() {
        // The largest ordinal o with C(o, k) <= rank.
        let mut o = top - 1;
        while BINOMIAL[o][k] > rank {
            o -= 1;
        }
        rank -= BINOMIAL[o][k];
        set = set.with(squares[o]);
        top = o;
    }
    set
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_that_is_a_position_ranks_back_to_itself() {
        for variant in Variant::ALL {
            for material in Material::up_to(3) {
                let layout = Layout::new(variant, material);
                let mut positions = 0;
                for index in 0..layout.entries() {
                    if let Some(position) = layout.position(index) {
                        assert_eq!(Material::of(&position), material);
                        assert_eq!(layout.index(&position), index, "{variant} {material} {}", position.to_fen());
                        positions += 1;
                    }
                }
                assert!(positions > 0, "{variant} {material}");
            }
        }
    }

    #[test]
    fn balances_come_in_solving_order() {
        let all = Material::up_to(4);
        assert_eq!(all.len(), all.iter().collect::<std::collections::BTreeSet<_>>().len());
        assert_eq!(all[0].pieces(), 2);
        assert!(all.windows(2).all(|w| (w[0].pieces(), w[0].men()) <= (w[1].pieces(), w[1].men())));
        assert_eq!(
            "0201".parse::<Material>(),
            Ok(Material { white_men: 0, white_kings: 2, black_men: 0, black_kings: 1 })
        );
        assert_eq!("02a1".parse::<Material>(), Err(()));
    }
}
