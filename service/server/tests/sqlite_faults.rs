//! Fault injection on a SQLite store. Its disk fills up under load: moves fail with
//! `RESOURCE_EXHAUSTED` / `STORE_FULL` while reads go on; once space returns, play resumes on the
//! same server process, every acknowledged move is stored, the file passes SQLite's integrity
//! check, and a server started again after a kill replays every game. And a file served
//! read-only: reads work, writes fail with `UNAVAILABLE` / `STORE_READ_ONLY`.
//!
//! The full disk is a small tmpfs of the test's own, filled by a file the test writes and then
//! removes. Mounting needs root (CAP_SYS_ADMIN), which tests have on this project's machines and
//! on CI; where mounting is refused, that test is skipped with a loud line.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use damiera_server::proto::{self as pb, GetGameRequest};
use sqlx::{Connection, SqliteConnection};
use support::play::{assert_only_failures, until, Table};
use support::{failure, scratch_path, TestServer};
use tonic::Code;

/// Games played at once, each by its own client.
const GAMES: usize = 3;

/// Moves each game plays before the disk fills; the next as many are tried while it is full and
/// acknowledged once space returns.
const MOVES_EACH_WAY: usize = 4;

/// A tmpfs of the test's own, unmounted when dropped.
struct Tmpfs {
    folder: PathBuf,
}

impl Tmpfs {
    /// Mounts a tmpfs of `size` (mount(8)'s syntax: "16m"), or `None` if mounting is refused.
    fn mount(size: &str) -> Option<Tmpfs> {
        let folder = scratch_path("tmpfs", "d");
        std::fs::create_dir_all(&folder).expect("a folder for the mount");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(&folder)
            .status()
            .is_ok_and(|status| status.success());
        mounted.then_some(Tmpfs { folder })
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.folder).status();
        let _ = std::fs::remove_dir(&self.folder);
    }
}

/// Writes `path` until the disk is full (ENOSPC), leaving no room.
fn fill(path: &Path) {
    let mut file = std::fs::File::create(path).expect("the filler can be created");
    let chunk = vec![0xA5u8; 4096];
    loop {
        match file.write_all(&chunk).and_then(|()| file.sync_all()) {
            Ok(()) => {}
            Err(error) if error.kind() == std::io::ErrorKind::StorageFull => return,
            Err(error) => panic!("the filler failed otherwise than full: {error}"),
        }
    }
}

/// SQLite's own check of the file: "ok", or what is wrong.
async fn integrity(file: &Path) -> String {
    let mut connection =
        SqliteConnection::connect(&format!("sqlite://{}", file.display())).await.expect("the file opens");
    let (verdict,): (String,) =
        sqlx::query_as("PRAGMA integrity_check").fetch_one(&mut connection).await.expect("the check runs");
    verdict
}

/// Plays [`GAMES`] games, each by its own client, on a server storing at `file` through a fault:
/// [`MOVES_EACH_WAY`] moves each, then `begin` brings the fault on and the players try as many
/// more until they have failed [`GAMES`] times (a read must go on meanwhile); `end` takes the
/// fault away, and every game must play its next moves on the same server process. Every failure
/// the players saw must be one of `expected` (code, reason), and the stored moves exactly those
/// acknowledged; then the server is killed, the file must pass SQLite's integrity check, and a
/// new server must replay every game to the same moves.
async fn play_through(file: &Path, begin: impl FnOnce(), end: impl FnOnce(), expected: &[(Code, &str)]) {
    let database = format!("sqlite://{}", file.display());
    let mut server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let table = Table::new_games(&server, GAMES, MOVES_EACH_WAY).await;
    table.until_each_has(MOVES_EACH_WAY).await;

    begin();
    table.allow(2 * MOVES_EACH_WAY);
    until("the players' moves fail under the fault", async || table.failed() >= GAMES).await;
    let name = table.players[0].name.clone();
    games.get_game(GetGameRequest { name, ..Default::default() }).await.expect("a game reads under the fault");

    end();
    table.until_each_has(2 * MOVES_EACH_WAY).await;
    let players = table.stop().await;
    for player in &players {
        let failures = player.failures();
        eprintln!("{}: {} calls failed under the fault: {failures:?}", player.name, failures.len());
        assert!(
            failures.iter().all(|(code, reason)| expected.contains(&(*code, reason.as_str()))),
            "{}: {failures:?}",
            player.name
        );
        player.assert_stored(&mut games).await;
    }
    server.kill();
    assert_eq!(integrity(file).await, "ok");
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    for player in &players {
        player.assert_stored(&mut games).await;
    }
}

#[tokio::test]
async fn a_full_disk_refuses_writes_with_store_full_and_play_resumes_when_space_returns() {
    let Some(disk) = Tmpfs::mount("16m") else {
        eprintln!("SKIPPED: SQLite full-disk test: mounting a tmpfs was refused (needs root with CAP_SYS_ADMIN)");
        return;
    };
    let filler = disk.folder.join("filler");
    let begin = || fill(&filler);
    let end = || std::fs::remove_file(&filler).expect("the filler is removed");
    play_through(&disk.folder.join("games.db"), begin, end, &[(Code::ResourceExhausted, "STORE_FULL")]).await;
}

/// Sets (`chattr +i`) or clears (`chattr -i`) the immutable attribute of `paths`: whether it
/// was done. File modes do not stop root, whom the tests run as; this stops every writer, even
/// through a file already open for writing (ext4), and every open for writing.
fn immutable(paths: &[PathBuf], on: bool) -> bool {
    Command::new("chattr").arg(if on { "+i" } else { "-i" }).args(paths).status().is_ok_and(|status| status.success())
}

/// Paths made immutable while it lives (so that a failing test leaves nothing it cannot remove).
struct Immutable {
    paths: Vec<PathBuf>,
}

impl Immutable {
    /// `paths` made immutable, or `None` if `chattr` refused.
    fn set(paths: Vec<PathBuf>) -> Option<Immutable> {
        immutable(&paths, true).then_some(Immutable { paths })
    }
}

impl Drop for Immutable {
    fn drop(&mut self) {
        immutable(&self.paths, false);
    }
}

#[tokio::test]
async fn a_file_made_read_only_under_a_running_server_refuses_writes_and_play_resumes_when_writable() {
    let folder = scratch_path("read-only-live", "d");
    std::fs::create_dir_all(&folder).expect("a folder for the database");
    let probe = folder.join("probe");
    std::fs::write(&probe, b"").expect("a probe file");
    let supported = Immutable::set(vec![probe.clone()]).is_some();
    std::fs::remove_file(&probe).expect("the probe is removed");
    if !supported {
        eprintln!("SKIPPED: SQLite read-only test: chattr +i was refused (needs root and a file system with it, such as ext4)");
        return;
    }
    let file = folder.join("games.db");
    // The database, its write-ahead log, and the folder (no journal can be created either). The
    // shared-memory index (`-shm`), which SQLite maps into memory, stays writable: SQLite needs
    // it to read a WAL database at all.
    let locked = vec![file.clone(), folder.join("games.db-wal"), folder.clone()];
    let held = std::cell::RefCell::new(None);
    let begin = || *held.borrow_mut() = Some(Immutable::set(locked).expect("chattr +i of the database"));
    let end = || drop(held.borrow_mut().take());
    let expected = [(Code::Unavailable, "STORE_READ_ONLY"), (Code::Unavailable, "STORE_UNAVAILABLE")];
    play_through(&file, begin, end, &expected).await;
}

#[tokio::test]
async fn a_read_only_file_serves_reads_and_refuses_writes_with_store_read_only() {
    let file = scratch_path("read-only", "db");
    let database = format!("sqlite://{}", file.display());
    let server = TestServer::start_on(&database, &[]);
    let table = Table::new_games(&server, 1, 2).await;
    table.until_each_has(2).await;
    let players = table.stop().await;
    drop(server);

    let server = TestServer::start_on(&format!("{database}?mode=ro"), &[]);
    let mut games = server.games().await;
    players[0].assert_stored(&mut games).await;
    let table = Table::seat(&server, players, 3).await;
    until("the player's moves fail", async || table.failed() >= 2).await;
    let players = table.stop().await;
    assert_only_failures(&players, Code::Unavailable, "STORE_READ_ONLY", &mut games).await;
    let person = || Some(pb::Seat { player: Some(pb::seat::Player::Person(pb::Person::default())) });
    let request = pb::CreateGameRequest {
        variant: pb::Variant::Italian as i32,
        white: person(),
        black: person(),
        ..Default::default()
    };
    let refused = failure(games.create_game(request).await);
    assert_eq!((refused.code, refused.reason.as_str()), (Code::Unavailable, "STORE_READ_ONLY"), "{}", refused.message);
}
