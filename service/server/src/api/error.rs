//! [`ApiError`]: every way a request can fail, mapped to a gRPC status in one place, and the
//! domain's errors (hosted games, caps, the search pool) mapped onto it.
//!
//! Errors follow Google's AIP-193: a status code, a message for people, an `ErrorInfo` whose
//! reason a program can switch on (domain [`DOMAIN`]), a `BadRequest` naming the field at fault,
//! and a `RetryInfo` when trying again later can help.

use std::collections::HashMap;
use std::time::Duration;

use damiera_engine::{FenError, GameError, NotationError};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use crate::games::store::StoreError;
use crate::games::{ActionError, HostError, NamedState};
use crate::search::{Cap, JobError, OverCap, PoolError};

/// The `ErrorInfo` domain of every Damiera error.
pub const DOMAIN: &str = "damiera.dev";

/// The delay suggested when the game store is unavailable.
const STORE_RETRY_AFTER: Duration = Duration::from_secs(1);

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The variant field is missing or names no variant this server plays.
    #[error("{field}: choose a variant (VARIANT_ITALIAN, VARIANT_TRIESTINA or VARIANT_TURKISH); got {value}")]
    UnsupportedVariant {
        /// The request field.
        field: String,
        /// The number sent.
        value: i32,
    },
    /// A FEN that does not describe a position of the variant.
    #[error("{field}: {error}")]
    InvalidFen {
        /// The request field.
        field: String,
        /// What is wrong, with the token at fault.
        error: FenError,
    },
    /// A move text that is not a legal move, or fits several.
    #[error("{field}: {error}")]
    Move {
        /// The request field.
        field: String,
        /// Badly written, illegal or ambiguous, with the legal moves or the candidates.
        error: NotationError,
    },
    /// A value over a cap of the server's configuration.
    #[error("{field}: {value} is over this server's limit of {maximum}")]
    LimitExceeded {
        /// The request field.
        field: String,
        /// The value asked for.
        value: String,
        /// The most the server allows.
        maximum: String,
    },
    /// Any other bad field.
    #[error("{field}: {description}")]
    InvalidArgument {
        /// The request field.
        field: String,
        /// What is wrong with it.
        description: String,
    },
    /// The position has no move to search: the game has ended.
    #[error("the game is over: {0}")]
    GameOver(String),
    /// Every search slot is busy and the queue is full.
    #[error("the server is busy: every search slot is taken and {queued} requests are waiting; retry later")]
    Overloaded {
        /// Requests waiting when this one was refused.
        queued: usize,
        /// A suggested delay before trying again.
        retry_after: Duration,
    },
    /// No game has this name.
    #[error("no game is called {0}")]
    GameNotFound(String),
    /// The watched game was deleted: the watch ends.
    #[error("game {0} was deleted")]
    GameDeleted(String),
    /// A call that acts for a seat came without `authorization: Bearer <token>`.
    #[error("this call acts for a seat: send the seat's token as 'authorization: Bearer <token>'")]
    MissingToken,
    /// The token is not one of this game's seat tokens.
    #[error("the token is not a seat token of this game")]
    WrongToken,
    /// The server wants an API key and the call's `x-api-key` is missing or wrong.
    #[error("this server wants an API key: send it as 'x-api-key: <key>'")]
    ApiKey,
    /// The call's API key was revoked.
    #[error("this API key was revoked: ask the operator for a new one")]
    ApiKeyRevoked,
    /// The game has changed since the state the call named.
    #[error("{field}: the game has moved on: expected {expected}, it is now {actual}; read it again")]
    Stale {
        /// The request field that named the state.
        field: String,
        /// What the call expected.
        expected: String,
        /// What the game is at.
        actual: String,
    },
    /// A seat acted when the other is to move.
    #[error("{0}")]
    NotYourTurn(String),
    /// A draw offer while one is standing.
    #[error("{0}")]
    DrawAlreadyOffered(String),
    /// A draw answer with no offer from the other seat.
    #[error("{0}")]
    NoDrawOffer(String),
    /// The move count cannot start now.
    #[error("{0}")]
    MoveCountRefused(String),
    /// The game's deadline passed before the call: it has ended (on time, aborted, abandoned).
    #[error("{0}")]
    TimeUp(String),
    /// An abort once each side has made its first move.
    #[error("{0}")]
    AbortRefused(String),
    /// A takeback offer or answer the game does not allow now.
    #[error("{0}")]
    TakebackRefused(String),
    /// The game store cannot be reached; nothing was changed.
    #[error("{0}; nothing was changed, retry later")]
    StoreUnavailable(String),
    /// The game store has no room for the change; nothing was changed, and reads still work.
    #[error("{0}; nothing was changed, retry once the operator has made room")]
    StoreFull(String),
    /// The game store takes no writes; nothing was changed, and reads still work.
    #[error("{0}; nothing was changed, retry later or on another replica")]
    StoreReadOnly(String),
    /// Other calls kept changing the game while this one was being applied.
    #[error("{0}")]
    Contended(String),
    /// The server is shutting down: it takes no new watches, and ends the open ones, each with
    /// the ply to watch again from.
    #[error("the server is shutting down{}", match from_ply {
        Some(ply) => format!(": watch again with from_ply {ply}"),
        None => "; call another replica or retry".to_string(),
    })]
    ShuttingDown {
        /// Where an ended watch resumes.
        from_ply: Option<u32>,
    },
    /// A watch whose client read nothing while its buffer was full, for the server's patience: it
    /// ends, telling the client where to resume.
    #[error("this watch fell behind: its client read nothing for {}s while its buffer was full; watch again with from_ply {from_ply}", patience.as_secs_f64())]
    WatchTooSlow {
        /// Where the ended watch resumes.
        from_ply: u32,
        /// How long the buffer stayed full.
        patience: Duration,
    },
    /// This client address has as many watches open as one client may.
    #[error("this client has {open} watches open, the most one client address may have; end one first")]
    TooManyWatches {
        /// The watches it has open: the limit.
        open: usize,
    },
    /// This client address or API key has sent more calls than its rate allows.
    #[error("too many calls from this {subject}; retry after {}ms", retry_after.as_millis())]
    RateLimited {
        /// When the next call will be allowed.
        retry_after: Duration,
        /// Whose allowance ran out, for the `QuotaFailure`: `client <address>` or `key <id>`.
        subject: String,
    },
    /// A request message over its service's size limit, refused before it was read.
    #[error("the request is over this call's size limit of {maximum} bytes ({detail})")]
    RequestTooLarge {
        /// What the transport found.
        detail: String,
        /// The limit, in bytes.
        maximum: usize,
    },
    /// An HTTP/JSON request whose method and path name no RPC.
    #[error("{0}: no such method or path; see /openapi.json")]
    NoSuchPath(String),
    /// A fault of the server's own, never of the request.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// A bad field with a free-form description.
    pub fn invalid(field: impl Into<String>, description: impl Into<String>) -> ApiError {
        ApiError::InvalidArgument { field: field.into(), description: description.into() }
    }

    /// A value over the server's cap.
    pub fn over_limit(field: impl Into<String>, value: impl ToString, maximum: impl ToString) -> ApiError {
        ApiError::LimitExceeded { field: field.into(), value: value.to_string(), maximum: maximum.to_string() }
    }

    /// A value over one of the [`Caps`](crate::search::Caps), in the message whose fields start
    /// with `prefix` (`search.`, `white.engine.`, or nothing).
    pub fn over_cap(prefix: &str, error: OverCap) -> ApiError {
        let name = match error.cap {
            Cap::PerftDepth => "depth",
            Cap::Depth => "limits.depth",
            Cap::MoveTime => "limits.move_time",
            Cap::Threads => "threads",
            Cap::HashMib => "hash_mib",
            Cap::MultiPv => "multipv",
        };
        ApiError::over_limit(format!("{prefix}{name}"), error.value, error.maximum)
    }

    /// A search that cannot run, asked in the message whose fields start with `prefix`.
    pub fn search(prefix: &str, error: JobError) -> ApiError {
        match error {
            JobError::OverCap(over) => ApiError::over_cap(prefix, over),
            JobError::Level(_) => ApiError::invalid(format!("{prefix}level"), error.to_string()),
            JobError::GameOver(outcome) => ApiError::GameOver(outcome.to_string()),
        }
    }

    /// The `ErrorInfo` reason: a stable name that clients switch on.
    pub fn reason(&self) -> &'static str {
        match self {
            ApiError::UnsupportedVariant { .. } => "UNSUPPORTED_VARIANT",
            ApiError::InvalidFen { .. } => "INVALID_FEN",
            ApiError::Move { error: NotationError::Syntax { .. }, .. } => "INVALID_MOVE_TEXT",
            ApiError::Move { error: NotationError::Illegal { .. }, .. } => "ILLEGAL_MOVE",
            ApiError::Move { error: NotationError::Ambiguous { .. }, .. } => "AMBIGUOUS_MOVE",
            ApiError::LimitExceeded { .. } => "LIMIT_EXCEEDED",
            ApiError::InvalidArgument { .. } => "INVALID_ARGUMENT",
            ApiError::GameOver(_) => "GAME_OVER",
            ApiError::Overloaded { .. } => "OVERLOADED",
            ApiError::GameNotFound(_) => "GAME_NOT_FOUND",
            ApiError::GameDeleted(_) => "GAME_DELETED",
            ApiError::MissingToken => "MISSING_TOKEN",
            ApiError::WrongToken => "WRONG_TOKEN",
            ApiError::ApiKey => "API_KEY_REQUIRED",
            ApiError::ApiKeyRevoked => "API_KEY_REVOKED",
            ApiError::Stale { .. } => "STALE_STATE",
            ApiError::NotYourTurn(_) => "NOT_YOUR_TURN",
            ApiError::DrawAlreadyOffered(_) => "DRAW_ALREADY_OFFERED",
            ApiError::NoDrawOffer(_) => "NO_DRAW_OFFER",
            ApiError::MoveCountRefused(_) => "MOVE_COUNT_REFUSED",
            ApiError::TimeUp(_) => "TIME_UP",
            ApiError::AbortRefused(_) => "ABORT_REFUSED",
            ApiError::TakebackRefused(_) => "TAKEBACK_REFUSED",
            ApiError::StoreUnavailable(_) => "STORE_UNAVAILABLE",
            ApiError::StoreFull(_) => "STORE_FULL",
            ApiError::StoreReadOnly(_) => "STORE_READ_ONLY",
            ApiError::RateLimited { .. } => "RATE_LIMITED",
            ApiError::WatchTooSlow { .. } => "WATCH_TOO_SLOW",
            ApiError::TooManyWatches { .. } => "TOO_MANY_WATCHES",
            ApiError::ShuttingDown { .. } => "SHUTTING_DOWN",
            ApiError::Contended(_) => "CONTENDED",
            ApiError::RequestTooLarge { .. } => "REQUEST_TOO_LARGE",
            ApiError::NoSuchPath(_) => "NO_SUCH_PATH",
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    fn code(&self) -> Code {
        match self {
            ApiError::GameOver(_)
            | ApiError::NotYourTurn(_)
            | ApiError::DrawAlreadyOffered(_)
            | ApiError::NoDrawOffer(_)
            | ApiError::MoveCountRefused(_)
            | ApiError::TimeUp(_)
            | ApiError::AbortRefused(_)
            | ApiError::TakebackRefused(_) => Code::FailedPrecondition,
            ApiError::Overloaded { .. }
            | ApiError::RateLimited { .. }
            | ApiError::StoreFull(_)
            | ApiError::WatchTooSlow { .. }
            | ApiError::TooManyWatches { .. }
            | ApiError::RequestTooLarge { .. } => Code::ResourceExhausted,
            ApiError::GameNotFound(_) | ApiError::GameDeleted(_) | ApiError::NoSuchPath(_) => Code::NotFound,
            ApiError::MissingToken | ApiError::ApiKey | ApiError::ApiKeyRevoked => Code::Unauthenticated,
            ApiError::WrongToken => Code::PermissionDenied,
            ApiError::Stale { .. } | ApiError::Contended(_) => Code::Aborted,
            ApiError::StoreUnavailable(_) | ApiError::StoreReadOnly(_) | ApiError::ShuttingDown { .. } => {
                Code::Unavailable
            }
            ApiError::Internal(_) => Code::Internal,
            ApiError::UnsupportedVariant { .. }
            | ApiError::InvalidFen { .. }
            | ApiError::Move { .. }
            | ApiError::LimitExceeded { .. }
            | ApiError::InvalidArgument { .. } => Code::InvalidArgument,
        }
    }

    /// The request field at fault, for `BadRequest`.
    fn field(&self) -> Option<&str> {
        match self {
            ApiError::UnsupportedVariant { field, .. }
            | ApiError::InvalidFen { field, .. }
            | ApiError::Move { field, .. }
            | ApiError::LimitExceeded { field, .. }
            | ApiError::InvalidArgument { field, .. }
            | ApiError::Stale { field, .. } => Some(field),
            _ => None,
        }
    }

    /// Machine-readable facts for the `ErrorInfo` metadata: the legal moves of an illegal move,
    /// the candidates of an ambiguous one, the cap that was passed.
    fn metadata(&self) -> HashMap<String, String> {
        let mut metadata = HashMap::new();
        match self {
            ApiError::Move { error: NotationError::Illegal { legal, .. }, .. } => {
                metadata.insert("legalMoves".to_string(), legal.join(" "));
            }
            ApiError::Move { error: NotationError::Ambiguous { candidates, .. }, .. } => {
                metadata.insert("candidates".to_string(), candidates.join(" "));
            }
            ApiError::InvalidFen { error, .. } => {
                if let Some(token) = &error.token {
                    metadata.insert("token".to_string(), token.clone());
                }
            }
            ApiError::LimitExceeded { maximum, .. } => {
                metadata.insert("maximum".to_string(), maximum.clone());
            }
            ApiError::ShuttingDown { from_ply: Some(ply) } | ApiError::WatchTooSlow { from_ply: ply, .. } => {
                metadata.insert("fromPly".to_string(), ply.to_string());
            }
            ApiError::TooManyWatches { open } => {
                metadata.insert("maximum".to_string(), open.to_string());
            }
            ApiError::RequestTooLarge { maximum, .. } => {
                metadata.insert("maximum".to_string(), format!("{maximum} bytes"));
            }
            _ => {}
        }
        metadata
    }
}

impl From<PoolError> for ApiError {
    fn from(error: PoolError) -> ApiError {
        match error {
            PoolError::Overloaded { queued, retry_after } => ApiError::Overloaded { queued, retry_after },
            PoolError::Failed(message) => ApiError::Internal(message),
        }
    }
}

impl From<HostError> for ApiError {
    fn from(error: HostError) -> ApiError {
        let message = error.to_string();
        match error {
            HostError::NotFound(id) => ApiError::GameNotFound(id),
            HostError::WrongToken => ApiError::WrongToken,
            HostError::Stale { state, expected, actual } => {
                let field = match state {
                    NamedState::Ply => "expected_ply",
                    NamedState::Etag => "etag",
                };
                ApiError::Stale { field: field.to_string(), expected, actual }
            }
            HostError::Refused(refused) => refused.into(),
            HostError::TakebacksNeedTwoPeople => ApiError::invalid("options.takebacks", message),
            HostError::RequestIdReused { .. } | HostError::RequestIdMadeAnotherGame => {
                ApiError::invalid("request_id", message)
            }
            HostError::Contended { .. } => ApiError::Contended(message),
            HostError::ResumeBeyondEnd { .. } => ApiError::invalid("from_ply", message),
            HostError::ShuttingDown => ApiError::ShuttingDown { from_ply: None },
            HostError::Store(StoreError::Unavailable(_)) => ApiError::StoreUnavailable(message),
            HostError::Store(StoreError::Full(_)) => ApiError::StoreFull(message),
            HostError::Store(StoreError::ReadOnly(_)) => ApiError::StoreReadOnly(message),
            HostError::Store(StoreError::Corrupt(_) | StoreError::BadUrl(_) | StoreError::IdTaken(_))
            | HostError::Corrupt(_) => ApiError::Internal(message),
        }
    }
}

impl From<ActionError> for ApiError {
    fn from(error: ActionError) -> ApiError {
        let message = error.to_string();
        match error {
            ActionError::NotYourTurn { .. } => ApiError::NotYourTurn(message),
            ActionError::DrawAlreadyOffered(_) => ApiError::DrawAlreadyOffered(message),
            ActionError::NoDrawOffer(_) => ApiError::NoDrawOffer(message),
            ActionError::Game(GameError::Move(error)) => ApiError::Move { field: "notation".to_string(), error },
            ActionError::Game(GameError::Over(outcome)) => ApiError::GameOver(outcome.to_string()),
            ActionError::Game(GameError::MoveCountRefused(_)) => ApiError::MoveCountRefused(message),
            ActionError::Overdue(_) => ApiError::TimeUp(message),
            ActionError::Aborted(_) => ApiError::GameOver(message),
            ActionError::TooLateToAbort => ApiError::AbortRefused(message),
            ActionError::TakebacksOff | ActionError::NoTakeback(_) => ApiError::TakebackRefused(message),
            ActionError::Game(_) | ActionError::NotDue { .. } => ApiError::Internal(message),
        }
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        let message = error.to_string();
        let mut details = ErrorDetails::with_error_info(error.reason(), DOMAIN, error.metadata());
        if let Some(field) = error.field() {
            details.add_bad_request_violation(field, message.clone());
        }
        let code = error.code();
        match error {
            ApiError::Overloaded { retry_after, .. } => {
                details.set_retry_info(Some(retry_after));
            }
            ApiError::RateLimited { retry_after, subject } => {
                details.set_retry_info(Some(retry_after));
                details.add_quota_failure_violation(subject, "calls a second, with bursts of twice that");
            }
            ApiError::StoreUnavailable(_) | ApiError::StoreFull(_) | ApiError::StoreReadOnly(_) => {
                details.set_retry_info(Some(STORE_RETRY_AFTER));
            }
            _ => {}
        }
        Status::with_error_details(code, message, details)
    }
}
