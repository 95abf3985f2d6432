//! Generates the gRPC code from `proto/damiera/v1` with protox (no system `protoc` needed), and
//! writes the descriptor set that the reflection service serves and the HTTP/JSON gateway reads.

use std::path::PathBuf;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let proto_root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../proto");
    let files = [
        "damiera/v1/types.proto",
        "damiera/v1/rules_service.proto",
        "damiera/v1/engine_service.proto",
        "damiera/v1/game_service.proto",
    ];
    let mut compiler = protox::Compiler::new([&proto_root])?;
    compiler.include_source_info(true).include_imports(true).open_files(files)?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    // Encoded by protox rather than prost, which would drop the `google.api.http` method options
    // (extensions) that the HTTP/JSON gateway routes by.
    std::fs::write(out_dir.join("damiera_descriptor.bin"), compiler.encode_file_descriptor_set())?;
    tonic_prost_build::configure().compile_fds(compiler.file_descriptor_set())?;
    println!("cargo:rerun-if-changed={}", proto_root.display());
    // `sqlx::migrate!` embeds these; a new migration must rebuild the crate.
    println!("cargo:rerun-if-changed=migrations");
    Ok(())
}
