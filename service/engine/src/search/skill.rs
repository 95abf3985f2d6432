//! Skill levels 1 to 20: how a weaker level searches and how it picks a move.
//!
//! Level 20 is full strength. Below it, a level searches no deeper than its depth cap and visits
//! no more positions than its node cap, looks at the four best lines, then adds to each line's
//! score a random amount up to its spread and plays the highest. The mistakes are a person's: a
//! plausible move that a shallow look rated nearly as well, more often and more costly the lower
//! the level, never a random move. The choice is drawn from a seed and the position, so the same
//! seed replays the same game.
//!
//! The node cap doubles every two levels, so a level searches 2.8 times the positions of the level
//! three below it whatever the clock says: without it, levels whose searches end on time before
//! their depth cap (Dama Turca's wide trees at 20 ms a move) differed by their spread alone and did
//! not separate. Once the cap is reached a level answers, with time to spare: its strength does
//! not grow with the move time or the machine's speed.
//!
//! | level | depth cap | node cap | spread (hundredths of a man) |
//! |---:|---:|---:|---:|
//! | 1 | 1 | 150 | 285 |
//! | 4 | 4 | 424 | 240 |
//! | 8 | 7 | 1,696 | 180 |
//! | 12 | 10 | 6,784 | 120 |
//! | 16 | 13 | 27,136 | 60 |
//! | 19 | 15 | 76,800 | 15 |
//! | 20 | none | none | 0 |

use std::ops::RangeInclusive;

use super::Line;

/// The strongest level, which plays the search's best move.
pub const FULL_STRENGTH: u8 = 20;

/// Every level, weakest first.
pub const LEVELS: RangeInclusive<u8> = 1..=FULL_STRENGTH;

/// The level a request names, where 0 means full strength; `None` outside [`LEVELS`].
#[must_use]
pub fn level(asked: u32) -> Option<u8> {
    match u8::try_from(asked) {
        Ok(0) => Some(FULL_STRENGTH),
        Ok(level) if LEVELS.contains(&level) => Some(level),
        _ => None,
    }
}

/// How many lines a weaker level chooses among.
pub(super) const CANDIDATES: usize = 4;

/// The deepest a level below 20 searches: 1 at level 1, 15 at level 19.
#[must_use]
pub fn depth_cap(level: u8) -> Option<u32> {
    (level < FULL_STRENGTH).then(|| 1 + u32::from(level.max(1)) * 3 / 4)
}

/// The most positions a level below 20 visits: 150 at level 1, doubling every two levels (212,
/// about 150 times the square root of two, in between) to 76,800 at level 19.
#[must_use]
pub fn node_cap(level: u8) -> Option<u64> {
    (level < FULL_STRENGTH).then(|| {
        let steps = u32::from(level.max(1)) - 1;
        let base = if steps % 2 == 0 { 150 } else { 212 };
        base << (steps / 2)
    })
}

/// The most a level below 20 adds to a line's score before choosing: 285 at level 1, 15 at 19.
#[must_use]
pub fn spread(level: u8) -> i32 {
    15 * (i32::from(FULL_STRENGTH) - i32::from(level.clamp(1, FULL_STRENGTH)))
}

/// The line a level plays among `lines` (best first), drawing from `seed`.
pub(super) fn choose(lines: &[Line], level: u8, seed: u64) -> usize {
    let spread = spread(level);
    if spread == 0 || lines.len() < 2 {
        return 0;
    }
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64: small, and the same sequence on every machine.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..lines.len())
        .max_by_key(|&i| (lines[i].score.rank() + (next() % (spread as u64 + 1)) as i32, std::cmp::Reverse(i)))
        .expect("at least one line")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Score;

    fn lines(scores: &[i32]) -> Vec<Line> {
        scores.iter().map(|&v| Line { score: Score::Value(v), pv: Vec::new() }).collect()
    }

    #[test]
    fn levels_rise_in_depth_and_fall_in_spread() {
        let caps: Vec<u32> = (1..FULL_STRENGTH).map(|l| depth_cap(l).unwrap()).collect();
        assert!(caps.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!((caps[0], caps[18]), (1, 15));
        assert_eq!((depth_cap(20), spread(20), spread(1)), (None, 0, 285));
        let nodes: Vec<u64> = (1..FULL_STRENGTH).map(|l| node_cap(l).unwrap()).collect();
        assert_eq!((nodes[0], nodes[3], nodes[11], nodes[18], node_cap(20)), (150, 424, 6784, 76_800, None));
        assert!(nodes.windows(3).all(|w| w[2] == 2 * w[0]), "doubling every two levels");
    }

    #[test]
    fn full_strength_plays_the_best_line_and_weak_levels_sometimes_do_not() {
        let candidates = lines(&[50, 40, -20, -400]);
        assert!((0..100).all(|seed| choose(&candidates, 20, seed) == 0));
        let picks: Vec<usize> = (0..400).map(|seed| choose(&candidates, 1, seed)).collect();
        assert!(picks.contains(&0) && picks.contains(&1), "level 1 mixes the top moves");
        assert!(!picks.contains(&3), "a move 450 worse is never picked: mistakes are plausible");
        let level_12: Vec<usize> = (0..400).map(|seed| choose(&candidates, 12, seed)).collect();
        let best_share = |p: &[usize]| p.iter().filter(|&&i| i == 0).count();
        assert!(best_share(&level_12) > best_share(&picks), "stronger levels play the best move more");
        assert_eq!(choose(&candidates, 5, 42), choose(&candidates, 5, 42), "reproducible from the seed");
    }
}
