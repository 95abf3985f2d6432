//! Training positions from self-play: from every opening of the suite, a few random moves to
//! make each game different, then the engine plays itself at a fixed number of nodes a move. Every
//! quiet position after the random moves is kept with the game's result and the search's score.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

use damiera_engine::search::{search_with, Limits, Options, Score, TranspositionTable};
use damiera_engine::{Color, Game, Outcome, Variant};
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::SeedableRng;
use rayon::prelude::*;

use crate::records::{self, Record, NO_SCORE};

/// A game longer than this is called a draw.
const MAX_PLIES: usize = 300;
/// Records kept in memory before they are appended to the file.
const BATCH: usize = 4096;

/// How the games are played.
pub struct SelfPlay {
    /// The variant.
    pub variant: Variant,
    /// Games to play, numbered from `first_game` (each game's number seeds its random moves).
    pub games: u64,
    /// The first game's number: a later run continues an earlier one with new games.
    pub first_game: u64,
    /// Nodes a move.
    pub nodes: u64,
    /// Random moves after the opening's.
    pub random_plies: usize,
}

/// Plays the games on every core and appends their records to `out`; the number of records.
pub fn generate(settings: &SelfPlay, out: &Path) -> std::io::Result<usize> {
    let openings = crate::suite::openings(settings.variant);
    let bar = ProgressBar::new(settings.games).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}").expect("a valid template"),
    );
    let pending = Mutex::new(Vec::new());
    let total = Mutex::new(0usize);
    let first = settings.first_game;
    let write = |batch: &mut Vec<Record>| -> std::io::Result<()> {
        *total.lock().expect("no panic holding it") += batch.len();
        records::append(out, batch)?;
        batch.clear();
        Ok(())
    };
    (first..first + settings.games).into_par_iter().progress_with(bar).try_for_each(|number| {
        let opening = &openings[number as usize % openings.len()];
        let played = play(settings, opening, number);
        let mut batch = pending.lock().expect("no panic holding it");
        batch.extend(played);
        if batch.len() >= BATCH {
            write(&mut batch)?;
        }
        Ok::<(), std::io::Error>(())
    })?;
    write(&mut pending.lock().expect("no panic holding it"))?;
    Ok(total.into_inner().expect("no panic holding it"))
}

/// One game: its quiet positions after the random moves, with White's result.
fn play(settings: &SelfPlay, opening: &[String], number: u64) -> Vec<Record> {
    let mut game = Game::new(settings.variant);
    for text in opening {
        game.play(text).expect("the suite's openings are legal");
    }
    let mut random = StdRng::seed_from_u64(number);
    for _ in 0..settings.random_plies {
        let moves = game.position().legal_moves();
        let Some(mv) = moves.choose(&mut random) else { return Vec::new() };
        game.play_move(mv).expect("a legal move");
    }
    let table = TranspositionTable::new(2);
    let stop = AtomicBool::new(false);
    let limits = Limits::nodes(settings.nodes);
    let options = Options::default();
    let mut kept = Vec::new();
    while game.outcome() == Outcome::Ongoing && game.ply() < MAX_PLIES {
        let (current, history) = game.positions().split_last().expect("a position");
        let result = search_with(current, history, &limits, &options, &table, &stop, |_| {});
        if !current.must_capture() {
            let score = match result.score {
                Score::Value(value) => value.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16,
                _ => NO_SCORE,
            };
            kept.push((*current, score));
        }
        game.play_move(&result.best_move.expect("a legal move")).expect("legal");
    }
    let white_result = match game.outcome() {
        Outcome::Win { winner: Color::White, .. } => 2,
        Outcome::Win { .. } => 0,
        _ => 1,
    };
    kept.iter().map(|(position, score)| Record::new(position, white_result, *score)).collect()
}
