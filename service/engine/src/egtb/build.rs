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
//! 4. then the distances to conversion (a move out of the balance being one ply, no move at all
//!    none): a win is one ply more than its nearest lost child, a loss one more than its farthest
//!    won one. Pass p over the wins and losses of step 2 takes only children of distances found
//!    before it, so it finds exactly those p plies away. (Step 2 alone could not count them: it
//!    decides from what the same pass has just decided, which is why it needs few passes.)
//!
//! The values are game-theoretic: a position is won if the winner can force the win in any
//! number of moves. Repetitions do not change them (best play towards a forced result never
//! repeats a position), and the Italian 40-king-move count, which a player must ask for, is left
//! out: a database win may need more king moves than the count allows (docs/search.md).
//!
//! Entries are decided in place, in parallel, as atomics holding the value and the distance
//! together: a value only ever goes from undecided to decided, each time justified by values
//! already final, and a distance only by distances of earlier passes, so the order threads see
//! them in cannot change the result.

use std::path::Path;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::distance;
use super::file::{self, Table, DRAW, INVALID, LOSS, WIN};
use super::index::{Layout, Material, MAX_PIECES};
use super::{EgtbError, Tablebase, Wdl};
use crate::{movegen, Variant};

/// Undecided, and every move leaving the balance loses: a loss if the moves inside do too.
const OPEN_MAY_LOSE: u8 = 4;
/// Undecided, and some move leaving the balance draws: a win or a draw, never a loss.
const OPEN_NO_LOSS: u8 = 5;
/// A win whose distance is still to be found.
const WIN_FAR: u8 = 6;
/// A loss whose distance is still to be found.
const LOSS_FAR: u8 = 7;
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
            Some(Ok(found)) => found.filter(Table::has_distances), // else built before distances
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
    let expanded: Vec<(Vec<u16>, Chunk)> = (0..entries.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| expand(&layout, smaller, c * CHUNK..entries.min((c + 1) * CHUNK)))
        .collect::<Result<_, _>>()?;
    let mut states = Vec::with_capacity(entries as usize);
    let mut chunks = Vec::with_capacity(expanded.len());
    for (chunk_states, chunk) in expanded {
        states.extend(chunk_states.into_iter().map(AtomicU16::new));
        chunks.push(chunk);
    }
    // Step 2 and 3: the values.
    let undecided: Vec<Vec<u32>> = chunks.iter().map(|chunk| chunk.open.clone()).collect();
    let mut passes = 0u32;
    loop {
        passes += 1;
        let decided: usize = chunks.par_iter_mut().map(|chunk| decide_pass(chunk, &states)).sum();
        if decided == 0 {
            break;
        }
    }
    // Step 4: the distances of the wins and losses step 2 found (the expansion's have theirs).
    let mut waiting: Vec<Waiting> =
        chunks.into_par_iter().zip(undecided).map(|(chunk, undecided)| waiting(chunk, &undecided, &states)).collect();
    let mut distance = 0;
    while waiting.iter().any(|w| !w.open.is_empty()) {
        distance += 1;
        if distance > u16::from(u8::MAX) {
            return Err(EgtbError::DistanceTooLong { material, plies: distance.into() });
        }
        waiting.par_iter_mut().for_each(|w| distance_pass(w, &states, distance));
    }
    let mut codes = Vec::with_capacity(entries as usize);
    let mut distances = Vec::with_capacity(entries as usize);
    for state in states {
        let state = state.into_inner();
        let code = match code_in(state) {
            OPEN_MAY_LOSE | OPEN_NO_LOSS => DRAW,
            code => code,
        };
        codes.push(code);
        // Below 256 by the check in step 4; a draw's and a non-position's are 0.
        distances.push(if code == WIN || code == LOSS { distance_in(state) as u8 } else { 0 });
    }
    Ok((Table::owned(layout, file::pack(&codes), distance::compress(&distances)), passes))
}

/// Decodes and expands the entries of `range`: their first states, and the chunk's children.
fn expand(layout: &Layout, smaller: &Tablebase, range: std::ops::Range<u64>) -> Result<(Vec<u16>, Chunk), EgtbError> {
    let len = (range.end - range.start) as usize;
    let mut states = Vec::with_capacity(len);
    let mut chunk =
        Chunk { start: range.start, offsets: Vec::with_capacity(len + 1), children: Vec::new(), open: Vec::new() };
    let mut moves = Vec::with_capacity(64);
    for index in range {
        chunk.offsets.push(chunk.children.len() as u32);
        let Some(position) = layout.position(index) else {
            states.push(state(INVALID, 0));
            continue;
        };
        if let Some(outcome) = position.material_outcome() {
            states.push(state(code_of(Wdl::of_outcome(outcome, position.turn())), 0));
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
        // A move out of the balance is a conversion: one ply.
        let entry = if moves.is_empty() {
            state(LOSS, 0)
        } else if wins {
            state(WIN, 1)
        } else if !inside {
            state(if every_exit_loses { LOSS } else { DRAW }, 1)
        } else if every_exit_loses {
            state(OPEN_MAY_LOSE, 0)
        } else {
            state(OPEN_NO_LOSS, 0)
        };
        if code_in(entry) == WIN || !inside {
            chunk.children.truncate(first_child); // decided: its children are not needed
        } else {
            chunk.open.push((index - chunk.start) as u32);
        }
        states.push(entry);
    }
    chunk.offsets.push(chunk.children.len() as u32);
    Ok((states, chunk))
}

/// One pass over the chunk's undecided entries; returns how many it decided.
fn decide_pass(chunk: &mut Chunk, states: &[AtomicU16]) -> usize {
    let before = chunk.open.len();
    let Chunk { start, offsets, children, open } = chunk;
    open.retain(|&local| {
        let entry = &states[(*start + u64::from(local)) as usize];
        let range = offsets[local as usize] as usize..offsets[local as usize + 1] as usize;
        let mut every_move_loses = code_in(entry.load(Ordering::Relaxed)) == OPEN_MAY_LOSE;
        for &child in &children[range] {
            match code_in(states[child as usize].load(Ordering::Relaxed)) {
                LOSS => {
                    entry.store(state(WIN, 0), Ordering::Relaxed);
                    return false;
                }
                WIN => {}
                _ => every_move_loses = false,
            }
        }
        if every_move_loses {
            entry.store(state(LOSS, 0), Ordering::Relaxed);
            return false;
        }
        true
    });
    before - open.len()
}

/// A chunk's wins and losses of step 2, waiting for their distances, with the children that
/// decide them: a win's lost children only (the values are final by then), a loss's all.
struct Waiting {
    /// The entries, as indices of the table.
    entries: Vec<u32>,
    /// Where each entry's children start in `children`, and one past the last.
    offsets: Vec<u32>,
    /// The children, as indices of the table.
    children: Vec<u32>,
    /// The entries still without a distance, as positions in `entries`.
    open: Vec<u32>,
}

/// The wins and losses among `chunk`'s entries that step 1 left `undecided`, marked as waiting
/// for their distances.
fn waiting(chunk: Chunk, undecided: &[u32], states: &[AtomicU16]) -> Waiting {
    let mut waiting = Waiting { entries: Vec::new(), offsets: vec![0], children: Vec::new(), open: Vec::new() };
    for &local in undecided {
        let index = chunk.start + u64::from(local);
        let entry = &states[index as usize];
        let children =
            &chunk.children[chunk.offsets[local as usize] as usize..chunk.offsets[local as usize + 1] as usize];
        match code_in(entry.load(Ordering::Relaxed)) {
            WIN => {
                entry.store(state(WIN_FAR, 0), Ordering::Relaxed);
                // Other threads mark their losses as they go: either mark is a loss.
                let lost =
                    |&&child: &&u32| matches!(code_in(states[child as usize].load(Ordering::Relaxed)), LOSS | LOSS_FAR);
                waiting.children.extend(children.iter().filter(lost));
            }
            LOSS => {
                entry.store(state(LOSS_FAR, 0), Ordering::Relaxed);
                waiting.children.extend_from_slice(children);
            }
            _ => continue, // a draw
        }
        waiting.open.push(waiting.entries.len() as u32);
        waiting.entries.push(index as u32);
        waiting.offsets.push(waiting.children.len() as u32);
    }
    waiting
}

/// Pass `distance` over the entries still waiting: it gives theirs to those `distance` plies
/// from conversion, from children of distances found by earlier passes only (a child given its
/// distance in this pass, by another thread or earlier in this chunk, counts as not found yet).
fn distance_pass(waiting: &mut Waiting, states: &[AtomicU16], distance: u16) {
    let Waiting { entries, offsets, children, open } = waiting;
    open.retain(|&at| {
        let entry = &states[entries[at as usize] as usize];
        let range = offsets[at as usize] as usize..offsets[at as usize + 1] as usize;
        let found_before = |child: &u32, code: u8| {
            let child = states[*child as usize].load(Ordering::Relaxed);
            code_in(child) == code && distance_in(child) < distance
        };
        let found = match code_in(entry.load(Ordering::Relaxed)) {
            WIN_FAR => children[range].iter().any(|child| found_before(child, LOSS)).then_some(WIN),
            _ => children[range].iter().all(|child| found_before(child, WIN)).then_some(LOSS),
        };
        match found {
            Some(code) => {
                entry.store(state(code, distance), Ordering::Relaxed);
                false
            }
            None => true,
        }
    });
}

/// An entry while it is solved: its code and, once decided, its distance to conversion in plies,
/// in one atomic so that no thread sees the one without the other.
fn state(code: u8, distance: u16) -> u16 {
    distance << 3 | u16::from(code)
}

/// The code of a [`state`].
fn code_in(state: u16) -> u8 {
    (state & 7) as u8
}

/// The distance of a [`state`].
fn distance_in(state: u16) -> u16 {
    state >> 3
}

/// The 2-bit code of a value.
fn code_of(value: Wdl) -> u8 {
    match value {
        Wdl::Win => WIN,
        Wdl::Draw => DRAW,
        Wdl::Loss => LOSS,
    }
}
