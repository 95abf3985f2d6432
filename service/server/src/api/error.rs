//! [`ApiError`]: every way a request can fail, mapped to a gRPC status in one place.
//!
//! Errors follow Google's AIP-193: a status code, a message for people, an `ErrorInfo` whose
//! reason a program can switch on (domain [`DOMAIN`]), a `BadRequest` naming the field at fault,
//! and a `RetryInfo` when trying again later can help.

use std::collections::HashMap;
use std::time::Duration;

use damiera_engine::{FenError, NotationError};
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// The `ErrorInfo` domain of every Damiera error.
pub const DOMAIN: &str = "damiera.dev";

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
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    fn code(&self) -> Code {
        match self {
            ApiError::GameOver(_) => Code::FailedPrecondition,
            ApiError::Overloaded { .. } => Code::ResourceExhausted,
            ApiError::Internal(_) => Code::Internal,
            _ => Code::InvalidArgument,
        }
    }

    /// The request field at fault, for `BadRequest`.
    fn field(&self) -> Option<&str> {
        match self {
            ApiError::UnsupportedVariant { field, .. }
            | ApiError::InvalidFen { field, .. }
            | ApiError::Move { field, .. }
            | ApiError::LimitExceeded { field, .. }
            | ApiError::InvalidArgument { field, .. } => Some(field),
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
            _ => {}
        }
        metadata
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        let message = error.to_string();
        let mut details = ErrorDetails::with_error_info(error.reason(), DOMAIN, error.metadata());
        if let Some(field) = error.field() {
            details.add_bad_request_violation(field, message.clone());
        }
        if let ApiError::Overloaded { retry_after, .. } = error {
            details.set_retry_info(Some(retry_after));
        }
        Status::with_error_details(error.code(), message, details)
    }
}
