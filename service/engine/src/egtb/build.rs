//! Retrograde analysis: the value of every position of a balance, from the engine's own moves.
//!
//! Balances are solved in the order of [`Material::up_to`]: a capture leads to a balance with
//! fewer pieces and a promotion to one with fewer men, both solved before. For one balance:
//!
//! 1. every entry is decoded and its legal moves generated (in parallel, by chunks of entries).
//!    A move that leaves the balance is judged at once by the smaller tables (or by what its
//!    material alone decides); a move that stays in it is kept as the index of its child.
//!    No move is a loss (RULES.md 2.10, 3.9), a move to a loss for the opponent is a win.
//! 2. then, pass after pass over the undecided entries, until a pass decides nothing: a win if
//!    some child is a loss for the opponent, a loss if every move leads to an opponent's win.
//! 3. what is still undecided is a draw: neither side can force a result.
//!
//! The values are game-theoretic: a position is won if the winner can force the win in any
//! number of moves. Repetitions do not change them (best play towards a forced result never
//! repeats a position), and the Italian 40-king-move count, which a player must ask for, is left
//! out: a database win may need more king moves than the count allows (docs/search.md).
//!
//! Entries are decided in place, in parallel, as atomics: a value only ever goes from undecided
//! to decided, each time justified by values already final, so the order threads see them in
//! cannot change the result.

use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::file::{self, Table, DRAW, INVALID, LOSS, WIN};
use super::index::{Layout, Material, MAX_PIECES};
use super::{EgtbError, Tablebase, Wdl};
use crate::{movegen, Variant};

/// Undecided, and every move leaving the balance loses: a loss if the moves inside do too.
const OPEN_MAY_LOSE: u8 = 4;
/// Undecided, and some move leaving the balance draws: a win or a draw, never a loss.
const OPEN_NO_LOSS: u8 = 5;
/// Entries expanded together by one task.
const CHUNK: u64 = 1 << 14;

/// What the builder reports after each balance.
#[derive(Clone, Debug)]
pub struct BuildEvent {
    /// The balance just finished.
    pub material: Material,
    /// Its entries (both sides to move).
    pub entries: u64,
    /// Passes the iteration needed (0 when the file was already there).
    pub passes: u32,
    /// Whether a complete file was found and used instead of solving.
    pub skipped: bool,
    /// Whether a file was found damaged and solved again.
    pub replaced_corrupt: bool,
    /// Time spent on it.
    pub elapsed: Duration,
    /// Balances finished so far, this one included.
    pub done: usize,
    /// Balances in the whole build.
    pub total: usize,
    /// Entries of every balance of the build, for a progress bar.
    pub total_entries: u64,
}

/// Solves every balance of 2 to `max_pieces` pieces of `variant` (at most [`MAX_PIECES`]),
/// skipping those whose complete file is already in `dir` and writing each new one there (none
/// written without a `dir`: tests build in memory). Runs on rayon's thread pool; `progress`
/// hears of each balance when it is done.
pub fn build(
    variant: Variant,
    max_pieces: u32,
    dir: Option<&Path>,
    mut progress: impl FnMut(&BuildEvent),
) -> Result<Tablebase, EgtbError> {
    if !(2..=MAX_PIECES).contains(&max_pieces) {
        return Err(EgtbError::Pieces(max_pieces));
    }
    let materials = Material::up_to(max_pieces);
    let total_entries = materials.iter().map(|&m| Layout::new(variant, m).entries()).sum();
    let mut tablebase = Tablebase::empty(variant);
    for (done, &material) in materials.iter().enumerate() {
        let started = Instant::now();
        let mut event = BuildEvent {
            material,
            entries: Layout::new(variant, material).entries(),
            passes: 0,
            skipped: false,
            replaced_corrupt: false,
            elapsed: Duration::ZERO,
            done: done + 1,
            total: materials.len(),
            total_entries,
        };
        let existing = match dir.map(|dir| file::open(dir, variant, material)) {
            Some(Ok(found)) => found,
            Some(Err(EgtbError::Corrupt { .. })) => {
                event.replaced_corrupt = true;
                None
            }
            Some(Err(error)) => return Err(error),
            None => None,
        };
        let table = match existing {
            Some(table) => {
                event.skipped = true;
                table
            }
            None => {
                let (table, passes) = solve(variant, material, &tablebase)?;
                event.passes = passes;
                if let Some(dir) = dir {
                    file::write(dir, variant, &table)?;
                }
                table
            }
        };
        tablebase.insert(table);
        event.elapsed = started.elapsed();
        progress(&event);
    }
    Ok(tablebase)
}

/// One chunk of entries, expanded: its undecided entries and their children inside the balance.
struct Chunk {
    /// The chunk's first entry.
    start: u64,
    /// Where each entry's children start in `children`, and one past the last.
    offsets: Vec<u32>,
    /// The children inside the balance, as indices of the table.
    children: Vec<u32>,
    /// The chunk's entries still undecided, relative to `start`.
    open: Vec<u32>,
}

/// Solves `material`, every smaller balance being in `smaller`; returns the table and the
/// passes the iteration took.
fn solve(variant: Variant, material: Material, smaller: &Tablebase) -> Result<(Table, u32), EgtbError> {
    let layout = Layout::new(variant, material);
    let entries = layout.entries();
    if entries > u64::from(u32::MAX) {
        return Err(EgtbError::TooLarge { material, entries });
    }
    let expanded: Vec<(Vec<u8>, Chunk)> = (0..entries.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| expand(&layout, smaller, c * CHUNK..entries.min((c + 1) * CHUNK)))
        .collect::<Result<_, _>>()?;
    let mut codes = Vec::with_capacity(entries as usize);
    let mut chunks = Vec::with_capacity(expanded.len());
    for (chunk_codes, chunk) in expanded {
        codes.extend(chunk_codes.into_iter().map(AtomicU8::new));
        chunks.push(chunk);
    }
    let mut passes = 0;
    loop {
        passes += 1;
        let decided: usize = chunks.par_iter_mut().map(|chunk| decide_pass(chunk, &codes)).sum();
        if decided == 0 {
            break;
        }
    }
    let final_codes: Vec<u8> = codes
        .into_iter()
        .map(|code| match code.into_inner() {
            OPEN_MAY_LOSE | OPEN_NO_LOSS => DRAW,
            code => code,
        })
        .collect();
    Ok((Table::owned(layout, file::pack(&final_codes)), passes))
}

/// Decodes and expands the entries of `range`: their first codes, and the chunk's children.
fn expand(layout: &Layout, smaller: &Tablebase, range: std::ops::Range<u64>) -> Result<(Vec<u8>, Chunk), EgtbError> {
    let len = (range.end - range.start) as usize;
    let mut codes = Vec::with_capacity(len);
    let mut chunk =
        Chunk { start: range.start, offsets: Vec::with_capacity(len + 1), children: Vec::new(), open: Vec::new() };
    let mut moves = Vec::with_capacity(64);
    for index in range {
        chunk.offsets.push(chunk.children.len() as u32);
        let Some(position) = layout.position(index) else {
            codes.push(INVALID);
            continue;
        };
        if let Some(outcome) = position.material_outcome() {
            codes.push(code_of(Wdl::of_outcome(outcome, position.turn())));
            continue;
        }
        movegen::legal_moves(&position, &mut moves);
        let (mut wins, mut every_exit_loses) = (false, true);
        let first_child = chunk.children.len();
        for mv in &moves {
            let child = position.play_unchecked(mv);
            if Material::of(&child) == layout.material() {
                chunk.children.push(layout.index(&child) as u32);
                continue;
            }
            match smaller.probe(&child) {
                Some(Wdl::Loss) => wins = true,
                Some(Wdl::Win) => {}
                Some(Wdl::Draw) => every_exit_loses = false,
                None => return Err(EgtbError::MissingBalance(Material::of(&child))),
            }
        }
        let inside = chunk.children.len() > first_child;
        let code = if moves.is_empty() {
            LOSS
        } else if wins {
            WIN
        } else if !inside {
            if every_exit_loses {
                LOSS
            } else {
                DRAW
            }
        } else if every_exit_loses {
            OPEN_MAY_LOSE
        } else {
            OPEN_NO_LOSS
        };
        if code == WIN || !inside {
            chunk.children.truncate(first_child); // decided: its children are not needed
        } else {
            chunk.open.push((index - chunk.start) as u32);
        }
        codes.push(code);
    }
    chunk.offsets.push(chunk.children.len() as u32);
    Ok((codes, chunk))
}

/// One pass over the chunk's undecided entries; returns how many it decided.
fn decide_pass(chunk: &mut Chunk, codes: &[AtomicU8]) -> usize {
    let before = chunk.open.len();
    let Chunk { start, offsets, children, open } = chunk;
    open.retain(|&local| {
        let entry = &codes[(*start + u64::from(local)) as usize];
        let range = offsets[local as usize] as usize..offsets[local as usize + 1] as usize;
        let mut every_move_loses = entry.load(Ordering::Relaxed) == OPEN_MAY_LOSE;
        for &child in &children[range] {
            match codes[child as usize].load(Ordering::Relaxed) {
                LOSS => {
                    entry.store(WIN, Ordering::Relaxed);
                    return false;
                }
                WIN => {}
                _ => every_move_loses = false,
            }
        }
        if every_move_loses {
            entry.store(LOSS, Ordering::Relaxed);
            return false;
        }
        true
    });
    before - open.len()
}

/// The 2-bit code of a value.
fn code_of(value: Wdl) -> u8 {
    match value {
        Wdl::Win => WIN,
        Wdl::Draw => DRAW,
        Wdl::Loss => LOSS,
    }
}
