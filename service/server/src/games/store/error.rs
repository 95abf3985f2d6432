//! The store's one error type, and how the database driver's errors map onto it.

use sqlx::migrate::MigrateError;

/// Why the store could not do what it was asked.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot be reached or refused the operation (connection lost, ...).
    #[error("the game store is unavailable: {0}")]
    Unavailable(String),
    /// The database has no room for the change: its disk (or its size limit) is full. Reads
    /// still work, and writes do again once there is room.
    #[error("the game store is full: {0}")]
    Full(String),
    /// The database takes no writes: a read-only file or mount, or a read-only server. Reads
    /// still work.
    #[error("the game store is read-only: {0}")]
    ReadOnly(String),
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
            Error::Database(ref database) => match refusal(database.as_ref()) {
                Some(Refusal::Full) => StoreError::Full(error.to_string()),
                Some(Refusal::ReadOnly) => StoreError::ReadOnly(error.to_string()),
                None => StoreError::Unavailable(error.to_string()),
            },
            _ => StoreError::Unavailable(error.to_string()),
        }
    }
}

/// A database's refusal to write that a retry elsewhere or later cures, not a lost connection.
enum Refusal {
    Full,
    ReadOnly,
}

/// Which refusal `error` is, from SQLite's primary result code (SQLITE_FULL 13, SQLITE_READONLY 8,
/// under any extended code) or PostgreSQL's SQLSTATE (disk_full 53100,
/// read_only_sql_transaction 25006).
fn refusal(error: &dyn sqlx::error::DatabaseError) -> Option<Refusal> {
    let code = error.code()?;
    if error.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
        match code.parse::<i32>().ok()? & 0xff {
            13 => Some(Refusal::Full),
            8 => Some(Refusal::ReadOnly),
            _ => None,
        }
    } else {
        match &*code {
            "53100" => Some(Refusal::Full),
            "25006" => Some(Refusal::ReadOnly),
            _ => None,
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

#[cfg(test)]
mod tests {
    use sqlx::{Connection, Executor, SqliteConnection};

    use super::*;

    /// A real SQLite error from `statements`, run on a fresh in-memory database.
    async fn sqlite_error(setup: &str, statement: &str) -> StoreError {
        let mut connection = SqliteConnection::connect("sqlite::memory:").await.expect("in-memory SQLite opens");
        connection.execute(setup).await.expect("the setup runs");
        StoreError::from(connection.execute(statement).await.expect_err("the statement must fail"))
    }

    #[tokio::test]
    async fn a_full_database_is_full() {
        // Two pages: the schema fills them, and the row has no room (SQLITE_FULL).
        let setup = "CREATE TABLE t (x BLOB); PRAGMA max_page_count = 2;";
        let error = sqlite_error(setup, "INSERT INTO t VALUES (zeroblob(100000))").await;
        assert!(matches!(error, StoreError::Full(ref m) if m.contains("full")), "{error:?}");
    }

    #[tokio::test]
    async fn a_read_only_database_is_read_only() {
        let setup = "CREATE TABLE t (x INTEGER); PRAGMA query_only = ON;";
        let error = sqlite_error(setup, "INSERT INTO t VALUES (1)").await;
        assert!(matches!(error, StoreError::ReadOnly(_)), "{error:?}");
    }

    #[tokio::test]
    async fn other_database_errors_are_unavailable() {
        let error = sqlite_error("SELECT 1", "INSERT INTO missing VALUES (1)").await;
        assert!(matches!(error, StoreError::Unavailable(ref m) if m.contains("no such table")), "{error:?}");
    }
}
