//! Seat tokens: 256 random bits handed out once, stored only as SHA-256 hashes, and read back from
//! `authorization: Bearer <token>`.

use damiera_engine::Color;
use sha2::{Digest, Sha256};
use tonic::metadata::MetadataMap;

use super::record::GameHeader;
use crate::api::ApiError;

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

/// The seat whose token the call carries; the token acts for that seat only.
pub fn seat_of_caller(metadata: &MetadataMap, header: &GameHeader) -> Result<Color, ApiError> {
    let token = bearer_token(metadata)?;
    let hash = hash_token(token);
    Color::ALL.into_iter().find(|&color| header.token_hash(color) == Some(hash.as_str())).ok_or(ApiError::WrongToken)
}

fn bearer_token(metadata: &MetadataMap) -> Result<&str, ApiError> {
    let value = metadata.get("authorization").ok_or(ApiError::MissingToken)?;
    let text = value.to_str().map_err(|_| ApiError::MissingToken)?;
    // The scheme's name is case-insensitive (RFC 7235).
    let (scheme, token) = text.split_once(' ').ok_or(ApiError::MissingToken)?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return Err(ApiError::MissingToken);
    }
    Ok(token.trim())
}
