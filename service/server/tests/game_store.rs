//! The game store against real databases: every behaviour on a SQLite file and on PostgreSQL.
//!
//! The PostgreSQL tests need `DAMIERA_TEST_POSTGRES`, the URL of a server where they may create
//! databases (`eval "$(bash .ci/postgres)"` starts one); each test makes its own database and
//! drops it at the end. Without the variable they pass with a SKIPPED line, except on CI
//! (`CI=true`), where they fail.

use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use damiera_engine::{Color, Variant};
use damiera_server::games::clock::Timing;
use damiera_server::games::record::{
    Event, EventKind, FirstMoverChoice, GameHeader, GameStateKind, SeatSpec, StoredGame, Summary,
};
use damiera_server::games::store::{Appended, Backend, Change, Created, ListFilter, PageCursor, Store, StoreError};
use damiera_server::tenants::TenantId;
use sqlx::{Connection, Executor, PgConnection, SqliteConnection};
use tokio::sync::broadcast;

/// A database for one test, gone when the test ends.
struct TestDb {
    /// What [`Store::open`] is given.
    url: String,
    /// What removes the database.
    place: Place,
}

enum Place {
    /// The directory holding the SQLite file.
    Sqlite(tempfile::TempDir),
    /// The admin URL and the name of the PostgreSQL database.
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    fn sqlite() -> TestDb {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("games.db").display());
        TestDb { url, place: Place::Sqlite(dir) }
    }

    /// A new database on the `DAMIERA_TEST_POSTGRES` server, or `None` (the test is skipped).
    async fn postgres() -> Option<TestDb> {
        let Ok(admin_url) = std::env::var("DAMIERA_TEST_POSTGRES") else {
            if std::env::var("CI").as_deref() == Ok("true") {
                panic!(
                    "DAMIERA_TEST_POSTGRES is not set: on CI the PostgreSQL tests must run (.ci/run starts a server)"
                );
            }
            static SKIPPED: Once = Once::new();
            // Straight to stderr: cargo test hides what `eprintln!` prints in a passing test.
            SKIPPED.call_once(|| {
                let _ = writeln!(std::io::stderr(), "SKIPPED: set DAMIERA_TEST_POSTGRES to run the PostgreSQL tests");
            });
            return None;
        };
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).expect("after 1970").subsec_nanos();
        let name = format!("damiera_test_{}_{}_{nanos}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        let mut admin = PgConnection::connect(&admin_url).await.expect("DAMIERA_TEST_POSTGRES accepts connections");
        admin.execute(format!("CREATE DATABASE {name}").as_str()).await.expect("CREATE DATABASE");
        let url = with_database(&admin_url, &name);
        Some(TestDb { url, place: Place::Postgres { admin_url, name } })
    }

    async fn open(&self) -> Store {
        Store::open(&self.url).await.expect("the store opens")
    }

    /// Removes the database (the stores on it must be dropped first).
    async fn remove(self) {
        match self.place {
            Place::Sqlite(dir) => dir.close().expect("the temporary directory is removed"),
            Place::Postgres { admin_url, name } => {
                let mut admin =
                    PgConnection::connect(&admin_url).await.expect("DAMIERA_TEST_POSTGRES accepts connections");
                admin.execute(format!("DROP DATABASE {name} WITH (FORCE)").as_str()).await.expect("DROP DATABASE");
            }
        }
    }
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (before_query, query) = url.split_once('?').map_or((url, None), |(url, query)| (url, Some(query)));
    let authority_end = before_query.find("://").map_or(0, |at| at + 3);
    let base = match before_query[authority_end..].find('/') {
        Some(slash) => &before_query[..authority_end + slash],
        None => before_query,
    };
    match query {
        Some(query) => format!("{base}/{name}?{query}"),
        None => format!("{base}/{name}"),
    }
}

/// Runs the check `$check(&TestDb)` as two tests, `$check::sqlite` and `$check::postgres`.
macro_rules! on_both_databases {
    ($($check:ident),* $(,)?) => {$(
        mod $check {
            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn sqlite() {
                let db = super::TestDb::sqlite();
                super::$check(&db).await;
                db.remove().await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
            async fn postgres() {
                let Some(db) = super::TestDb::postgres().await else { return };
                super::$check(&db).await;
                db.remove().await;
            }
        }
    )*};
}

on_both_databases!(
    round_trip,
    create_is_idempotent,
    append_compares_versions,
    one_of_twenty_concurrent_appends_wins,
    list_filters_and_pages,
    engine_work_list_and_lease,
    subscribers_hear_changes,
    delete_compares_versions_and_is_heard,
    the_games_over_longest_are_found_first,
    reopening_keeps_the_games,
);

fn header(id: &str, variant: Variant, created_at_ms: i64) -> GameHeader {
    GameHeader {
        id: id.to_owned(),
        tenant: TenantId::default(),
        variant,
        start_fen: "W:W21-32:B1-12".to_owned(),
        forfeit_on_capture_fault: false,
        first_mover: FirstMoverChoice::White,
        white: SeatSpec::Person { display_name: "Ada".to_owned() },
        black: SeatSpec::Engine { level: 7, depth: None, nodes: None, move_time_ms: None },
        white_token_hash: Some("aa".repeat(32)),
        black_token_hash: None,
        created_at_ms,
        timing: Timing::default(),
        takebacks: false,
    }
}

fn summary(state: GameStateKind, engine_due: bool, updated_at_ms: i64) -> Summary {
    Summary { ply: 0, state, engine_due, updated_at_ms, deadline_ms: None, reason: "" }
}

fn ongoing() -> Summary {
    summary(GameStateKind::Ongoing, false, 0)
}

fn a_move(text: &str, color: Color, request_id: Option<&str>) -> Event {
    Event {
        kind: EventKind::Move,
        color,
        text: text.to_owned(),
        at_ms: 1_000,
        request_id: request_id.map(str::to_owned),
    }
}

async fn create(store: &Store, header: &GameHeader) {
    let created = store.create(header, None, &ongoing(), &[]).await.expect("create");
    assert_eq!(created, Created::New);
}

async fn round_trip(db: &TestDb) {
    let store = db.open().await;
    let mut game = header("g1", Variant::Turkish, 1_700_000_000_123);
    game.forfeit_on_capture_fault = true;
    game.first_mover = FirstMoverChoice::ByLot;
    game.white = SeatSpec::Engine { level: 20, depth: Some(12), nodes: Some(1 << 40), move_time_ms: Some(2_500) };
    game.black = SeatSpec::Person { display_name: "Zoë \"the wall\" O'Neil".to_owned() };
    game.white_token_hash = None;
    game.black_token_hash = Some("bb".repeat(32));
    let events = vec![
        a_move("b3-b4", Color::White, Some("import-1")),
        Event { kind: EventKind::OfferDraw, color: Color::Black, text: String::new(), at_ms: 2_000, request_id: None },
        Event {
            kind: EventKind::AnswerDraw,
            color: Color::White,
            text: "decline".to_owned(),
            at_ms: 3_000,
            request_id: None,
        },
    ];
    let created = store.create(&game, None, &ongoing(), &events).await.expect("create");
    assert_eq!(created, Created::New);
    let loaded = store.load("g1").await.expect("load").expect("g1 is stored");
    assert_eq!(loaded, StoredGame { header: game.clone(), events });
    assert_eq!(loaded.version(), 3);
    assert_eq!(store.load("nothing").await.expect("load"), None);
}

async fn create_is_idempotent(db: &TestDb) {
    let store = db.open().await;
    let first = header("g1", Variant::Italian, 1);
    let created = store.create(&first, Some("req-1"), &ongoing(), &[]).await.expect("create");
    assert_eq!(created, Created::New);

    let retry = header("g2", Variant::Italian, 2);
    let created = store.create(&retry, Some("req-1"), &ongoing(), &[]).await.expect("create again");
    assert_eq!(created, Created::Existing(StoredGame { header: first.clone(), events: vec![] }));
    assert_eq!(store.load("g2").await.expect("load"), None, "a retry stores nothing");

    let same_id = store.create(&first, Some("req-2"), &ongoing(), &[]).await;
    assert!(matches!(same_id, Err(StoreError::IdTaken(ref id)) if id == "g1"), "{same_id:?}");
    let same_id = store.create(&first, None, &ongoing(), &[]).await;
    assert!(matches!(same_id, Err(StoreError::IdTaken(_))), "{same_id:?}");
}

async fn append_compares_versions(db: &TestDb) {
    let store = db.open().await;
    create(&store, &header("g1", Variant::Italian, 1)).await;
    let summary = summary(GameStateKind::Ongoing, true, 5);
    let first = a_move("22-18", Color::White, None);
    assert_eq!(store.append("g1", 0, &first, &summary).await.expect("append"), Appended::Done);
    let late = a_move("23-19", Color::White, None);
    assert_eq!(store.append("g1", 0, &late, &summary).await.expect("append"), Appended::Conflict);
    assert_eq!(store.append("g1", 7, &late, &summary).await.expect("append"), Appended::Conflict);
    assert_eq!(store.append("nothing", 0, &late, &summary).await.expect("append"), Appended::Conflict);

    let reply = a_move("10-14", Color::Black, Some("req-b"));
    assert_eq!(store.append("g1", 1, &reply, &summary).await.expect("append"), Appended::Done);
    // The retry of a call that was stored: at the old version or the new one, same answer.
    assert_eq!(store.append("g1", 1, &reply, &summary).await.expect("retry"), Appended::Duplicate(2));
    assert_eq!(store.append("g1", 2, &reply, &summary).await.expect("retry"), Appended::Duplicate(2));

    let game = store.load("g1").await.expect("load").expect("g1 is stored");
    assert_eq!(game.events, vec![first, reply]);
}

async fn one_of_twenty_concurrent_appends_wins(db: &TestDb) {
    let store = Arc::new(db.open().await);
    create(&store, &header("g1", Variant::Italian, 1)).await;
    let appends = (0..20).map(|n| {
        let store = Arc::clone(&store);
        tokio::spawn(async move {
            let event = a_move(&format!("move {n}"), Color::White, None);
            store.append("g1", 0, &event, &ongoing()).await
        })
    });
    let mut outcomes = Vec::new();
    for append in appends.collect::<Vec<_>>() {
        outcomes.push(append.await.expect("the task ends").expect("no store error (SQLITE_BUSY?)"));
    }
    let done = outcomes.iter().filter(|outcome| **outcome == Appended::Done).count();
    let conflicts = outcomes.iter().filter(|outcome| **outcome == Appended::Conflict).count();
    assert_eq!((done, conflicts), (1, 19), "{outcomes:?}");
    assert_eq!(store.load("g1").await.expect("load").expect("g1 is stored").version(), 1);
}

async fn list_filters_and_pages(db: &TestDb) {
    let store = db.open().await;
    let games = [
        ("a", Variant::Italian, 100, GameStateKind::Ongoing),
        ("b", Variant::Turkish, 200, GameStateKind::Won),
        ("c", Variant::Italian, 200, GameStateKind::Drawn),
        ("d", Variant::Triestina, 300, GameStateKind::Ongoing),
        ("e", Variant::Italian, 400, GameStateKind::Ongoing),
    ];
    for (id, variant, created_at_ms, state) in games {
        let events = [a_move("22-18", Color::White, None)];
        store
            .create(&header(id, variant, created_at_ms), None, &summary(state, false, 0), &events)
            .await
            .expect("create");
    }
    let ids = |page: &[StoredGame]| page.iter().map(|game| game.header.id.clone()).collect::<Vec<_>>();
    let cursor = |page: &[StoredGame]| {
        let last = &page.last().expect("a full page").header;
        PageCursor { created_at_ms: last.created_at_ms, id: last.id.clone() }
    };

    let everything = ListFilter::default();
    let first = store.list(&everything, 2, None).await.expect("list");
    assert_eq!(ids(&first), ["e", "d"]);
    assert!(first.iter().all(|game| game.version() == 1), "games come with their events");
    let second = store.list(&everything, 2, Some(&cursor(&first))).await.expect("list");
    assert_eq!(ids(&second), ["c", "b"], "same creation time: by id, descending");
    let third = store.list(&everything, 2, Some(&cursor(&second))).await.expect("list");
    assert_eq!(ids(&third), ["a"]);

    let italian = ListFilter { variant: Some(Variant::Italian), ..ListFilter::default() };
    assert_eq!(ids(&store.list(&italian, 10, None).await.expect("list")), ["e", "c", "a"]);
    let ongoing_italian =
        ListFilter { variant: Some(Variant::Italian), state: Some(GameStateKind::Ongoing), ..ListFilter::default() };
    let page = store.list(&ongoing_italian, 1, None).await.expect("list");
    assert_eq!(ids(&page), ["e"]);
    assert_eq!(ids(&store.list(&ongoing_italian, 1, Some(&cursor(&page))).await.expect("list")), ["a"]);
    let won = ListFilter { state: Some(GameStateKind::Won), ..ListFilter::default() };
    assert_eq!(ids(&store.list(&won, 10, None).await.expect("list")), ["b"]);
}

async fn engine_work_list_and_lease(db: &TestDb) {
    let store = Arc::new(db.open().await);
    let games = [
        ("waits-long", GameStateKind::Ongoing, true, 50),
        ("waits", GameStateKind::Ongoing, true, 100),
        ("persons-turn", GameStateKind::Ongoing, false, 10),
        ("over", GameStateKind::Won, true, 10),
    ];
    for (id, state, engine_due, updated_at_ms) in games {
        let summary = summary(state, engine_due, updated_at_ms);
        store.create(&header(id, Variant::Italian, 1), None, &summary, &[]).await.expect("create");
    }
    assert_eq!(store.engine_due(1_000, 10).await.expect("engine_due"), ["waits-long", "waits"]);
    assert_eq!(store.engine_due(1_000, 1).await.expect("engine_due"), ["waits-long"]);

    // Two servers claim the same game at once: one gets it.
    let claims = (0..2).map(|_| {
        let store = Arc::clone(&store);
        tokio::spawn(async move { store.claim_engine("waits", 0, 1_000, 31_000).await })
    });
    let mut won = 0;
    for claim in claims.collect::<Vec<_>>() {
        won += usize::from(claim.await.expect("the task ends").expect("claim_engine"));
    }
    assert_eq!(won, 1);
    assert!(!store.claim_engine("waits-long", 1, 1_000, 31_000).await.expect("claim_engine"), "wrong version");
    assert_eq!(store.engine_due(2_000, 10).await.expect("engine_due"), ["waits-long"]);
    assert_eq!(store.engine_due(31_001, 10).await.expect("engine_due"), ["waits-long", "waits"], "the lease ran out");

    // The engine moves: its lease ends with the version it was for.
    let engine_turn_again = summary(GameStateKind::Ongoing, true, 200);
    let event = a_move("10-14", Color::Black, None);
    assert_eq!(store.append("waits", 0, &event, &engine_turn_again).await.expect("append"), Appended::Done);
    assert_eq!(store.engine_due(2_000, 10).await.expect("engine_due"), ["waits-long", "waits"]);
    assert!(store.claim_engine("waits", 1, 2_000, 32_000).await.expect("claim_engine"));
}

async fn subscribers_hear_changes(db: &TestDb) {
    let store = db.open().await;
    let mut changes = store.subscribe();
    create(&store, &header("g1", Variant::Italian, 1)).await;
    assert_eq!(next_change(&mut changes).await, Change { game_id: "g1".to_owned(), version: 0, deadline_ms: None });
    let event = a_move("22-18", Color::White, None);
    store.append("g1", 0, &event, &ongoing()).await.expect("append");
    assert_eq!(next_change(&mut changes).await, Change { game_id: "g1".to_owned(), version: 1, deadline_ms: None });

    if store.backend() == Backend::Postgres {
        // Another replica on the same database hears the changes made through this one.
        let replica = db.open().await;
        let mut replica_changes = replica.subscribe();
        let event = a_move("10-14", Color::Black, None);
        store.append("g1", 1, &event, &ongoing()).await.expect("append");
        assert_eq!(
            next_change(&mut replica_changes).await,
            Change { game_id: "g1".to_owned(), version: 2, deadline_ms: None }
        );
        assert_eq!(next_change(&mut changes).await, Change { game_id: "g1".to_owned(), version: 2, deadline_ms: None });
    }
}

async fn delete_compares_versions_and_is_heard(db: &TestDb) {
    let store = db.open().await;
    let mut changes = store.subscribe();
    create(&store, &header("g1", Variant::Italian, 1)).await;
    create(&store, &header("g2", Variant::Italian, 2)).await;
    let event = a_move("22-18", Color::White, Some("req-1"));
    store.append("g1", 0, &event, &ongoing()).await.expect("append");
    for (id, version) in [("g1", 0), ("g2", 0), ("g1", 1)] {
        assert_eq!(next_change(&mut changes).await, Change { game_id: id.to_owned(), version, deadline_ms: None });
    }
    assert!(!store.delete("g1", 0).await.expect("delete"), "not at version 0 any more");
    assert!(!store.delete("nothing", 0).await.expect("delete"));
    assert!(store.load("g1").await.expect("load").is_some());

    assert!(store.delete("g1", 1).await.expect("delete"));
    assert_eq!(next_change(&mut changes).await, Change { game_id: "g1".to_owned(), version: 2, deadline_ms: None });
    assert_eq!(store.load("g1").await.expect("load"), None);
    assert_eq!(store.load_since("g1", 0).await.expect("load_since"), None);
    assert!(!store.delete("g1", 1).await.expect("delete"), "gone already");
    assert_eq!(store.load("g2").await.expect("load").map(|game| game.header.id), Some("g2".to_owned()));
    // Its events went with it: an append finds no game, and the request id is free again.
    assert_eq!(store.append("g1", 1, &event, &ongoing()).await.expect("append"), Appended::Conflict);
}

async fn the_games_over_longest_are_found_first(db: &TestDb) {
    let store = db.open().await;
    for (id, created_at_ms) in [("won", 1), ("drawn", 2), ("aborted", 3), ("ongoing", 4), ("recent", 5)] {
        create(&store, &header(id, Variant::Italian, created_at_ms)).await;
    }
    let end = |id, state, at_ms| {
        let event = a_move("22-18", Color::White, None);
        let store = &store;
        async move { store.append(id, 0, &event, &summary(state, false, at_ms)).await.expect("append") }
    };
    end("won", GameStateKind::Won, 300).await;
    end("drawn", GameStateKind::Drawn, 100).await;
    end("aborted", GameStateKind::Aborted, 200).await;
    end("ongoing", GameStateKind::Ongoing, 50).await;
    end("recent", GameStateKind::Won, 1_000).await;
    let found = store.finished_before(500, 10).await.expect("finished_before");
    let expected = [("drawn", 1), ("aborted", 1), ("won", 1)].map(|(id, version)| (id.to_owned(), version));
    assert_eq!(found, expected);
    assert_eq!(store.finished_before(500, 2).await.expect("finished_before"), expected[..2]);
    assert_eq!(store.finished_before(100, 10).await.expect("finished_before"), []);
}

async fn next_change(changes: &mut broadcast::Receiver<Change>) -> Change {
    tokio::time::timeout(Duration::from_secs(10), changes.recv())
        .await
        .expect("a change within 10 s")
        .expect("the change feed is open")
}

async fn reopening_keeps_the_games(db: &TestDb) {
    let store = db.open().await;
    create(&store, &header("g1", Variant::Italian, 1)).await;
    store.append("g1", 0, &a_move("22-18", Color::White, None), &ongoing()).await.expect("append");
    drop(store);
    // Opening runs the migrations again: they are applied already, so nothing happens.
    let store = db.open().await;
    let again = db.open().await;
    assert_eq!(store.load("g1").await.expect("load").expect("g1 is stored").version(), 1);
    assert_eq!(again.load("g1").await.expect("load").expect("g1 is stored").version(), 1);
    if let Place::Sqlite(dir) = &db.place {
        let mut file = SqliteConnection::connect(&format!("sqlite://{}", dir.path().join("games.db").display()))
            .await
            .expect("the file opens");
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode").fetch_one(&mut file).await.expect("journal_mode");
        assert_eq!(mode, "wal");
    }
}

#[tokio::test]
async fn sqlite_in_memory() {
    let store = Store::open("sqlite::memory:").await.expect("the store opens");
    assert_eq!(store.backend(), Backend::Sqlite);
    create(&store, &header("g1", Variant::Italian, 1)).await;
    assert_eq!(
        store.append("g1", 0, &a_move("22-18", Color::White, None), &ongoing()).await.expect("append"),
        Appended::Done
    );
    assert_eq!(store.load("g1").await.expect("load").expect("g1 is stored").version(), 1);
}

#[tokio::test]
async fn an_unknown_url_is_bad() {
    for url in ["mysql://localhost/games", "games.db", ""] {
        let opened = Store::open(url).await;
        assert!(matches!(opened, Err(StoreError::BadUrl(_))), "{url}: {:?}", opened.err());
    }
}

#[tokio::test]
async fn an_unreachable_postgres_is_unavailable() {
    // Port 1 on the loopback: nothing listens, the connection is refused at once.
    let opened = Store::open("postgres://postgres:secret@127.0.0.1:1/games").await;
    let Err(StoreError::Unavailable(message)) = &opened else {
        panic!("expected Unavailable, got {:?}", opened.err());
    };
    assert!(!message.contains("secret"), "the password is not shown: {message}");
}
