"""Retries a call that the server refused for now: ABORTED (CONTENDED) and RESOURCE_EXHAUSTED.

RESOURCE_EXHAUSTED (OVERLOADED: every search slot busy; RATE_LIMITED) carries a RetryInfo saying
when to come back. ABORTED with reason CONTENDED means the game changed under the call many times:
trying again is right. ABORTED with STALE_STATE is not retried: the call named a state
(`expected_ply`, `etag`) that is gone, so the app must read the game again and decide anew.
A retried MakeMove or CreateGame must carry a `request_id`, so that a retry of a call that did
succeed answers the stored result instead of acting twice.
"""

import time
from collections.abc import Callable
from typing import TypeVar

import grpc

from damiera_client.errors import decode_error

T = TypeVar("T")

RETRIED_CODES = (grpc.StatusCode.ABORTED, grpc.StatusCode.RESOURCE_EXHAUSTED)
NEVER_RETRIED_REASONS = ("STALE_STATE",)


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
            retryable = (
                decoded.code in RETRIED_CODES and decoded.reason not in NEVER_RETRIED_REASONS
            )
            if not retryable or attempt >= attempts:
                raise
            sleep(decoded.retry_delay_seconds if decoded.retry_delay_seconds is not None else delay)
            delay *= 2
            attempt += 1
