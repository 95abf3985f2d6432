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

#[tokio::test]
async fn a_full_disk_refuses_writes_with_store_full_and_play_resumes_when_space_returns() {
    let Some(disk) = Tmpfs::mount("16m") else {
        eprintln!("SKIPPED: SQLite full-disk test: mounting a tmpfs was refused (needs root with CAP_SYS_ADMIN)");
        return;
    };
    let file = disk.folder.join("games.db");
    let database = format!("sqlite://{}", file.display());
    let mut server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    let table = Table::new_games(&server, GAMES, MOVES_EACH_WAY).await;
    table.until_each_has(MOVES_EACH_WAY).await;

    let filler = disk.folder.join("filler");
    fill(&filler);
    table.allow(2 * MOVES_EACH_WAY);
    until("the players' moves fail while the disk is full", async || table.failed() >= GAMES).await;
    // Reads go on.
    let name = table.players[0].name.clone();
    games.get_game(GetGameRequest { name, ..Default::default() }).await.expect("a game reads on a full disk");

    std::fs::remove_file(&filler).expect("the filler is removed");
    table.until_each_has(2 * MOVES_EACH_WAY).await;
    eprintln!("{} calls failed while the disk was full", table.failed());
    let players = table.stop().await;
    assert_only_failures(&players, Code::ResourceExhausted, "STORE_FULL", &mut games).await;
    server.kill();
    assert_eq!(integrity(&file).await, "ok");
    let server = TestServer::start_on(&database, &[]);
    let mut games = server.games().await;
    for player in &players {
        player.assert_stored(&mut games).await;
    }
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
