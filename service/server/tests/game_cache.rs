//! The per-replica cache of replayed games, through real [`Host`]s on a real store: what a host
//! reads is always the stored game replayed afresh, even when another host (another replica, or
//! another process on the same SQLite file) changed or deleted it since this host cached it. Each test runs
//! on SQLite (two stores on one file) and, with `DAMIERA_TEST_POSTGRES`, on PostgreSQL.

#[macro_use]
mod support;

use std::sync::Arc;

use damiera_engine::{notation, Game, Position, Variant};
use damiera_server::games::clock::{Timing, TimingPolicy};
use damiera_server::games::record::{EventKind, FirstMoverChoice, GameHeader, SeatSpec, StoredGame};
use damiera_server::games::store::Store;
use damiera_server::games::{Action, Actor, Expected, Host, HostError, Replayed, Said};
use damiera_server::tenants::TenantId;
use support::Backend;
use tokio::sync::Notify;

on_both_stores!(two_hosts_on_one_store_read_every_change_as_stored);

/// A host of its own (a replica) on the database at `url`.
async fn host(url: &str) -> Host {
    let policy = TimingPolicy::default();
    Host::new(Store::open(url).await.expect("the store opens"), Arc::new(Notify::new()), policy)
}

fn header(id: &str) -> GameHeader {
    let person = |name: &str| SeatSpec::Person { display_name: name.to_string() };
    GameHeader {
        id: id.to_string(),
        tenant: TenantId::default(),
        variant: Variant::Italian,
        start_fen: Position::start(Variant::Italian).to_fen(),
        forfeit_on_capture_fault: false,
        first_mover: FirstMoverChoice::White,
        white: person("Anna"),
        black: person("Bruno"),
        white_token_hash: None,
        black_token_hash: None,
        created_at_ms: 1_000,
        // No clock and no waiting times: created "in 1970", the game must not be overdue.
        timing: Timing::default(),
        takebacks: false,
    }
}

fn action(kind: EventKind, text: &str) -> Action {
    Action { kind, said: Said::Text(text.to_string()), expected: Expected::default(), request_id: None }
}

/// What a reader sees of a game: the record, and the replay's every fact the answers use.
fn seen(stored: &StoredGame, replayed: &Replayed) -> (StoredGame, String) {
    let game = &replayed.game;
    let facts = format!(
        "{:?} {} {:?} {:?} {:?} {:?} {}",
        game.moves(),
        game.position().to_fen(),
        game.outcome(),
        game.move_count(),
        replayed.draw_offer,
        replayed.move_times_ms,
        replayed.updated_at_ms
    );
    (stored.clone(), facts)
}

/// The game as a fresh store reads it, replayed from its first event.
async fn fresh(url: &str, id: &str) -> (StoredGame, String) {
    let stored = Store::open(url).await.unwrap().load(id).await.unwrap().expect("the game is stored");
    let replayed = Replayed::from_stored(&stored).expect("the stored game replays");
    seen(&stored, &replayed)
}

async fn two_hosts_on_one_store_read_every_change_as_stored(backend: Backend) {
    let Some(url) = backend.scratch().await else { return };
    let (a, b) = (host(&url).await, host(&url).await);
    let id = "cached-game";
    a.create(header(id), Vec::new(), None).await.expect("the game is created");
    // Both hosts read the new game (and cache it), then take turns: each move is made by one and
    // read by both, so each host's cache is behind the store in turn.
    let mut game = Game::new(Variant::Italian);
    for ply in 0..12 {
        let mover = if ply % 3 == 2 { &b } else { &a };
        let mv = game.position().legal_moves()[0];
        let written = notation::write(Variant::Italian, &mv);
        let color = game.position().turn();
        mover.act(id, Actor::Engine(color), &action(EventKind::Move, &written)).await.expect("the move is legal");
        game.play_move(&mv).unwrap();
        let want = fresh(&url, id).await;
        for (name, reader) in [("a", &a), ("b", &b)] {
            let (stored, replayed) = reader.load(id).await.expect("the game loads");
            assert_eq!(seen(&stored, &replayed), want, "host {name} after ply {}", ply + 1);
        }
        assert_eq!(want.0.version(), ply + 1);
    }
    // A draw offer made on one host stands on the other.
    let to_move = game.position().turn();
    a.act(id, Actor::Engine(to_move), &action(EventKind::OfferDraw, "")).await.expect("the offer is made");
    let (_, replayed) = b.load(id).await.unwrap();
    assert_eq!(replayed.draw_offer, Some(to_move));
    assert_eq!(seen(&b.load(id).await.unwrap().0, &replayed), fresh(&url, id).await);
    assert_eq!(b.load(id).await.unwrap().0.version(), 13);
    // A game deleted through one host is gone for the other, which has it cached.
    assert!(a.store().delete(id, 13).await.unwrap());
    assert!(matches!(b.load(id).await, Err(HostError::NotFound(_))));
}
