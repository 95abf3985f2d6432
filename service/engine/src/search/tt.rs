//! [`TranspositionTable`]: what earlier searches found about a position, sized in MB and shared by
//! every thread of a search without locks.
//!
//! Each entry is two atomic words, the data and the key XORed with the data. A reader that meets
//! a half-written entry sees a key that does not match and takes it for a miss, so racing writes
//! can lose an entry but never hand back another position's data. Locking every probe would cost
//! more than the rare lost entry.
//!
//! Every entry carries the generation of the search that stored it. [`TranspositionTable::new_search`]
//! starts a generation and keeps what earlier ones found (the next move of the same game profits
//! from it), only letting old entries give way first. [`TranspositionTable::clear`] forgets
//! everything without touching the slots: entries stored before it are misses from then on, to
//! probes and to replacement alike, so a cleared table answers exactly like a new one of the same
//! size. Generations have 24 bits; the rare clear that would wrap them wipes the slots for real.
//! [`TranspositionTable::fit`] narrows a large table to the slots a smaller one would have, so that
//! a table kept ready can serve a search that asked for less, with the same results.
//!
//! ```
//! use damiera_engine::search::{Bound, TranspositionTable};
//! let table = TranspositionTable::new(1);
//! table.store(0xABCD, 5, 120, Bound::Exact, Some(3));
//! let hit = table.probe(0xABCD).unwrap();
//! assert_eq!((hit.depth, hit.score, hit.bound, hit.best), (5, 120, Bound::Exact, Some(3)));
//! ```

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// At least this much (the search failed high).
    Lower,
    /// At most this much (the search failed low).
    Upper,
}

/// One entry as read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The depth it was searched to.
    pub depth: u8,
    /// The score, as stored (mate distances relative to the stored position).
    pub score: i16,
    /// How the score bounds the true value.
    pub bound: Bound,
    /// The index of the best move in the position's legal move list, whose order is fixed.
    pub best: Option<u8>,
}

/// Two words per entry: 16 bytes.
struct Slot {
    /// The position's key XORed with `data`.
    check: AtomicU64,
    /// The packed entry; zero is an empty slot.
    data: AtomicU64,
}

/// A hash table of search results, shared between threads.
pub struct TranspositionTable {
    /// A power-of-two number of slots, allocated.
    slots: Box<[Slot]>,
    /// The slots in use less one: a power of two less one, at most `slots.len() - 1`.
    mask: usize,
    /// The search the table serves now, so old entries give way first.
    generation: AtomicU32,
    /// The first generation whose entries count: older ones were cleared.
    oldest: AtomicU32,
}

const NO_MOVE: u64 = 0xFF;

/// The bits of the generation in an entry.
const GENERATION_BITS: u32 = 24;

/// The last generation before they wrap.
const LAST_GENERATION: u32 = (1 << GENERATION_BITS) - 1;

impl TranspositionTable {
    /// A table of at most `megabytes` MiB (at least one slot), rounded down to a power of two.
    #[must_use]
    pub fn new(megabytes: usize) -> TranspositionTable {
        let count = slot_count(megabytes);
        let slots = (0..count).map(|_| Slot { check: AtomicU64::new(0), data: AtomicU64::new(0) }).collect();
        let table =
            TranspositionTable { slots, mask: count - 1, generation: AtomicU32::new(1), oldest: AtomicU32::new(1) };
        table.touch();
        table
    }

    /// The size a table of `megabytes` MiB would have, in bytes.
    #[must_use]
    pub fn bytes_for(megabytes: usize) -> usize {
        slot_count(megabytes) * std::mem::size_of::<Slot>()
    }

    /// The memory allocated, in bytes (more than in use after [`TranspositionTable::fit`]).
    #[must_use]
    pub fn capacity_bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    /// Uses as many slots as a new table of `megabytes` MiB would have, if that many are
    /// allocated: true then; false (and unchanged) if this table is too small. Entries stored in
    /// slots of the old size can land in the wrong slot of the new: [`TranspositionTable::clear`]
    /// the table before its next search.
    pub fn fit(&mut self, megabytes: usize) -> bool {
        let count = slot_count(megabytes);
        if count > self.slots.len() {
            return false;
        }
        self.mask = count - 1;
        true
    }

    /// Writes one word of every page, so that the operating system maps them now: fresh memory is
    /// mapped lazily, and a search that faults in a large table as it goes loses most of a short
    /// move time to it.
    fn touch(&self) {
        const SLOTS_PER_PAGE: usize = 4096 / std::mem::size_of::<Slot>();
        for slot in self.slots.iter().step_by(SLOTS_PER_PAGE) {
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Asks the processor to fetch the slot of `key` into its cache: called as soon as a child
    /// position is known, its probe a little later finds the slot there instead of waiting on
    /// memory, the search's costliest wait.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot: *const Slot = self.slot(key);
            // SAFETY: a prefetch is only a hint; it reads nothing and cannot fault, whatever the address.
            unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(slot.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Marks the start of a new search: entries of earlier searches still count, but are
    /// replaced first. Call it before the search's threads start, not during a search.
    pub fn new_search(&self) {
        self.next_generation();
    }

    /// Empties the table at once, without writing the slots: every entry stored so far is a miss
    /// from now on. Call it between searches, not during one.
    pub fn clear(&self) {
        let generation = self.next_generation();
        self.oldest.store(generation, Ordering::Relaxed);
    }

    /// Moves to the next generation and answers it; when generations would wrap, wipes the slots
    /// and starts again from the first.
    fn next_generation(&self) -> u32 {
        let next = self.generation.load(Ordering::Relaxed) + 1;
        if next <= LAST_GENERATION {
            self.generation.store(next, Ordering::Relaxed);
            return next;
        }
        for slot in self.slots.iter() {
            slot.data.store(0, Ordering::Relaxed);
            slot.check.store(0, Ordering::Relaxed);
        }
        self.generation.store(1, Ordering::Relaxed);
        self.oldest.store(1, Ordering::Relaxed);
        1
    }

    fn slot(&self, key: u64) -> &Slot {
        &self.slots[key as usize & self.mask]
    }

    /// What the table holds for the position with hash `key`: entries from before the last
    /// [`TranspositionTable::clear`] are misses.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = self.slot(key);
        let data = slot.data.load(Ordering::Relaxed);
        let check = slot.check.load(Ordering::Relaxed);
        let current = generation_of(data) >= self.oldest.load(Ordering::Relaxed);
        (data != 0 && check ^ data == key && current).then(|| unpack(data))
    }

    /// Stores a result, unless the slot holds a deeper result of this search for another position.
    pub fn store(&self, key: u64, depth: u8, score: i16, bound: Bound, best: Option<u8>) {
        let slot = self.slot(key);
        let generation = self.generation.load(Ordering::Relaxed);
        let old = slot.data.load(Ordering::Relaxed);
        let old_is_other = slot.check.load(Ordering::Relaxed) ^ old != key;
        if old != 0 && old_is_other && generation_of(old) == generation && unpack(old).depth > depth {
            return;
        }
        let data = pack(depth, score, bound, best, generation);
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// How full the table is with this search's entries, in thousandths (from the first 1000 slots).
    #[must_use]
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed);
        let sample = (self.mask + 1).min(1000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let data = s.data.load(Ordering::Relaxed);
                data != 0 && generation_of(data) == generation
            })
            .count();
        (used * 1000 / sample) as u32
    }
}

/// The slots of a table of `megabytes` MiB: a power of two, at least one.
fn slot_count(megabytes: usize) -> usize {
    let wanted = ((megabytes.max(1) << 20) / std::mem::size_of::<Slot>()).max(1);
    1usize << (usize::BITS - 1 - wanted.leading_zeros())
}

fn pack(depth: u8, score: i16, bound: Bound, best: Option<u8>, generation: u32) -> u64 {
    let bound = match bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    u64::from(score as u16)
        | u64::from(depth) << 16
        | bound << 24
        | best.map_or(NO_MOVE, u64::from) << 32
        | u64::from(generation) << 40
}

fn generation_of(data: u64) -> u32 {
    (data >> 40) as u32 & LAST_GENERATION
}

fn unpack(data: u64) -> Entry {
    let bound = match data >> 24 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let best = data >> 32 & 0xFF;
    Entry { depth: (data >> 16) as u8, score: data as u16 as i16, bound, best: (best != NO_MOVE).then_some(best as u8) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let table = TranspositionTable::new(3);
        assert_eq!(table.slots.len(), 1 << 17); // 3 MiB / 16 bytes, rounded down
    }

    #[test]
    fn a_colliding_key_is_a_miss_not_wrong_data() {
        let table = TranspositionTable::new(1);
        let size = table.slots.len() as u64;
        table.store(7, 4, -33, Bound::Upper, None);
        assert_eq!(table.probe(7 + size), None, "same slot, other position");
        assert_eq!(table.probe(7).unwrap().score, -33);
        // A torn write (data from one store, check from another) reads as a miss.
        let slot = table.slot(7);
        slot.data.store(pack(9, 5, Bound::Exact, Some(1), 1), Ordering::Relaxed);
        assert_eq!(table.probe(7), None);
    }

    #[test]
    fn deeper_entries_of_this_search_are_kept_and_old_ones_replaced() {
        let table = TranspositionTable::new(1);
        let other = table.slots.len() as u64;
        table.store(1, 10, 1, Bound::Exact, Some(0));
        table.store(1 + other, 2, 2, Bound::Exact, Some(0));
        assert_eq!(table.probe(1).unwrap().depth, 10, "a shallow result does not evict a deep one");
        table.new_search();
        table.store(1 + other, 2, 2, Bound::Exact, Some(0));
        assert_eq!(table.probe(1 + other).unwrap().depth, 2, "last search's entries give way");
        assert!(table.hashfull() > 0);
    }

    #[test]
    fn a_cleared_table_misses_every_old_entry_and_replaces_it() {
        let table = TranspositionTable::new(1);
        let other = table.slots.len() as u64;
        table.store(1, 10, 1, Bound::Exact, Some(0));
        table.clear();
        assert_eq!(table.probe(1), None, "an entry from before the clear is never trusted");
        table.store(1 + other, 2, 2, Bound::Lower, None);
        assert_eq!(table.probe(1 + other).unwrap().depth, 2, "nor kept against a shallower new one");
        for key in 0..1000 {
            table.store(key, 1, 0, Bound::Exact, None);
        }
        assert_eq!(table.hashfull(), 1000);
        table.clear();
        assert_eq!(table.hashfull(), 0, "a cleared table is empty, whatever its slots hold");
    }

    #[test]
    fn a_new_search_keeps_what_earlier_searches_found() {
        let table = TranspositionTable::new(1);
        table.store(5, 6, 40, Bound::Upper, Some(2));
        table.new_search();
        table.new_search();
        assert_eq!(table.probe(5).unwrap().score, 40);
    }

    #[test]
    fn the_clear_that_would_wrap_the_generations_wipes_the_slots() {
        let table = TranspositionTable::new(1);
        table.generation.store(LAST_GENERATION, Ordering::Relaxed);
        table.store(9, 3, 7, Bound::Exact, None);
        assert_eq!(table.probe(9).unwrap().score, 7);
        table.clear();
        assert_eq!(table.generation.load(Ordering::Relaxed), 1);
        assert_eq!(table.probe(9), None);
        assert!(table.slots.iter().all(|slot| slot.data.load(Ordering::Relaxed) == 0));
        table.store(9, 3, 8, Bound::Exact, None);
        assert_eq!(table.probe(9).unwrap().score, 8, "the first generation counts again");
    }

    #[test]
    fn a_fitted_table_uses_the_slots_of_the_smaller_size() {
        let mut table = TranspositionTable::new(4);
        assert!(table.fit(1));
        assert_eq!(table.mask + 1, TranspositionTable::new(1).slots.len());
        assert_eq!(table.capacity_bytes(), 4 << 20);
        assert!(!table.fit(8), "a table cannot grow");
        assert_eq!(table.mask + 1, 1 << 16);
        assert!(table.fit(4));
        assert_eq!(TranspositionTable::bytes_for(3), 2 << 20);
    }
}
