//! The depth a short `BestMove` reaches on a server against the same search run in this process
//! on a table allocated beforehand (as `damiera bestmove` does): the cost of a search's table, or
//! its absence, at chat speed.
//!
//! For each move time and each position (the Italian bench positions and positions after the
//! openings below), it runs the local search once and then `--calls` `BestMove`s (one thread,
//! `--hash` MiB, the same as the local table), and prints the mean depth of each side and the
//! mean answer time of the calls as the client saw it.
//!
//! ```text
//! target/release/damiera serve --listen 127.0.0.1:50051 --log warn &
//! cargo run --release -p damiera-server --example depth_at_move_time -- --server http://127.0.0.1:50051
//! ```

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use clap::Parser;
use damiera_engine::search::{search_with, Limits, Options, TranspositionTable};
use damiera_engine::{fen, Position, Variant};
use damiera_server::proto::engine_service_client::EngineServiceClient;
use damiera_server::proto::{self as pb, BestMoveRequest, SearchRequest};

/// Positions: the Italian bench set and a few openings.
const POSITIONS: [&str; 6] = [
    "W:W21-32:B1-12",
    "W:W9,17,22,23,24,25,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,13,15,16",
    "W:WK2,21,24,25,26,29,30,31,32:B1,3,4,8,9,10,13",
    "W:WK13,18,19,25,26,27,29,30,32:B1,2,5,9,15",
    "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W17,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,14",
];

#[derive(Parser)]
#[command(about = "BestMove's depth at short move times, server against an in-process search")]
struct Cli {
    /// The server's address.
    #[arg(long, default_value = "http://127.0.0.1:50051")]
    server: String,
    /// Move times to measure, in milliseconds.
    #[arg(long, value_delimiter = ',', default_value = "20,100")]
    move_times: Vec<u64>,
    /// The table of both, in MiB.
    #[arg(long, default_value_t = 16)]
    hash: u32,
    /// Calls per position and move time.
    #[arg(long, default_value_t = 5)]
    calls: u32,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cli = Cli::parse();
    let mut client = EngineServiceClient::connect(cli.server.clone()).await?;
    println!("move time | local depth (table allocated first) | server depth | server answer time");
    for &ms in &cli.move_times {
        let time = Duration::from_millis(ms);
        let (mut local, mut server, mut answer) = (0.0, 0.0, Duration::ZERO);
        for text in POSITIONS {
            let position = fen::parse(Variant::Italian, text)?;
            local += f64::from(local_depth(&position, time, cli.hash));
            for _ in 0..cli.calls {
                let search = SearchRequest {
                    variant: pb::Variant::Italian.into(),
                    fen: text.into(),
                    limits: Some(pb::SearchLimits { move_time: Some(time.try_into()?), ..Default::default() }),
                    hash_mib: i32::try_from(cli.hash)?,
                    ..Default::default()
                };
                let started = Instant::now();
                let response = client.best_move(BestMoveRequest { search: Some(search) }).await?.into_inner();
                answer += started.elapsed();
                server += f64::from(response.result.map_or(0, |result| result.depth)) / f64::from(cli.calls);
            }
        }
        let count = POSITIONS.len() as f64;
        let calls = POSITIONS.len() as u32 * cli.calls;
        println!(
            "{ms} ms | {:.2} | {:.2} | {:.1} ms",
            local / count,
            server / count,
            answer.as_secs_f64() * 1e3 / f64::from(calls)
        );
    }
    Ok(())
}

/// The depth of a search of `position` for `time` on a table allocated (and mapped) before it.
fn local_depth(position: &Position, time: Duration, hash: u32) -> u32 {
    let table = TranspositionTable::new(hash as usize);
    let stop = AtomicBool::new(false);
    search_with(position, &[], &Limits::move_time(time), &Options::default(), &table, &stop, |_| {}).depth
}
