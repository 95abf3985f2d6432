//! Every `ApiError` pinned to its reason, its code and its details, and to the table of errors in
//! `docs/api.md`, so that the code and the documentation cannot drift apart.
//!
//! The examples cover every variant: `covered` matches them without a wildcard, so a new variant
//! does not build until it has an example here and a row in the table.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use damiera_engine::{fen, notation, Position, Variant};
use damiera_server::api::{ApiError, DOMAIN};
use tonic::{Code, Status};
use tonic_types::StatusExt;

/// What one error must look like on the wire.
struct Expected {
    /// The `ErrorInfo` reason.
    reason: &'static str,
    /// The status code.
    code: Code,
    /// The `BadRequest` field, when there is one.
    field: Option<&'static str>,
    /// The `ErrorInfo` metadata keys.
    metadata: &'static [&'static str],
    /// Whether a `RetryInfo` says when to retry.
    retry: bool,
    /// Whether a `QuotaFailure` names whose allowance ran out.
    quota: bool,
}

fn expect(
    reason: &'static str,
    code: Code,
    field: Option<&'static str>,
    metadata: &'static [&'static str],
) -> Expected {
    Expected { reason, code, field, metadata, retry: false, quota: false }
}

fn retried(mut expected: Expected) -> Expected {
    expected.retry = true;
    expected
}

fn quota(mut expected: Expected) -> Expected {
    expected.quota = true;
    expected
}

fn examples() -> Vec<(ApiError, Expected)> {
    use Code::*;
    let start = Position::start(Variant::Italian);
    let move_error = |text| notation::parse(&start, text).unwrap_err();
    let fen_error = fen::parse(Variant::Italian, "W:W99:B1").unwrap_err();
    vec![
        (
            ApiError::UnsupportedVariant { field: "variant".into(), value: 9 },
            expect("UNSUPPORTED_VARIANT", InvalidArgument, Some("variant"), &[]),
        ),
        (
            ApiError::InvalidFen { field: "fen".into(), error: fen_error },
            expect("INVALID_FEN", InvalidArgument, Some("fen"), &["token"]),
        ),
        (
            ApiError::Move { field: "notation".into(), error: move_error("22-") },
            expect("INVALID_MOVE_TEXT", InvalidArgument, Some("notation"), &[]),
        ),
        (
            ApiError::Move { field: "notation".into(), error: move_error("22-17") },
            expect("ILLEGAL_MOVE", InvalidArgument, Some("notation"), &["legalMoves"]),
        ),
        (
            ApiError::Move { field: "notation".into(), error: ambiguous() },
            expect("AMBIGUOUS_MOVE", InvalidArgument, Some("notation"), &["candidates"]),
        ),
        (
            ApiError::over_limit("search.limits.depth", 99, 40),
            expect("LIMIT_EXCEEDED", InvalidArgument, Some("search.limits.depth"), &["maximum"]),
        ),
        (
            ApiError::invalid("search.level", "levels go from 1 to 20"),
            expect("INVALID_ARGUMENT", InvalidArgument, Some("search.level"), &[]),
        ),
        (ApiError::GameOver("White wins".into()), expect("GAME_OVER", FailedPrecondition, None, &[])),
        (
            ApiError::Overloaded { queued: 4, retry_after: Duration::from_millis(500) },
            retried(expect("OVERLOADED", ResourceExhausted, None, &[])),
        ),
        (ApiError::GameNotFound("abc".into()), expect("GAME_NOT_FOUND", NotFound, None, &[])),
        (ApiError::GameDeleted("games/abc".into()), expect("GAME_DELETED", NotFound, None, &[])),
        (ApiError::MissingToken, expect("MISSING_TOKEN", Unauthenticated, None, &[])),
        (ApiError::WrongToken, expect("WRONG_TOKEN", PermissionDenied, None, &[])),
        (ApiError::ApiKey, expect("API_KEY_REQUIRED", Unauthenticated, None, &[])),
        (ApiError::ApiKeyRevoked, expect("API_KEY_REVOKED", Unauthenticated, None, &[])),
        (
            ApiError::Stale {
                field: "etag".into(),
                expected: "\"3-9f2c41d0\"".into(),
                actual: "\"4-0b7e3a15\"".into(),
            },
            expect("STALE_STATE", Aborted, Some("etag"), &[]),
        ),
        (ApiError::NotYourTurn("it is Black's turn".into()), expect("NOT_YOUR_TURN", FailedPrecondition, None, &[])),
        (
            ApiError::DrawAlreadyOffered("White has offered".into()),
            expect("DRAW_ALREADY_OFFERED", FailedPrecondition, None, &[]),
        ),
        (ApiError::NoDrawOffer("no offer".into()), expect("NO_DRAW_OFFER", FailedPrecondition, None, &[])),
        (ApiError::MoveCountRefused("no king".into()), expect("MOVE_COUNT_REFUSED", FailedPrecondition, None, &[])),
        (ApiError::TimeUp("white's clock ran out".into()), expect("TIME_UP", FailedPrecondition, None, &[])),
        (ApiError::AbortRefused("too late".into()), expect("ABORT_REFUSED", FailedPrecondition, None, &[])),
        (ApiError::TakebackRefused("off".into()), expect("TAKEBACK_REFUSED", FailedPrecondition, None, &[])),
        (ApiError::Contended("game changed 8 times".into()), expect("CONTENDED", Aborted, None, &[])),
        (ApiError::StoreUnavailable("down".into()), retried(expect("STORE_UNAVAILABLE", Unavailable, None, &[]))),
        (ApiError::StoreFull("disk full".into()), retried(expect("STORE_FULL", ResourceExhausted, None, &[]))),
        (ApiError::StoreReadOnly("read-only".into()), retried(expect("STORE_READ_ONLY", Unavailable, None, &[]))),
        (ApiError::ShuttingDown { from_ply: None }, expect("SHUTTING_DOWN", Unavailable, None, &[])),
        (ApiError::ShuttingDown { from_ply: Some(7) }, expect("SHUTTING_DOWN", Unavailable, None, &["fromPly"])),
        (
            ApiError::RateLimited { retry_after: Duration::from_secs(1), subject: "key 0123456789ab".into() },
            quota(retried(expect("RATE_LIMITED", ResourceExhausted, None, &[]))),
        ),
        (
            ApiError::WatchTooSlow { from_ply: 12, patience: Duration::from_secs(30) },
            expect("WATCH_TOO_SLOW", ResourceExhausted, None, &["fromPly"]),
        ),
        (ApiError::TooManyWatches { open: 100 }, expect("TOO_MANY_WATCHES", ResourceExhausted, None, &["maximum"])),
        (
            ApiError::RequestTooLarge { detail: "found 300000 bytes".into(), maximum: 262_144 },
            expect("REQUEST_TOO_LARGE", ResourceExhausted, None, &["maximum"]),
        ),
        (ApiError::NoSuchPath("GET /v2/games".into()), expect("NO_SUCH_PATH", NotFound, None, &[])),
        (ApiError::Internal("bug".into()), expect("INTERNAL", Internal, None, &[])),
    ]
}

/// A short capture that fits two moves (Italian, RULES.md's example of a short form).
fn ambiguous() -> damiera_engine::NotationError {
    let position = fen::parse(Variant::Italian, "W:W22:B18,19,10,11").unwrap();
    notation::parse(&position, "22x6").unwrap_err()
}

/// Every variant has an example: this match has no wildcard.
fn covered(error: &ApiError) {
    match error {
        ApiError::UnsupportedVariant { .. }
        | ApiError::InvalidFen { .. }
        | ApiError::Move { .. }
        | ApiError::LimitExceeded { .. }
        | ApiError::InvalidArgument { .. }
        | ApiError::GameOver(_)
        | ApiError::Overloaded { .. }
        | ApiError::GameNotFound(_)
        | ApiError::GameDeleted(_)
        | ApiError::MissingToken
        | ApiError::WrongToken
        | ApiError::ApiKey
        | ApiError::ApiKeyRevoked
        | ApiError::Stale { .. }
        | ApiError::NotYourTurn(_)
        | ApiError::DrawAlreadyOffered(_)
        | ApiError::NoDrawOffer(_)
        | ApiError::MoveCountRefused(_)
        | ApiError::TimeUp(_)
        | ApiError::AbortRefused(_)
        | ApiError::TakebackRefused(_)
        | ApiError::StoreUnavailable(_)
        | ApiError::StoreFull(_)
        | ApiError::StoreReadOnly(_)
        | ApiError::Contended(_)
        | ApiError::ShuttingDown { .. }
        | ApiError::RateLimited { .. }
        | ApiError::WatchTooSlow { .. }
        | ApiError::TooManyWatches { .. }
        | ApiError::RequestTooLarge { .. }
        | ApiError::NoSuchPath(_)
        | ApiError::Internal(_) => {}
    }
}

#[test]
fn every_error_has_its_reason_code_and_details() {
    for (error, expected) in examples() {
        covered(&error);
        let message = error.to_string();
        let status = Status::from(error);
        let name = expected.reason;
        assert_eq!(status.code(), expected.code, "{name}");
        assert_eq!(status.message(), message, "{name}");
        let details = status.get_error_details();
        let info = details.error_info().unwrap_or_else(|| panic!("{name}: no ErrorInfo"));
        assert_eq!((info.reason.as_str(), info.domain.as_str()), (name, DOMAIN));
        let keys: BTreeSet<&str> = info.metadata.keys().map(String::as_str).collect();
        assert_eq!(keys, expected.metadata.iter().copied().collect(), "{name}: metadata");
        let fields: Vec<&str> = details
            .bad_request()
            .map(|bad| bad.field_violations.iter().map(|v| v.field.as_str()).collect())
            .unwrap_or_default();
        assert_eq!(fields, expected.field.into_iter().collect::<Vec<_>>(), "{name}: BadRequest");
        assert_eq!(details.retry_info().is_some(), expected.retry, "{name}: RetryInfo");
        assert_eq!(details.quota_failure().is_some(), expected.quota, "{name}: QuotaFailure");
    }
}

#[test]
fn the_table_in_docs_api_md_lists_every_reason_with_its_code_and_metadata() {
    let table = documented();
    let mut seen = BTreeSet::new();
    for (_, expected) in examples() {
        let name = expected.reason;
        let (code, metadata) = table.get(name).unwrap_or_else(|| panic!("docs/api.md has no row for {name}"));
        assert_eq!(code, &format!("{:?}", expected.code), "docs/api.md: the code of {name}");
        for key in expected.metadata {
            assert!(metadata.contains(&format!("`{key}`")), "docs/api.md: {name}'s row does not name `{key}`");
        }
        seen.insert(name.to_string());
    }
    let documented: BTreeSet<String> = table.into_keys().collect();
    assert_eq!(documented, seen, "docs/api.md lists reasons the server never sends, or misses some");
}

/// The error table of docs/api.md: reason to (code, as tonic spells it, and the metadata column).
fn documented() -> BTreeMap<String, (String, String)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md")).unwrap();
    let section = text.split("\n## Errors").nth(1).expect("docs/api.md has an Errors section");
    let mut table = BTreeMap::new();
    for row in section.lines().skip_while(|line| !line.starts_with("| Reason")).skip(2) {
        if !row.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let code = camel(cells[1].trim_matches('`'));
        for reason in cells[0].split(',') {
            table.insert(reason.trim().trim_matches('`').to_string(), (code.clone(), cells[3].to_string()));
        }
    }
    table
}

/// `FAILED_PRECONDITION` as tonic's `Code` prints it: `FailedPrecondition`.
fn camel(code: &str) -> String {
    code.split('_')
        .map(|word| {
            let (first, rest) = word.split_at(1);
            first.to_string() + &rest.to_lowercase()
        })
        .collect()
}
