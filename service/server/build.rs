//! Generates the gRPC code from `proto/damiera/v1` with protox (no system `protoc` needed), and
//! writes the descriptor set that the reflection service serves.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let files = [
        "damiera/v1/types.proto",
        "damiera/v1/rules_service.proto",
        "damiera/v1/engine_service.proto",
        "damiera/v1/game_service.proto",
    ];
    let descriptors = protox::compile(files, [&proto_root])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("damiera_descriptor.bin"), prost::Message::encode_to_vec(&descriptors))?;
    tonic_prost_build::configure().compile_fds(descriptors)?;
    println!("cargo:rerun-if-changed={}", proto_root.display());
    // `sqlx::migrate!` embeds these; a new migration must rebuild the crate.
    println!("cargo:rerun-if-changed=migrations");
    Ok(())
}
