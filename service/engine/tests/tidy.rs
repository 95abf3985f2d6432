//! Tidiness that review would otherwise have to catch: every Rust source file of the service opens
//! with a `//!` doc saying what it owns (STYLE.md).

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let service = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("service/");
    let mut files = Vec::new();
    for crate_dir in ["engine", "server"] {
        for part in ["src", "tests", "benches"] {
            let dir = service.join(crate_dir).join(part);
            if dir.is_dir() {
                rust_files(&dir, &mut files);
            }
        }
    }
    assert!(files.len() > 30, "found only {} files: is the layout still service/<crate>/src?", files.len());
    let undocumented: Vec<String> = files
        .iter()
        .filter(|f| !fs::read_to_string(f).expect("a readable file").trim_start().starts_with("//!"))
        .map(|f| f.strip_prefix(service).unwrap_or(f).display().to_string())
        .collect();
    assert!(undocumented.is_empty(), "files without a //! module doc: {undocumented:?}");
}
