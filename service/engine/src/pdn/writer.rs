//! Writes a game as canonical PDN: tags in a fixed order, then numbered moves in full notation
//! wrapped under 80 columns, then the result.

use std::fmt::Write;

use super::{find_tag, game_type, GameResult};
use crate::{Color, Game, Position};

/// The seven tags every archived game carries, in the order PDN gives them.
const STANDARD_TAGS: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Tags the writer computes from the game itself; the caller's values for them are ignored.
const COMPUTED_TAGS: [&str; 3] = ["GameType", "SetUp", "FEN"];

/// The longest move text line.
const LINE_WIDTH: usize = 80;

/// Writes `game` with `tags` as one PDN game, ending with a newline.
///
/// The seven standard tags come first, `?` standing for a missing one (`????.??.??` for the
/// date); the result is the `Result` tag's if `tags` gives one, else the game's outcome. Then
/// `GameType`, then `SetUp "1"` and `FEN` when the game does not start from its variant's
/// standard position (a Turkish game with Black first included), then the other tags in the
/// order given. Tag names are matched ignoring case.
#[must_use]
pub fn write_game(game: &Game, tags: &[(String, String)]) -> String {
    write_annotated_game(game, tags, &[])
}

/// [`write_game`] with a comment after each move: `comments[ply]` (no comment when empty or
/// missing), written `{text}` with braces in it dropped.
#[must_use]
pub fn write_annotated_game(game: &Game, tags: &[(String, String)], comments: &[String]) -> String {
    let result = find_tag(tags, "Result").and_then(|r| GameResult::from_token(r.trim()));
    write(game, tags, result, comments)
}

/// [`write_annotated_game`] with the result decided by the caller (`None`: the game's outcome).
pub(super) fn write(game: &Game, tags: &[(String, String)], result: Option<GameResult>, comments: &[String]) -> String {
    let result = result.unwrap_or_else(|| GameResult::from_outcome(game.outcome()));
    let mut out = String::new();
    for name in STANDARD_TAGS {
        let value = match name {
            "Result" => result.token(),
            "Date" => find_tag(tags, name).unwrap_or("????.??.??"),
            _ => find_tag(tags, name).unwrap_or("?"),
        };
        push_tag(&mut out, name, value);
    }
    let variant = game.variant();
    push_tag(&mut out, "GameType", &game_type(variant));
    if *game.start() != Position::start(variant) {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &game.start().to_fen());
    }
    let reserved = |name: &str| STANDARD_TAGS.iter().chain(&COMPUTED_TAGS).any(|r| r.eq_ignore_ascii_case(name));
    for (name, value) in tags.iter().filter(|(name, _)| !reserved(name)) {
        push_tag(&mut out, name, value);
    }
    out.push('\n');
    for line in wrap(&movetext(game, result, comments)) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// A tag on its own line. PDN has no escape for a control character, and a line break in a value
/// would end the tag: each is written as a space, so that the game always reads back.
fn push_tag(out: &mut String, name: &str, value: &str) {
    let printable: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    let escaped = printable.replace('\\', "\\\\").replace('"', "\\\"");
    writeln!(out, "[{name} \"{escaped}\"]").expect("writing to a String cannot fail");
}

/// The move text as units that a line break may not split: `12. 22-18`, `11-15`, `1-0`.
fn movetext(game: &Game, result: GameResult, comments: &[String]) -> Vec<String> {
    let mut units = Vec::with_capacity(game.ply() + 2);
    let mut number = 1;
    for (ply, played) in game.moves().iter().enumerate() {
        let mut unit = match played.color {
            Color::White => format!("{number}. {}", played.notation),
            // Black first from the start position: PDN numbers that `1... 11-15`.
            Color::Black if ply == 0 => format!("{number}... {}", played.notation),
            Color::Black => played.notation.clone(),
        };
        if played.color == Color::Black {
            number += 1;
        }
        if let Some(comment) = comments.get(ply).filter(|comment| !comment.is_empty()) {
            let comment: String = comment.chars().filter(|&c| c != '{' && c != '}').collect();
            write!(unit, " {{{comment}}}").expect("writing to a String cannot fail");
        }
        units.push(unit);
    }
    if let Some(faulty) = game.faulty_move() {
        // The capture fault is not a move of the record, but it is why the game ended.
        units.push(format!("{{capture fault: {faulty}}}"));
    }
    units.push(result.token().to_string());
    units
}

/// Joins units with spaces into lines of at most [`LINE_WIDTH`] characters.
fn wrap(units: &[String]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for unit in units {
        if !line.is_empty() && line.len() + 1 + unit.len() > LINE_WIDTH {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(unit);
    }
    lines.push(line);
    lines
}
