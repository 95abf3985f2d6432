//! `damiera serve`: starts the async runtime and runs the gRPC server until a shutdown signal.

use damiera_server::serve::{self, ServeArgs, ServeError};

use super::Failure;

/// Runs the server; returns once it has shut down.
pub fn run(args: ServeArgs) -> Result<(), Failure> {
    serve::init_logs(args.log_format, &args.log).map_err(Failure::BadInput)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("damiera-io")
        .build()
        .map_err(|e| Failure::Startup(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(serve::run(args)).map_err(|error| match error {
        ServeError::Config(message) => Failure::BadInput(message),
        ServeError::Io(message) => Failure::Startup(message),
    })
}
