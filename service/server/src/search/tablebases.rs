//! [`Tablebases`]: the endgame databases every search of the server probes, one set per variant,
//! and [`folder`], where every command finds them.
//!
//! The folder is the one given (`--egtb DIR`, `DAMIERA_EGTB`), else the default
//! (`$XDG_DATA_HOME/damiera/egtb`, `~/.local/share/damiera/egtb`), the folder `damiera egtb build`
//! writes to. A folder without databases means searches without them; a damaged file leaves its
//! variant without them, with a warning that names the file. Nothing here panics on a file.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use damiera_engine::egtb::{self, EgtbError, Tablebase};
use damiera_engine::Variant;

/// The databases' folder: `given`, else the default one (`None` without a home folder).
pub fn folder(given: Option<&Path>) -> Option<PathBuf> {
    given.map(Path::to_path_buf).or_else(egtb::default_dir)
}

/// The databases of `variant` in `dir`: `Ok(None)` when the folder holds none.
pub fn open_variant(dir: &Path, variant: Variant) -> Result<Option<Arc<Tablebase>>, EgtbError> {
    let tablebase = Tablebase::open(dir, variant)?;
    Ok((tablebase.max_pieces() > 0).then(|| Arc::new(tablebase)))
}

/// Each variant's databases, found once when the server starts and shared by every search.
#[derive(Clone, Debug, Default)]
pub struct Tablebases {
    /// By variant, in the order of [`Variant::ALL`]; `None` where there are none.
    by_variant: [Option<Arc<Tablebase>>; 3],
}

impl Tablebases {
    /// No databases: every search without them.
    pub fn none() -> Tablebases {
        Tablebases::default()
    }

    /// Every variant's databases in `dir` (none when `dir` is `None`), logged once: what was
    /// found at info, a damaged file as a warning (its variant then goes without).
    pub fn open(dir: Option<&Path>) -> Tablebases {
        let mut found = Tablebases::none();
        let Some(dir) = dir else {
            tracing::info!("no endgame databases: no folder given and no home folder");
            return found;
        };
        for (slot, variant) in Variant::ALL.into_iter().enumerate() {
            match open_variant(dir, variant) {
                Ok(Some(tablebase)) => {
                    tracing::info!(
                        %variant,
                        balances = tablebase.materials().len(),
                        max_pieces = tablebase.max_pieces(),
                        dir = %dir.display(),
                        "endgame databases"
                    );
                    if !tablebase.has_distances() {
                        tracing::warn!(
                            %variant,
                            "endgame databases without distances to conversion: a long database win may \
                             not be won; damiera egtb build adds them"
                        );
                    }
                    found.by_variant[slot] = Some(tablebase);
                }
                Ok(None) => {}
                Err(error) => tracing::warn!(%variant, %error, "endgame databases not used"),
            }
        }
        if found.by_variant.iter().all(Option::is_none) {
            tracing::info!(dir = %dir.display(), "no endgame databases (damiera egtb build writes them there)");
        }
        found
    }

    /// `variant`'s databases, if there are any.
    pub fn get(&self, variant: Variant) -> Option<Arc<Tablebase>> {
        let slot = Variant::ALL.iter().position(|&v| v == variant).expect("a variant");
        self.by_variant[slot].clone()
    }
}
