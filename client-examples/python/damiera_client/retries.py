"""Retries a call that the server refused without acting on it, by the refusal's ErrorInfo reason:
what the channel's service config cannot say, since it retries by status code alone.

UNAVAILABLE (STORE_UNAVAILABLE, a lost connection) is the channel's: Damiera's service config
(connection.py) retries it. Here, OVERLOADED (every search slot busy) and RATE_LIMITED carry a
RetryInfo saying when to come back; CONTENDED (the game changed under the call many times) is
retried after a doubling delay. Nothing else is retried, whatever its status code: STALE_STATE
(ABORTED, like CONTENDED) says the call named a state (`expected_ply`, `etag`) that is gone, so the
app must read the game again and decide anew; a RESOURCE_EXHAUSTED without a reason is grpcio's
own (a message over its size limit), which a repeat would only hit again. A call that changes a
game carries a `request_id`, so that a retry of a call that did succeed answers the stored result
instead of acting twice.
"""

import time
from collections.abc import Callable
from typing import TypeVar

import grpc

from damiera_client.errors import decode_error

T = TypeVar("T")

# The reasons of docs/api.md whose refusals say "nothing was done; later may work", but for
# UNAVAILABLE, which the channel retries.
RETRIED_REASONS = frozenset({"CONTENDED", "OVERLOADED", "RATE_LIMITED"})


def with_retries(
    call: Callable[[], T],
    *,
    attempts: int = 4,
    first_delay_seconds: float = 0.2,
    sleep: Callable[[float], None] = time.sleep,
) -> T:
    """Runs `call`, retrying it on a retryable refusal after the server's RetryInfo delay, or after
    a delay that doubles from `first_delay_seconds`; the last failure is raised as it came."""
    delay = first_delay_seconds
    attempt = 1
    while True:
        try:
            return call()
        except grpc.RpcError as error:
            decoded = decode_error(error)
            if decoded.reason not in RETRIED_REASONS or attempt >= attempts:
                raise
            sleep(decoded.retry_delay_seconds if decoded.retry_delay_seconds is not None else delay)
            delay *= 2
            attempt += 1
