//! The store's one error type, and how the database driver's errors map onto it.

use sqlx::migrate::MigrateError;

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached or refused the operation (connection lost, disk full, ...).
    #[error("the game store is unavailable: {0}")]
    Unavailable(String),
    /// Stored data that does not decode (a bug or a hand-edited database).
    #[error("the game store holds unreadable data: {0}")]
    Corrupt(String),
    /// The URL names no supported database.
    #[error("{0}")]
    BadUrl(String),
    /// [`super::Store::create`] was given the id of a stored game (with another request id).
    #[error("a game with id {0:?} is stored already")]
    IdTaken(String),
}

impl StoreError {
    /// The URL `url` did not parse. Only the scheme is quoted: the rest may hold a password.
    pub(super) fn bad_url(url: &str, error: impl std::fmt::Display) -> StoreError {
        let scheme = url.split_once(':').map_or("", |(scheme, _)| scheme);
        StoreError::BadUrl(format!("bad {scheme} database URL: {error}"))
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(error: sqlx::Error) -> StoreError {
        use sqlx::Error;
        match error {
            Error::Configuration(_) => StoreError::BadUrl(format!("bad database URL: {error}")),
            Error::ColumnNotFound(_)
            | Error::ColumnDecode { .. }
            | Error::ColumnIndexOutOfBounds { .. }
            | Error::Decode(_)
            | Error::TypeNotFound { .. } => StoreError::Corrupt(error.to_string()),
            Error::PoolTimedOut => StoreError::Unavailable(format!(
                "no database connection within {:?} (is the database down?)",
                super::ACQUIRE_TIMEOUT
            )),
            _ => StoreError::Unavailable(error.to_string()),
        }
    }
}

impl From<MigrateError> for StoreError {
    fn from(error: MigrateError) -> StoreError {
        match error {
            MigrateError::Execute(error) => StoreError::from(error),
            MigrateError::ExecuteMigration(error, version) => {
                StoreError::Unavailable(format!("migration {version} failed: {error}"))
            }
            // Applied migrations this build does not know, or knows with other contents.
            other => StoreError::Corrupt(format!("the database schema does not match this server: {other}")),
        }
    }
}

/// Whether `error` is the violation of a unique constraint (or primary key).
pub(super) fn is_unique_violation(error: &sqlx::Error) -> bool {
    error.as_database_error().is_some_and(|error| error.is_unique_violation())
}
