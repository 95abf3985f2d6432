//! Hub lines as text: the syntax both sides share (`command name=value name="quoted value" flag`),
//! and the commands a GUI sends to the engine, read into [`Command`].
//!
//! Reading is pure and knows nothing of variants: a position or a move stays text here, and the
//! session reads it against its variant. Arguments a command does not know are ignored, as the
//! protocol asks ("both the engine and the GUI should ignore ... arguments that they don't
//! understand"); an unknown command, a missing or malformed value is an error.
//!
//! ```
//! use damiera_server::hub::parse::{parse, Command, GoMode};
//! assert_eq!(parse("go think").unwrap(), Command::Go(GoMode::Think));
//! let Command::Pos { moves, .. } = parse(r#"pos moves="21-17 10-14""#).unwrap() else { panic!() };
//! assert_eq!(moves, ["21-17", "10-14"]);
//! assert!(parse("go fast").is_err());
//! ```

use std::fmt;
use std::time::Duration;

/// One line split into its command word and its arguments, values unquoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The first word.
    pub command: String,
    /// `name=value` pairs in order; a flag has no value.
    pub args: Vec<(String, Option<String>)>,
}

impl Line {
    /// The value of the first argument called `name`, if it is there with a value.
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.args.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_deref())
    }

    /// Whether an argument called `name` is there, with a value or as a flag.
    #[must_use]
    pub fn has(&self, name: &str) -> bool {
        self.args.iter().any(|(n, _)| n == name)
    }
}

/// Why a line was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// Nothing but blanks.
    #[error("empty line")]
    Empty,
    /// A quoted value without its closing quote.
    #[error("unterminated quote in '{0}'")]
    Unterminated(String),
    /// An argument name that is empty (`=value`) or a value glued to a quote (`a="b"c`).
    #[error("malformed argument '{0}'")]
    Malformed(String),
    /// A command word this engine does not know.
    #[error("unknown command '{0}'")]
    UnknownCommand(String),
    /// A command that needs an argument it was not given.
    #[error("{command}: missing {what}")]
    Missing {
        /// The command.
        command: &'static str,
        /// What it lacks.
        what: &'static str,
    },
    /// An argument whose value does not fit it.
    #[error("{command}: bad value for {name}: '{value}' ({expected})")]
    BadValue {
        /// The command.
        command: &'static str,
        /// The argument.
        name: String,
        /// Its value as given.
        value: String,
        /// What it should be.
        expected: &'static str,
    },
}

/// Splits a line into its command and arguments (the syntax of every Hub line, both ways).
pub fn split(text: &str) -> Result<Line, ParseError> {
    let mut rest = text.trim();
    let mut words = Vec::new();
    while !rest.is_empty() {
        let (word, after) = next_word(rest)?;
        words.push(word);
        rest = after.trim_start();
    }
    let mut words = words.into_iter();
    let (command, value) = words.next().ok_or(ParseError::Empty)?;
    if value.is_some() {
        return Err(ParseError::Malformed(text.trim().to_string()));
    }
    Ok(Line { command, args: words.collect() })
}

/// The first word of `text` (not empty, not starting with a blank) and what follows it.
fn next_word(text: &str) -> Result<((String, Option<String>), &str), ParseError> {
    let end = text.find(|c: char| c.is_whitespace() || c == '=' || c == '"').unwrap_or(text.len());
    let (name, rest) = text.split_at(end);
    if name.is_empty() {
        return Err(ParseError::Malformed(text.split_whitespace().next().unwrap_or(text).to_string()));
    }
    let Some(rest) = rest.strip_prefix('=') else {
        if rest.starts_with('"') {
            return Err(ParseError::Malformed(text.split_whitespace().next().unwrap_or(text).to_string()));
        }
        return Ok(((name.to_string(), None), rest));
    };
    let (value, rest) = if let Some(quoted) = rest.strip_prefix('"') {
        let close = quoted.find('"').ok_or_else(|| ParseError::Unterminated(text.to_string()))?;
        let after = &quoted[close + 1..];
        if !after.is_empty() && !after.starts_with(char::is_whitespace) {
            return Err(ParseError::Malformed(text.split_whitespace().next().unwrap_or(text).to_string()));
        }
        (&quoted[..close], after)
    } else {
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let value = &rest[..end];
        if value.contains('"') {
            return Err(ParseError::Malformed(value.to_string()));
        }
        rest.split_at(end)
    };
    Ok(((name.to_string(), Some(value.to_string())), rest))
}

/// A value written for a Hub line: quoted when it is empty or holds a blank, `=` or a quote.
#[must_use]
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains(|c: char| c.is_whitespace() || c == '=' || c == '"') {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

/// How `go` searches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Find a move to play within the level's limits.
    Think,
    /// Think on the opponent's time, without limit, until `ponder-hit` or `stop`.
    Ponder,
    /// Search without limit until `stop`.
    Analyze,
}

/// The limits a `level` line sets. Each `level` line replaces the whole set: what it leaves out
/// is unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Level {
    /// `depth=N`: plies.
    pub depth: Option<u32>,
    /// `nodes=N`: positions searched.
    pub nodes: Option<u64>,
    /// `move-time=S`: seconds for this move.
    pub move_time: Option<Duration>,
    /// `time=S`: the clock's time left before this move's increment is added.
    pub time: Option<Duration>,
    /// `inc=S`: the increment, added before the move (the Hub convention).
    pub increment: Option<Duration>,
    /// `moves=N`: moves to play before the time control ends.
    pub moves: Option<u32>,
    /// `infinite`: no limit at all.
    pub infinite: bool,
}

/// A command from the GUI.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `hub`: introduce yourself (`id`, `param` lines, then `wait`).
    Hub,
    /// `init`: get ready to play (`ready`).
    Init,
    /// `set-param name=N value=V`.
    SetParam {
        /// The parameter's name.
        name: String,
        /// Its new value, as text.
        value: String,
    },
    /// `new-game`: forget what was learned in the last game.
    NewGame,
    /// `pos [pos=P] [moves="M ..."]`: the position to search; the start position without `pos`.
    Pos {
        /// The position as given, Hub or PDN FEN form.
        position: Option<String>,
        /// Moves played from it.
        moves: Vec<String>,
    },
    /// `level ...`: the limits of the next searches.
    Level(Level),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ponder-hit`: the predicted move was played; think for real now.
    PonderHit,
    /// `stop`: answer now.
    Stop,
    /// `ping`: answer `pong` (proves that the engine reads its input).
    Ping,
    /// `quit`.
    Quit,
}

impl fmt::Display for GoMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GoMode::Think => "think",
            GoMode::Ponder => "ponder",
            GoMode::Analyze => "analyze",
        })
    }
}

/// Reads one line from the GUI.
pub fn parse(text: &str) -> Result<Command, ParseError> {
    let line = split(text)?;
    Ok(match line.command.as_str() {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "ponder-hit" => Command::PonderHit,
        "stop" => Command::Stop,
        "ping" => Command::Ping,
        "quit" => Command::Quit,
        "set-param" => Command::SetParam {
            name: line.value("name").ok_or(ParseError::Missing { command: "set-param", what: "name=" })?.to_string(),
            value: line.value("value").ok_or(ParseError::Missing { command: "set-param", what: "value=" })?.to_string(),
        },
        "pos" => Command::Pos {
            position: line.value("pos").map(str::to_string),
            moves: line.value("moves").unwrap_or_default().split_whitespace().map(str::to_string).collect(),
        },
        "level" => Command::Level(level(&line)?),
        "go" => Command::Go(go_mode(&line)?),
        _ => return Err(ParseError::UnknownCommand(line.command)),
    })
}

/// The mode of a `go` line: its one flag.
fn go_mode(line: &Line) -> Result<GoMode, ParseError> {
    let flags: Vec<&str> = line.args.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| n.as_str()).collect();
    match flags.as_slice() {
        ["think"] => Ok(GoMode::Think),
        ["ponder"] => Ok(GoMode::Ponder),
        ["analyze"] => Ok(GoMode::Analyze),
        [] => Err(ParseError::Missing { command: "go", what: "think, ponder or analyze" }),
        _ => Err(ParseError::BadValue {
            command: "go",
            name: "mode".into(),
            value: flags.join(" "),
            expected: "one of think, ponder, analyze",
        }),
    }
}

fn level(line: &Line) -> Result<Level, ParseError> {
    let bad = |name: &str, value: &str, expected| ParseError::BadValue {
        command: "level",
        name: name.to_string(),
        value: value.to_string(),
        expected,
    };
    let count = |name: &str| -> Result<Option<u64>, ParseError> {
        line.value(name)
            .map(|v| v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| bad(name, v, "a positive whole number")))
            .transpose()
    };
    let seconds = |name: &str| -> Result<Option<Duration>, ParseError> {
        line.value(name)
            .map(|v| {
                v.parse::<f64>()
                    .ok()
                    .and_then(|s| Duration::try_from_secs_f64(s).ok())
                    .ok_or_else(|| bad(name, v, "seconds, 0 or more"))
            })
            .transpose()
    };
    let depth = count("depth")?
        .map(|d| u32::try_from(d).ok().filter(|&d| d <= 100).ok_or_else(|| bad("depth", &d.to_string(), "1 to 100")))
        .transpose()?;
    let moves = count("moves")?.map(|m| u32::try_from(m).unwrap_or(u32::MAX));
    Ok(Level {
        depth,
        nodes: count("nodes")?,
        move_time: seconds("move-time")?,
        time: seconds("time")?,
        increment: seconds("inc")?,
        moves,
        infinite: line.has("infinite"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_quoted_and_bare_values_and_flags() {
        let line = split(r#"id name=Damiera version="0.1 beta" empty="" flag"#).unwrap();
        assert_eq!(line.command, "id");
        assert_eq!(line.value("name"), Some("Damiera"));
        assert_eq!(line.value("version"), Some("0.1 beta"));
        assert_eq!(line.value("empty"), Some(""));
        assert!(line.has("flag") && line.value("flag").is_none());
    }

    #[test]
    fn every_command_reads() {
        assert_eq!(parse("hub").unwrap(), Command::Hub);
        assert_eq!(parse("  init ").unwrap(), Command::Init);
        assert_eq!(parse("new-game").unwrap(), Command::NewGame);
        assert_eq!(parse("ponder-hit").unwrap(), Command::PonderHit);
        assert_eq!(parse("stop").unwrap(), Command::Stop);
        assert_eq!(parse("ping").unwrap(), Command::Ping);
        assert_eq!(parse("quit").unwrap(), Command::Quit);
        assert_eq!(parse("go ponder").unwrap(), Command::Go(GoMode::Ponder));
        assert_eq!(parse("go analyze").unwrap(), Command::Go(GoMode::Analyze));
        assert_eq!(
            parse("set-param name=variant value=turkish").unwrap(),
            Command::SetParam { name: "variant".into(), value: "turkish".into() }
        );
        assert_eq!(
            parse("pos pos=W:W21-32:B1-12").unwrap(),
            Command::Pos { position: Some("W:W21-32:B1-12".into()), moves: vec![] }
        );
        assert_eq!(parse("pos").unwrap(), Command::Pos { position: None, moves: vec![] });
    }

    #[test]
    fn level_reads_every_limit_in_seconds() {
        let Command::Level(level) = parse("level depth=6 nodes=1000 move-time=0.5 time=60 inc=1.5 moves=40").unwrap()
        else {
            panic!("a level")
        };
        assert_eq!(
            level,
            Level {
                depth: Some(6),
                nodes: Some(1000),
                move_time: Some(Duration::from_millis(500)),
                time: Some(Duration::from_secs(60)),
                increment: Some(Duration::from_millis(1500)),
                moves: Some(40),
                infinite: false,
            }
        );
        assert_eq!(parse("level infinite").unwrap(), Command::Level(Level { infinite: true, ..Level::default() }));
    }

    #[test]
    fn unknown_arguments_are_ignored_as_the_protocol_asks() {
        assert_eq!(parse("go think colour=white").unwrap(), Command::Go(GoMode::Think));
        assert_eq!(
            parse("level depth=3 ponder-time=5").unwrap(),
            Command::Level(Level { depth: Some(3), ..Level::default() })
        );
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let message = |text: &str| parse(text).unwrap_err().to_string();
        assert_eq!(message(""), "empty line");
        assert_eq!(message("think"), "unknown command 'think'");
        assert_eq!(message("go"), "go: missing think, ponder or analyze");
        assert_eq!(
            message("go think ponder"),
            "go: bad value for mode: 'think ponder' (one of think, ponder, analyze)"
        );
        assert_eq!(message("set-param value=3"), "set-param: missing name=");
        assert_eq!(message("set-param name=hash"), "set-param: missing value=");
        assert_eq!(message("level depth=0"), "level: bad value for depth: '0' (a positive whole number)");
        assert_eq!(message("level depth=101"), "level: bad value for depth: '101' (1 to 100)");
        assert_eq!(message("level time=-1"), "level: bad value for time: '-1' (seconds, 0 or more)");
        assert_eq!(message("level nodes=many"), "level: bad value for nodes: 'many' (a positive whole number)");
        assert_eq!(message(r#"pos moves="21-17"#), r#"unterminated quote in 'moves="21-17'"#);
        assert_eq!(message("pos =W"), "malformed argument '=W'");
        assert_eq!(message(r#"pos moves="a"b"#), r#"malformed argument 'moves="a"b'"#);
        assert_eq!(message("hub=1"), "malformed argument 'hub=1'");
    }

    #[test]
    fn quoting_round_trips() {
        for value in ["plain", "two words", "", "a=b"] {
            let line = split(&format!("x v={}", quote(value))).unwrap();
            assert_eq!(line.value("v"), Some(value));
        }
    }
}
