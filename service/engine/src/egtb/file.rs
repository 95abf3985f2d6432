//! The files of one balance, read back memory-mapped: its values (`.wdl`, 2 bits an entry) and
//! its distances to conversion (`.dtc`, [`super::distance`]). Each is a 32-byte header, then the
//! data:
//!
//! ```text
//! offset  size  what
//!      0     8  magic: "DAMIEGTB" for values, "DAMIEDTC" for distances
//!      8     2  format version, little-endian (1)
//!     10     1  variant: 0 Italian, 1 Triestina, 2 Turkish
//!     11     4  the balance: white men, white kings, black men, black kings
//!     15     1  zero
//!     16     8  entries, little-endian
//!     24     8  FNV-1a 64 checksum of the data, little-endian
//!     32     …  values: entry i in bits 2(i mod 4)..2(i mod 4)+1 of data byte i / 4;
//!               distances: the compressed blocks of super::distance
//! ```
//!
//! Values are 0 draw, 1 win, 2 loss (for the side to move) and 3 not a position. Files are
//! written to a temporary name and renamed, so a file under its final name is complete; opening
//! checks the header against the name and the checksum against the data. A balance whose values
//! are there without distances (a folder built before they were) is read without them.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::distance;
use super::index::{Layout, Material};
use super::{EgtbError, Wdl};
use crate::Variant;

/// The format this code reads and writes, of both kinds of file.
const VERSION: u16 = 1;
/// Bytes before the data.
const HEADER: usize = 32;

/// The 2-bit code of a draw.
pub(crate) const DRAW: u8 = 0;
/// The 2-bit code of a win for the side to move.
pub(crate) const WIN: u8 = 1;
/// The 2-bit code of a loss for the side to move.
pub(crate) const LOSS: u8 = 2;
/// The 2-bit code of an index that is no position (two pieces on a square).
pub(crate) const INVALID: u8 = 3;

/// The two files of a balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Win, draw or loss, 2 bits an entry.
    Values,
    /// Distances to conversion, compressed.
    Distances,
}

impl Kind {
    fn magic(self) -> &'static [u8; 8] {
        match self {
            Kind::Values => b"DAMIEGTB",
            Kind::Distances => b"DAMIEDTC",
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Kind::Values => "wdl",
            Kind::Distances => "dtc",
        }
    }

    /// Why `data` is not this kind's data for a table of `entries`, if it is not.
    fn check(self, data: &[u8], entries: u64) -> Result<(), String> {
        match self {
            Kind::Values if data.len() as u64 != entries.div_ceil(4) => {
                Err(format!("{} data bytes, expected {}", data.len(), entries.div_ceil(4)))
            }
            Kind::Values => Ok(()),
            Kind::Distances => distance::check(data, entries),
        }
    }
}

/// Where a file's bytes live.
enum Bytes {
    /// Built in this process.
    Owned(Vec<u8>),
    /// A file, memory-mapped; the header included.
    Mapped(Mmap),
}

impl Bytes {
    /// The data: after the header, for a mapped file.
    fn data(&self) -> &[u8] {
        match self {
            Bytes::Owned(data) => data,
            Bytes::Mapped(map) => &map[HEADER..],
        }
    }
}

/// One balance's values, and its distances when they were built, probed by index.
pub(crate) struct Table {
    /// How its positions are numbered.
    pub(crate) layout: Layout,
    /// The packed values.
    values: Bytes,
    /// The compressed distances, if there are any.
    distances: Option<Bytes>,
}

impl Table {
    /// A table from values packed by [`pack`] and distances compressed by [`distance::compress`].
    pub(crate) fn owned(layout: Layout, packed: Vec<u8>, distances: Vec<u8>) -> Table {
        Table { layout, values: Bytes::Owned(packed), distances: Some(Bytes::Owned(distances)) }
    }

    /// The packed values.
    pub(crate) fn data(&self) -> &[u8] {
        self.values.data()
    }

    /// Whether the table has its distances.
    pub(crate) fn has_distances(&self) -> bool {
        self.distances.is_some()
    }

    /// The distance to conversion of entry `index`, if the table has distances (0 for a draw).
    pub(crate) fn distance(&self, index: u64) -> Option<u8> {
        distance::get(self.distances.as_ref()?.data(), self.layout.entries(), index)
    }

    /// The 2-bit code of entry `index`.
    #[inline]
    pub(crate) fn code(&self, index: u64) -> u8 {
        let byte = self.data()[(index / 4) as usize];
        (byte >> ((index % 4) * 2)) & 3
    }

    /// The value of entry `index`, `None` if it is not a position.
    #[inline]
    pub(crate) fn value(&self, index: u64) -> Option<Wdl> {
        decode(self.code(index))
    }
}

/// The value a 2-bit code stands for.
pub(crate) fn decode(code: u8) -> Option<Wdl> {
    match code {
        DRAW => Some(Wdl::Draw),
        WIN => Some(Wdl::Win),
        LOSS => Some(Wdl::Loss),
        _ => None,
    }
}

/// Codes, one a byte, packed four a byte.
pub(crate) fn pack(codes: &[u8]) -> Vec<u8> {
    codes.chunks(4).map(|c| c.iter().enumerate().fold(0u8, |byte, (i, &code)| byte | (code & 3) << (2 * i))).collect()
}

/// The folder of `variant`'s files under `dir`.
pub(crate) fn variant_dir(dir: &Path, variant: Variant) -> PathBuf {
    dir.join(variant.name())
}

/// The file of `material`'s `kind` under `dir`: `DIR/italian/0201.wdl`, `DIR/italian/0201.dtc`.
fn path(dir: &Path, variant: Variant, material: Material, kind: Kind) -> PathBuf {
    variant_dir(dir, variant).join(format!("{material}.{}", kind.extension()))
}

fn variant_code(variant: Variant) -> u8 {
    match variant {
        Variant::Italian => 0,
        Variant::Triestina => 1,
        Variant::Turkish => 2,
    }
}

/// FNV-1a, 64 bits: enough to catch a truncated or damaged file, and no dependency.
fn checksum(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

fn header(kind: Kind, variant: Variant, layout: &Layout, data: &[u8]) -> [u8; HEADER] {
    let m = layout.material();
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(kind.magic());
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10] = variant_code(variant);
    header[11..15].copy_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    header[16..24].copy_from_slice(&layout.entries().to_le_bytes());
    header[24..32].copy_from_slice(&checksum(data).to_le_bytes());
    header
}

/// Writes `table` under `dir`: its values, and its distances first if it has them (a
/// balance's values without distances are taken for a build of before distances).
pub(crate) fn write(dir: &Path, variant: Variant, table: &Table) -> Result<PathBuf, EgtbError> {
    if let Some(distances) = &table.distances {
        write_file(dir, variant, &table.layout, Kind::Distances, distances.data())?;
    }
    write_file(dir, variant, &table.layout, Kind::Values, table.data())
}

/// Writes one file, atomically: a temporary file in the same folder, flushed to disk, then
/// renamed over the final name.
fn write_file(dir: &Path, variant: Variant, layout: &Layout, kind: Kind, data: &[u8]) -> Result<PathBuf, EgtbError> {
    let final_path = path(dir, variant, layout.material(), kind);
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EgtbError::Io { path, source }
    };
    fs::create_dir_all(variant_dir(dir, variant)).map_err(io_error(&variant_dir(dir, variant)))?;
    let temporary = final_path.with_extension(format!("{}.tmp{}", kind.extension(), std::process::id()));
    let write = || -> io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(&header(kind, variant, layout, data))?;
        file.write_all(data)?;
        file.sync_all()
    };
    if let Err(source) = write() {
        let _ = fs::remove_file(&temporary);
        return Err(EgtbError::Io { path: temporary, source });
    }
    fs::rename(&temporary, &final_path).map_err(io_error(&final_path))?;
    Ok(final_path)
}

/// Opens the files of `material`, memory-mapped, and checks them: `Ok(None)` if there are no
/// values, a table without distances if there are values only.
pub(crate) fn open(dir: &Path, variant: Variant, material: Material) -> Result<Option<Table>, EgtbError> {
    let layout = Layout::new(variant, material);
    let Some(values) = map(dir, variant, &layout, Kind::Values)? else { return Ok(None) };
    let distances = map(dir, variant, &layout, Kind::Distances)?;
    Ok(Some(Table { layout, values: Bytes::Mapped(values), distances: distances.map(Bytes::Mapped) }))
}

/// Maps the file of `layout`'s `kind` and checks it: `Ok(None)` if there is none.
fn map(dir: &Path, variant: Variant, layout: &Layout, kind: Kind) -> Result<Option<Mmap>, EgtbError> {
    let path = path(dir, variant, layout.material(), kind);
    let file = match fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(EgtbError::Io { path, source }),
    };
    // SAFETY: the map is read-only, and the files are written once under a temporary name and
    // renamed; a process that truncated one under us would be breaking the folder's contract.
    let map = unsafe { Mmap::map(&file) }.map_err(|source| EgtbError::Io { path: path.clone(), source })?;
    let corrupt = |reason: String| EgtbError::Corrupt { path: path.clone(), reason };
    if map.len() < HEADER || &map[..8] != kind.magic() {
        return Err(corrupt("not an endgame database file of its kind".into()));
    }
    let version = u16::from_le_bytes([map[8], map[9]]);
    if version != VERSION {
        return Err(corrupt(format!("format version {version}, this build reads {VERSION}")));
    }
    let data = &map[HEADER..];
    let expected = header(kind, variant, layout, data);
    if map[10..24] != expected[10..24] {
        return Err(corrupt(format!("the header is not that of {variant} {}", layout.material())));
    }
    kind.check(data, layout.entries()).map_err(corrupt)?;
    if map[24..32] != expected[24..32] {
        return Err(corrupt("checksum mismatch".into()));
    }
    Ok(Some(map))
}
