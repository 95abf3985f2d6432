//! The generated gRPC code for `damiera.v1`: messages, servers and clients.
//!
//! Built by `build.rs` from `proto/damiera/v1`; nothing here is written by hand.

#![allow(missing_docs, clippy::all, clippy::pedantic)]

tonic::include_proto!("damiera.v1");

/// The encoded descriptors of every file, for the reflection service.
pub const FILE_DESCRIPTOR_SET: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/damiera_descriptor.bin"));
