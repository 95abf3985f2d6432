"""The channel that open_channel makes retries UNAVAILABLE by Damiera's service config: against a
stand-in RulesService in this process that fails the first calls, with no loop of ours around it.
"""

from concurrent import futures

import grpc
import pytest

from damiera.v1 import rules_service_pb2, rules_service_pb2_grpc
from damiera_client.connection import open_channel


class FlakyRules(rules_service_pb2_grpc.RulesServiceServicer):
    """ListVariants fails UNAVAILABLE `failures` times, then answers; it counts the calls."""

    def __init__(self, failures: int):
        self.failures = failures
        self.calls = 0

    def ListVariants(self, request, context):
        self.calls += 1
        if self.calls <= self.failures:
            context.abort(grpc.StatusCode.UNAVAILABLE, "the database cannot be reached")
        return rules_service_pb2.ListVariantsResponse()


@pytest.fixture
def serve():
    """Starts the stand-in on a free loopback port: answers (its address, the servicer)."""
    servers = []

    def start(failures: int):
        # Without SO_REUSEPORT (grpcio's default), a port cannot be shared with the stand-in of
        # another test that is still stopping: each test's calls reach its own.
        options = [("grpc.so_reuseport", 0)]
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=2), options=options)
        rules = FlakyRules(failures)
        rules_service_pb2_grpc.add_RulesServiceServicer_to_server(rules, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        servers.append(server)
        return f"127.0.0.1:{port}", rules

    yield start
    for server in servers:
        server.stop(grace=None).wait()


def test_unavailable_is_retried_by_the_channel(serve):
    address, rules = serve(failures=2)
    channel = open_channel(address)
    try:
        stub = rules_service_pb2_grpc.RulesServiceStub(channel)
        stub.ListVariants(rules_service_pb2.ListVariantsRequest())
    finally:
        channel.close()
    assert rules.calls == 3


def test_the_channel_gives_up_after_four_attempts(serve):
    address, rules = serve(failures=10)
    channel = open_channel(address)
    try:
        stub = rules_service_pb2_grpc.RulesServiceStub(channel)
        with pytest.raises(grpc.RpcError) as raised:
            stub.ListVariants(rules_service_pb2.ListVariantsRequest())
    finally:
        channel.close()
    assert (raised.value.code(), rules.calls) == (grpc.StatusCode.UNAVAILABLE, 4)
