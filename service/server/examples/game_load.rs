//! Load on hosted games (`GameService`): moves made per second, and how fast one move reaches a
//! thousand watchers.
//!
//! - `moves`: `--games K` games between two people, each driven by one task that plays a legal
//!   move for whichever seat is to move, with that seat's token, and starts a new game when one
//!   ends. Moves are picked locally with `damiera_engine` (seeded: the same games every run), so
//!   every `MakeMove` is legal and the server does its full work: read the game (what its cache
//!   lacks), check the move, store it. Prints moves per second, `MakeMove` latency (p50, p99),
//!   games created and finished, errors by code, and the name of the longest game played.
//! - `watch`: `--watchers N` `WatchGame` streams on one game, spread over `--connections C`
//!   HTTP/2 connections, then `--moves M` moves, one at a time, each once every watcher has the
//!   one before. Prints the time from sending a move to the last watcher receiving it, and from
//!   its answer to the last watcher, median and p99 over the moves; with `--server-pid`, the
//!   server's resident memory (VmRSS) with no watchers and with N, and their difference per
//!   watcher.
//!
//! - `soak`: `--games K` games played at once through two or more replicas (`--servers`), every
//!   call retried on the next replica until answered, while a script kills and restarts one of
//!   them (`scripts/soak`). Each move is retried with its own request id until acknowledged, and
//!   calls of every kind are mixed in: `GetGame` (which must show exactly the moves acknowledged),
//!   `ListGames`, `ExportPdn`, a short `WatchGame` from a recent ply, `BestMove` of the position,
//!   `ListVariants`, and `Resign` of a game at [`MAX_PLIES`]. At the end every game is read back:
//!   its stored moves must be exactly those acknowledged, and replay legally from the start.
//!   Prints the counts, the failures by code, and the verdict (exit status 1 when it fails).
//!
//! ghz drives `CreateGame` and `GetGame` (`scripts/game-load-test`), but not `MakeMove`: a move
//! is legal only in the game's current position and only with the token of the seat to move, so a
//! fixed request replayed by many clients would be refused after its first success, and measure
//! the refusal.
//!
//! Run against a server (`scripts/game-load-test` starts one and runs everything):
//!
//! ```text
//! cargo run --release -p damiera-server --example game_load -- moves --server http://127.0.0.1:50051 \
//!     --games 50 --duration 10s
//! cargo run --release -p damiera-server --example game_load -- watch --server http://127.0.0.1:50051 \
//!     --watchers 1000 --moves 50 --server-pid "$(pgrep -n damiera)"
//! cargo run --release -p damiera-server --example game_load -- plies --server http://127.0.0.1:50051 \
//!     --plies 10,150 --server-pid "$(pgrep -n damiera)"
//! ```
//!
//! - `plies`: what a move costs as its game grows. For each ply of `--plies` (10 and 150 by
//!   default), `--games K` new games are played, untimed, to `--moves M / 2` before that ply,
//!   then moved `M` more times, all at once and timed: moves per second, `MakeMove` latency and,
//!   with `--server-pid`, the server's CPU time per move from /proc (user + system, every
//!   thread; and user and system apart). Every game plays the same seeded line, one that lasts;
//!   the plies take turns for `--rounds` rounds, so a slow spell of a shared machine falls on
//!   both. Prints a row per ply and the last ply's CPU per move over the first's.
//!
//! `--json` prints one JSON object instead of the summary lines.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use damiera_engine::{notation, Color, Game, Move, Variant};
use damiera_server::proto::engine_service_client::EngineServiceClient;
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::rules_service_client::RulesServiceClient;
use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{self as pb, seat::Player, CreateGameRequest, MakeMoveRequest, Seat, WatchGameRequest};
use tokio::sync::mpsc;
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Code;
use tonic::{Request, Status};

/// A game still going after this many moves is left, and a new one started: random play can
/// wander for long with kings only, and long games are not what `moves` measures.
const MAX_PLIES: usize = 200;

/// After an error, a driver waits this long before its next call, so that a server in trouble is
/// not hammered by a busy loop.
const ERROR_PAUSE: Duration = Duration::from_millis(100);

/// How long `watch` waits for every watcher to have a move before counting the missing ones.
const FAN_OUT_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Parser)]
#[command(about = "Load on hosted games: moves per second, and WatchGame fan-out")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Many games played at once: MakeMove throughput and latency.
    Moves(MovesArgs),
    /// Many watchers of one game: how long a move takes to reach them all, and their memory.
    Watch(WatchArgs),
    /// Games played through replicas that are killed and restarted: nothing acknowledged lost.
    Soak(SoakArgs),
    /// Moves at chosen plies: MakeMove's cost as a game grows.
    Plies(PliesArgs),
}

/// What both modes share.
#[derive(Args)]
struct Common {
    /// The server's gRPC address.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// The variant played: italian, triestina or turkish.
    #[arg(long, default_value = "italian")]
    variant: Variant,
    /// The seed of the move picks.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of the summary lines.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct MovesArgs {
    #[command(flatten)]
    common: Common,
    /// Games played at once, one task each.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// HTTP/2 connections the games share.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// How long to play; moves in flight at the end are finished and counted.
    #[arg(long, default_value = "10s", value_parser = humantime::parse_duration)]
    duration: Duration,
}

#[derive(Args)]
struct WatchArgs {
    #[command(flatten)]
    common: Common,
    /// WatchGame streams on the one game.
    #[arg(long, default_value_t = 1000)]
    watchers: usize,
    /// HTTP/2 connections the streams are spread over.
    #[arg(long, default_value_t = 10)]
    connections: usize,
    /// Moves played, one at a time.
    #[arg(long, default_value_t = 50)]
    moves: usize,
    /// The pause after every watcher has a move, before the next.
    #[arg(long, default_value = "20ms", value_parser = humantime::parse_duration)]
    pause: Duration,
    /// The server's process id, to read its memory from /proc; without it, memory is not shown.
    #[arg(long)]
    server_pid: Option<u32>,
}

#[derive(Args)]
struct SoakArgs {
    #[command(flatten)]
    common: Common,
    /// The other replicas' gRPC addresses, comma-separated; calls go to each in turn.
    #[arg(long, value_delimiter = ',')]
    replicas: Vec<String>,
    /// Games played at once, one task each.
    #[arg(long, default_value_t = 8)]
    games: usize,
    /// How long to play; the moves in flight at the end are finished.
    #[arg(long, default_value = "10m", value_parser = humantime::parse_duration)]
    duration: Duration,
}

#[derive(Args)]
struct PliesArgs {
    #[command(flatten)]
    common: Common,
    /// The plies measured, in this order; the last is compared with the first.
    #[arg(long, value_delimiter = ',', default_values_t = [10, 150])]
    plies: Vec<usize>,
    /// Games moved at once at each ply, one task each.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Moves timed in each game, from `ply - moves / 2` on.
    #[arg(long, default_value_t = 20)]
    moves: usize,
    /// How many times each ply is measured, the plies taking turns.
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// HTTP/2 connections the games share.
    #[arg(long, default_value_t = 4)]
    connections: usize,
    /// The server's process id, to read its CPU time from /proc; without it, CPU is not shown.
    #[arg(long)]
    server_pid: Option<u32>,
}

#[tokio::main]
async fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => moves(args).await,
        Command::Watch(args) => watch(args).await,
        Command::Soak(args) => soak(args).await,
        Command::Plies(args) => plies(args).await,
    };
    if let Err(error) = result {
        eprintln!("game_load: {error}");
        std::process::exit(1);
    }
}

// moves

/// What one driver saw.
#[derive(Default)]
struct Tally {
    /// The latency of every stored move.
    moves: Vec<Duration>,
    /// The latency of every created game.
    creates: Vec<Duration>,
    /// Games played to their end.
    finished: u64,
    /// Failed calls by gRPC code.
    errors: BTreeMap<String, u64>,
    /// The game with the most moves, and their number: a realistic game to read (GetGame).
    longest: Option<(usize, String)>,
}

impl Tally {
    fn merge(&mut self, other: Tally) {
        self.moves.extend(other.moves);
        self.creates.extend(other.creates);
        self.finished += other.finished;
        for (code, n) in other.errors {
            *self.errors.entry(code).or_default() += n;
        }
        self.longest = self.longest.take().max(other.longest);
    }

    async fn failed(&mut self, status: &Status) {
        *self.errors.entry(format!("{:?}", status.code())).or_default() += 1;
        tokio::time::sleep(ERROR_PAUSE).await;
    }
}

async fn moves(args: MovesArgs) -> Result<(), String> {
    let channels = connect(&args.common.server, args.connections).await?;
    let started = Instant::now();
    let until = started + args.duration;
    let drivers: Vec<_> = (0..args.games)
        .map(|i| {
            let client = GameServiceClient::new(channels[i % channels.len()].clone());
            let seed = args.common.seed.wrapping_add(i as u64);
            tokio::spawn(play_games(client, args.common.variant, seed, until))
        })
        .collect();
    let mut tally = Tally::default();
    for driver in drivers {
        tally.merge(driver.await.map_err(|e| format!("a driver failed: {e}"))?);
    }
    let seconds = started.elapsed().as_secs_f64();
    let per_second = tally.moves.len() as f64 / seconds;
    let (move_p50, move_p99) = (percentile_ms(&mut tally.moves, 50.0), percentile_ms(&mut tally.moves, 99.0));
    let (create_p50, create_p99) = (percentile_ms(&mut tally.creates, 50.0), percentile_ms(&mut tally.creates, 99.0));
    if args.common.json {
        let report = serde_json::json!({
            "seconds": seconds, "games": args.games, "moves": tally.moves.len(), "moves_per_second": per_second,
            "move_p50_ms": move_p50, "move_p99_ms": move_p99,
            "created": tally.creates.len(), "create_p50_ms": create_p50, "create_p99_ms": create_p99,
            "finished": tally.finished, "errors": tally.errors,
            "longest_game": tally.longest.as_ref().map(|(_, name)| name),
            "longest_game_moves": tally.longest.as_ref().map(|(plies, _)| plies),
        });
        println!("{report}");
    } else {
        println!(
            "{} moves in {seconds:.1} s, {} games at once: {per_second:.0} moves/s",
            tally.moves.len(),
            args.games
        );
        println!("MakeMove: p50 {move_p50:.2} ms, p99 {move_p99:.2} ms");
        println!("CreateGame: {} games, p50 {create_p50:.2} ms, p99 {create_p99:.2} ms", tally.creates.len());
        println!("{} games played to their end; errors: {:?}", tally.finished, tally.errors);
        if let Some((plies, name)) = &tally.longest {
            println!("the longest game: {name}, {plies} moves");
        }
    }
    Ok(())
}

/// Plays games until `until`, one at a time: creates one, plays it to its end (or [`MAX_PLIES`]),
/// creates the next. A failed move leaves the game's state unknown, so a new game follows it.
async fn play_games(mut client: GameServiceClient<Channel>, variant: Variant, seed: u64, until: Instant) -> Tally {
    let mut tally = Tally::default();
    let mut picks = Picks::new(seed);
    while Instant::now() < until {
        let sent = Instant::now();
        let seats = match client.create_game(two_people(variant)).await {
            Ok(response) => Seats::from(response.into_inner()),
            Err(status) => {
                tally.failed(&status).await;
                continue;
            }
        };
        tally.creates.push(sent.elapsed());
        let mut game = Game::new(variant);
        while Instant::now() < until && !game.outcome().is_over() && game.ply() < MAX_PLIES {
            let legal = game.position().legal_moves();
            let chosen = legal[picks.below(legal.len())];
            let sent = Instant::now();
            match client.make_move(seats.next_move(&game, &chosen)).await {
                Ok(_) => tally.moves.push(sent.elapsed()),
                Err(status) => {
                    tally.failed(&status).await;
                    break;
                }
            }
            game.play_move(&chosen).expect("a move from the legal moves is legal");
        }
        if game.outcome().is_over() {
            tally.finished += 1;
        }
        tally.longest = tally.longest.take().max(Some((game.ply(), seats.name)));
    }
    tally
}

// watch

async fn watch(args: WatchArgs) -> Result<(), String> {
    let variant = args.common.variant;
    let line = unfinished_line(variant, args.moves, args.common.seed)?;
    let channels = connect(&args.common.server, args.connections).await?;
    let mut client = GameServiceClient::new(channels[0].clone());
    let seats = Seats::from(client.create_game(two_people(variant)).await.map_err(|e| e.to_string())?.into_inner());
    let rss_before = args.server_pid.map(rss_kib).transpose()?;

    let (reports, mut received) = mpsc::unbounded_channel();
    for i in 0..args.watchers {
        let watcher = GameServiceClient::new(channels[i % channels.len()].clone());
        tokio::spawn(follow(watcher, seats.name.clone(), reports.clone()));
    }
    drop(reports);
    let ready = gather(&mut received, 0, args.watchers).await;
    if ready.count < args.watchers {
        return Err(format!("only {} of {} watchers got the game", ready.count, args.watchers));
    }
    // Let the server settle (the streams' first messages freed) before reading its memory.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_watching = args.server_pid.map(rss_kib).transpose()?;

    let (mut from_send, mut from_answer, mut missed) = (Vec::new(), Vec::new(), 0);
    let mut game = Game::new(variant);
    for chosen in &line {
        let sent = Instant::now();
        client.make_move(seats.next_move(&game, chosen)).await.map_err(|e| format!("a move failed: {e}"))?;
        let answered = Instant::now();
        game.play_move(chosen).expect("the line is legal");
        let arrived = gather(&mut received, game.ply() as i32, args.watchers).await;
        missed += args.watchers - arrived.count;
        let last = arrived.last.ok_or("no watcher got a move")?;
        from_send.push(last - sent);
        // A watcher may have the move before the mover has its answer: that counts as zero.
        from_answer.push(last.saturating_duration_since(answered));
        tokio::time::sleep(args.pause).await;
    }

    let send_ms = (percentile_ms(&mut from_send, 50.0), percentile_ms(&mut from_send, 99.0));
    let answer_ms = (percentile_ms(&mut from_answer, 50.0), percentile_ms(&mut from_answer, 99.0));
    let per_watcher =
        rss_before.zip(rss_watching).map(|(before, after)| (after as f64 - before as f64) / args.watchers as f64);
    if args.common.json {
        let report = serde_json::json!({
            "watchers": args.watchers, "connections": channels.len(), "moves": line.len(),
            "send_to_last_p50_ms": send_ms.0, "send_to_last_p99_ms": send_ms.1,
            "answer_to_last_p50_ms": answer_ms.0, "answer_to_last_p99_ms": answer_ms.1,
            "missed": missed, "rss_before_kib": rss_before, "rss_watching_kib": rss_watching,
            "kib_per_watcher": per_watcher,
        });
        println!("{report}");
    } else {
        println!("{} watchers over {} connections, {} moves", args.watchers, channels.len(), line.len());
        println!("move sent to the last watcher: median {:.2} ms, p99 {:.2} ms", send_ms.0, send_ms.1);
        println!("move answered to the last watcher: median {:.2} ms, p99 {:.2} ms", answer_ms.0, answer_ms.1);
        println!("updates missed: {missed}");
        if let (Some(before), Some(after), Some(per)) = (rss_before, rss_watching, per_watcher) {
            println!("server VmRSS: {before} KiB with no watchers, {after} KiB with them: {per:.1} KiB a watcher");
        }
    }
    Ok(())
}

/// One watcher: reports the ply of the game when its stream opens, then that of every update.
async fn follow(mut client: GameServiceClient<Channel>, name: String, reports: mpsc::UnboundedSender<(i32, Instant)>) {
    let mut stream = match client.watch_game(WatchGameRequest { name, from_ply: None }).await {
        Ok(response) => response.into_inner(),
        Err(status) => return eprintln!("game_load: WatchGame failed: {status}"),
    };
    while let Some(message) = stream.next().await {
        let state = match message.map(|m| m.event) {
            Ok(Some(Event::Game(game))) => game.state,
            Ok(Some(Event::Update(update))) => update.state,
            Ok(Some(Event::KeepAlive(_)) | None) => continue,
            Err(status) => return eprintln!("game_load: a watch stream failed: {status}"),
        };
        let ply = state.map_or(0, |s| s.ply);
        if reports.send((ply, Instant::now())).is_err() {
            return;
        }
    }
}

/// How many watchers reported a ply, and when the last of them did.
struct Arrivals {
    count: usize,
    last: Option<Instant>,
}

/// Waits until `watchers` watchers report `ply` (or [`FAN_OUT_TIMEOUT`] passes).
async fn gather(received: &mut mpsc::UnboundedReceiver<(i32, Instant)>, ply: i32, watchers: usize) -> Arrivals {
    let mut arrivals = Arrivals { count: 0, last: None };
    let deadline = tokio::time::Instant::now() + FAN_OUT_TIMEOUT;
    while arrivals.count < watchers {
        match tokio::time::timeout_at(deadline, received.recv()).await {
            Ok(Some((reported, at))) if reported == ply => {
                arrivals.count += 1;
                arrivals.last = arrivals.last.max(Some(at));
            }
            Ok(Some(_)) => {}
            Ok(None) | Err(_) => break,
        }
    }
    arrivals
}

/// `plies` moves from the start that leave the game going: the watchers' streams end with the
/// game, and a game over would end the measurement early. The first seed from `seed` whose
/// random game lasts that long.
fn unfinished_line(variant: Variant, plies: usize, seed: u64) -> Result<Vec<Move>, String> {
    for attempt in 0..10_000 {
        let mut picks = Picks::new(seed.wrapping_add(attempt));
        let mut game = Game::new(variant);
        let mut line = Vec::with_capacity(plies);
        while line.len() < plies && !game.outcome().is_over() {
            let legal = game.position().legal_moves();
            let chosen = legal[picks.below(legal.len())];
            game.play_move(&chosen).expect("a move from the legal moves is legal");
            line.push(chosen);
        }
        if !game.outcome().is_over() {
            return Ok(line);
        }
    }
    Err(format!("no random {variant} game of {plies} moves found; ask for fewer"))
}

// soak

/// The replicas, each over one lazily connected channel (a killed replica's calls fail fast with
/// `UNAVAILABLE` and reconnect once it is back).
#[derive(Clone)]
struct Replicas(Vec<Channel>);

impl Replicas {
    fn new(addresses: &[String]) -> Result<Replicas, String> {
        let channel = |address: &String| {
            Channel::from_shared(address.clone())
                .map(|endpoint| endpoint.connect_timeout(Duration::from_secs(1)).connect_lazy())
                .map_err(|e| format!("{address}: {e}"))
        };
        addresses.iter().map(channel).collect::<Result<_, _>>().map(Replicas)
    }

    /// Calls `call` on one replica after another until one answers; a failure that says nothing
    /// of the request (the replica is down, or went down during the call) is counted and retried,
    /// any other is the answer.
    async fn call<T, F, Fut>(&self, tally: &mut SoakTally, turn: &mut usize, mut call: F) -> Result<T, Status>
    where
        F: FnMut(Channel) -> Fut,
        Fut: std::future::Future<Output = Result<T, Status>>,
    {
        loop {
            *turn += 1;
            match call(self.0[*turn % self.0.len()].clone()).await {
                Err(status) if matches!(status.code(), Code::Unavailable | Code::Unknown | Code::Cancelled) => {
                    *tally.retried.entry(format!("{:?}", status.code())).or_default() += 1;
                    tokio::time::sleep(ERROR_PAUSE).await;
                }
                answer => return answer,
            }
        }
    }
}

/// What the soak's drivers saw.
#[derive(Default)]
struct SoakTally {
    /// Every game made: its name, and the moves acknowledged, in order.
    games: Vec<(String, Vec<String>)>,
    /// Calls answered, by method.
    calls: BTreeMap<&'static str, u64>,
    /// Failures retried on the next replica, by code.
    retried: BTreeMap<String, u64>,
    /// Answers that are errors no fault explains, with their method: the soak fails on any.
    wrong: Vec<String>,
}

impl SoakTally {
    fn merge(&mut self, other: SoakTally) {
        self.games.extend(other.games);
        for (method, n) in other.calls {
            *self.calls.entry(method).or_default() += n;
        }
        for (code, n) in other.retried {
            *self.retried.entry(code).or_default() += n;
        }
        self.wrong.extend(other.wrong);
    }

    /// Counts an answered call of `method`, or keeps its error as wrong.
    fn answered<T>(&mut self, method: &'static str, answer: Result<T, Status>) -> Option<T> {
        match answer {
            Ok(value) => {
                *self.calls.entry(method).or_default() += 1;
                Some(value)
            }
            Err(status) => {
                self.wrong.push(format!("{method}: {:?} {}", status.code(), status.message()));
                None
            }
        }
    }
}

async fn soak(args: SoakArgs) -> Result<(), String> {
    let mut addresses = vec![args.common.server.clone()];
    addresses.extend(args.replicas.iter().cloned());
    let replicas = Replicas::new(&addresses)?;
    let started = Instant::now();
    let until = started + args.duration;
    let drivers: Vec<_> = (0..args.games)
        .map(|i| {
            let seed = args.common.seed.wrapping_add(i as u64);
            tokio::spawn(soak_games(replicas.clone(), args.common.variant, seed, i, until))
        })
        .collect();
    let mut tally = SoakTally::default();
    for driver in drivers {
        tally.merge(driver.await.map_err(|e| format!("a driver failed: {e}"))?);
    }
    let seconds = started.elapsed().as_secs_f64();

    // Every game read back: exactly the moves acknowledged, and a legal replay of them.
    let (mut missing, mut illegal, mut turn) = (Vec::new(), Vec::new(), 0);
    let mut check = SoakTally::default();
    let mut acknowledged = 0;
    for (name, moves) in &tally.games {
        acknowledged += moves.len();
        let request = || pb::GetGameRequest { name: name.clone(), ..Default::default() };
        let answer = replicas
            .call(&mut check, &mut turn, |c| async move { GameServiceClient::new(c).get_game(request()).await })
            .await;
        let Some(game) = check.answered("GetGame", answer).and_then(|r| r.into_inner().game) else { continue };
        let stored: Vec<String> = game.moves.into_iter().map(|m| m.notation).collect();
        if stored != *moves {
            missing.push(format!("{name}: acknowledged {moves:?}, stored {stored:?}"));
        }
        if let Err(error) = replay(args.common.variant, &stored) {
            illegal.push(format!("{name}: {error}"));
        }
    }
    tally.wrong.extend(check.wrong);
    let passed = missing.is_empty() && illegal.is_empty() && tally.wrong.is_empty();
    let report = serde_json::json!({
        "seconds": seconds, "replicas": addresses.len(), "games": tally.games.len(),
        "moves_acknowledged": acknowledged, "calls": tally.calls, "retried": tally.retried,
        "wrong_answers": tally.wrong, "games_not_as_acknowledged": missing, "illegal_replays": illegal,
        "passed": passed,
    });
    if args.common.json {
        println!("{report}");
    } else {
        println!("{report:#}");
    }
    if passed {
        Ok(())
    } else {
        Err("the soak failed: see wrong_answers, games_not_as_acknowledged and illegal_replays".to_string())
    }
}

/// Replays `moves` from the start of `variant`: an error names the first that is not legal.
fn replay(variant: Variant, moves: &[String]) -> Result<(), String> {
    let mut game = Game::new(variant);
    for (ply, text) in moves.iter().enumerate() {
        let chosen = notation::parse(game.position(), text).map_err(|e| format!("move {}: {text}: {e}", ply + 1))?;
        game.play_move(&chosen).map_err(|e| format!("move {}: {text}: {e}", ply + 1))?;
    }
    Ok(())
}

/// One driver of the soak: games one after another until `until`, every move retried (with its
/// request id) until acknowledged, and a call of another kind after each move.
async fn soak_games(replicas: Replicas, variant: Variant, seed: u64, driver: usize, until: Instant) -> SoakTally {
    let mut tally = SoakTally::default();
    let mut picks = Picks::new(seed);
    let mut turn = driver;
    while Instant::now() < until {
        let mut request = two_people(variant);
        // UUIDs, as the server wants them: the driver's seed and its game's number.
        request.request_id = format!("{:08x}-0000-4000-8000-{:012x}", seed as u32, tally.games.len());
        let answer = replicas
            .call(&mut tally, &mut turn, |c| {
                let request = request.clone();
                async move { GameServiceClient::new(c).create_game(request).await }
            })
            .await;
        let Some(seats) = tally.answered("CreateGame", answer).map(|r| Seats::from(r.into_inner())) else { continue };
        let mut game = Game::new(variant);
        let mut moves = Vec::new();
        while Instant::now() < until && !game.outcome().is_over() && game.ply() < MAX_PLIES {
            let legal = game.position().legal_moves();
            let chosen = legal[picks.below(legal.len())];
            let request_id = format!("00000000-0000-4000-8000-{:012x}", game.ply());
            let answer = replicas
                .call(&mut tally, &mut turn, |c| {
                    let mut request = seats.next_move(&game, &chosen);
                    request.get_mut().request_id = request_id.clone();
                    async move { GameServiceClient::new(c).make_move(request).await }
                })
                .await;
            if tally.answered("MakeMove", answer).is_none() {
                break;
            }
            moves.push(notation::write(variant, &chosen));
            game.play_move(&chosen).expect("a move from the legal moves is legal");
            other_call(&replicas, &mut tally, &mut turn, (&seats.name, variant), &moves, picks.below(6)).await;
        }
        if game.ply() >= MAX_PLIES && !game.outcome().is_over() {
            let token = match game.position().turn() {
                Color::White => seats.white.clone(),
                Color::Black => seats.black.clone(),
            };
            let name = seats.name.clone();
            let answer = replicas
                .call(&mut tally, &mut turn, |c| {
                    let mut request = Request::new(pb::ResignRequest { name: name.clone(), ..Default::default() });
                    let header = format!("Bearer {token}").parse().expect("a token is a valid header value");
                    request.metadata_mut().insert("authorization", header);
                    async move { GameServiceClient::new(c).resign(request).await }
                })
                .await;
            // A resignation retried after it was stored finds the game over: that is its answer too.
            match answer {
                Err(status) if status.code() == Code::FailedPrecondition => {}
                answer => _ = tally.answered("Resign", answer),
            }
        }
        tally.games.push((seats.name, moves));
    }
    tally
}

/// One call of kind `kind` (0 to 5) about game `name` of `variant`, whose moves are `moves`.
async fn other_call(
    replicas: &Replicas,
    tally: &mut SoakTally,
    turn: &mut usize,
    (name, variant): (&str, Variant),
    moves: &[String],
    kind: usize,
) {
    let name = name.to_string();
    match kind {
        0 => {
            let answer = replicas
                .call(tally, turn, |c| {
                    let name = name.clone();
                    async move {
                        GameServiceClient::new(c).get_game(pb::GetGameRequest { name, ..Default::default() }).await
                    }
                })
                .await;
            if let Some(game) = tally.answered("GetGame", answer).and_then(|r| r.into_inner().game) {
                let stored: Vec<&String> = game.moves.iter().map(|m| &m.notation).collect();
                if stored != moves.iter().collect::<Vec<_>>() {
                    tally.wrong.push(format!("GetGame: {name} shows {stored:?}, acknowledged {moves:?}"));
                }
            }
        }
        1 => {
            let request = pb::ListGamesRequest { page_size: 10, ..Default::default() };
            let answer = replicas
                .call(tally, turn, |c| {
                    let request = request.clone();
                    async move { GameServiceClient::new(c).list_games(request).await }
                })
                .await;
            tally.answered("ListGames", answer);
        }
        2 => {
            let answer = replicas
                .call(tally, turn, |c| {
                    let name = name.clone();
                    async move { GameServiceClient::new(c).export_pdn(pb::ExportPdnRequest { name }).await }
                })
                .await;
            tally.answered("ExportPdn", answer);
        }
        3 => {
            // From three moves back: the first message must bring the watcher up to date.
            let from_ply = moves.len().saturating_sub(3) as i32;
            let answer = replicas
                .call(tally, turn, |c| {
                    let name = name.clone();
                    async move {
                        let request = WatchGameRequest { name, from_ply: Some(from_ply) };
                        let mut stream = GameServiceClient::new(c).watch_game(request).await?.into_inner();
                        stream.message().await
                    }
                })
                .await;
            if let Some(Some(message)) = tally.answered("WatchGame", answer) {
                let ply = match message.event {
                    Some(Event::Update(update)) => update.state.map_or(0, |s| s.ply),
                    _ => i32::MAX,
                };
                if ply as usize != moves.len() {
                    tally
                        .wrong
                        .push(format!("WatchGame: {name} from {from_ply} reached ply {ply}, not {}", moves.len()));
                }
            }
        }
        4 => {
            let request = pb::BestMoveRequest {
                search: Some(pb::SearchRequest {
                    variant: variant_to_pb(variant).into(),
                    moves: moves.to_vec(),
                    limits: Some(pb::SearchLimits { depth: 2, ..Default::default() }),
                    ..Default::default()
                }),
            };
            let answer = replicas
                .call(tally, turn, |c| {
                    let request = request.clone();
                    async move { EngineServiceClient::new(c).best_move(request).await }
                })
                .await;
            // The game may be over: then GAME_OVER is the right answer.
            match answer {
                Err(status) if status.code() == Code::FailedPrecondition => {}
                answer => _ = tally.answered("BestMove", answer),
            }
        }
        _ => {
            let answer = replicas
                .call(tally, turn, |c| async move {
                    RulesServiceClient::new(c).list_variants(pb::ListVariantsRequest::default()).await
                })
                .await;
            tally.answered("ListVariants", answer);
        }
    }
}

/// The server's resident memory, from /proc.
fn rss_kib(pid: u32) -> Result<u64, String> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).map_err(|e| format!("process {pid}: {e}"))?;
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:")?.trim().strip_suffix("kB")?.trim().parse().ok())
        .ok_or_else(|| format!("no VmRSS in /proc/{pid}/status"))
}

// plies

/// What the moves timed at one ply added up to, over the rounds.
#[derive(Default)]
struct AtPly {
    /// The latency of every timed move.
    moves: Vec<Duration>,
    /// The wall time of the timed moves.
    seconds: f64,
    /// The server's CPU time over the timed moves, user and system, in clock ticks.
    ticks: Option<(u64, u64)>,
}

async fn plies(args: PliesArgs) -> Result<(), String> {
    let variant = args.common.variant;
    let before = args.moves / 2;
    let longest = args.plies.iter().map(|ply| ply.saturating_sub(before) + args.moves).max();
    let line = unfinished_line(variant, longest.ok_or("--plies names no ply")?, args.common.seed)?;
    let channels = connect(&args.common.server, args.connections).await?;
    let mut measured: Vec<AtPly> = args.plies.iter().map(|_| AtPly::default()).collect();
    for _ in 0..args.rounds {
        for (&ply, at_ply) in args.plies.iter().zip(&mut measured) {
            let start = ply.saturating_sub(before);
            let timed = &line[start..start + args.moves];
            let mut games = Vec::with_capacity(args.games);
            for i in 0..args.games {
                let mut client = GameServiceClient::new(channels[i % channels.len()].clone());
                let seats =
                    Seats::from(client.create_game(two_people(variant)).await.map_err(|e| e.to_string())?.into_inner());
                games.push((client, seats));
            }
            // Untimed: every game to `start`, all at once.
            let prepared = games.into_iter().map(|(client, seats)| {
                let line = line[..start].to_vec();
                tokio::spawn(async move { play_line(client, seats, Game::new(variant), line).await })
            });
            let prepared = join_all(prepared.collect()).await?;
            let ticks_before = args.server_pid.map(cpu_ticks).transpose()?;
            let started = Instant::now();
            let drivers = prepared.into_iter().map(|(client, seats, game, _)| {
                let timed = timed.to_vec();
                tokio::spawn(async move { play_line(client, seats, game, timed).await })
            });
            let finished = join_all(drivers.collect()).await?;
            at_ply.seconds += started.elapsed().as_secs_f64();
            let ticks_after = args.server_pid.map(cpu_ticks).transpose()?;
            if let (Some(before), Some(after)) = (ticks_before, ticks_after) {
                let sum = at_ply.ticks.get_or_insert((0, 0));
                *sum = (sum.0 + after.0 - before.0, sum.1 + after.1 - before.1);
            }
            at_ply.moves.extend(finished.into_iter().flat_map(|(_, _, _, latencies)| latencies));
        }
    }
    // SAFETY: sysconf only reads a constant of the system.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    let rows: Vec<_> = args
        .plies
        .iter()
        .zip(&mut measured)
        .map(|(&ply, at)| {
            let calls = at.moves.len();
            let per_move = |ticks: u64| ticks as f64 / ticks_per_second * 1e6 / calls.max(1) as f64;
            let cpu_us = at.ticks.map(|(user, system)| per_move(user + system));
            serde_json::json!({
                "ply": ply, "moves": calls, "moves_per_second": calls as f64 / at.seconds,
                "p50_ms": percentile_ms(&mut at.moves, 50.0), "p99_ms": percentile_ms(&mut at.moves, 99.0),
                "server_cpu_us_per_move": cpu_us,
                "server_user_us_per_move": at.ticks.map(|(user, _)| per_move(user)),
                "server_system_us_per_move": at.ticks.map(|(_, system)| per_move(system)),
            })
        })
        .collect();
    let cpu = |row: &serde_json::Value| row["server_cpu_us_per_move"].as_f64();
    let ratio = cpu(&rows[0]).zip(rows.last().and_then(cpu)).map(|(first, last)| last / first);
    if args.common.json {
        println!(
            "{}",
            serde_json::json!({ "games": args.games, "rounds": args.rounds, "plies": rows, "cpu_ratio": ratio })
        );
    } else {
        println!("{} games a ply, {} moves each a round, {} rounds", args.games, args.moves, args.rounds);
        println!(
            "{:>5} {:>7} {:>9} {:>8} {:>8} {:>15} {:>12}",
            "ply", "moves", "moves/s", "p50 ms", "p99 ms", "server µs/move", "user/system"
        );
        for row in &rows {
            println!(
                "{:>5} {:>7} {:>9.0} {:>8.2} {:>8.2} {:>15} {:>12}",
                row["ply"].as_u64().unwrap_or(0),
                row["moves"].as_u64().unwrap_or(0),
                row["moves_per_second"].as_f64().unwrap_or(0.0),
                row["p50_ms"].as_f64().unwrap_or(0.0),
                row["p99_ms"].as_f64().unwrap_or(0.0),
                cpu(row).map_or("-".to_string(), |us| format!("{us:.1}")),
                match (row["server_user_us_per_move"].as_f64(), row["server_system_us_per_move"].as_f64()) {
                    (Some(user), Some(system)) => format!("{user:.0}/{system:.0}"),
                    _ => "-".to_string(),
                },
            );
        }
        if let Some(ratio) = ratio {
            println!(
                "server CPU per move, ply {} over ply {}: {ratio:.2}",
                args.plies[args.plies.len() - 1],
                args.plies[0]
            );
        }
    }
    Ok(())
}

/// A game's client, seats, local copy and the latencies of the moves [`play_line`] sent.
type Played = (GameServiceClient<Channel>, Seats, Game, Vec<Duration>);

/// Plays `line` in the game of `seats`, whose state is `game`, one move at a time.
async fn play_line(
    mut client: GameServiceClient<Channel>,
    seats: Seats,
    mut game: Game,
    line: Vec<Move>,
) -> Result<Played, String> {
    let mut latencies = Vec::with_capacity(line.len());
    for chosen in &line {
        let sent = Instant::now();
        client.make_move(seats.next_move(&game, chosen)).await.map_err(|e| format!("a move failed: {e}"))?;
        latencies.push(sent.elapsed());
        game.play_move(chosen).expect("the line is legal");
    }
    Ok((client, seats, game, latencies))
}

/// Waits for every task; the first failure fails them all.
async fn join_all(tasks: Vec<tokio::task::JoinHandle<Result<Played, String>>>) -> Result<Vec<Played>, String> {
    let mut done = Vec::with_capacity(tasks.len());
    for task in tasks {
        done.push(task.await.map_err(|e| format!("a driver failed: {e}"))??);
    }
    Ok(done)
}

/// The server's CPU time so far, user and system, in clock ticks, from /proc.
fn cpu_ticks(pid: u32) -> Result<(u64, u64), String> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).map_err(|e| format!("process {pid}: {e}"))?;
    // The fields after the command name, which is in parentheses and may hold spaces: utime and
    // stime are the 14th and 15th of the line, the 12th and 13th after the name.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let field = |n: usize| fields.get(n).and_then(|f| f.parse::<u64>().ok());
    field(11).zip(field(12)).ok_or_else(|| format!("no CPU times in /proc/{pid}/stat"))
}

// Shared

/// `count` HTTP/2 connections to `server`, each established now.
async fn connect(server: &str, count: usize) -> Result<Vec<Channel>, String> {
    let endpoint = Channel::from_shared(server.to_string()).map_err(|e| format!("--server {server}: {e}"))?;
    let mut channels = Vec::with_capacity(count);
    for _ in 0..count.max(1) {
        channels.push(endpoint.connect().await.map_err(|e| format!("cannot connect to {server}: {e}"))?);
    }
    Ok(channels)
}

fn variant_to_pb(variant: Variant) -> pb::Variant {
    match variant {
        Variant::Italian => pb::Variant::Italian,
        Variant::Triestina => pb::Variant::Triestina,
        Variant::Turkish => pb::Variant::Turkish,
    }
}

fn two_people(variant: Variant) -> CreateGameRequest {
    let person = |name: &str| Seat { player: Some(Player::Person(pb::Person { display_name: name.to_string() })) };
    CreateGameRequest {
        variant: variant_to_pb(variant).into(),
        white: Some(person("White")),
        black: Some(person("Black")),
        ..Default::default()
    }
}

/// A created game's name and its seats' tokens.
struct Seats {
    name: String,
    white: String,
    black: String,
}

impl From<pb::CreateGameResponse> for Seats {
    fn from(response: pb::CreateGameResponse) -> Seats {
        let name = response.game.map(|game| game.name).unwrap_or_default();
        Seats { name, white: response.white_token, black: response.black_token }
    }
}

impl Seats {
    /// The request that plays `chosen` in `game`, with the token of the seat to move and the ply
    /// it is for, as a careful client sends it.
    fn next_move(&self, game: &Game, chosen: &Move) -> Request<MakeMoveRequest> {
        let message = MakeMoveRequest {
            name: self.name.clone(),
            notation: notation::write(game.variant(), chosen),
            expected_ply: Some(game.ply() as i32),
            ..Default::default()
        };
        let token = match game.position().turn() {
            Color::White => &self.white,
            Color::Black => &self.black,
        };
        let mut request = Request::new(message);
        let header = format!("Bearer {token}").parse().expect("a token is a valid header value");
        request.metadata_mut().insert("authorization", header);
        request
    }
}

/// Seeded move picks (xorshift64): the same games on every run and machine.
struct Picks(u64);

impl Picks {
    fn new(seed: u64) -> Picks {
        // xorshift never leaves zero; any other start will do.
        Picks(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The `p`th percentile (nearest rank) of `samples`, in milliseconds; 0 when there are none.
fn percentile_ms(samples: &mut [Duration], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples.sort_unstable();
    let rank = ((p / 100.0) * samples.len() as f64).ceil() as usize;
    samples[rank.clamp(1, samples.len()) - 1].as_secs_f64() * 1e3
}
