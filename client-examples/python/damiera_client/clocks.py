"""Time controls written the way chats write them, and a game's clocks in words.

    3+2   Fischer: 3 minutes each, 2 seconds added after each move (10+0: no increment)
    30s   30 seconds for every move
    3d    correspondence: 3 days for every move
"""

import re

from google.protobuf import duration_pb2

from damiera.v1 import game_service_pb2, types_pb2
from damiera_client.formatting import color_name

TIME_CONTROL_SYNTAX = (
    "3+2 (minutes each + seconds added per move), 30s (per move) or 3d (days per move)"
)


def parse_time_control(text: str) -> game_service_pb2.TimeControl:
    """ "3+2", "30s" or "3d" as a TimeControl; ValueError for anything else. The server checks
    the ranges (a base of 1 s to 24 h, and so on)."""
    text = text.strip().lower()
    if fischer := re.fullmatch(r"(\d+)\+(\d+)", text):
        minutes, increment = (int(group) for group in fischer.groups())
        return game_service_pb2.TimeControl(
            fischer=game_service_pb2.TimeControl.Fischer(
                base=duration_pb2.Duration(seconds=minutes * 60),
                increment=duration_pb2.Duration(seconds=increment),
            )
        )
    if per_move := re.fullmatch(r"(\d+)s", text):
        return game_service_pb2.TimeControl(
            per_move=duration_pb2.Duration(seconds=int(per_move.group(1)))
        )
    if days := re.fullmatch(r"(\d+)d", text):
        return game_service_pb2.TimeControl(days_per_move=int(days.group(1)))
    raise ValueError(f"not a time control: {text!r}")


def format_time_control(control: game_service_pb2.TimeControl) -> str:
    """The inverse of parse_time_control: "3+2", "30s", "3d"; "untimed" when unset."""
    kind = control.WhichOneof("kind")
    if kind == "fischer":
        base = control.fischer.base.ToTimedelta().total_seconds()
        increment = control.fischer.increment.ToTimedelta().total_seconds()
        return f"{base / 60:g}+{increment:g}"
    if kind == "per_move":
        return f"{control.per_move.ToTimedelta().total_seconds():g}s"
    if kind == "days_per_move":
        return f"{control.days_per_move}d"
    return "untimed"


def format_duration(duration: duration_pb2.Duration) -> str:
    """Time left, in whole seconds rounded down: "2:51", "1:05:00", "2d 23:59:59"."""
    total = max(duration.seconds, 0)
    days, rest = divmod(total, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days}d {hours}:{minutes:02}:{seconds:02}"
    if hours:
        return f"{hours}:{minutes:02}:{seconds:02}"
    return f"{minutes}:{seconds:02}"


def format_clocks(clock: game_service_pb2.Clock) -> str:
    """ "White 2:51 · Black 3:00 (running: White)" as the server read them; "" when untimed."""
    if not clock.HasField("white_time"):
        return ""
    text = f"White {format_duration(clock.white_time)} · Black {format_duration(clock.black_time)}"
    if clock.running != types_pb2.COLOR_UNSPECIFIED:
        text += f" (running: {color_name(clock.running)})"
    return text
