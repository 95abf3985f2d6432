//! The file of one balance: a 32-byte header, then 2 bits an entry, read back memory-mapped.
//!
//! ```text
//! offset  size  what
//!      0     8  magic "DAMIEGTB"
//!      8     2  format version, little-endian (1)
//!     10     1  variant: 0 Italian, 1 Triestina, 2 Turkish
//!     11     4  the balance: white men, white kings, black men, black kings
//!     15     1  zero
//!     16     8  entries, little-endian
//!     24     8  FNV-1a 64 checksum of the data, little-endian
//!     32     …  entry i in bits 2(i mod 4)..2(i mod 4)+1 of data byte i / 4
//! ```
//!
//! Values are 0 draw, 1 win, 2 loss (for the side to move) and 3 not a position. Files are
//! written to a temporary name and renamed, so a file under its final name is complete; opening
//! checks the header against the name and the checksum against the data.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use super::index::{Layout, Material};
use super::{EgtbError, Wdl};
use crate::Variant;

/// The first bytes of every file.
const MAGIC: &[u8; 8] = b"DAMIEGTB";
/// The format this code reads and writes.
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

/// Where a table's bytes live.
enum Bytes {
    /// Built in this process.
    Owned(Vec<u8>),
    /// A file, memory-mapped; the header included.
    Mapped(Mmap),
}

/// One balance's values, probed by index.
pub(crate) struct Table {
    /// How its positions are numbered.
    pub(crate) layout: Layout,
    /// The packed values (after the header, for a mapped file).
    bytes: Bytes,
}

impl Table {
    /// A table from values packed by [`pack`].
    pub(crate) fn owned(layout: Layout, packed: Vec<u8>) -> Table {
        Table { layout, bytes: Bytes::Owned(packed) }
    }

    /// The packed values.
    pub(crate) fn data(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Owned(data) => data,
            Bytes::Mapped(map) => &map[HEADER..],
        }
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

/// The file of `material` under `dir`: `DIR/italian/0201.wdl`.
pub(crate) fn path(dir: &Path, variant: Variant, material: Material) -> PathBuf {
    variant_dir(dir, variant).join(format!("{material}.wdl"))
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

fn header(variant: Variant, layout: &Layout, data: &[u8]) -> [u8; HEADER] {
    let m = layout.material();
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..10].copy_from_slice(&VERSION.to_le_bytes());
    header[10] = variant_code(variant);
    header[11..15].copy_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    header[16..24].copy_from_slice(&layout.entries().to_le_bytes());
    header[24..32].copy_from_slice(&checksum(data).to_le_bytes());
    header
}

/// Writes `table` under `dir`, atomically: a temporary file in the same folder, flushed to
/// disk, then renamed over the final name.
pub(crate) fn write(dir: &Path, variant: Variant, table: &Table) -> Result<PathBuf, EgtbError> {
    let final_path = path(dir, variant, table.layout.material());
    let io_error = |path: &Path| {
        let path = path.to_path_buf();
        move |source| EgtbError::Io { path, source }
    };
    fs::create_dir_all(variant_dir(dir, variant)).map_err(io_error(&variant_dir(dir, variant)))?;
    let temporary = final_path.with_extension(format!("wdl.tmp{}", std::process::id()));
    let write = || -> io::Result<()> {
        let mut file = fs::File::create(&temporary)?;
        file.write_all(&header(variant, &table.layout, table.data()))?;
        file.write_all(table.data())?;
        file.sync_all()
    };
    if let Err(source) = write() {
        let _ = fs::remove_file(&temporary);
        return Err(EgtbError::Io { path: temporary, source });
    }
    fs::rename(&temporary, &final_path).map_err(io_error(&final_path))?;
    Ok(final_path)
}

/// Opens the file of `material`, memory-mapped, and checks it: `Ok(None)` if there is none.
pub(crate) fn open(dir: &Path, variant: Variant, material: Material) -> Result<Option<Table>, EgtbError> {
    let path = path(dir, variant, material);
    let file = match fs::File::open(&path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(EgtbError::Io { path, source }),
    };
    // SAFETY: the map is read-only, and the files are written once under a temporary name and
    // renamed; a process that truncated one under us would be breaking the folder's contract.
    let map = unsafe { Mmap::map(&file) }.map_err(|source| EgtbError::Io { path: path.clone(), source })?;
    let layout = Layout::new(variant, material);
    let corrupt = |reason: String| EgtbError::Corrupt { path: path.clone(), reason };
    if map.len() < HEADER || &map[..8] != MAGIC {
        return Err(corrupt("not an endgame database file".into()));
    }
    let version = u16::from_le_bytes([map[8], map[9]]);
    if version != VERSION {
        return Err(corrupt(format!("format version {version}, this build reads {VERSION}")));
    }
    let data = &map[HEADER..];
    let expected = header(variant, &layout, data);
    if map[10..24] != expected[10..24] {
        return Err(corrupt(format!("the header is not that of {variant} {material}")));
    }
    if data.len() as u64 != layout.entries().div_ceil(4) {
        return Err(corrupt(format!("{} data bytes, expected {}", data.len(), layout.entries().div_ceil(4))));
    }
    if map[24..32] != expected[24..32] {
        return Err(corrupt("checksum mismatch".into()));
    }
    Ok(Some(Table { layout, bytes: Bytes::Mapped(map) }))
}
