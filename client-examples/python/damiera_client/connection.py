"""Opens a channel to a Damiera server and holds the three service stubs on it.

The integration points an app adapts are all here: the address, TLS, the `x-api-key` metadata of a
server started with `--api-key`, the deadline every call gets unless it names its own, and the
service config Damiera publishes (proto/service_config.json, copied by generate_stubs.py), whose
retry policy has grpcio send an idempotent call again when it fails UNAVAILABLE (the database or
the connection lost): no loop of ours does that.
"""

import os
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from damiera.v1 import engine_service_pb2_grpc, game_service_pb2_grpc, rules_service_pb2_grpc

ADDRESS_VARIABLE = "DAMIERA_ADDR"
API_KEY_VARIABLE = "DAMIERA_API_KEY"

# A rules call answers in milliseconds; ten seconds only catches a server that is gone. Streams
# (Analyze, WatchGame) get no default: see _MetadataInterceptor.
DEFAULT_DEADLINE_SECONDS = 10.0

# The service config, as generate_stubs.py copies it beside the stubs.
SERVICE_CONFIG_PATH = Path(__file__).resolve().parent.parent / "damiera" / "service_config.json"


def address_from_environment() -> str:
    """The server's host:port from $DAMIERA_ADDR, or an error that says how to set it."""
    address = os.environ.get(ADDRESS_VARIABLE, "").strip()
    if not address:
        raise RuntimeError(
            f"${ADDRESS_VARIABLE} is not set: start a server "
            "(damiera serve --listen 127.0.0.1:50051) "
            f"and export {ADDRESS_VARIABLE}=127.0.0.1:50051"
        )
    return address


class _MetadataInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds fixed metadata (the API key) to every call, and the default deadline to unary calls
    without one. Streams get none: a WatchGame lasts as long as the game, and an Analyze deadline
    is part of the search's budget, so their callers choose."""

    def __init__(self, metadata: tuple[tuple[str, str], ...], default_deadline: float):
        self._metadata = metadata
        self._default_deadline = default_deadline

    def _with_defaults(
        self, details: grpc.ClientCallDetails, default_deadline: float | None
    ) -> grpc.ClientCallDetails:
        return _CallDetails(
            method=details.method,
            timeout=details.timeout if details.timeout is not None else default_deadline,
            metadata=(*(details.metadata or ()), *self._metadata),
            credentials=details.credentials,
            wait_for_ready=details.wait_for_ready,
            compression=details.compression,
        )

    def intercept_unary_unary(self, continuation, client_call_details, request):
        return continuation(
            self._with_defaults(client_call_details, self._default_deadline), request
        )

    def intercept_unary_stream(self, continuation, client_call_details, request):
        return continuation(self._with_defaults(client_call_details, None), request)


@dataclass(frozen=True)
class _CallDetails(grpc.ClientCallDetails):
    """grpc.ClientCallDetails has no public constructor; interceptors make their own."""

    method: str
    timeout: float | None
    # Holds the API key and a seat's bearer token: never in the repr.
    metadata: tuple[tuple[str, str], ...] | None = field(repr=False)
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


def open_channel(
    address: str,
    *,
    tls: bool = False,
    root_certificates: bytes | None = None,
    api_key: str | None = None,
    default_deadline: float = DEFAULT_DEADLINE_SECONDS,
) -> grpc.Channel:
    """A channel to `address`: plaintext, or TLS (`damiera serve --tls-cert --tls-key`) checked
    against `root_certificates` (None: the system's roots); with Damiera's service config."""
    # A service config given here is the channel's default: the server publishes none through
    # name resolution. A deadline covers every attempt of a retried call.
    options = [
        ("grpc.service_config", SERVICE_CONFIG_PATH.read_text()),
        ("grpc.enable_retries", 1),
    ]
    if tls:
        credentials = grpc.ssl_channel_credentials(root_certificates)
        channel = grpc.secure_channel(address, credentials, options=options)
    else:
        channel = grpc.insecure_channel(address, options=options)
    metadata = (("x-api-key", api_key),) if api_key else ()
    return grpc.intercept_channel(channel, _MetadataInterceptor(metadata, default_deadline))


@dataclass(frozen=True)
class Services:
    """The three services of one server, sharing one channel (one HTTP/2 connection)."""

    channel: grpc.Channel
    rules: rules_service_pb2_grpc.RulesServiceStub
    engine: engine_service_pb2_grpc.EngineServiceStub
    games: game_service_pb2_grpc.GameServiceStub

    @classmethod
    def on(cls, channel: grpc.Channel) -> "Services":
        return cls(
            channel=channel,
            rules=rules_service_pb2_grpc.RulesServiceStub(channel),
            engine=engine_service_pb2_grpc.EngineServiceStub(channel),
            games=game_service_pb2_grpc.GameServiceStub(channel),
        )

    @classmethod
    def from_environment(cls) -> "Services":
        """Services at $DAMIERA_ADDR, with $DAMIERA_API_KEY as `x-api-key` when it is set."""
        api_key = os.environ.get(API_KEY_VARIABLE) or None
        return cls.on(open_channel(address_from_environment(), api_key=api_key))

    def close(self) -> None:
        self.channel.close()
