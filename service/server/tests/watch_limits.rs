//! What bounds the server's memory under watchers: a watcher that never reads is let go once its
//! buffer has stayed full for the server's patience (`WATCH_TOO_SLOW`, with the ply to resume
//! from), while the other watchers of the game see every move; one client address may have only
//! so many watches open (`TOO_MANY_WATCHES`); and ten thousand open watches, with the server's
//! resident memory measured before, during and after.

mod support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use damiera_server::proto::game_service_client::GameServiceClient;
use damiera_server::proto::watch_game_response::Event;
use damiera_server::proto::{WatchGameRequest, WatchGameResponse};
use support::play::{until, Player, Table};
use support::{failure, TestServer};
use tonic::transport::Channel;
use tonic::{Code, Streaming};

/// The moves of a watch message: how far it brings its watcher.
fn ply_after(message: &WatchGameResponse, ply: usize) -> usize {
    match &message.event {
        Some(Event::Game(game)) => game.moves.len(),
        Some(Event::Update(update)) => ply + update.moves.len(),
        _ => ply,
    }
}

/// Opens a watch of game `name` from its start on `channel`.
async fn watch(channel: Channel, name: &str) -> Result<Streaming<WatchGameResponse>, tonic::Status> {
    let mut games = GameServiceClient::new(channel);
    games.watch_game(WatchGameRequest { name: name.to_string(), from_ply: None }).await.map(|r| r.into_inner())
}

#[tokio::test]
async fn a_watcher_that_never_reads_is_let_go_and_the_others_see_every_move() {
    let server = TestServer::start(&["--watch-keepalive", "50ms", "--watch-patience", "1s"]);
    let mut games = server.games().await;
    let player = Player::create(&mut games).await;
    // A client that takes 64 bytes at a time, and reads nothing until told.
    let narrow =
        Channel::from_shared(server.url()).unwrap().initial_stream_window_size(Some(64)).connect().await.unwrap();
    let mut slow = watch(narrow, &player.name).await.expect("the slow watch opens");
    let mut fast = watch(server.channel().await, &player.name).await.expect("the fast watch opens");
    let seen = Arc::new(AtomicUsize::new(0));
    let reader = tokio::spawn({
        let seen = Arc::clone(&seen);
        async move {
            while let Some(message) = fast.message().await.expect("the fast watch goes on") {
                seen.store(ply_after(&message, seen.load(Ordering::SeqCst)), Ordering::SeqCst);
            }
        }
    });
    until("the slow watcher is let go", async || {
        server.metric("damiera_game_watchers_too_slow_total").await == Some(1.0)
    })
    .await;
    let table = Table::seat(&server, vec![player], 6).await;
    until("the fast watcher sees six moves", async || seen.load(Ordering::SeqCst) == 6).await;
    table.stop().await;
    assert_eq!(server.metric("damiera_game_watchers").await, Some(1.0), "only the fast watcher is left");

    // Now the slow client reads: what was buffered for it, then the end, naming where to resume.
    let mut ply = 0;
    let end = loop {
        match slow.message().await {
            Ok(Some(message)) => ply = ply_after(&message, ply),
            Ok(None) => panic!("the slow watch ended without an error"),
            Err(status) => break failure::<()>(Err(status)),
        }
    };
    assert_eq!((end.code, end.reason.as_str()), (Code::ResourceExhausted, "WATCH_TOO_SLOW"), "{}", end.message);
    assert_eq!(end.metadata.get("fromPly"), Some(&ply.to_string()));
    assert_eq!(ply, 0, "the slow watcher was let go before any move");
    reader.abort();
}

#[tokio::test]
async fn one_client_address_may_have_so_many_watches_open() {
    let server = TestServer::start(&["--max-watches-per-client", "3"]);
    let mut games = server.games().await;
    let player = Player::create(&mut games).await;
    let channel = server.channel().await;
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(watch(channel.clone(), &player.name).await.expect("a watch within the limit opens"));
    }
    let refused = failure(watch(channel.clone(), &player.name).await);
    assert_eq!(
        (refused.code, refused.reason.as_str()),
        (Code::ResourceExhausted, "TOO_MANY_WATCHES"),
        "{}",
        refused.message
    );
    assert_eq!(refused.metadata.get("maximum").map(String::as_str), Some("3"));
    // A watch ended gives its place back.
    open.pop();
    until("a watch opens again", async || watch(channel.clone(), &player.name).await.is_ok()).await;
}

/// Watches in the flood; one client, over connections of at most 1000 streams each (the server's
/// limit per connection).
const FLOOD: usize = 10_000;

/// Opens [`FLOOD`] watches of game `name` and waits until the server follows them all.
async fn flood(server: &TestServer, name: &str) -> Vec<Streaming<WatchGameResponse>> {
    let mut opening = Vec::new();
    for _ in 0..FLOOD / 1000 {
        let channel = server.channel().await;
        for _ in 0..1000 {
            let (channel, name) = (channel.clone(), name.to_string());
            opening.push(tokio::spawn(async move { watch(channel, &name).await }));
        }
    }
    let mut open = Vec::new();
    for task in opening {
        open.push(task.await.expect("no panic").expect("a watch within the limit opens"));
    }
    until("every watch is followed", async || server.metric("damiera_game_watchers").await == Some(FLOOD as f64)).await;
    open
}

#[tokio::test]
async fn ten_thousand_watches_from_one_client_fit_in_bounded_memory() {
    let server = TestServer::start(&["--max-watches-per-client", &FLOOD.to_string()]);
    let mut games = server.games().await;
    let player = Player::create(&mut games).await;
    let before = server.rss_kib();
    let open = flood(&server, &player.name).await;
    let during = server.rss_kib();
    let refused = failure(watch(server.channel().await, &player.name).await);
    assert_eq!((refused.code, refused.reason.as_str()), (Code::ResourceExhausted, "TOO_MANY_WATCHES"));
    drop(open);
    until("every watch has ended", async || server.metric("damiera_game_watchers").await == Some(0.0)).await;
    let after = server.rss_kib();
    // The memory is the allocator's to reuse: a second flood takes little more.
    let again = flood(&server, &player.name).await;
    let second = server.rss_kib();
    drop(again);
    let per_watch = during.saturating_sub(before) as f64 / FLOOD as f64;
    eprintln!(
        "RSS: {before} KiB before, {during} KiB with {FLOOD} watches ({per_watch:.1} KiB each), {after} KiB once \
         they ended, {second} KiB with {FLOOD} again"
    );
    // Bounded: a watch's buffer, task and HTTP/2 stream, not megabytes.
    assert!(per_watch < 64.0, "{per_watch:.1} KiB a watch");
    assert!(second < during + during / 4, "the second flood grew the memory from {during} to {second} KiB");
}
