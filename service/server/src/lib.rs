//! The damiera server as a library: the gRPC API ([`api`], the wire) over the hosted games
//! ([`games`], the domain) and the [`search`] pool, its rendering of boards, the `serve` runtime,
//! and the Hub engine protocol ([`hub`], `damiera hub`).
//!
//! The `damiera` binary wires these into subcommands; the integration tests use the generated
//! client from [`proto`] against a real server process.

pub mod api;
pub mod games;
pub mod hub;
pub mod proto;
pub mod render;
pub mod search;
pub mod serve;
pub mod tenants;
