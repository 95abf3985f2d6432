//! What clocks cost a server: nothing while nobody moves, and how soon a fallen flag reaches the
//! watchers.
//!
//! - `idle`: the server's CPU time over `--duration` with no games, then with `--games N` timed
//!   games in progress (1 h + 0, each side has moved once, so a clock runs in every game), read
//!   from `/proc/<--server-pid>/stat`. A server that polled each game would show it here.
//! - `flags`: `--games N` games of `--base` + 0 between two people, created through the first of
//!   `--servers` (replicas on one PostgreSQL, or one server), each side moves once, and then
//!   nobody moves: every game is lost on time. A watcher per game on every server records when the
//!   result reaches it; prints how long after each game's deadline, per server (p50, p99, max).
//!
//! ```text
//! cargo run --release -p damiera-server --example clock_load -- idle --server http://127.0.0.1:50051 \
//!     --games 1000 --duration 30s --server-pid "$(pgrep -n damiera)"
//! cargo run --release -p damiera-server --example clock_load -- flags \
//!     --servers http://127.0.0.1:50051,http://127.0.0.1:50052 --games 50 --base 2s
//! ```

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{Args, Parser, Subcommand};
use damiera_engine::{fen, notation, Variant};
use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{
    self as pb, position_status::State, seat::Player, time_control, CreateGameRequest, GameOptions, MakeMoveRequest,
    Seat, TimeControl, WatchGameRequest,
};
use tokio_stream::StreamExt;
use tonic::transport::Channel;
use tonic::Request;

#[derive(Parser)]
#[command(about = "What clocks cost: idle CPU with timed games, and flag-fall latency to watchers")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The server's CPU time with no games, then with N timed games in progress.
    Idle(IdleArgs),
    /// How soon watchers on every server see a flag fall.
    Flags(FlagArgs),
}

#[derive(Args)]
struct IdleArgs {
    /// The server.
    #[arg(long)]
    server: String,
    /// The server's process id.
    #[arg(long)]
    server_pid: u32,
    /// Timed games in progress.
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// How long each CPU reading lasts.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "30s")]
    duration: Duration,
}

#[derive(Args)]
struct FlagArgs {
    /// The servers, comma-separated; games are created through the first.
    #[arg(long, value_delimiter = ',')]
    servers: Vec<String>,
    /// Games.
    #[arg(long, default_value_t = 50)]
    games: usize,
    /// Each side's time.
    #[arg(long, value_parser = humantime::parse_duration, default_value = "2s")]
    base: Duration,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    match Cli::parse().command {
        Command::Idle(args) => idle(args).await,
        Command::Flags(args) => flags(args).await,
    }
}

async fn idle(args: IdleArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mut games = GameServiceClient::connect(args.server.clone()).await?;
    let before = cpu_ms(args.server_pid)?;
    tokio::time::sleep(args.duration).await;
    let no_games = cpu_ms(args.server_pid)? - before;
    for _ in 0..args.games {
        let (name, white, black) = create(&mut games, Duration::from_secs(3600)).await?;
        play_any(&mut games, &name, &white).await?;
        play_any(&mut games, &name, &black).await?;
    }
    // Let the creation's work settle before reading.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = cpu_ms(args.server_pid)?;
    tokio::time::sleep(args.duration).await;
    let with_games = cpu_ms(args.server_pid)? - before;
    let seconds = args.duration.as_secs_f64();
    println!(
        "server CPU over {seconds:.0} s: no games {no_games} ms; {} timed games running {with_games} ms",
        args.games
    );
    Ok(())
}

async fn flags(args: FlagArgs) -> Result<(), Box<dyn std::error::Error>> {
    let first = args.servers.first().ok_or("give --servers")?;
    let mut games = GameServiceClient::connect(first.clone()).await?;
    let mut watchers = Vec::new();
    for _ in 0..args.games {
        let (name, white, black) = create(&mut games, args.base).await?;
        play_any(&mut games, &name, &white).await?;
        let game = play_any(&mut games, &name, &black).await?;
        let deadline = game.state.and_then(|s| s.clock).and_then(|c| c.deadline).ok_or("no deadline")?;
        let deadline_ms = deadline.seconds * 1000 + i64::from(deadline.nanos) / 1_000_000;
        for (server, url) in args.servers.iter().enumerate() {
            let client = GameServiceClient::connect(url.clone()).await?;
            watchers.push(tokio::spawn(watch_flag(client, name.clone(), server, deadline_ms)));
        }
    }
    let mut late_by_server = vec![Vec::new(); args.servers.len()];
    for watcher in watchers {
        let (server, late) = watcher.await??;
        late_by_server[server].push(late);
    }
    for (url, mut late) in args.servers.iter().zip(late_by_server) {
        late.sort_unstable();
        let at = |q: f64| late[((late.len() - 1) as f64 * q).round() as usize];
        println!(
            "{url}: {} flags seen after their deadline: p50 {} ms, p99 {} ms, max {} ms",
            late.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
    Ok(())
}

/// Watches `name` through one server until it is over; answers how long after `deadline_ms` the
/// result came.
async fn watch_flag(
    mut client: GameServiceClient<Channel>,
    name: String,
    server: usize,
    deadline_ms: i64,
) -> Result<(usize, i64), String> {
    let request = WatchGameRequest { name: name.clone(), from_ply: None };
    let mut stream = client.watch_game(request).await.map_err(|e| e.to_string())?.into_inner();
    while let Some(message) = stream.next().await {
        let state = match message.map_err(|e| e.to_string())?.event {
            Some(Event::Game(game)) => game.state,
            Some(Event::Update(update)) => update.state,
            _ => None,
        };
        let over = state.and_then(|s| s.status).is_some_and(|s| s.state != State::Ongoing as i32);
        if over {
            return Ok((server, now_ms() - deadline_ms));
        }
    }
    Err(format!("{name}: the watch ended before the game"))
}

/// A game between two people with `base` + 0 each: its name and both tokens.
async fn create(
    games: &mut GameServiceClient<Channel>,
    base: Duration,
) -> Result<(String, String, String), Box<dyn std::error::Error>> {
    let person = || Some(Seat { player: Some(Player::Person(pb::Person::default())) });
    let fischer = time_control::Fischer { base: Some(base.try_into()?), increment: None };
    let request = CreateGameRequest {
        variant: pb::Variant::Italian as i32,
        white: person(),
        black: person(),
        options: Some(GameOptions {
            time_control: Some(TimeControl { kind: Some(time_control::Kind::Fischer(fischer)) }),
            ..Default::default()
        }),
        ..Default::default()
    };
    let response = games.create_game(request).await?.into_inner();
    Ok((response.game.ok_or("no game")?.name, response.white_token, response.black_token))
}

/// Plays the first legal move for the seat of `token`; answers the game after it.
async fn play_any(
    games: &mut GameServiceClient<Channel>,
    name: &str,
    token: &str,
) -> Result<pb::Game, Box<dyn std::error::Error>> {
    let game =
        games.get_game(pb::GetGameRequest { name: name.to_string(), ..Default::default() }).await?.into_inner().game;
    let position = game.and_then(|g| g.state).and_then(|s| s.position).ok_or("no position")?;
    let position = fen::parse(Variant::Italian, &position.fen)?;
    let mv = position.legal_moves().into_iter().next().ok_or("no legal move")?;
    let mut request = Request::new(MakeMoveRequest {
        name: name.to_string(),
        notation: notation::write(Variant::Italian, &mv),
        ..Default::default()
    });
    request.metadata_mut().insert("authorization", format!("Bearer {token}").parse()?);
    Ok(games.make_move(request).await?.into_inner().game.ok_or("no game")?)
}

/// The CPU time (user and system) process `pid` has used, in milliseconds.
fn cpu_ms(pid: u32) -> Result<u64, Box<dyn std::error::Error>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The fields after the command name (which may hold spaces) end with `)`.
    let fields: Vec<&str> = stat.rsplit_once(')').ok_or("bad /proc stat")?.1.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>()? + fields[12].parse::<u64>()?;
    // Linux counts in clock ticks of 1/100 s (USER_HZ) on every platform it runs on here.
    Ok(ticks * 10)
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}
