//! Distances to conversion: for each won or lost entry, the plies to the next capture, promotion
//! or end of the game with best play, the winner hurrying and the loser delaying. A database
//! holds no distances to the end of the game, but a win played by them never stalls: each move
//! to a child one ply nearer its conversion brings the conversion closer, and the conversion
//! leads to a smaller balance, still won, with distances of its own.
//!
//! They are compressed by blocks of [`BLOCK`] entries (deflate, zlib framing: each block carries
//! its own checksum), so that one entry is read by inflating one block. The bytes:
//!
//! ```text
//!  8 × (blocks + 1)  where each block starts, from the first block's first byte, and where the
//!                    last one ends (little-endian)
//!  …                 the blocks, one byte an entry when inflated (0 for draws and non-positions)
//! ```

use std::io::{Read, Write};

use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use rayon::prelude::*;

/// Entries a block holds (the last one may hold fewer): about 3 KiB compressed, and a few
/// microseconds to inflate.
pub(crate) const BLOCK: usize = 1 << 14;

/// Compresses one byte an entry into the layout above.
pub(crate) fn compress(distances: &[u8]) -> Vec<u8> {
    let blocks: Vec<Vec<u8>> = distances
        .par_chunks(BLOCK)
        .map(|block| {
            let mut encoder = ZlibEncoder::new(Vec::with_capacity(block.len() / 4), Compression::default());
            encoder.write_all(block).expect("writing to memory does not fail");
            encoder.finish().expect("writing to memory does not fail")
        })
        .collect();
    let mut bytes = Vec::with_capacity(8 * (blocks.len() + 1) + blocks.iter().map(Vec::len).sum::<usize>());
    let mut offset = 0u64;
    for block in &blocks {
        bytes.extend_from_slice(&offset.to_le_bytes());
        offset += block.len() as u64;
    }
    bytes.extend_from_slice(&offset.to_le_bytes());
    for block in &blocks {
        bytes.extend_from_slice(block);
    }
    bytes
}

/// Why compressed distances do not fit a table of `entries` entries, if they do not: the block
/// index is checked (each block's contents are checked when it is read).
pub(crate) fn check(bytes: &[u8], entries: u64) -> Result<(), String> {
    let blocks = entries.div_ceil(BLOCK as u64) as usize;
    let index_bytes = 8 * (blocks + 1);
    if bytes.len() < index_bytes {
        return Err(format!("{} bytes of distances, too few for {blocks} blocks", bytes.len()));
    }
    let offsets: Vec<u64> = (0..=blocks).map(|b| offset(bytes, b)).collect();
    if offsets[0] != 0 || offsets.windows(2).any(|w| w[0] > w[1]) {
        return Err("the distances' block index is out of order".into());
    }
    if offsets[blocks] != (bytes.len() - index_bytes) as u64 {
        return Err(format!(
            "the distances' blocks end at {}, the file at {}",
            offsets[blocks],
            bytes.len() - index_bytes
        ));
    }
    Ok(())
}

/// Entry `index`'s distance, from bytes of a table of `entries` entries that passed [`check`];
/// `None` if its block does not inflate to its length (a damaged file).
pub(crate) fn get(bytes: &[u8], entries: u64, index: u64) -> Option<u8> {
    let blocks = entries.div_ceil(BLOCK as u64) as usize;
    let block = (index / BLOCK as u64) as usize;
    let base = 8 * (blocks + 1);
    let range = base + offset(bytes, block) as usize..base + offset(bytes, block + 1) as usize;
    let length = (entries - (block * BLOCK) as u64).min(BLOCK as u64) as usize;
    let mut inflated = Vec::with_capacity(length);
    ZlibDecoder::new(&bytes[range]).take(length as u64 + 1).read_to_end(&mut inflated).ok()?;
    (inflated.len() == length).then(|| inflated[(index % BLOCK as u64) as usize])
}

/// Where block `block` starts (or, for one past the last, where the blocks end).
fn offset(bytes: &[u8], block: usize) -> u64 {
    let at = 8 * block;
    u64::from_le_bytes(bytes[at..at + 8].try_into().expect("eight bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_reads_back_across_blocks() {
        let entries = 2 * BLOCK + 123;
        let distances: Vec<u8> = (0..entries).map(|i| (i * 7 % 113) as u8).collect();
        let bytes = compress(&distances);
        assert_eq!(check(&bytes, entries as u64), Ok(()));
        for index in [0, 1, BLOCK - 1, BLOCK, 2 * BLOCK, entries - 1] {
            assert_eq!(get(&bytes, entries as u64, index as u64), Some(distances[index]), "entry {index}");
        }
    }

    #[test]
    fn damaged_bytes_are_refused_not_misread() {
        let distances = vec![5u8; BLOCK + 1];
        let mut bytes = compress(&distances);
        assert!(check(&bytes[..bytes.len() - 1], distances.len() as u64).is_err());
        assert!(check(&bytes, 3 * BLOCK as u64).is_err());
        let last = bytes.len() - 1;
        bytes[last] ^= 0xff; // the second block's checksum
        assert_eq!(get(&bytes, distances.len() as u64, BLOCK as u64), None);
        assert_eq!(get(&bytes, distances.len() as u64, 0), Some(5));
    }
}
