"""with_retries retries by ErrorInfo reason, waiting as RetryInfo says; STALE_STATE is final, and
UNAVAILABLE is left to the channel's service config.

These run offline: the refusals are built here as the server sends them, in the
grpc-status-details-bin trailer (or, for grpcio's own failures, without one).
"""

import grpc
import pytest
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2

from damiera_client.retries import with_retries


class Refusal(grpc.RpcError, grpc.Call):
    """A failed call as grpcio raises it, carrying a google.rpc.Status in its trailers."""

    def __init__(
        self, code: grpc.StatusCode, reason: str | None, retry_delay_seconds: int | None = None
    ):
        """`reason` None: a failure of grpcio's own, with no status details at all."""
        self._code = code
        self._message = f"refused: {reason}" if reason else "failed before the server answered"
        self._trailers = ()
        if reason is None:
            return
        details = [packed(error_details_pb2.ErrorInfo(reason=reason, domain="damiera.dev"))]
        if retry_delay_seconds is not None:
            delay = duration_pb2.Duration(seconds=retry_delay_seconds)
            details.append(packed(error_details_pb2.RetryInfo(retry_delay=delay)))
        status = status_pb2.Status(code=code.value[0], message=self._message, details=details)
        self._trailers = (("grpc-status-details-bin", status.SerializeToString()),)

    def code(self):
        return self._code

    def details(self):
        return self._message

    def trailing_metadata(self):
        return self._trailers

    def initial_metadata(self):
        return ()

    def is_active(self):
        return False

    def time_remaining(self):
        return None

    def cancel(self):
        return False

    def add_callback(self, callback):
        return False


def packed(message) -> any_pb2.Any:
    wrapped = any_pb2.Any()
    wrapped.Pack(message)
    return wrapped


def failing_then_answering(*failures):
    """A call that raises each of `failures` in turn, then answers "done"; it counts its calls."""
    remaining = list(failures)

    def call():
        call.count += 1
        if remaining:
            raise remaining.pop(0)
        return "done"

    call.count = 0
    return call


def test_overloaded_is_retried_after_the_servers_retry_delay():
    call = failing_then_answering(Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, "OVERLOADED", 1))
    waits = []
    assert with_retries(call, sleep=waits.append) == "done"
    assert (call.count, waits) == (2, [1.0])


def test_contended_is_retried_with_a_doubling_delay():
    contended = [Refusal(grpc.StatusCode.ABORTED, "CONTENDED") for _ in range(2)]
    call = failing_then_answering(*contended)
    waits = []
    assert with_retries(call, first_delay_seconds=0.1, sleep=waits.append) == "done"
    assert (call.count, waits) == (3, [0.1, 0.2])


@pytest.mark.parametrize(
    "refusal",
    [
        Refusal(grpc.StatusCode.ABORTED, "STALE_STATE"),
        # grpcio's own "message larger than max": the same code as OVERLOADED, but no reason.
        Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, None),
        # UNAVAILABLE is the channel's to retry (its service config), not this loop's.
        Refusal(grpc.StatusCode.UNAVAILABLE, "STORE_UNAVAILABLE", 1),
        Refusal(grpc.StatusCode.UNAVAILABLE, None),
    ],
    ids=[
        "stale state",
        "resource exhausted without a reason",
        "store unavailable",
        "unavailable without a reason",
    ],
)
def test_other_refusals_are_raised_at_once(refusal):
    call = failing_then_answering(refusal)
    with pytest.raises(grpc.RpcError) as raised:
        with_retries(call, sleep=pytest.fail)
    assert (raised.value, call.count) == (refusal, 1)


def test_the_last_refusal_is_raised_when_the_attempts_run_out():
    overloaded = [Refusal(grpc.StatusCode.RESOURCE_EXHAUSTED, "OVERLOADED", 1) for _ in range(3)]
    call = failing_then_answering(*overloaded)
    waits = []
    with pytest.raises(grpc.RpcError) as raised:
        with_retries(call, attempts=3, sleep=waits.append)
    assert raised.value is overloaded[2]
    assert (call.count, waits) == (3, [1.0, 1.0])
