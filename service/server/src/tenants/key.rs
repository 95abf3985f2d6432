//! An API key's text and its stored hash. A key reads `dmk_<id>_<secret>`: the id (12 hex digits)
//! is public and names the key in `damiera keys list` and in the database; the secret is 256
//! random bits, shown once when the key is made and stored only as its SHA-256.
//!
//! The secret is random, not a password: a fast hash is enough (nobody can search 2^256 secrets),
//! so every call can be checked without a slow password hash. The check compares the hashes in
//! constant time, so that the time it takes says nothing of how much of a guess was right.
//!
//! ```
//! use damiera_server::tenants::key::{ApiKey, NewKey};
//!
//! let new = NewKey::generate();
//! let key = ApiKey::parse(&new.text).unwrap();
//! assert_eq!(key.id, new.id);
//! assert!(key.matches(&new.hash));
//! ```

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// What every key starts with, so that a leaked key is easy to recognise (secret scanners).
const PREFIX: &str = "dmk_";

/// Random bytes in a key's id.
const ID_BYTES: usize = 6;

/// Random bytes in a key's secret.
const SECRET_BYTES: usize = 32;

/// A key just made: its text, shown once, and what is stored of it.
#[derive(Debug)]
pub struct NewKey {
    /// The key's public id.
    pub id: String,
    /// The whole key, as the client sends it.
    pub text: String,
    /// The SHA-256 of its secret, as hex: all that is stored.
    pub hash: String,
}

impl NewKey {
    /// A new random key.
    pub fn generate() -> NewKey {
        let id = hex::encode(random::<ID_BYTES>());
        let secret = hex::encode(random::<SECRET_BYTES>());
        NewKey { text: format!("{PREFIX}{id}_{secret}"), hash: hash(&secret), id }
    }
}

/// A key as a client sent it: its id and its secret, not yet checked.
#[derive(Debug, PartialEq, Eq)]
pub struct ApiKey<'a> {
    /// The id, which finds the stored key.
    pub id: &'a str,
    /// The secret, which must hash to the stored hash.
    secret: &'a str,
}

impl<'a> ApiKey<'a> {
    /// The id and secret of `text`, if it has the form of a key.
    pub fn parse(text: &'a str) -> Option<ApiKey<'a>> {
        let (id, secret) = text.trim().strip_prefix(PREFIX)?.split_once('_')?;
        let hex_of = |part: &str, bytes: usize| part.len() == 2 * bytes && part.bytes().all(|b| b.is_ascii_hexdigit());
        (hex_of(id, ID_BYTES) && hex_of(secret, SECRET_BYTES)).then_some(ApiKey { id, secret })
    }

    /// Whether the secret hashes to `stored` (hex), compared in constant time.
    pub fn matches(&self, stored: &str) -> bool {
        hash(self.secret).as_bytes().ct_eq(stored.as_bytes()).into()
    }
}

/// The stored form of a secret: its SHA-256, as hex.
fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_matches_its_own_hash_only() {
        let (one, two) = (NewKey::generate(), NewKey::generate());
        assert_ne!(one.id, two.id);
        assert!(one.text.starts_with("dmk_") && one.text.len() == 4 + 12 + 1 + 64, "{}", one.text);
        let key = ApiKey::parse(&one.text).unwrap();
        assert!(key.matches(&one.hash));
        assert!(!key.matches(&two.hash));
        assert!(!key.matches(""));
    }

    #[test]
    fn text_not_of_the_form_is_no_key() {
        let good = NewKey::generate().text;
        for bad in ["", "dmk_", "secret", &good[1..], &good.replace("dmk_", "dmx_"), &format!("{good}0")] {
            assert_eq!(ApiKey::parse(bad), None, "{bad:?}");
        }
    }
}
