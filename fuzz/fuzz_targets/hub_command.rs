//! The Hub protocol's command reader (`damiera hub`'s input): any line is split and read without
//! panicking; a line that splits writes back (values quoted as the engine quotes them) to text
//! that splits the same; a `pos` command's position, read in any variant, writes back in Hub form
//! and reads again as the same position.

#![no_main]

use damiera_server::hub::notation::{read_position, write_position};
use damiera_server::hub::parse::{parse, quote, split, Command, Line};
use libfuzzer_sys::fuzz_target;

/// `line` written as a Hub line.
fn write(line: &Line) -> String {
    let mut text = line.command.clone();
    for (name, value) in &line.args {
        text.push(' ');
        text.push_str(name);
        if let Some(value) = value {
            text.push('=');
            text.push_str(&quote(value));
        }
    }
    text
}

fuzz_target!(|input: (u8, &str)| {
    let (variant, text) = input;
    if let Ok(line) = split(text) {
        let written = write(&line);
        assert_eq!(split(&written).as_ref(), Ok(&line), "{text:?} splits, but its written form {written:?} does not");
    }
    if let Ok(Command::Pos { position: Some(position), .. }) = parse(text) {
        let variant = damiera_fuzz::variant(variant);
        if let Ok(read) = read_position(variant, &position) {
            let written = write_position(&read);
            assert_eq!(read_position(variant, &written).ok(), Some(read), "{written:?} reads back otherwise");
        }
    }
});
