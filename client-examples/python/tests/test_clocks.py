"""Time controls as chats write them, and clocks and results in words (no server needed)."""

import pytest
from google.protobuf import duration_pb2

from damiera.v1 import game_service_pb2, types_pb2
from damiera_client.clocks import (
    format_clocks,
    format_duration,
    format_time_control,
    parse_time_control,
)
from damiera_client.formatting import format_status


@pytest.mark.parametrize("text", ["3+2", "10+0", "30s", "3d"])
def test_time_controls_read_back_as_written(text):
    assert format_time_control(parse_time_control(text)) == text


def test_time_controls_become_the_protos_fields():
    fischer = parse_time_control("3+2").fischer
    assert (fischer.base.seconds, fischer.increment.seconds) == (180, 2)
    assert parse_time_control("30s").per_move.seconds == 30
    assert parse_time_control("3d").days_per_move == 3
    assert format_time_control(game_service_pb2.TimeControl()) == "untimed"


@pytest.mark.parametrize("text", ["", "3", "3m", "3+", "+2", "3+2+1", "1.5s", "d"])
def test_other_text_is_not_a_time_control(text):
    with pytest.raises(ValueError):
        parse_time_control(text)


@pytest.mark.parametrize(
    ("seconds", "nanos", "text"),
    [
        (171, 900_000_000, "2:51"),
        (0, 0, "0:00"),
        (3_900, 0, "1:05:00"),
        (259_199, 0, "2d 23:59:59"),
    ],
)
def test_durations_are_written_in_whole_seconds(seconds, nanos, text):
    assert format_duration(duration_pb2.Duration(seconds=seconds, nanos=nanos)) == text


def test_clocks_name_the_running_side():
    clock = game_service_pb2.Clock(
        white_time=duration_pb2.Duration(seconds=171),
        black_time=duration_pb2.Duration(seconds=180),
        running=types_pb2.COLOR_WHITE,
    )
    assert format_clocks(clock) == "White 2:51 · Black 3:00 (running: White)"
    clock.running = types_pb2.COLOR_UNSPECIFIED
    assert format_clocks(clock) == "White 2:51 · Black 3:00"
    assert format_clocks(game_service_pb2.Clock()) == ""


def test_results_say_who_lost_on_time_and_why_a_game_was_aborted():
    won = types_pb2.PositionStatus.STATE_WON
    on_time = types_pb2.PositionStatus(
        state=won, winner=types_pb2.COLOR_BLACK, win_reason=types_pb2.WIN_REASON_TIME
    )
    assert format_status(on_time) == "Black wins (White lost on time)"
    abandoned = types_pb2.PositionStatus(
        state=won, winner=types_pb2.COLOR_WHITE, win_reason=types_pb2.WIN_REASON_ABANDONMENT
    )
    assert format_status(abandoned) == "White wins (Black abandoned the game)"
    aborted = types_pb2.PositionStatus(state=types_pb2.PositionStatus.STATE_ABORTED)
    assert format_status(aborted, game_service_pb2.ABORT_REASON_NO_FIRST_MOVE) == (
        "Aborted (no first move in time)"
    )
    assert format_status(aborted) == "Aborted"
