//! Clients that hold the server's connections without using them: connections opened and
//! abandoned (silent, or stopped halfway through their first bytes) are closed after
//! `--idle-timeout`; an HTTP/2 client that trickles its request a byte at a time is closed when it
//! does not answer the keep-alive pings; a request whose body never comes ends with `CANCELLED` at
//! `--request-timeout`. A live client is none of these: its quiet watch goes on.

mod support;

use std::time::{Duration, Instant};

use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{GetGameRequest, GetGameResponse, WatchGameRequest};
use support::play::{Player, Table};
use support::TestServer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tonic::Code;

/// Pings each second, answered within a second; connections idle for 2 s are closed; calls end
/// after 1 s (over the engine's longest thought, which must be shorter).
const FAST_LIMITS: [&str; 12] = [
    "--keepalive-interval",
    "1s",
    "--keepalive-timeout",
    "1s",
    "--idle-timeout",
    "2s",
    "--request-timeout",
    "1s",
    "--max-move-time",
    "500ms",
    "--default-move-time",
    "100ms",
];

/// The HTTP/2 connection preface and an empty SETTINGS frame.
const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

/// A bound on how long the server may take to close a connection: never a timing assertion.
const PATIENCE: Duration = Duration::from_secs(15);

/// Reads (and drops) what the server sends until it closes `connection`, writing one byte of
/// `trickle` every half second meanwhile; answers how long that took, or `None` if the connection
/// was still open after [`PATIENCE`].
async fn closed_after(mut connection: TcpStream, trickle: &[u8]) -> Option<Duration> {
    let start = Instant::now();
    let mut buffer = [0u8; 4096];
    let mut next = trickle.iter();
    while start.elapsed() < PATIENCE {
        let read = tokio::time::timeout(Duration::from_millis(500), connection.read(&mut buffer)).await;
        if let Ok(Ok(0) | Err(_)) = read {
            return Some(start.elapsed());
        }
        if let Some(&byte) = next.next() {
            if connection.write_all(&[byte]).await.is_err() {
                return Some(start.elapsed());
            }
        }
    }
    None
}

#[tokio::test]
async fn abandoned_connections_are_closed_and_the_server_serves_on() {
    let server = TestServer::start(&FAST_LIMITS);
    let mut abandoned = Vec::new();
    for n in 0..200 {
        let mut connection = TcpStream::connect(server.grpc).await.expect("the server accepts");
        // Half say nothing; half stop halfway through the HTTP/2 preface.
        if n % 2 == 1 {
            connection.write_all(&PREFACE[..10]).await.expect("a write");
        }
        abandoned.push(tokio::spawn(closed_after(connection, b"")));
    }
    let mut longest = Duration::ZERO;
    for connection in abandoned {
        let closed = connection.await.expect("no panic").expect("an abandoned connection is closed");
        longest = longest.max(closed);
    }
    eprintln!("200 abandoned connections: the last closed after {longest:?}");
    let mut games = server.games().await;
    Player::create(&mut games).await;
}

#[tokio::test]
async fn an_http2_client_trickling_its_request_is_closed() {
    let server = TestServer::start(&FAST_LIMITS);
    let mut connection = TcpStream::connect(server.grpc).await.expect("the server accepts");
    connection.write_all(PREFACE).await.expect("a write");
    // A HEADERS frame of 64 bytes on stream 1, sent a byte every half second: never finished.
    let mut headers = b"\x00\x00\x40\x01\x04\x00\x00\x00\x01".to_vec();
    headers.extend([0u8; 64]);
    let closed = closed_after(connection, &headers).await.expect("the trickling client is closed");
    eprintln!("the trickling client was closed after {closed:?}");
}

#[tokio::test]
async fn a_request_whose_body_never_comes_is_cancelled_and_a_quiet_watch_goes_on() {
    let server = TestServer::start(&FAST_LIMITS);
    let channel = server.channel().await;
    // A live client's watch, quiet for longer than the idle timeout.
    let mut games = server.games().await;
    let player = Player::create(&mut games).await;
    let mut watch = games
        .watch_game(WatchGameRequest { name: player.name.clone(), from_ply: None })
        .await
        .expect("the watch opens")
        .into_inner();
    watch.message().await.expect("the game").expect("a first message");

    // GetGame's request, as a stream of messages that never comes.
    let mut grpc = tonic::client::Grpc::new(channel);
    grpc.ready().await.expect("the channel is ready");
    let path = http::uri::PathAndQuery::from_static("/damiera.v1.GameService/GetGame");
    let codec = tonic_prost::ProstCodec::<GetGameRequest, GetGameResponse>::default();
    let start = Instant::now();
    let request = tonic::Request::new(tokio_stream::pending::<GetGameRequest>());
    let status = grpc.client_streaming(request, path, codec).await.expect_err("the call must not succeed");
    eprintln!("the request that never came ended after {:?}: {status:?}", start.elapsed());
    assert_eq!(status.code(), Code::Cancelled, "{status:?}");

    tokio::time::sleep(Duration::from_secs(3)).await;
    let table = Table::seat(&server, vec![player], 1).await;
    table.until_each_has(1).await;
    table.stop().await;
    // Keep-alives and the move: the quiet watch was not closed.
    loop {
        let message = watch.message().await.expect("the quiet watch goes on").expect("a message");
        if matches!(message.event, Some(Event::Update(_))) {
            break;
        }
    }
}
