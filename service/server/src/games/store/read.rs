//! Reading: whether the database answers, one game by id or by the request id that created it
//! (within its tenant),
//! what is new in a game since a version, and pages of the list.

use std::collections::HashMap;

use super::rows::{self, EVENT_COLUMNS, HEADER_COLUMNS};
use super::{ListFilter, PageCursor, Store, StoreError};
use crate::games::record::{Event, GameHeader, StoredGame};
use crate::tenants::TenantId;

/// What [`Store::load_since`] found of a game: the whole header, and the events after a version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Since {
    /// The header, as stored now.
    pub header: GameHeader,
    /// The game's version (number of events) now.
    pub version: u64,
    /// The events numbered after the version asked about, in order: `version - after` of them,
    /// none when the game is not past that version.
    pub events: Vec<Event>,
}

impl Store {
    /// Whether the database answers: one trivial query through the pool.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Game `id` with all its events, if it is stored.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let sql = format!("SELECT {HEADER_COLUMNS} FROM games WHERE id = $1");
        let Some(row) = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let header = rows::header(&row)?;
        let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id = $1 ORDER BY seq");
        let event_rows = sqlx::query(&sql).bind(id).fetch_all(&self.pool).await?;
        let events = event_rows.iter().map(rows::event).collect::<Result<Vec<_>, _>>()?;
        rows::check_sequence(id, events.iter().map(|(seq, _)| *seq))?;
        Ok(Some(StoredGame { header, events: events.into_iter().map(|(_, event)| event).collect() }))
    }

    /// Game `id`'s header and version, with its events after the first `after`, if it is stored:
    /// one statement, so the version and the events agree.
    pub async fn load_since(&self, id: &str, after: u64) -> Result<Option<Since>, StoreError> {
        let after = i64::try_from(after).map_err(|_| StoreError::Corrupt(format!("game {id}: version {after}")))?;
        // Qualified: `games` has a `request_id` column too.
        let sql = format!(
            "SELECT {HEADER_COLUMNS}, version, e.game_id, e.seq, e.kind, e.color, e.text, e.at_ms, e.request_id \
             FROM games LEFT JOIN events e ON e.game_id = games.id AND e.seq > $2 WHERE games.id = $1 ORDER BY e.seq"
        );
        let found = sqlx::query(&sql).bind(id).bind(after).fetch_all(&self.pool).await?;
        let Some(first) = found.first() else {
            return Ok(None);
        };
        let header = rows::header(first)?;
        let version: i64 = sqlx::Row::try_get(first, "version")?;
        let version =
            u64::try_from(version).map_err(|_| StoreError::Corrupt(format!("game {id}: version {version}")))?;
        // Without a newer event the join's one row has no event: its columns are all NULL.
        let mut events = Vec::with_capacity(found.len());
        for row in &found {
            if sqlx::Row::try_get::<Option<i64>, _>(row, "seq")?.is_some() {
                events.push(rows::event(row)?);
            }
        }
        let first_new = after as u64 + 1;
        rows::check_sequence_from(id, first_new, events.iter().map(|(seq, _)| *seq))?;
        if version >= first_new && events.len() as u64 != version + 1 - first_new {
            return Err(StoreError::Corrupt(format!(
                "game {id}: version {version}, but {} events after {after}",
                events.len()
            )));
        }
        Ok(Some(Since { header, version, events: events.into_iter().map(|(_, event)| event).collect() }))
    }

    /// The game that `tenant`'s call with `request_id` created, if any.
    pub(super) async fn load_by_request_id(
        &self,
        tenant: &TenantId,
        request_id: Option<&str>,
    ) -> Result<Option<StoredGame>, StoreError> {
        let Some(request_id) = request_id else {
            return Ok(None);
        };
        let id: Option<String> =
            sqlx::query_scalar("SELECT id FROM games WHERE tenant = $1 AND create_request_id = $2")
                .bind(tenant.as_str())
                .bind(request_id)
                .fetch_optional(&self.pool)
                .await?;
        match id {
            Some(id) => self.load(&id).await,
            None => Ok(None),
        }
    }

    /// Up to `limit` games that pass `filter`, newest first, starting after `after` (the last
    /// game of the previous page), each with all its events.
    pub async fn list(
        &self,
        filter: &ListFilter,
        limit: u32,
        after: Option<&PageCursor>,
    ) -> Result<Vec<StoredGame>, StoreError> {
        let sql = format!(
            "SELECT {HEADER_COLUMNS} FROM games \
             WHERE ($1 IS NULL OR variant = $1) AND ($2 IS NULL OR state = $2) \
             AND ($3 IS NULL OR (created_at_ms, id) < ($3, $4)) AND ($6 IS NULL OR reason = $6) AND tenant = $7 \
             ORDER BY created_at_ms DESC, id DESC LIMIT $5"
        );
        let header_rows = sqlx::query(&sql)
            .bind(filter.variant.map(|variant| variant.name()))
            .bind(filter.state.map(|state| state.name()))
            .bind(after.map(|cursor| cursor.created_at_ms))
            .bind(after.map(|cursor| cursor.id.as_str()))
            .bind(i64::from(limit))
            .bind(filter.reason.as_deref())
            .bind(filter.tenant.as_str())
            .fetch_all(&self.pool)
            .await?;
        let headers = header_rows.iter().map(rows::header).collect::<Result<Vec<_>, _>>()?;
        let mut events = self.events_of(headers.iter().map(|header| header.id.as_str())).await?;
        Ok(headers
            .into_iter()
            .map(|header| StoredGame { events: events.remove(&header.id).unwrap_or_default(), header })
            .collect())
    }

    /// The events of the games `ids`, each game's in order; a game without events is absent.
    async fn events_of<'a>(
        &self,
        ids: impl ExactSizeIterator<Item = &'a str>,
    ) -> Result<HashMap<String, Vec<Event>>, StoreError> {
        if ids.len() == 0 {
            return Ok(HashMap::new());
        }
        let placeholders = (1..=ids.len()).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ");
        let sql = format!("SELECT {EVENT_COLUMNS} FROM events WHERE game_id IN ({placeholders}) ORDER BY game_id, seq");
        let query = ids.fold(sqlx::query(&sql), |query, id| query.bind(id));
        let mut events = HashMap::<String, Vec<(u64, Event)>>::new();
        for row in query.fetch_all(&self.pool).await? {
            let game_id: String = sqlx::Row::try_get(&row, "game_id")?;
            events.entry(game_id).or_default().push(rows::event(&row)?);
        }
        events
            .into_iter()
            .map(|(id, numbered)| {
                rows::check_sequence(&id, numbered.iter().map(|(seq, _)| *seq))?;
                Ok((id, numbered.into_iter().map(|(_, event)| event).collect()))
            })
            .collect()
    }
}
