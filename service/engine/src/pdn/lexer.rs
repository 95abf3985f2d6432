//! Splits PDN text into tokens (tags, move numbers, moves, results, NAGs, variation brackets),
//! each with its line and column; comments and move suffixes never leave the lexer.

use super::{GameResult, PdnError, PdnErrorKind};

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum TokenKind {
    /// `[Name "value"]`, the value unescaped.
    Tag {
        /// The tag's name.
        name: String,
        /// Its value, with `\"` and `\\` resolved.
        value: String,
    },
    /// `12.`, `12...`, or a bare `...`: numbering that the reader does not check.
    MoveNumber,
    /// A move as written, its `!`, `?` and `*` suffixes removed.
    Move(String),
    /// A result token, which ends the game's move text.
    Result(GameResult),
    /// `$12`: a numeric annotation glyph.
    Nag,
    /// `(`: a variation starts.
    VariationStart,
    /// `)`: a variation ends.
    VariationEnd,
}

/// A token and where it starts.
#[derive(Clone, Debug)]
pub(super) struct Token<'a> {
    /// What it is.
    pub kind: TokenKind,
    /// The text it was read from, for messages.
    pub text: &'a str,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

impl Token<'_> {
    /// An error located at this token.
    pub fn error(&self, kind: PdnErrorKind) -> PdnError {
        PdnError { line: self.line, column: self.column, kind }
    }
}

/// Characters that end a word even without whitespace.
const DELIMITERS: &[char] = &['{', '}', '(', ')', '[', ']', ';', '$'];

/// Suffixes annotating a move (`22-18!`, `e3-e4?!`, `21x14*`), dropped before the move is read.
const MOVE_SUFFIXES: &[char] = &['!', '?', '*'];

/// An iterator of tokens; it stops after the first error.
pub(super) struct Lexer<'a> {
    /// The whole text, byte order mark removed.
    text: &'a str,
    /// Byte offset of the next character.
    pos: usize,
    /// Line of the next character.
    line: usize,
    /// Column of the next character.
    column: usize,
}

impl<'a> Lexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'a str) -> Lexer<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer { text, pos: 0, line: 1, column: 1 }
    }

    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    /// Consumes characters while `keep` holds.
    fn bump_while(&mut self, keep: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.bump();
        }
    }

    /// The next token, or the error that stops reading; `Ok(None)` at the end.
    fn token(&mut self) -> Result<Option<Token<'a>>, PdnError> {
        loop {
            // '\r' is whitespace, so CRLF needs nothing more; a byte order mark inside the text
            // is what concatenating files with marks leaves behind.
            self.bump_while(|c| c.is_whitespace() || c == '\u{feff}');
            let (start, line, column) = (self.pos, self.line, self.column);
            let error = |kind| PdnError { line, column, kind };
            let Some(c) = self.peek() else { return Ok(None) };
            let kind = match c {
                '{' => {
                    self.bump_while(|c| c != '}');
                    self.bump().ok_or_else(|| error(PdnErrorKind::UnterminatedComment))?;
                    continue;
                }
                ';' => {
                    self.bump_while(|c| c != '\n');
                    continue;
                }
                '[' => self.tag().map_err(error)?,
                '(' => {
                    self.bump();
                    TokenKind::VariationStart
                }
                ')' => {
                    self.bump();
                    TokenKind::VariationEnd
                }
                '}' | ']' => return Err(error(PdnErrorKind::Unopened(c))),
                '$' => {
                    self.bump();
                    self.bump_while(|c| c.is_ascii_digit());
                    TokenKind::Nag
                }
                _ => self.word(),
            };
            let text = &self.text[start..self.pos];
            return Ok(Some(Token { kind, text, line, column }));
        }
    }

    /// `[Name "value"]`, all on one line.
    fn tag(&mut self) -> Result<TokenKind, PdnErrorKind> {
        let inline_space = |c: char| c.is_whitespace() && c != '\n';
        self.bump(); // '['
        self.bump_while(inline_space);
        let name_start = self.pos;
        self.bump_while(|c| c.is_ascii_alphanumeric() || c == '_');
        let name = self.text[name_start..self.pos].to_string();
        if name.is_empty() {
            return Err(self.tag_problem("expected a tag name after '['"));
        }
        self.bump_while(inline_space);
        if self.peek() != Some('"') {
            return Err(self.tag_problem(&format!("expected a quoted value after {name}")));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                Some('"') => break,
                Some('\\') if matches!(self.peek(), Some('"' | '\\')) => value.push(self.bump().expect("peeked")),
                Some('\n') | None => return Err(PdnErrorKind::UnterminatedTag),
                Some(c) => value.push(c),
            }
        }
        self.bump_while(inline_space);
        match self.peek() {
            Some(']') => {
                self.bump();
                Ok(TokenKind::Tag { name, value })
            }
            Some('\r' | '\n') | None => Err(PdnErrorKind::UnterminatedTag),
            Some(_) => Err(self.tag_problem(&format!("expected ']' after the value of {name}"))),
        }
    }

    /// A bad tag, quoting the tag's line so far.
    fn tag_problem(&self, what: &str) -> PdnErrorKind {
        let line_start = self.text[..self.pos].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[self.pos..].find(['\r', '\n']).map_or(self.text.len(), |i| self.pos + i);
        PdnErrorKind::BadTag(format!("{what}: {}", self.text[line_start..line_end].trim()))
    }

    /// A move number (which may run into its move: `1.22-18`), a result, or a move.
    fn word(&mut self) -> TokenKind {
        let start = self.pos;
        self.bump_while(|c| c.is_ascii_digit());
        if self.peek() == Some('.') {
            self.bump_while(|c| c == '.');
            return TokenKind::MoveNumber;
        }
        self.bump_while(|c| !c.is_whitespace() && !DELIMITERS.contains(&c));
        let word = &self.text[start..self.pos];
        if let Some(result) = GameResult::from_token(word) {
            return TokenKind::Result(result);
        }
        match word.trim_end_matches(MOVE_SUFFIXES) {
            "" => TokenKind::Nag, // `!?` standing alone: an annotation like `$5`
            mv => TokenKind::Move(mv.to_string()),
        }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Result<Token<'a>, PdnError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.token() {
            Ok(token) => token.map(Ok),
            Err(err) => {
                self.pos = self.text.len(); // nothing after an error can be trusted
                Some(Err(err))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        Lexer::new(text).map(|t| t.unwrap().kind).collect()
    }

    #[test]
    fn move_numbers_may_touch_their_moves() {
        let mv = |s: &str| TokenKind::Move(s.to_string());
        assert_eq!(
            kinds("1.22-18 11-15! 2...e3xe5?! ... 1/2-1/2"),
            [
                TokenKind::MoveNumber,
                mv("22-18"),
                mv("11-15"),
                TokenKind::MoveNumber,
                mv("e3xe5"),
                TokenKind::MoveNumber,
                TokenKind::Result(GameResult::Draw)
            ]
        );
    }

    #[test]
    fn tag_values_unescape_quotes_and_backslashes() {
        let kinds = kinds(r#"[White "Rossi, \"Il Dottore\" \\ Mario"]"#);
        let expected = TokenKind::Tag { name: "White".into(), value: r#"Rossi, "Il Dottore" \ Mario"#.into() };
        assert_eq!(kinds, [expected]);
    }

    #[test]
    fn tokens_know_their_line_and_column() {
        let tokens: Vec<_> =
            Lexer::new("\u{feff}{a\r\nb} 22-18\r\n  $3 (\n\u{feff}[A \"b\"]").map(Result::unwrap).collect();
        let places: Vec<_> = tokens.iter().map(|t| (t.text, t.line, t.column)).collect();
        assert_eq!(places, [("22-18", 2, 4), ("$3", 3, 3), ("(", 3, 6), ("[A \"b\"]", 4, 2)]);
    }
}
