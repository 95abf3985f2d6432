//! Hosted games between the domain's values and `damiera.v1` messages: names, seats and options
//! read from requests (checked), games, states, moves and watch events written to answers.

use std::time::Duration;

use damiera_engine::{Color, MOVE_COUNT_LIMIT};

use super::clock::{abort_reason_to_pb, clock_to_pb, time_control_to_pb};
use super::{
    bounded, color_to_pb, duration_to_pb, move_to_pb, non_negative, position_to_pb, printable, status_to_pb,
    variant_to_pb,
};
use crate::api::ApiError;
use crate::games::record::{Event, FirstMoverChoice, GameHeader, SeatSpec, StoredGame};
use crate::games::{now_ms, Acted, Replayed, WatchEvent};
use crate::proto::{self as pb, watch_game_response};
use crate::search::{Asked, Caps};

/// The longest display name a person's seat may have, in characters.
const MAX_DISPLAY_NAME: usize = 64;

/// The prefix of every game's resource name.
const NAME_PREFIX: &str = "games/";

/// The resource name of game `id`.
pub fn game_name(id: &str) -> String {
    format!("{NAME_PREFIX}{id}")
}

/// The id in a resource name `games/{id}`, in lower case: ids are typed by hand from chats, and
/// the server makes them in lower case only.
pub fn game_id(name: &str) -> Result<String, ApiError> {
    name.strip_prefix(NAME_PREFIX)
        .filter(|id| !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .map(str::to_ascii_lowercase)
        .ok_or_else(|| {
            let shown: String = name.chars().take(80).collect();
            ApiError::invalid("name", format!("'{shown}' is not a game name: expected games/{{id}}"))
        })
}

/// A seat from a request; unset: a person with no name. Engine limits are checked against `caps`.
pub fn seat_from_pb(
    field: &str,
    seat: Option<&pb::Seat>,
    default_name: &str,
    caps: &Caps,
) -> Result<SeatSpec, ApiError> {
    use pb::seat::Player;
    match seat.and_then(|s| s.player.as_ref()) {
        None => {
            let display_name: String = default_name.chars().take(MAX_DISPLAY_NAME).collect();
            printable("pdn", &display_name)?;
            Ok(SeatSpec::Person { display_name })
        }
        Some(Player::Person(person)) => {
            let field = format!("{field}.person.display_name");
            let display_name = printable(&field, bounded(&field, &person.display_name, MAX_DISPLAY_NAME)?)?;
            Ok(SeatSpec::Person { display_name: display_name.to_string() })
        }
        Some(Player::Engine(engine)) => engine_seat(&format!("{field}.engine"), engine, caps),
    }
}

/// An engine seat, checked as its searches will be: by the same caps and level range.
fn engine_seat(field: &str, engine: &pb::EngineSeat, caps: &Caps) -> Result<SeatSpec, ApiError> {
    if engine.limits.is_some_and(|limits| limits.clock.is_some()) {
        return Err(ApiError::invalid(
            format!("{field}.limits.clock"),
            "an engine seat thinks by depth, nodes or time",
        ));
    }
    let asked = Asked {
        level: non_negative(&format!("{field}.level"), engine.level)?,
        ..super::search::limits(&format!("{field}.limits"), engine.limits.as_ref())?
    };
    let (_, options, _) = asked.check(caps).map_err(|error| ApiError::search(&format!("{field}."), error))?;
    Ok(SeatSpec::Engine {
        level: u32::from(options.level),
        depth: asked.depth,
        nodes: asked.nodes,
        move_time_ms: asked.move_time.map(|t| t.as_millis() as u64),
    })
}

/// Who moves first, from a request's options.
pub fn first_mover_from_pb(options: Option<&pb::GameOptions>) -> Result<FirstMoverChoice, ApiError> {
    let value = options.map_or(0, |o| o.first_mover);
    let choice = match pb::FirstMover::try_from(value) {
        Ok(pb::FirstMover::Unspecified | pb::FirstMover::White) => FirstMoverChoice::White,
        Ok(pb::FirstMover::Black) => FirstMoverChoice::Black,
        Ok(pb::FirstMover::ByLot) => FirstMoverChoice::ByLot,
        Err(_) => return Err(ApiError::invalid("options.first_mover", format!("no such choice: {value}"))),
    };
    Ok(choice)
}

/// How much of a game an answer holds: a request's `GameView`, its default resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Everything but the moves.
    Basic,
    /// Everything.
    Full,
}

/// A request's `view`, `default` when unspecified.
pub fn view_from_pb(value: i32, default: View) -> Result<View, ApiError> {
    match pb::GameView::try_from(value) {
        Ok(pb::GameView::Unspecified) => Ok(default),
        Ok(pb::GameView::Basic) => Ok(View::Basic),
        Ok(pb::GameView::Full) => Ok(View::Full),
        Err(_) => Err(ApiError::invalid("view", format!("no such view: {value}"))),
    }
}

/// A whole game.
pub fn game_to_pb(stored: &StoredGame, replayed: &Replayed) -> pb::Game {
    game_in_view(stored, replayed, View::Full)
}

/// A game in `view`: with its moves or without them.
pub fn game_in_view(stored: &StoredGame, replayed: &Replayed, view: View) -> pb::Game {
    let header = &stored.header;
    pb::Game {
        name: game_name(&header.id),
        variant: variant_to_pb(header.variant).into(),
        start_position: Some(position_to_pb(replayed.game.start())),
        white: Some(seat_to_pb(&header.white)),
        black: Some(seat_to_pb(&header.black)),
        options: Some(pb::GameOptions {
            first_mover: first_mover_to_pb(header.first_mover).into(),
            forfeit_on_capture_fault: header.forfeit_on_capture_fault,
            time_control: time_control_to_pb(header.timing.control),
            takebacks: header.takebacks,
        }),
        moves: match view {
            View::Basic => Vec::new(),
            View::Full => moves_to_pb(replayed, 0),
        },
        state: Some(state_to_pb(stored.etag(), replayed)),
        create_time: Some(timestamp(header.created_at_ms)),
    }
}

/// The moves from ply `from` on.
pub fn moves_to_pb(replayed: &Replayed, from: usize) -> Vec<pb::GameMove> {
    let variant = replayed.game.variant();
    replayed
        .game
        .moves()
        .iter()
        .zip(replayed.move_times_ms.iter().zip(&replayed.move_clocks_ms))
        .enumerate()
        .skip(from)
        .map(|(ply, (played, (&at_ms, &clock_ms)))| pb::GameMove {
            ply: ply as i32,
            notation: played.notation.clone(),
            color: color_to_pb(played.color).into(),
            time: Some(timestamp(at_ms)),
            structured: Some(move_to_pb(variant, &played.mv)),
            clock: clock_ms.map(|ms| duration_to_pb(Duration::from_millis(ms as u64))),
        })
        .collect()
}

/// How the game stands at the state `etag` names.
pub fn state_to_pb(etag: String, replayed: &Replayed) -> pb::GameState {
    let game = &replayed.game;
    let mut status = status_to_pb(game.outcome());
    if replayed.aborted.is_some() {
        status = pb::PositionStatus { state: pb::position_status::State::Aborted.into(), ..Default::default() };
    }
    pb::GameState {
        ply: game.ply() as i32,
        position: Some(position_to_pb(game.position())),
        status: Some(status),
        draw_offer: replayed.draw_offer.map_or(pb::Color::Unspecified, color_to_pb).into(),
        move_count: game.move_count().map(|count| pb::MoveCount {
            requested_by: color_to_pb(count.requested_by).into(),
            started_at_ply: count.started_at_ply as i32,
            white_king_moves: count.king_moves[Color::White.index()] as i32,
            black_king_moves: count.king_moves[Color::Black.index()] as i32,
            limit: MOVE_COUNT_LIMIT as i32,
        }),
        etag,
        update_time: Some(timestamp(replayed.updated_at_ms)),
        forfeited_move: game.faulty_move().unwrap_or_default().to_string(),
        clock: Some(clock_to_pb(replayed, now_ms())),
        takeback_offer: replayed.takeback_offer.map_or(pb::Color::Unspecified, color_to_pb).into(),
        abort_reason: abort_reason_to_pb(replayed.aborted).into(),
    }
}

fn seat_to_pb(seat: &SeatSpec) -> pb::Seat {
    use pb::seat::Player;
    let player = match seat {
        SeatSpec::Person { display_name } => Player::Person(pb::Person { display_name: display_name.clone() }),
        SeatSpec::Engine { level, depth, nodes, move_time_ms } => Player::Engine(pb::EngineSeat {
            level: *level as i32,
            limits: Some(pb::SearchLimits {
                depth: depth.unwrap_or(0) as i32,
                nodes: nodes.unwrap_or(0) as i64,
                move_time: move_time_ms.map(|ms| duration_to_pb(Duration::from_millis(ms))),
                clock: None,
            }),
        }),
    };
    pb::Seat { player: Some(player) }
}

fn first_mover_to_pb(choice: FirstMoverChoice) -> pb::FirstMover {
    match choice {
        FirstMoverChoice::White => pb::FirstMover::White,
        FirstMoverChoice::Black => pb::FirstMover::Black,
        FirstMoverChoice::ByLot => pb::FirstMover::ByLot,
    }
}

/// A time in milliseconds since the Unix epoch.
pub fn timestamp(ms: i64) -> prost_types::Timestamp {
    prost_types::Timestamp { seconds: ms.div_euclid(1000), nanos: (ms.rem_euclid(1000) * 1_000_000) as i32 }
}

/// The header's seat names, for PDN tags.
pub fn seat_label(header: &GameHeader, color: Color) -> String {
    match header.seat(color) {
        SeatSpec::Person { display_name } if !display_name.is_empty() => display_name.clone(),
        SeatSpec::Person { .. } => "?".to_string(),
        SeatSpec::Engine { level, .. } => format!("Damiera level {level}"),
    }
}

/// MakeMove's move: the move the action played, when it was one.
pub fn played_to_pb(acted: &Acted) -> Option<pb::GameMove> {
    let ply = acted.played_ply()?;
    let played = moves_to_pb(&acted.replayed, ply).into_iter().next();
    Some(played.unwrap_or_else(|| forfeited_move(acted.action(), ply)))
}

/// A move that lost by a capture fault: as sent, with no structured form.
fn forfeited_move(event: &Event, ply: usize) -> pb::GameMove {
    pb::GameMove {
        ply: ply as i32,
        notation: event.text.clone(),
        color: color_to_pb(event.color).into(),
        time: Some(timestamp(event.at_ms)),
        structured: None,
        clock: None,
    }
}

/// A watch's event as a stream message; the end at shutdown, or of a watcher too slow, is the
/// stream's error.
pub fn watch_event_to_pb(event: WatchEvent) -> Result<pb::WatchGameResponse, ApiError> {
    use watch_game_response::Event;
    let event = match event {
        WatchEvent::Game(snapshot) => Event::Game(game_to_pb(&snapshot.stored, &snapshot.replayed)),
        WatchEvent::Update { snapshot, from_ply } => Event::Update(pb::GameUpdate {
            moves: moves_to_pb(&snapshot.replayed, from_ply),
            state: Some(state_to_pb(snapshot.stored.etag(), &snapshot.replayed)),
        }),
        WatchEvent::KeepAlive { at_ms } => Event::KeepAlive(pb::KeepAlive { time: Some(timestamp(at_ms)) }),
        WatchEvent::Closing { from_ply } => return Err(ApiError::ShuttingDown { from_ply: Some(from_ply as u32) }),
        WatchEvent::Deleted { id } => return Err(ApiError::GameDeleted(game_name(&id))),
        WatchEvent::TooSlow { from_ply, patience } => {
            return Err(ApiError::WatchTooSlow { from_ply: from_ply as u32, patience })
        }
    };
    Ok(pb::WatchGameResponse { event: Some(event) })
}
