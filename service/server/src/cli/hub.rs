//! `damiera hub`: the Hub engine protocol on standard input and output, until `quit` or the end
//! of the input. The protocol itself is `damiera_server::hub`.

use std::io;

use super::Failure;

pub fn run() -> Result<(), Failure> {
    damiera_server::hub::run(io::stdin().lock(), io::stdout())?;
    Ok(())
}
