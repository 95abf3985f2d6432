//! Seat tokens: 256 random bits handed out once, stored only as SHA-256 hashes, and matched
//! against a seat's hash when a caller acts; and the games' random ids.

use damiera_engine::Color;
use sha2::{Digest, Sha256};

use super::record::GameHeader;

/// Random bytes in a token.
const TOKEN_BYTES: usize = 32;

/// A new secret token, as hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    hex::encode(bytes)
}

/// A new game id: 128 random bits, as hex.
pub fn new_game_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    hex::encode(bytes)
}

/// The stored form of a token.
pub fn hash_token(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The seat whose token `token` is; a token acts for that seat only.
pub fn seat_of_token(header: &GameHeader, token: &str) -> Option<Color> {
    let hash = hash_token(token);
    Color::ALL.into_iter().find(|&color| header.token_hash(color) == Some(hash.as_str()))
}
