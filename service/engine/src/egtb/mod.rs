//! Endgame databases: win, draw or loss for every position with few pieces, and each win's and
//! loss's distance to conversion, computed by retrograde analysis over the engine's own move
//! generator, kept in files per material balance and read back memory-mapped.
//!
//! [`build`] solves a variant up to a number of pieces (in memory, or into a folder, resumably);
//! [`Tablebase::open`] maps a folder's files; [`Tablebase::probe`] answers a position and
//! [`Tablebase::distance`] its plies to conversion. The search probes through
//! [`crate::search::Options::tablebase`].
//!
//! ```
//! use damiera_engine::egtb::{self, Wdl};
//! use damiera_engine::{fen, Variant};
//! // Italian, every position of up to three pieces, in memory (a second or so).
//! let tablebase = egtb::build(Variant::Italian, 3, None, |_| {}).unwrap();
//! // Two kings against one: White wins. (With the lone king to move and a capture, it is a draw.)
//! let position = fen::parse(Variant::Italian, "W:WK1,K10:BK28").unwrap();
//! assert_eq!(tablebase.probe(&position), Some(Wdl::Win));
//! ```

mod build;
mod distance;
mod file;
mod index;

use std::fmt;
use std::path::{Path, PathBuf};

pub use build::{build, BuildEvent};
pub use index::{Material, MAX_PIECES};

use crate::{Color, Outcome, Position, Variant};
use file::Table;

/// A database value, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move can force a win.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The opponent can force a win.
    Loss,
}

impl Wdl {
    /// The value for the other player.
    #[must_use]
    pub fn opposite(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }

    /// What a decided `outcome` is worth to `turn`, the side to move.
    #[must_use]
    pub fn of_outcome(outcome: Outcome, turn: Color) -> Wdl {
        match outcome {
            Outcome::Win { winner, .. } if winner == turn => Wdl::Win,
            Outcome::Win { .. } => Wdl::Loss,
            Outcome::Draw { .. } | Outcome::Ongoing => Wdl::Draw,
        }
    }

    /// `win`, `draw` or `loss`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a database could not be built or read.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    /// A file or folder could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file that is not a complete database file of its name.
    #[error("{}: damaged endgame database file ({reason}); delete it and build again", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A piece count the builder does not take.
    #[error("endgame databases are built for 2 to {MAX_PIECES} pieces, not {0}")]
    Pieces(u32),
    /// A balance too large for a table's 32-bit child indices.
    #[error("balance {material} has {entries} entries, more than a table holds")]
    TooLarge {
        /// The balance.
        material: Material,
        /// Its entries.
        entries: u64,
    },
    /// A smaller balance was needed and is not there (a bug in the solving order).
    #[error("balance {0} is needed and was not solved first")]
    MissingBalance(Material),
    /// A distance to conversion longer than a byte holds.
    #[error("balance {material} has a conversion {plies} plies away, more than the 255 a file holds")]
    DistanceTooLong {
        /// The balance.
        material: Material,
        /// The longest distance found.
        plies: u32,
    },
}

/// The number of slots of the table of balances: counts up to 9 each, four decimal digits.
const SLOTS: usize = 10_000;

/// A variant's endgame databases: the tables of the balances built or found, probed by position.
pub struct Tablebase {
    /// The variant all the tables are of.
    variant: Variant,
    /// The tables, by [`slot`] of their balance.
    tables: Vec<Option<Box<Table>>>,
    /// The most pieces of any table held: positions with more are not probed.
    max_pieces: u32,
}

impl fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tablebase")
            .field("variant", &self.variant)
            .field("balances", &self.materials().len())
            .field("max_pieces", &self.max_pieces)
            .finish()
    }
}

/// Where `material`'s table sits in [`Tablebase::tables`], if its counts fit.
fn slot(material: Material) -> Option<usize> {
    let m = material;
    let counts = [m.white_men, m.white_kings, m.black_men, m.black_kings];
    counts.iter().all(|&c| c <= 9).then(|| counts.iter().fold(0, |acc, &c| acc * 10 + usize::from(c)))
}

impl Tablebase {
    /// No tables: every probe but of a position its material decides answers `None`.
    #[must_use]
    pub fn empty(variant: Variant) -> Tablebase {
        Tablebase { variant, tables: (0..SLOTS).map(|_| None).collect(), max_pieces: 0 }
    }

    /// Maps every table of `variant` in `dir` (the files `dir/<variant>/<balance>.wdl`). A
    /// missing folder is an empty set; a damaged file is an error that names it.
    pub fn open(dir: &Path, variant: Variant) -> Result<Tablebase, EgtbError> {
        let mut tablebase = Tablebase::empty(variant);
        let folder = file::variant_dir(dir, variant);
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(tablebase),
            Err(source) => return Err(EgtbError::Io { path: folder, source }),
        };
        let mut materials = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|source| EgtbError::Io { path: folder.clone(), source })?;
            let name = entry.file_name();
            let material = name.to_str().and_then(|n| n.strip_suffix(".wdl")).and_then(|n| n.parse::<Material>().ok());
            if let Some(material) = material.filter(|m| m.pieces() <= MAX_PIECES) {
                materials.push(material);
            }
        }
        materials.sort();
        for material in materials {
            if let Some(table) = file::open(dir, variant, material)? {
                tablebase.insert(table);
            }
        }
        Ok(tablebase)
    }

    pub(crate) fn insert(&mut self, table: Table) {
        let material = table.layout.material();
        if let Some(slot) = slot(material) {
            self.max_pieces = self.max_pieces.max(material.pieces());
            self.tables[slot] = Some(Box::new(table));
        }
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most pieces of any balance held.
    #[must_use]
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The balances held, in solving order.
    #[must_use]
    pub fn materials(&self) -> Vec<Material> {
        let mut all: Vec<Material> = self.tables.iter().flatten().map(|t| t.layout.material()).collect();
        all.sort_by_key(|m| (m.pieces(), m.men(), *m));
        all
    }

    /// Bytes of values held (files without their headers).
    #[must_use]
    pub fn data_bytes(&self) -> u64 {
        self.tables.iter().flatten().map(|t| t.data().len() as u64).sum()
    }

    /// The value of `position` for its side to move: what its material decides (no pieces, the
    /// Turkish material endings), else its table's entry; `None` when no table holds it.
    #[inline]
    #[must_use]
    pub fn probe(&self, position: &Position) -> Option<Wdl> {
        if position.variant() != self.variant {
            return None;
        }
        if position.occupied().count() > self.max_pieces {
            return position.material_outcome().map(|o| Wdl::of_outcome(o, position.turn()));
        }
        if let Some(outcome) = position.material_outcome() {
            return Some(Wdl::of_outcome(outcome, position.turn()));
        }
        let table = self.tables[slot(Material::of(position))?].as_ref()?;
        table.value(table.layout.index(position))
    }

    /// The plies from `position` to its conversion (the next capture, promotion or end of the
    /// game) with best play, the winner hurrying and the loser delaying, when the databases hold
    /// it as a win or a loss and have its balance's distances: 0 for a position with no move or
    /// decided by its material. A draw has none.
    #[must_use]
    pub fn distance(&self, position: &Position) -> Option<u32> {
        match self.probe(position)? {
            Wdl::Draw => None,
            _ if position.material_outcome().is_some() => Some(0),
            _ => {
                let table = self.tables[slot(Material::of(position))?].as_ref()?;
                table.distance(table.layout.index(position)).map(u32::from)
            }
        }
    }

    /// Whether every balance held has its distances (a folder built before they were has none).
    #[must_use]
    pub fn has_distances(&self) -> bool {
        self.tables.iter().flatten().all(|table| table.has_distances())
    }

    /// Every position of `material`'s table with its value, in index order; empty if the table
    /// is not held.
    pub fn positions(&self, material: Material) -> impl Iterator<Item = (Position, Wdl)> + '_ {
        let table = slot(material).and_then(|s| self.tables[s].as_deref());
        let entries = table.map_or(0, |t| t.layout.entries());
        (0..entries).filter_map(move |index| {
            let table = table.expect("entries > 0 only with a table");
            Some((table.layout.position(index)?, table.value(index)?))
        })
    }

    /// Writes every table held to `dir`, as [`build`] does: for a table built in memory.
    pub fn write(&self, dir: &Path) -> Result<(), EgtbError> {
        for table in self.tables.iter().flatten() {
            file::write(dir, self.variant, table)?;
        }
        Ok(())
    }
}

/// The databases' default folder: `$XDG_DATA_HOME/damiera/egtb`, or `~/.local/share/damiera/egtb`
/// when that is not set; `None` without a home folder either.
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    let data_home = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()).map(PathBuf::from).or_else(|| {
        std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| PathBuf::from(h).join(".local/share"))
    })?;
    Some(data_home.join("damiera").join("egtb"))
}
