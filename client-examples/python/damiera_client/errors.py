"""Decodes a failed call's google.rpc.Status details (AIP-193) into what an app switches on.

Damiera puts a `google.rpc.ErrorInfo` in every error (domain "damiera.dev", a reason such as
ILLEGAL_MOVE, metadata such as `legalMoves`), a `google.rpc.BadRequest` naming the request field at
fault, and a `google.rpc.RetryInfo` when a retry later may succeed. They travel in the
`grpc-status-details-bin` trailer, which `grpc_status.rpc_status.from_call` reads.
"""

from dataclasses import dataclass, field

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status


@dataclass(frozen=True)
class FieldViolation:
    """One bad request field, as a path into the request ("notation", "search.limits.depth")."""

    field: str
    description: str


@dataclass(frozen=True)
class DamieraError:
    """A failed call, decoded."""

    code: grpc.StatusCode
    message: str
    # ErrorInfo: the machine-readable cause; empty when the server sent none (a transport error).
    reason: str = ""
    domain: str = ""
    metadata: dict[str, str] = field(default_factory=dict)
    # BadRequest: which fields of the request were wrong.
    field_violations: tuple[FieldViolation, ...] = ()
    # RetryInfo: how long to wait before retrying, when the server said.
    retry_delay_seconds: float | None = None

    @property
    def legal_moves(self) -> list[str]:
        """The legal moves an ILLEGAL_MOVE error lists (metadata `legalMoves`, space-separated)."""
        return self.metadata.get("legalMoves", "").split()


def decode_error(error: grpc.RpcError) -> DamieraError:
    """The status code, message and ErrorInfo, BadRequest and RetryInfo details of `error`."""
    decoded = {"code": error.code(), "message": error.details() or ""}
    status = rpc_status.from_call(error)
    if status is None:
        return DamieraError(**decoded)
    violations: list[FieldViolation] = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            decoded.update(reason=info.reason, domain=info.domain, metadata=dict(info.metadata))
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad_request = error_details_pb2.BadRequest()
            detail.Unpack(bad_request)
            violations += [
                FieldViolation(violation.field, violation.description)
                for violation in bad_request.field_violations
            ]
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            retry = error_details_pb2.RetryInfo()
            detail.Unpack(retry)
            decoded["retry_delay_seconds"] = retry.retry_delay.ToTimedelta().total_seconds()
    return DamieraError(**decoded, field_violations=tuple(violations))
