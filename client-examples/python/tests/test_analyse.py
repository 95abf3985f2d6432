"""analyse.py streams one iteration per depth, then the result, and a deadline ends it early."""

from analyse import analyse, describe
from damiera.v1 import engine_service_pb2, types_pb2
from damiera_client.limits import search_limits
from shared import legal_notations


def test_analyse_streams_each_depth_then_ends_with_the_result(services):
    messages = list(analyse(services, types_pb2.VARIANT_ITALIAN, "", search_limits(depth=4)))
    *iterations, last = messages
    assert [message.WhichOneof("update") for message in messages] == ["iteration"] * 4 + ["result"]
    assert [message.iteration.depth for message in iterations] == [1, 2, 3, 4]
    result = last.result
    assert result.depth == 4
    assert result.stop_reason == engine_service_pb2.STOP_REASON_LIMIT
    assert result.best_move.notation == iterations[-1].iteration.pv[0].notation
    assert result.pv[0].notation == result.best_move.notation
    assert result.best_move.notation in legal_notations(services, types_pb2.VARIANT_ITALIAN)
    assert describe(iterations[0]).startswith("depth  1 (sel ")
    assert describe(last).startswith(f"best move {result.best_move.notation}  score ")


def test_a_deadline_stops_the_analysis_with_the_best_move_so_far(services):
    # No depth limit and a move time ten times the deadline: only the deadline can stop it. The
    # server answers a tenth of the deadline early, at most 100 ms: 2 s gets that whole margin,
    # so that a busy machine's delays do not turn the answer into DEADLINE_EXCEEDED.
    limits = search_limits(move_time_ms=20_000)
    messages = list(analyse(services, types_pb2.VARIANT_TURKISH, "", limits, deadline=2.0))
    result = messages[-1].result
    assert messages[-1].WhichOneof("update") == "result"
    assert result.stop_reason == engine_service_pb2.STOP_REASON_DEADLINE
    assert result.elapsed.ToMilliseconds() < 2000
    assert result.best_move.notation in legal_notations(services, types_pb2.VARIANT_TURKISH)
