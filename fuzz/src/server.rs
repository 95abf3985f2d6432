//! The server in process for the requests target: the three gRPC services as `damiera serve`
//! builds them, over a game store in a temporary SQLite file, on a Tokio runtime of its own, with
//! small search caps so that a fuzzed search ends in milliseconds.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use damiera_server::api::{EngineApi, GameApi, GameSettings, RulesApi};
use damiera_server::games::store::Store;
use damiera_server::search::{Caps, SearchPool, Sessions, Tablebases};
use damiera_server::serve::start_games;
use tokio::runtime::Runtime;

/// The longest a fuzzed search thinks: the search itself is not what is fuzzed here.
const MAX_MOVE_TIME: Duration = Duration::from_millis(5);

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
    /// Holds the SQLite file; removed when the process ends.
    _folder: tempfile::TempDir,
}

/// The one server of this process, started on first use.
pub fn server() -> &'static Server {
    static SERVER: OnceLock<Server> = OnceLock::new();
    SERVER.get_or_init(start)
}

fn start() -> Server {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().expect("a Tokio runtime");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let url = format!("sqlite://{}", folder.path().join("games.db").display());
    let caps = Arc::new(Caps {
        max_perft_depth: 4,
        max_move_time: MAX_MOVE_TIME,
        default_move_time: MAX_MOVE_TIME,
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
    };
    let (rules, engine, games) = runtime.block_on(async {
        let store = Store::open(&url).await.expect("the SQLite store opens");
        let (games, _hub, _host, _seats) =
            start_games(store, Arc::clone(&caps), Tablebases::none(), Arc::clone(&pool), settings);
        (RulesApi::new(Arc::clone(&caps), Arc::clone(&pool)), EngineApi::new(caps, Tablebases::none(), pool), games)
    });
    Server { runtime, rules, engine, games, _folder: folder }
}
