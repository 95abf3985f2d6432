//! [`Position`]: a checked arrangement of pieces with the side to move and its Zobrist hash.
//!
//! Positions are small `Copy` values: [`Position::play`] returns the next position and leaves this
//! one as it was, so undoing a move is going back to the previous value.
//!
//! ```
//! use damiera_engine::{Position, Variant};
//! let start = Position::start(Variant::Turkish);
//! let after = start.play_notation("e3-e4").unwrap();
//! assert_eq!(after.to_fen(), "B:Wa2,a3,b2,b3,c2,c3,d2,d3,e2,e4,f2,f3,g2,g3,h2,h3:Ba6,a7,b6,b7,c6,c7,d6,d7,e6,e7,f6,f7,g6,g7,h6,h7");
//! assert_ne!(start.hash(), after.hash());
//! ```

use crate::{movegen, zobrist, Bitboard, Color, Move, Piece, PieceKind, RuleFamily, Square, Variant};

/// A legal arrangement of pieces on a variant's board, with the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Which game this is; fixes the board layout and the rules.
    variant: Variant,
    /// Squares holding a piece of each colour: `[white, black]`.
    by_color: [Bitboard; 2],
    /// Squares holding a king of either colour.
    kings: Bitboard,
    /// The player to move.
    turn: Color,
    /// Zobrist hash of pieces and side to move, kept up to date by every move.
    hash: u64,
}

/// Why a set of pieces is not a position of its variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A bit index that is not a playable square of the variant's board.
    #[error("bit {index} is not a square of the {variant} board")]
    OffBoard {
        /// The bit index given.
        index: u32,
        /// The variant.
        variant: Variant,
    },
    /// Two pieces given for one square.
    #[error("square '{0}' is listed twice")]
    DuplicateSquare(String),
    /// A man standing where it would already have been promoted.
    #[error("a {color} man on '{square}' stands on its promotion row")]
    ManOnPromotionRow {
        /// The man's colour.
        color: Color,
        /// The square's name.
        square: String,
    },
    /// More pieces for one side than the variant gives a player.
    #[error("{color} has {count} pieces, more than the {max} of {variant}")]
    TooManyPieces {
        /// The side with too many pieces.
        color: Color,
        /// How many it has.
        count: u32,
        /// The variant's limit.
        max: u32,
        /// The variant.
        variant: Variant,
    },
}

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{notation} is not a legal move")]
pub struct IllegalMove {
    /// The move as written.
    pub notation: String,
}

impl Position {
    /// The variant's start position, White to move.
    #[must_use]
    pub fn start(variant: Variant) -> Position {
        // Read once per variant: servers ask for the start position on most requests.
        static STARTS: std::sync::OnceLock<[Position; 3]> = std::sync::OnceLock::new();
        let starts = STARTS
            .get_or_init(|| Variant::ALL.map(|v| crate::fen::parse(v, v.start_fen()).expect("start FEN is valid")));
        starts[Variant::ALL.iter().position(|&v| v == variant).expect("a known variant")]
    }

    /// Builds a position from pieces, checking it as RULES.md section 1 asks.
    pub fn from_pieces(
        variant: Variant,
        turn: Color,
        pieces: impl IntoIterator<Item = (Square, Piece)>,
    ) -> Result<Position, SetupError> {
        let mut position = Position { variant, by_color: [Bitboard::EMPTY; 2], kings: Bitboard::EMPTY, turn, hash: 0 };
        for (square, piece) in pieces {
            check_piece(variant, square, piece)?;
            if position.occupied().contains(square) {
                return Err(SetupError::DuplicateSquare(variant.square_name(square)));
            }
            position.put(square, piece);
        }
        for color in Color::ALL {
            let count = position.pieces_of(color).count();
            let max = variant.men_per_side();
            if count > max {
                return Err(SetupError::TooManyPieces { color, count, max, variant });
            }
        }
        position.hash = position.compute_hash();
        Ok(position)
    }

    fn put(&mut self, square: Square, piece: Piece) {
        self.by_color[piece.color.index()] |= Bitboard::from_square(square);
        if piece.kind == PieceKind::King {
            self.kings |= Bitboard::from_square(square);
        }
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The player to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash, kept incrementally.
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash computed from scratch; always equal to [`Position::hash`].
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        self.pieces().fold(zobrist::turn_key(self.turn), |h, (sq, piece)| h ^ zobrist::piece_key(piece, sq))
    }

    /// Squares holding `color`'s pieces.
    #[must_use]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding kings of either colour.
    #[must_use]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Squares holding men of either colour.
    #[must_use]
    pub fn men(&self) -> Bitboard {
        self.occupied() & !self.kings
    }

    /// Squares holding any piece.
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Playable squares with no piece.
    #[must_use]
    pub fn empty(&self) -> Bitboard {
        self.variant.board() & !self.occupied()
    }

    /// The piece on `square`, if any.
    #[must_use]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        let color = Color::ALL.into_iter().find(|c| self.pieces_of(*c).contains(square))?;
        let kind = if self.kings.contains(square) { PieceKind::King } else { PieceKind::Man };
        Some(Piece { color, kind })
    }

    /// Every piece with its square, White's first, each colour in ascending square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            self.pieces_of(color).map(move |sq| {
                let kind = if self.kings.contains(sq) { PieceKind::King } else { PieceKind::Man };
                (sq, Piece { color, kind })
            })
        })
    }

    /// The legal moves, captures merged by (start, end, captured set), in the engine's fixed order.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        movegen::legal_moves(self, &mut moves);
        moves
    }

    /// Whether the side to move must capture.
    #[must_use]
    pub fn must_capture(&self) -> bool {
        movegen::has_capture(self)
    }

    /// The legal move `mv` stands for (same start, end, captured set and promotion), written
    /// with the path the engine uses.
    pub fn legal_move(&self, mv: &Move) -> Result<Move, IllegalMove> {
        let found =
            self.legal_moves().into_iter().find(|legal| legal.same_move(mv) && legal.promotes() == mv.promotes());
        found.ok_or_else(|| IllegalMove { notation: crate::notation::write(self.variant, mv) })
    }

    /// Plays `mv` if it is one of the legal moves.
    pub fn play(&self, mv: &Move) -> Result<Position, IllegalMove> {
        self.legal_move(mv).map(|legal| self.play_unchecked(&legal))
    }

    /// Reads a move in the variant's notation and plays it.
    pub fn play_notation(&self, text: &str) -> Result<Position, crate::NotationError> {
        let mv = crate::notation::parse(self, text)?;
        Ok(self.play_unchecked(&mv))
    }

    /// Plays a move known to be legal here (one of [`Position::legal_moves`]) without checking it.
    #[must_use]
    #[inline(always)] // perft and search call it once per node: measured, inlining pays
    pub fn play_unchecked(&self, mv: &Move) -> Position {
        let us = self.turn;
        let them = us.opposite();
        let (from, to) = (mv.from(), mv.to());
        let kind = |is_king: bool| if is_king { PieceKind::King } else { PieceKind::Man };
        let was_king = self.kings.contains(from);
        let is_king = was_king || mv.promotes();
        let captured = mv.captured();

        let mut hash = self.hash
            ^ zobrist::SIDE_TO_MOVE
            ^ zobrist::piece_key(Piece { color: us, kind: kind(was_king) }, from)
            ^ zobrist::piece_key(Piece { color: us, kind: kind(is_king) }, to);
        for square in captured {
            hash ^= zobrist::piece_key(Piece { color: them, kind: kind(self.kings.contains(square)) }, square);
        }
        let mut next = *self;
        // Captured squares are cleared first: a sequence may end on a square it emptied earlier.
        next.by_color[them.index()] = self.by_color[them.index()] & !captured;
        next.kings = (self.kings & !captured).without(from);
        if is_king {
            next.kings = next.kings.with(to);
        }
        next.by_color[us.index()] = self.by_color[us.index()].without(from).with(to);
        next.turn = them;
        next.hash = hash;
        next
    }

    /// Whether playing `mv` here means no earlier position can occur again: a capture removes
    /// pieces for good, and a man never comes back to a rank it has left (men step forward, and in
    /// Dama Turca also sideways, which keeps the rank and can be undone). King moves can be undone.
    #[must_use]
    pub fn is_irreversible(&self, mv: &Move) -> bool {
        if mv.is_capture() {
            return true;
        }
        if self.kings.contains(mv.from()) {
            return false;
        }
        match self.variant.family() {
            RuleFamily::Diagonal => true, // every step of a man is forward
            RuleFamily::Orthogonal => mv.from().index() / 8 != mv.to().index() / 8,
        }
    }

    /// The same pieces with `turn` to move.
    #[must_use]
    pub fn with_turn(&self, turn: Color) -> Position {
        let mut next = *self;
        next.turn = turn;
        next.hash = self.hash ^ zobrist::turn_key(self.turn) ^ zobrist::turn_key(turn);
        next
    }

    /// The position in canonical FEN.
    #[must_use]
    pub fn to_fen(&self) -> String {
        crate::fen::write(self)
    }
}

/// Whether `piece` may stand on `square` of `variant`'s board (RULES.md 1): a playable square, and
/// not a man on its promotion row.
pub(crate) fn check_piece(variant: Variant, square: Square, piece: Piece) -> Result<(), SetupError> {
    if !variant.board().contains(square) {
        return Err(SetupError::OffBoard { index: square.index(), variant });
    }
    if piece.kind == PieceKind::Man && variant.promotion_row(piece.color).contains(square) {
        return Err(SetupError::ManOnPromotionRow { color: piece.color, square: variant.square_name(square) });
    }
    Ok(())
}
