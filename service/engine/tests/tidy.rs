//! Tidiness that review would otherwise have to catch: every Rust source file of the service opens
//! with a `//!` doc saying what it owns (STYLE.md), and the server's domain beneath the wire knows
//! nothing of it (docs/architecture.md): no file under `server/src/games/`, `server/src/tenants/` or
//! `server/src/search/` names the API (`crate::api`), the generated messages (`crate::proto`),
//! tonic or prost (nor their `_types` crates).

use std::fs;
use std::path::{Path, PathBuf};

/// Paths that belong to the wire floor, as they would appear in a domain file's code.
const WIRE: [&str; 6] = ["crate::api", "crate::proto", "tonic", "tonic_types", "prost", "prost_types"];

/// The folders of the domain floor, below `src/`.
const DOMAIN: [&str; 3] = ["games", "search", "tenants"];

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

/// The wire paths `line` names in code (comments aside), as whole path segments.
fn wire_paths(line: &str) -> Vec<&'static str> {
    let code = line.split("//").next().unwrap_or_default();
    WIRE.into_iter()
        .filter(|wire| {
            code.match_indices(wire).any(|(at, _)| {
                let before = code[..at].chars().next_back();
                let after = code[at + wire.len()..].chars().next();
                let ident = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                !ident(before) && !ident(after)
            })
        })
        .collect()
}

#[test]
fn the_domain_never_reaches_up_to_the_wire() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("service/").join("server/src");
    let mut files = Vec::new();
    for folder in DOMAIN {
        rust_files(&src.join(folder), &mut files);
    }
    assert!(files.len() >= 10, "found only {} files under {DOMAIN:?}", files.len());
    let mut arrows = Vec::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a readable file");
        for (number, line) in text.lines().enumerate() {
            for wire in wire_paths(line) {
                let shown = file.strip_prefix(&src).unwrap_or(file).display();
                arrows.push(format!("server/src/{shown}:{}: {wire}", number + 1));
            }
        }
    }
    assert!(arrows.is_empty(), "the domain names the wire:\n{}", arrows.join("\n"));
}

#[test]
fn the_check_sees_an_import_and_ignores_comments_and_longer_names() {
    assert_eq!(wire_paths("use crate::api::ApiError;"), ["crate::api"]);
    assert_eq!(wire_paths("use tonic::Status;"), ["tonic"]);
    assert_eq!(wire_paths("    time: prost_types::Timestamp,"), ["prost_types"]);
    assert_eq!(wire_paths("let t: prost::Message;"), ["prost"]);
    assert_eq!(wire_paths("//! the API (`crate::api`) reads requests"), Vec::<&str>::new());
    assert_eq!(wire_paths("let tonicity = 1;"), Vec::<&str>::new());
}
