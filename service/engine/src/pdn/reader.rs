//! Reads PDN games: the tags choose the variant and the start, the main line is replayed move by
//! move, variations are skipped whole, and the result closes the game.

use super::lexer::{Lexer, Token, TokenKind};
use super::{variant_of_game_type, GameResult, PdnError, PdnErrorKind, PdnGame};
use crate::{fen, Color, Game, GameError, Position, Variant};

/// Reads every game in `text`. A game without a `GameType` tag is of `default_variant`.
///
/// Games follow one another: each starts with its tags (the first may have none) and ends with its
/// result, or where the next game's tags begin.
///
/// # Errors
///
/// The first problem stops reading: bad syntax, a tag whose value makes no sense (`GameType`,
/// `FEN`), an illegal move, or results that contradict each other. The error gives its line.
pub fn read_games(text: &str, default_variant: Variant) -> Result<Vec<PdnGame>, PdnError> {
    let mut tokens = Tokens { lexer: Lexer::new(text), peeked: None };
    let mut games = Vec::new();
    while tokens.peek()?.is_some() {
        games.push(read_game(&mut tokens, default_variant)?);
    }
    Ok(games)
}

/// The lexer with one token of lookahead.
struct Tokens<'a> {
    /// Where the tokens come from.
    lexer: Lexer<'a>,
    /// A token looked at but not yet taken.
    peeked: Option<Token<'a>>,
}

impl<'a> Tokens<'a> {
    fn peek(&mut self) -> Result<Option<&Token<'a>>, PdnError> {
        if self.peeked.is_none() {
            self.peeked = self.lexer.next().transpose()?;
        }
        Ok(self.peeked.as_ref())
    }

    fn next(&mut self) -> Result<Option<Token<'a>>, PdnError> {
        self.peek()?;
        Ok(self.peeked.take())
    }

    /// The next token unless it starts a new game.
    fn next_in_game(&mut self) -> Result<Option<Token<'a>>, PdnError> {
        match self.peek()? {
            Some(Token { kind: TokenKind::Tag { .. }, .. }) | None => Ok(None),
            Some(_) => self.next(),
        }
    }
}

/// A tag with the token it came from, so that errors about its value point at its line.
struct Tag<'a> {
    /// The tag's name as written.
    name: String,
    /// Its value, unescaped.
    value: String,
    /// The token, for its line and column.
    token: Token<'a>,
}

fn read_game(tokens: &mut Tokens<'_>, default_variant: Variant) -> Result<PdnGame, PdnError> {
    let tags = read_tags(tokens)?;
    let mut game = start_game(&tags, default_variant)?;
    let mut declared: Option<(GameResult, Token<'_>)> = None;
    while let Some(token) = tokens.next_in_game()? {
        match &token.kind {
            TokenKind::MoveNumber | TokenKind::Nag => {}
            TokenKind::Move(text) => play(&mut game, text, &token)?,
            TokenKind::VariationStart => skip_variation(tokens, &token)?,
            TokenKind::VariationEnd => return Err(token.error(PdnErrorKind::Unopened(')'))),
            TokenKind::Result(result) => {
                declared = Some((*result, token));
                break;
            }
            TokenKind::Tag { .. } => unreachable!("next_in_game stops before a tag"),
        }
    }
    if declared.is_some() {
        if let Some(after) = tokens.next_in_game()? {
            return Err(after.error(PdnErrorKind::TextAfterResult(after.text.to_string())));
        }
    }
    let result = declared_result(&tags, declared)?;
    let tags = tags.into_iter().map(|t| (t.name, t.value)).collect();
    Ok(PdnGame { tags, game, result })
}

fn read_tags<'a>(tokens: &mut Tokens<'a>) -> Result<Vec<Tag<'a>>, PdnError> {
    let mut tags = Vec::new();
    while let Some(Token { kind: TokenKind::Tag { .. }, .. }) = tokens.peek()? {
        let token = tokens.next()?.expect("peeked");
        let TokenKind::Tag { name, value } = token.kind.clone() else { unreachable!("peeked a tag") };
        tags.push(Tag { name, value, token });
    }
    Ok(tags)
}

fn find<'t, 'a>(tags: &'t [Tag<'a>], name: &str) -> Option<&'t Tag<'a>> {
    tags.iter().find(|t| t.name.eq_ignore_ascii_case(name))
}

/// The game at its start: the variant from `GameType`, the position from `FEN` if set up.
fn start_game(tags: &[Tag<'_>], default_variant: Variant) -> Result<Game, PdnError> {
    let (variant, first) = match find(tags, "GameType") {
        Some(tag) => parse_game_type(&tag.value).map_err(|kind| tag.token.error(kind))?,
        None => (default_variant, Color::White),
    };
    let start = match (find(tags, "FEN"), find(tags, "SetUp")) {
        (Some(tag), _) => fen::parse(variant, &tag.value).map_err(|e| tag.token.error(PdnErrorKind::Fen(e)))?,
        (None, Some(setup)) if setup.value.trim() == "1" => return Err(setup.token.error(PdnErrorKind::MissingFen)),
        (None, _) => Position::start(variant).with_turn(first),
    };
    Ok(Game::from_position(start))
}

/// The variant and first mover a `GameType` value stands for.
fn parse_game_type(value: &str) -> Result<(Variant, Color), PdnErrorKind> {
    let bad = || PdnErrorKind::BadGameType(value.to_string());
    let unsupported = |what: String| PdnErrorKind::UnsupportedGameType { value: value.to_string(), what };
    let fields: Vec<&str> = value.split(',').map(str::trim).collect();
    let number: u32 = fields[0].parse().map_err(|_| bad())?;
    let (first, size) = match fields[..] {
        [_] => (Color::White, None),
        [_, colour, width, height, notation, ref invert @ ..] if invert.len() <= 1 => {
            let first = Color::from_field(colour).ok_or_else(bad)?;
            let width: u32 = width.parse().map_err(|_| bad())?;
            let height: u32 = height.parse().map_err(|_| bad())?;
            // The notation and invert fields are checked for form only: Damiera reads each
            // variant's moves in its own notation, whatever numbering the writer declared.
            let notation_ok = notation.len() == 2
                && notation.starts_with(['A', 'N', 'S'])
                && notation.ends_with(['0', '1', '2', '3']);
            if !notation_ok || !invert.iter().all(|f| matches!(*f, "0" | "1")) {
                return Err(bad());
            }
            (first, Some((width, height)))
        }
        _ => return Err(bad()),
    };
    let variant = match variant_of_game_type(number, size) {
        Some(variant) => variant,
        None if matches!(number, 22 | 30) => {
            let (width, height) = size.expect("a bare type number has its usual board");
            return Err(unsupported(format!("a {width}x{height} board")));
        }
        None => return Err(unsupported(game_type_name(number).to_string())),
    };
    if first == Color::Black && variant != Variant::Turkish {
        return Err(unsupported(format!("Black first; in {} White moves first", variant.display_name())));
    }
    Ok((variant, first))
}

/// The names of the FMJD game types, for the message that refuses them.
fn game_type_name(number: u32) -> &'static str {
    match number {
        0 => "chess",
        1 => "Chinese chess",
        20 => "international draughts",
        21 => "English draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti draughts",
        50 => "Othello",
        _ => "an unknown game type",
    }
}

fn play(game: &mut Game, text: &str, token: &Token<'_>) -> Result<(), PdnError> {
    match game.play(text) {
        Ok(_) => Ok(()),
        Err(GameError::Over(outcome)) => {
            Err(token.error(PdnErrorKind::MoveAfterEnd { text: text.to_string(), outcome }))
        }
        Err(err) => Err(token.error(PdnErrorKind::Move(err))),
    }
}

/// Skips a variation whose `(` was `open`, nested ones included.
fn skip_variation(tokens: &mut Tokens<'_>, open: &Token<'_>) -> Result<(), PdnError> {
    let mut depth = 1;
    while depth > 0 {
        // A tag inside a variation means the variation ran into the next game.
        let token = tokens.next_in_game()?.ok_or_else(|| open.error(PdnErrorKind::UnterminatedVariation))?;
        match token.kind {
            TokenKind::VariationStart => depth += 1,
            TokenKind::VariationEnd => depth -= 1,
            _ => {}
        }
    }
    Ok(())
}

/// The move text's result, else the `Result` tag's (`?` or another non-result declares nothing).
fn declared_result(
    tags: &[Tag<'_>],
    movetext: Option<(GameResult, Token<'_>)>,
) -> Result<Option<GameResult>, PdnError> {
    let tag = find(tags, "Result").and_then(|t| GameResult::from_token(t.value.trim()));
    match (movetext, tag) {
        (Some((movetext, token)), Some(tag)) if movetext != tag => {
            Err(token.error(PdnErrorKind::ResultMismatch { movetext, tag }))
        }
        (Some((movetext, _)), _) => Ok(Some(movetext)),
        (None, tag) => Ok(tag),
    }
}
