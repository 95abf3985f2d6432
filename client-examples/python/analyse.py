"""Analyses a position with EngineService.Analyze, printing each iteration as the search streams it.

    .venv/bin/python analyse.py --variant italian --fen "W:W21-32:B1-12" --depth 8

Each completed depth arrives as a SearchIteration (depth, score, principal variation); the last
message of the stream is the SearchResult. A deadline on the call would stop the search early,
with the best move found so far and stop reason DEADLINE.
"""

import argparse
from collections.abc import Iterator

from damiera.v1 import engine_service_pb2, types_pb2
from damiera_client.connection import Services
from damiera_client.formatting import format_line, format_score
from damiera_client.limits import search_limits
from damiera_client.variants import parse_variant, variant_names


def analyse(
    services: Services,
    variant: "types_pb2.Variant",
    fen: str,
    limits: types_pb2.SearchLimits,
    level: int = 0,
    deadline: float | None = None,
) -> Iterator[engine_service_pb2.AnalyzeResponse]:
    """The Analyze stream's messages: iterations, then the result. A `deadline` (seconds) is part
    of the search's budget: the server answers just before it, stop reason DEADLINE. Leaving the
    loop early (a break, an exception) cancels the call, which stops the search at once."""
    search = engine_service_pb2.SearchRequest(variant=variant, fen=fen, limits=limits, level=level)
    request = engine_service_pb2.AnalyzeRequest(search=search)
    stream = services.engine.Analyze(request, timeout=deadline)
    try:
        yield from stream
    finally:
        stream.cancel()


def describe(message: engine_service_pb2.AnalyzeResponse) -> str:
    """One line for an iteration, a summary for the result."""
    if message.WhichOneof("update") == "iteration":
        iteration = message.iteration
        return (
            f"depth {iteration.depth:2} (sel {iteration.selective_depth:2})  "
            f"score {format_score(iteration.score):>16}  nodes {iteration.nodes:>9}  "
            f"pv {format_line(iteration.pv)}"
        )
    result = message.result
    stop = engine_service_pb2.StopReason.Name(result.stop_reason).removeprefix("STOP_REASON_")
    return (
        f"best move {result.best_move.notation}  score {format_score(result.score)}  "
        f"depth {result.depth}  nodes {result.nodes}  "
        f"time {result.elapsed.ToMilliseconds()} ms  stop {stop.lower()}\n"
        f"line {format_line(result.pv)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=variant_names(), default="italian")
    parser.add_argument("--fen", default="", help="the position; empty: the start position")
    parser.add_argument("--depth", type=int, default=8, help="plies; 0: no depth limit")
    parser.add_argument("--movetime-ms", type=int, default=1000, help="the time limit")
    arguments = parser.parse_args()

    limits = search_limits(depth=arguments.depth, move_time_ms=arguments.movetime_ms)
    services = Services.from_environment()
    try:
        for message in analyse(services, parse_variant(arguments.variant), arguments.fen, limits):
            print(describe(message))
    finally:
        services.close()


if __name__ == "__main__":
    main()
