"""Builds SearchLimits, whose move time is a google.protobuf.Duration, from plain numbers."""

from google.protobuf import duration_pb2

from damiera.v1 import types_pb2


def search_limits(*, depth: int = 0, move_time_ms: int = 0) -> types_pb2.SearchLimits:
    """Stop at `depth` plies or after `move_time_ms`, whichever comes first; 0: that limit unset."""
    limits = types_pb2.SearchLimits(depth=depth)
    if move_time_ms:
        move_time = duration_pb2.Duration()
        move_time.FromMilliseconds(move_time_ms)
        limits.move_time.CopyFrom(move_time)
    return limits
