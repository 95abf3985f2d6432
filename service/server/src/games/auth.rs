//! Seat tokens: 256 random bits handed out once, stored only as SHA-256 hashes, and matched
//! against a seat's hash when a caller acts; and the games' random ids, short enough to type.

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

/// The characters of a game id: Crockford's base 32 in lower case, digits and letters without
/// i, l, o and u, so that an id read aloud or copied by hand from a chat comes out right.
const ID_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// Characters in a game id: 50 random bits. Ids are names, not secrets (a seat acts with its
/// token), so they need only be unlikely to meet: a new game whose id is taken draws another.
const GAME_ID_LENGTH: usize = 10;

/// A new game id, such as `7k2mq9xj4d`.
pub fn new_game_id() -> String {
    let mut bytes = [0u8; GAME_ID_LENGTH];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    // 256 is a multiple of 32: every character is equally likely.
    bytes.iter().map(|&byte| char::from(ID_ALPHABET[usize::from(byte) % ID_ALPHABET.len()])).collect()
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
