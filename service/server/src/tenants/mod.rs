//! Tenants: who a call acts for. Each API key is bound to one tenant, and a tenant's calls see
//! only its own games. Without keys (one machine, or one `--api-key`) every call acts for the
//! implicit tenant, [`TenantId::IMPLICIT`].
//!
//! [`key`] is the keys' text and hash, [`keyring`] the keys a running server accepts.
//!
//! ```
//! use damiera_server::tenants::TenantId;
//!
//! let portal = TenantId::parse("chess-portal").unwrap();
//! assert_ne!(portal, TenantId::default());
//! assert!(TenantId::parse("Has Spaces").is_err());
//! ```

pub mod key;
pub mod keyring;

use std::fmt;

/// The longest tenant name.
const MAX_LEN: usize = 63;

/// A tenant's name: 1 to 63 lower-case letters, digits, `-` and `_`, starting with a letter or a
/// digit. The default is the implicit tenant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TenantId(String);

impl TenantId {
    /// The tenant of every call on a server without keys, or with only `--api-key`; games stored
    /// before tenants existed belong to it.
    pub const IMPLICIT: &str = "default";

    /// A tenant's name, checked.
    pub fn parse(name: &str) -> Result<TenantId, String> {
        let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_';
        let starts_well = name.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit());
        if name.len() > MAX_LEN || !starts_well || !name.chars().all(allowed) {
            return Err(format!(
                "a tenant is 1 to {MAX_LEN} lower-case letters, digits, '-' and '_', starting with a letter or a \
                 digit; got {name:?}"
            ));
        }
        Ok(TenantId(name.to_string()))
    }

    /// A name read back from the database, which only ever stores checked names.
    pub fn stored(name: String) -> TenantId {
        TenantId(name)
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for TenantId {
    fn default() -> TenantId {
        TenantId(TenantId::IMPLICIT.to_string())
    }
}

impl fmt::Display for TenantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        assert_eq!(TenantId::parse("default").unwrap(), TenantId::default());
        assert_eq!(TenantId::parse("a_1-b").unwrap().as_str(), "a_1-b");
        assert!(TenantId::parse(&"a".repeat(63)).is_ok());
        for bad in ["", "-a", "_a", "A", "a b", "é", &"a".repeat(64)] {
            assert!(TenantId::parse(bad).is_err(), "{bad:?}");
        }
    }
}
