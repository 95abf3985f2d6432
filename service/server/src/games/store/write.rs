//! Writing games: creating one, and appending to its log under compare-and-set on the version,
//! each in one transaction that commits before the call returns.

use sqlx::{Any, AnyConnection, Transaction};

use super::error::is_unique_violation;
use super::rows::{first_mover_name, stored_flag};
use super::{postgres, Appended, Backend, Created, Store, StoreError};
use crate::games::record::{color_name, Event, GameHeader, SeatSpec, Summary};

impl Store {
    /// Stores a new game: its header, its summary and, for an imported game, its `events`, all
    /// in one transaction. If the game's tenant used `request_id` already, answers that game and
    /// stores nothing.
    pub async fn create(
        &self,
        header: &GameHeader,
        request_id: Option<&str>,
        summary: &Summary,
        events: &[Event],
    ) -> Result<Created, StoreError> {
        if let Some(game) = self.load_by_request_id(&header.tenant, request_id).await? {
            return Ok(Created::Existing(game));
        }
        let version = events.len() as u64;
        let mut transaction = self.begin_write().await?;
        if let Err(error) = insert_game(&mut transaction, header, request_id, summary, version).await {
            if !is_unique_violation(&error) {
                return Err(error.into());
            }
            // Another call stored this request id or this id meanwhile.
            transaction.rollback().await?;
            return match self.load_by_request_id(&header.tenant, request_id).await? {
                Some(game) => Ok(Created::Existing(game)),
                None => Err(StoreError::IdTaken(header.id.clone())),
            };
        }
        for (seq, event) in (1_i64..).zip(events) {
            insert_event(&mut transaction, &header.id, seq, event).await?;
        }
        self.commit(transaction, &header.id, version, summary.deadline_ms).await?;
        Ok(Created::New)
    }

    /// Appends `event` to game `id` if the game is still at `expected_version`, and rewrites its
    /// summary. The new version is `expected_version + 1`; the engine's lease, which was for the
    /// old version, ends.
    pub async fn append(
        &self,
        id: &str,
        expected_version: u64,
        event: &Event,
        summary: &Summary,
    ) -> Result<Appended, StoreError> {
        if let Some(seq) = self.event_with_request_id(id, event).await? {
            return Ok(Appended::Duplicate(seq));
        }
        // No stored game is that far on.
        let Some(version) = i64::try_from(expected_version).ok().and_then(|expected| expected.checked_add(1)) else {
            return Ok(Appended::Conflict);
        };
        let mut transaction = self.begin_write().await?;
        // The compare-and-set comes first: it takes SQLite's write lock or PostgreSQL's row lock,
        // so a concurrent append waits here and then finds the version moved on.
        let bumped = sqlx::query(
            "UPDATE games SET version = $3, ply = $4, state = $5, engine_due = $6, updated_at_ms = $7, \
             deadline_ms = $8, reason = $9, engine_lease_until_ms = 0 WHERE id = $1 AND version = $2",
        )
        .bind(id)
        .bind(version - 1)
        .bind(version)
        .bind(i64::from(summary.ply))
        .bind(summary.state.name())
        .bind(stored_flag(summary.engine_due))
        .bind(summary.updated_at_ms)
        .bind(summary.deadline_ms)
        .bind(summary.reason)
        .execute(&mut *transaction)
        .await?;
        let inserted = match bumped.rows_affected() {
            0 => None,
            _ => Some(insert_event(&mut transaction, id, version, event).await),
        };
        match inserted {
            Some(Ok(())) => {
                self.commit(transaction, id, expected_version + 1, summary.deadline_ms).await?;
                Ok(Appended::Done)
            }
            Some(Err(error)) if !is_unique_violation(&error) => Err(error.into()),
            // Version moved on, or (a safety net) the request id was stored meanwhile.
            _ => {
                transaction.rollback().await?;
                Ok(self.event_with_request_id(id, event).await?.map_or(Appended::Conflict, Appended::Duplicate))
            }
        }
    }

    /// Begins a transaction that writes. On SQLite `BEGIN IMMEDIATE` takes the write lock at
    /// once, so a writer waits its turn (busy_timeout) here rather than fail midway.
    pub(super) async fn begin_write(&self) -> Result<Transaction<'static, Any>, StoreError> {
        let transaction = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(transaction)
    }

    /// Commits a change of game `id` to `version` (with its new deadline, if it has one), and
    /// tells the subscribers: on PostgreSQL with NOTIFY in the transaction (every replica hears it
    /// at commit), on SQLite after the commit.
    pub(super) async fn commit(
        &self,
        mut transaction: Transaction<'static, Any>,
        id: &str,
        version: u64,
        deadline_ms: Option<i64>,
    ) -> Result<(), StoreError> {
        let change = super::Change { game_id: id.to_owned(), version, deadline_ms };
        if self.backend == Backend::Postgres {
            postgres::notify(&mut transaction, &change).await?;
        }
        transaction.commit().await?;
        if self.backend == Backend::Sqlite {
            // An error only means that nobody is subscribed.
            let _ = self.changes.send(change);
        }
        Ok(())
    }

    /// The sequence number of game `id`'s event with `event`'s request id, if there is one.
    async fn event_with_request_id(&self, id: &str, event: &Event) -> Result<Option<u64>, StoreError> {
        let Some(request_id) = &event.request_id else {
            return Ok(None);
        };
        let seq: Option<i64> = sqlx::query_scalar("SELECT seq FROM events WHERE game_id = $1 AND request_id = $2")
            .bind(id)
            .bind(request_id.as_str())
            .fetch_optional(&self.pool)
            .await?;
        seq.map(|seq| u64::try_from(seq).map_err(|_| StoreError::Corrupt(format!("game {id}: event number {seq}"))))
            .transpose()
    }
}

async fn insert_game(
    connection: &mut AnyConnection,
    header: &GameHeader,
    request_id: Option<&str>,
    summary: &Summary,
    version: u64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO games (id, variant, start_fen, forfeit_on_capture_fault, first_mover, white_seat, \
         black_seat, white_token_hash, black_token_hash, created_at_ms, create_request_id, version, ply, state, \
         engine_due, engine_lease_until_ms, updated_at_ms, timing, takebacks, deadline_ms, reason, tenant) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0, $16, $17, $18, $19, $20, $21)",
    )
    .bind(header.id.as_str())
    .bind(header.variant.name())
    .bind(header.start_fen.as_str())
    .bind(stored_flag(header.forfeit_on_capture_fault))
    .bind(first_mover_name(header.first_mover))
    .bind(seat_json(&header.white))
    .bind(seat_json(&header.black))
    .bind(header.white_token_hash.as_deref())
    .bind(header.black_token_hash.as_deref())
    .bind(header.created_at_ms)
    .bind(request_id)
    .bind(version as i64)
    .bind(i64::from(summary.ply))
    .bind(summary.state.name())
    .bind(stored_flag(summary.engine_due))
    .bind(summary.updated_at_ms)
    .bind(serde_json::to_string(&header.timing).expect("a timing (numbers and names) always serializes"))
    .bind(stored_flag(header.takebacks))
    .bind(summary.deadline_ms)
    .bind(summary.reason)
    .bind(header.tenant.as_str())
    .execute(connection)
    .await?;
    Ok(())
}

async fn insert_event(connection: &mut AnyConnection, id: &str, seq: i64, event: &Event) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO events (game_id, seq, kind, color, text, at_ms, request_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(id)
    .bind(seq)
    .bind(event.kind.name())
    .bind(color_name(event.color))
    .bind(event.text.as_str())
    .bind(event.at_ms)
    .bind(event.request_id.as_deref())
    .execute(connection)
    .await?;
    Ok(())
}

fn seat_json(seat: &SeatSpec) -> String {
    serde_json::to_string(seat).expect("a seat (strings and numbers) always serializes")
}
