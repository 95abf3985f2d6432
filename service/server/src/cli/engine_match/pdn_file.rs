//! The PDN file of `damiera match`: each game is added as it ends, so a stopped match keeps every
//! game it finished, and the file is written again in game order when the match is over. With
//! `--resume` the games already in the file are read back, checked to be this match's (the same
//! variant, engines, colours and opening for their game number), and not played again.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use damiera_engine::pdn::{self, GameResult, PdnGame};
use damiera_engine::Game;

use super::{MatchArgs, Played};
use crate::cli::Failure;

/// The match's PDN file, open for adding games.
pub(super) struct PdnFile {
    path: PathBuf,
    file: Mutex<File>,
}

impl PdnFile {
    /// Starts the file at `path` afresh.
    pub(super) fn create(path: &Path) -> Result<PdnFile, Failure> {
        let file = File::create(path).map_err(|e| failure(path, &e))?;
        Ok(PdnFile { path: path.to_path_buf(), file: Mutex::new(file) })
    }

    /// Opens the file at `path` to go on with the match of `args`: its games by index (a file
    /// that does not exist yet holds none).
    pub(super) fn resume(
        path: &Path,
        args: &MatchArgs,
        openings: &[Game],
    ) -> Result<(PdnFile, Vec<Option<Played>>), Failure> {
        let mut played: Vec<Option<Played>> = (0..args.games).map(|_| None).collect();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(failure(path, &e)),
        };
        let records = pdn::read_games(&text, args.variant).map_err(|e| failure(path, &e))?;
        for record in records {
            let (index, game) = read_back(args, openings, record)
                .map_err(|e| Failure::BadInput(format!("--resume {}: {e}", path.display())))?;
            if played[index].replace(game).is_some() {
                return Err(Failure::BadInput(format!(
                    "--resume {}: game {} is in the file twice",
                    path.display(),
                    index + 1
                )));
            }
        }
        let file = File::options().append(true).create(true).open(path).map_err(|e| failure(path, &e))?;
        Ok((PdnFile { path: path.to_path_buf(), file: Mutex::new(file) }, played))
    }

    /// Adds game `index` to the end of the file.
    pub(super) fn add(&self, args: &MatchArgs, index: usize, played: &Played) -> Result<(), Failure> {
        let mut file = self.file.lock().expect("no thread panics holding it");
        file.write_all(record(args, index, played).as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| failure(&self.path, &e))
    }

    /// Writes the file again with `games` in game order (through a file beside it, so that a
    /// failure leaves the games as they were).
    pub(super) fn finish<'a>(
        self,
        args: &MatchArgs,
        games: impl Iterator<Item = (usize, &'a Played)>,
    ) -> Result<(), Failure> {
        let text: String = games.map(|(index, played)| record(args, index, played)).collect();
        let mut temporary = self.path.clone().into_os_string();
        temporary.push(".partial");
        let temporary = PathBuf::from(temporary);
        std::fs::write(&temporary, text)
            .and_then(|()| std::fs::rename(&temporary, &self.path))
            .map_err(|e| failure(&self.path, &e))
    }
}

/// Game `index` as PDN, with a blank line after it: its `Round` is its number in the match.
fn record(args: &MatchArgs, index: usize, played: &Played) -> String {
    let (white, black) = if played.a_white { (&args.a, &args.b) } else { (&args.b, &args.a) };
    let tags = [
        ("Event", "damiera match".to_string()),
        ("Round", (index + 1).to_string()),
        ("White", white.text.clone()),
        ("Black", black.text.clone()),
        ("Result", played.result.token().to_string()),
    ];
    let tags: Vec<(String, String)> = tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    pdn::write_game(&played.game, &tags) + "\n"
}

/// A game read back: its index, once it is checked to be the game of that number in this match.
fn read_back(args: &MatchArgs, openings: &[Game], record: PdnGame) -> Result<(usize, Played), String> {
    let round = record.tag("Round").unwrap_or_default();
    let index = match round.parse::<usize>() {
        Ok(number) if (1..=args.games as usize).contains(&number) => number - 1,
        _ => return Err(format!("a game's Round '{round}' is not a game number from 1 to {}", args.games)),
    };
    let number = index + 1;
    let a_white = index.is_multiple_of(2);
    let (white, black) = if a_white { (&args.a.text, &args.b.text) } else { (&args.b.text, &args.a.text) };
    if record.tag("White") != Some(white.as_str()) || record.tag("Black") != Some(black.as_str()) {
        return Err(format!(
            "game {number} was played by {} (White) and {} (Black), not by {white} and {black} as in this match",
            record.tag("White").unwrap_or("?"),
            record.tag("Black").unwrap_or("?")
        ));
    }
    if record.game.variant() != args.variant {
        return Err(format!("game {number} is {}, not {}", record.game.variant(), args.variant));
    }
    let opening = &openings[index / 2 % openings.len()];
    let from_opening = record.game.positions().get(opening.ply());
    if opening.positions().first() != record.game.positions().first() || from_opening != Some(opening.position()) {
        return Err(format!("game {number} does not start with its opening in this match's --openings"));
    }
    let result = record
        .result
        .filter(|result| matches!(result, GameResult::WhiteWins | GameResult::BlackWins | GameResult::Draw));
    let Some(result) = result else { return Err(format!("game {number} has no result")) };
    Ok((index, Played { game: record.game, result, a_white }))
}

fn failure(path: &Path, error: &dyn std::fmt::Display) -> Failure {
    Failure::BadInput(format!("--pdn {}: {error}", path.display()))
}
