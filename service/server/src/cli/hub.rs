//! `damiera hub`: the Hub engine protocol on standard input and output, until `quit` or the end
//! of the input. The protocol itself is `damiera_server::hub`.

use std::io;

use clap::Args;

use super::{EgtbFolder, Failure};

/// Arguments of `damiera hub`.
#[derive(Debug, Args)]
pub struct HubArgs {
    /// Where the endgame databases are (the `egtb` parameter changes it).
    #[command(flatten)]
    egtb: EgtbFolder,
}

pub fn run(args: &HubArgs) -> Result<(), Failure> {
    damiera_server::hub::run(io::stdin().lock(), io::stdout(), args.egtb.folder())?;
    Ok(())
}
