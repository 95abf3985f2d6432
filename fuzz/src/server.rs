//! The server in process for the requests target: the three gRPC services as `damiera serve`
//! builds them, over a game store in a temporary SQLite file (in memory where the system has a
//! tmpfs), on a single-threaded Tokio runtime of its own (each call runs on the fuzzing thread,
//! with no handoff to a worker), with small search caps so that a fuzzed search ends within a
//! millisecond or two. A server takes [`INPUTS_PER_STORE`] inputs, then the next starts on a
//! fresh store, so that a run of millions of inputs does not fill memory with their games.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damiera_server::api::{EngineApi, GameApi, GameSettings, RulesApi};
use damiera_server::games::store::Store;
use damiera_server::search::{Caps, SearchPool, Sessions, Tablebases};
use damiera_server::serve::start_games;
use tokio::runtime::Runtime;

/// The longest a fuzzed search thinks: the search itself is not what is fuzzed here. A search
/// without limits thinks for [`DEFAULT_MOVE_TIME`]: the caps have no default by depth or nodes.
const MAX_MOVE_TIME: Duration = Duration::from_millis(2);

/// How long a search thinks when its request sets no limit.
const DEFAULT_MOVE_TIME: Duration = Duration::from_millis(1);

/// The services, and what keeps them alive.
pub struct Server {
    /// Runs every call and the services' background tasks.
    pub runtime: Runtime,
    /// `RulesService`.
    pub rules: RulesApi,
    /// `EngineService`.
    pub engine: EngineApi,
    /// `GameService`.
    pub games: GameApi,
    /// Holds the SQLite file, removed when the server is dropped; a later fuzzing process removes
    /// it if this one was killed first.
    _folder: tempfile::TempDir,
}

/// Inputs one server takes before the next starts on a fresh store. A store grows by about a
/// kilobyte an input (its game, and what its calls created), and a `ListGames` call loads and
/// replays a page of games (50 by default), so a large store slows every input: with a fresh store
/// every 100,000 inputs a run made 605 inputs a second, every 3,000 1,235, every 300 1,520 (25 s
/// each, one after the other, on the same loaded machine). A listing asks for up to 500 games, and
/// the fuzzer learns to ask for many: from one grown corpus, 75 s runs made 31,100 inputs on
/// average with a fresh store every 300 (22,600 to 37,600), 39,000 every 50 (35,000 to 41,700).
/// Fifty games still fill a default page, and a fuzzed page size pages through them.
pub const INPUTS_PER_STORE: u64 = 50;

/// The server for the next input: the one running, or a new one on a fresh store once the one
/// running has taken [`INPUTS_PER_STORE`] inputs (the old one, its runtime and its store's
/// folder are dropped then; every call of an input has ended with the input).
pub fn for_input() -> Arc<Server> {
    static CURRENT: Mutex<Option<(u64, Arc<Server>)>> = Mutex::new(None);
    let mut current = CURRENT.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    match &mut *current {
        Some((inputs, server)) if *inputs < INPUTS_PER_STORE => {
            *inputs += 1;
            Arc::clone(server)
        }
        _ => {
            *current = None;
            let server = Arc::new(start());
            *current = Some((1, Arc::clone(&server)));
            server
        }
    }
}

fn start() -> Server {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a Tokio runtime");
    let folder = database_folder();
    let url = format!("sqlite://{}", folder.path().join("games.db").display());
    let caps = Arc::new(Caps {
        max_perft_depth: 4,
        max_move_time: MAX_MOVE_TIME,
        default_move_time: DEFAULT_MOVE_TIME,
        max_depth: 6,
        max_threads: 1,
        max_hash_mib: 1,
        default_hash_mib: 1,
        max_multipv: 4,
    });
    let pool = Arc::new(SearchPool::new(1, 4, Duration::from_secs(1), 1, Sessions::new(0, Duration::from_secs(60))));
    let settings = GameSettings {
        max_pdn_bytes: 64 * 1024,
        keep_alive: Duration::from_secs(30),
        timing: damiera_server::games::clock::TimingPolicy::default(),
        watch_patience: Duration::from_secs(30),
        max_watches_per_client: 0,
        retention: None,
    };
    let (rules, engine, games) = runtime.block_on(async {
        let store = Store::open(&url).await.expect("the SQLite store opens");
        let (games, _hub, _host, _seats) =
            start_games(store, Arc::clone(&caps), Tablebases::none(), Arc::clone(&pool), settings);
        (RulesApi::new(Arc::clone(&caps), Arc::clone(&pool)), EngineApi::new(caps, Tablebases::none(), pool), games)
    });
    Server { runtime, rules, engine, games, _folder: folder }
}

/// The start of the name of every folder [`database_folder`] makes; the process id follows.
const FOLDER_PREFIX: &str = "damiera-fuzz-";

/// Where the SQLite file lives: a folder in memory (`/dev/shm`, a tmpfs) where the system has
/// one, else the system's temporary folder. The store syncs the same way on either (WAL,
/// `synchronous=FULL`), but a sync on a tmpfs returns at once instead of waiting for a disk.
fn database_folder() -> tempfile::TempDir {
    let memory = Path::new("/dev/shm");
    let parent = if memory.is_dir() { memory.to_path_buf() } else { std::env::temp_dir() };
    remove_orphans(&parent);
    tempfile::Builder::new()
        .prefix(&format!("{FOLDER_PREFIX}{}-", std::process::id()))
        .tempdir_in(&parent)
        .expect("a temporary folder")
}

/// Removes the folders in `parent` of fuzzing processes that have ended: a process that ends by
/// a signal or an exit never drops its server, so its folder outlives it. Only where `/proc`
/// tells which processes live.
fn remove_orphans(parent: &Path) {
    let processes = Path::new("/proc");
    let Ok(entries) = std::fs::read_dir(parent) else { return };
    if !processes.join("self").exists() {
        return;
    }
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid =
            name.to_str().and_then(|name| name.strip_prefix(FOLDER_PREFIX)).and_then(|rest| rest.split('-').next());
        if pid.is_some_and(|pid| !processes.join(pid).exists()) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
