//! Clocks between the domain and `damiera.v1`: a request's time control (checked), and the
//! clocks, deadline and abort reason of a game's state.

use std::time::Duration;

use damiera_engine::Color;

use super::games::timestamp;
use super::{color_to_pb, duration, duration_to_pb, non_negative};
use crate::api::ApiError;
use crate::games::clock::{DeadlineKind, TimeControl};
use crate::games::{AbortReason, Replayed};
use crate::proto as pb;

/// The longest base time or time per move.
const MAX_TIME: Duration = Duration::from_secs(24 * 60 * 60);

/// The largest increment.
const MAX_INCREMENT: Duration = Duration::from_secs(10 * 60);

/// The most days per move.
const MAX_DAYS: u32 = 30;

/// The time control of a request's `options.time_control`; unset: none.
pub fn time_control_from_pb(time_control: Option<&pb::TimeControl>) -> Result<TimeControl, ApiError> {
    use pb::time_control::Kind;
    let field = "options.time_control";
    let Some(kind) = time_control.and_then(|control| control.kind.as_ref()) else {
        return Ok(TimeControl::None);
    };
    let control = match kind {
        Kind::Fischer(fischer) => {
            let base = time_field(&format!("{field}.fischer.base"), fischer.base.as_ref(), MAX_TIME)?;
            let increment = match fischer.increment.as_ref() {
                None => Duration::ZERO,
                Some(value) => {
                    let field = format!("{field}.fischer.increment");
                    let increment = duration(&field, value)?;
                    if increment > MAX_INCREMENT {
                        return Err(ApiError::over_limit(
                            field,
                            format!("{increment:?}"),
                            format!("{MAX_INCREMENT:?}"),
                        ));
                    }
                    increment
                }
            };
            TimeControl::Fischer { base_ms: millis(base), increment_ms: millis(increment) }
        }
        Kind::PerMove(per_move) => TimeControl::PerMove {
            move_ms: millis(time_field(&format!("{field}.per_move"), Some(per_move), MAX_TIME)?),
        },
        Kind::DaysPerMove(days) => {
            let field = format!("{field}.days_per_move");
            let days = non_negative(&field, *days)?;
            if days == 0 {
                return Err(ApiError::invalid(field, "give 1 day or more"));
            }
            if days > MAX_DAYS {
                return Err(ApiError::over_limit(field, days, MAX_DAYS));
            }
            TimeControl::Correspondence { days_per_move: days }
        }
    };
    Ok(control)
}

/// A time of at least a second and at most `max`.
fn time_field(field: &str, value: Option<&prost_types::Duration>, max: Duration) -> Result<Duration, ApiError> {
    let time = duration(field, value.ok_or_else(|| ApiError::invalid(field, "give a time"))?)?;
    if time < Duration::from_secs(1) {
        return Err(ApiError::invalid(field, "give at least 1 second"));
    }
    if time > max {
        return Err(ApiError::over_limit(field, format!("{time:?}"), format!("{max:?}")));
    }
    Ok(time)
}

fn millis(duration: Duration) -> u64 {
    duration.as_millis() as u64
}

/// A game's time control as stored; `None` when untimed.
pub fn time_control_to_pb(control: TimeControl) -> Option<pb::TimeControl> {
    use pb::time_control::Kind;
    let kind = match control {
        TimeControl::None => return None,
        TimeControl::Fischer { base_ms, increment_ms } => Kind::Fischer(pb::time_control::Fischer {
            base: Some(duration_to_pb(Duration::from_millis(base_ms))),
            increment: Some(duration_to_pb(Duration::from_millis(increment_ms))),
        }),
        TimeControl::PerMove { move_ms } => Kind::PerMove(duration_to_pb(Duration::from_millis(move_ms))),
        TimeControl::Correspondence { days_per_move } => Kind::DaysPerMove(days_per_move as i32),
    };
    Some(pb::TimeControl { kind: Some(kind) })
}

/// Both clocks and the deadline, as they stand at `now_ms`.
pub fn clock_to_pb(replayed: &Replayed, now_ms: i64) -> pb::Clock {
    let to_move = replayed.to_move();
    let over = replayed.is_over();
    let left = |color: Color| {
        let left = if over {
            replayed.clocks.left_at(color, color.opposite(), now_ms)
        } else {
            replayed.clocks.left_at(color, to_move, now_ms)
        };
        left.map(|ms| duration_to_pb(Duration::from_millis(ms as u64)))
    };
    let running = !over && replayed.clocks.runs_for(to_move);
    let deadline = replayed.deadline();
    pb::Clock {
        white_time: left(Color::White),
        black_time: left(Color::Black),
        running: if running { color_to_pb(to_move) } else { pb::Color::Unspecified }.into(),
        deadline: deadline.map(|deadline| timestamp(deadline.at_ms)),
        deadline_kind: deadline
            .map_or(pb::DeadlineKind::Unspecified, |deadline| deadline_kind_to_pb(deadline.kind))
            .into(),
        time: Some(timestamp(now_ms)),
    }
}

fn deadline_kind_to_pb(kind: DeadlineKind) -> pb::DeadlineKind {
    match kind {
        DeadlineKind::FirstMove => pb::DeadlineKind::FirstMove,
        DeadlineKind::Flag => pb::DeadlineKind::Flag,
        DeadlineKind::Abandonment => pb::DeadlineKind::Abandonment,
    }
}

/// Why a game was aborted.
pub fn abort_reason_to_pb(reason: Option<AbortReason>) -> pb::AbortReason {
    match reason {
        None => pb::AbortReason::Unspecified,
        Some(AbortReason::Seat) => pb::AbortReason::Seat,
        Some(AbortReason::NoFirstMove) => pb::AbortReason::NoFirstMove,
    }
}
