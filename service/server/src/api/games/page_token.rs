//! `ListGames`'s page tokens (Google AIP-158): opaque to clients and bound to the tenant and the
//! filters of the listing they continue.
//!
//! A token is base64url (no padding) of a format version, the first bytes of the SHA-256 of the
//! caller's tenant and the request's filters, and the cursor: the creation time (big-endian
//! milliseconds) and the id of the page's last game. It is no secret (anyone may decode it) but no
//! number to edit either: a token altered, cut, sent by another tenant, or sent with other filters
//! than the listing that made it answers `INVALID_ARGUMENT` (field `page_token`). The page size and
//! the view may change between pages.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::api::ApiError;
use crate::games::store::PageCursor;
use crate::proto as pb;
use crate::tenants::TenantId;

/// The format of the tokens written now; a server reading an older one refuses it.
const VERSION: u8 = 1;

/// Bytes of the filters' hash kept in a token: enough to tell listings apart, not a signature.
const FILTER_HASH_BYTES: usize = 8;

/// The bytes before the id: version, filter hash, creation time.
const FIXED_BYTES: usize = 1 + FILTER_HASH_BYTES + 8;

/// The token of the page after `cursor`, in the listing `request` asked for on behalf of `tenant`.
pub fn encode(tenant: &TenantId, request: &pb::ListGamesRequest, cursor: &PageCursor) -> String {
    let mut bytes = Vec::with_capacity(FIXED_BYTES + cursor.id.len());
    bytes.push(VERSION);
    bytes.extend_from_slice(&filter_hash(tenant, request));
    bytes.extend_from_slice(&cursor.created_at_ms.to_be_bytes());
    bytes.extend_from_slice(cursor.id.as_bytes());
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The cursor in `request`'s page token, which must come from a listing of `tenant`'s with the same
/// filters.
pub fn decode(tenant: &TenantId, request: &pb::ListGamesRequest) -> Result<PageCursor, ApiError> {
    let bad = |why: &str| ApiError::invalid("page_token", format!("{why}: pass next_page_token back unchanged"));
    let bytes = URL_SAFE_NO_PAD.decode(&request.page_token).map_err(|_| bad("not a page token"))?;
    if bytes.len() <= FIXED_BYTES || bytes[0] != VERSION {
        return Err(bad("not a page token of this server"));
    }
    if bytes[1..=FILTER_HASH_BYTES] != filter_hash(tenant, request) {
        return Err(bad(
            "this page token belongs to another listing (another tenant's, or other filters: variant, state, reason)",
        ));
    }
    let time: [u8; 8] = bytes[FILTER_HASH_BYTES + 1..FIXED_BYTES].try_into().expect("eight bytes");
    let id = String::from_utf8(bytes[FIXED_BYTES..].to_vec()).map_err(|_| bad("not a page token"))?;
    Ok(PageCursor { created_at_ms: i64::from_be_bytes(time), id })
}

/// What a token is bound to: the tenant, and every filter of the request as sent.
fn filter_hash(tenant: &TenantId, request: &pb::ListGamesRequest) -> [u8; FILTER_HASH_BYTES] {
    let filters = [request.variant, request.state, request.win_reason, request.draw_reason, request.abort_reason];
    let mut hash = Sha256::new();
    // The name's length first, so that no name runs into the filters after it.
    hash.update((tenant.as_str().len() as u32).to_be_bytes());
    hash.update(tenant.as_str().as_bytes());
    for value in filters {
        hash.update(value.to_be_bytes());
    }
    hash.finalize()[..FILTER_HASH_BYTES].try_into().expect("a SHA-256 is longer")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(variant: pb::Variant) -> pb::ListGamesRequest {
        pb::ListGamesRequest { variant: variant.into(), ..Default::default() }
    }

    #[test]
    fn a_token_gives_back_its_cursor_to_the_same_filters_only() {
        let cursor = PageCursor { created_at_ms: 1_765_000_000_123, id: "7k2mq9xj4d".to_string() };
        let tenant = TenantId::default();
        let mut request = listing(pb::Variant::Italian);
        request.page_token = encode(&tenant, &request, &cursor);
        assert!(!request.page_token.contains("7k2mq9xj4d"), "{}", request.page_token);
        let read = decode(&tenant, &request).unwrap();
        assert_eq!((read.created_at_ms, read.id.as_str()), (cursor.created_at_ms, "7k2mq9xj4d"));

        let mut other = listing(pb::Variant::Turkish);
        other.page_token = request.page_token.clone();
        let error = decode(&tenant, &other).unwrap_err();
        assert!(error.to_string().contains("other filters"), "{error}");

        let portal = TenantId::parse("portal").unwrap();
        let error = decode(&portal, &request).unwrap_err();
        assert!(error.to_string().contains("another tenant's"), "{error}");
    }

    #[test]
    fn an_altered_or_foreign_token_is_refused() {
        let mut request = listing(pb::Variant::Italian);
        for token in ["", "31363030303a6162", "not base64!", "AQ"] {
            request.page_token = token.to_string();
            let error = decode(&TenantId::default(), &request).unwrap_err();
            assert_eq!(error.reason(), "INVALID_ARGUMENT", "{token:?}");
        }
    }
}
