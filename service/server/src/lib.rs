//! The damiera server as a library: the gRPC API ([`api`], the wire) over the hosted games
//! ([`games`], the domain) and the [`search`] pool, its rendering of boards, and the `serve` runtime.
//!
//! The `damiera` binary wires these into subcommands; the integration tests use the generated
//! client from [`proto`] against a real server process.

pub mod api;
pub mod games;
pub mod proto;
pub mod render;
pub mod search;
pub mod serve;
