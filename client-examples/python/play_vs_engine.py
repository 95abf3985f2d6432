"""Plays a whole hosted game against the engine through GameService, printing its moves and result.

    .venv/bin/python play_vs_engine.py --variant italian --engine-level 5 --hint-depth 0

The person's seat is played by this script: CreateGame gives its token, MakeMove sends it as
`authorization: Bearer` metadata, and WatchGame follows the game until the engine has replied.
The script's own moves are simple: the first legal move, or with --hint-depth N the engine's best
move at depth N (a shallow BestMove hint).
"""

import argparse
from collections.abc import Callable

from damiera.v1 import game_service_pb2, types_pb2
from damiera_client.connection import Services
from damiera_client.formatting import color_name, format_status
from damiera_client.hosted_game import HostedGame, is_over
from damiera_client.limits import search_limits
from damiera_client.variants import parse_variant, variant_names

# The engine thinks briefly: the point is the flow of a game, not its quality.
ENGINE_MOVE_TIME_MS = 100


def first_legal_move(game: HostedGame, state: game_service_pb2.GameState) -> str:
    """The first of the legal moves: the simplest player there is."""
    return game.legal_moves(state)[0].notation


def hinted_move(depth: int) -> Callable[[HostedGame, game_service_pb2.GameState], str]:
    """A player that asks the engine for its best move at `depth` plies."""
    return lambda game, _state: game.hint(game.get(), search_limits(depth=depth)).best_move.notation


def play_game(
    game: HostedGame,
    choose_move: Callable[[HostedGame, game_service_pb2.GameState], str],
    report: Callable[[str], None] = print,
) -> game_service_pb2.Game:
    """Plays the person's seat until the game is over and answers the finished game. Each turn
    is seen on WatchGame; the move names the ply it is for, so a stale view fails instead of
    playing into a position the script has not seen."""
    turn = game.wait_for_turn(from_ply=0)
    report_moves(turn.moves, report)
    while not is_over(turn.state.status):
        notation = choose_move(game, turn.state)
        played = game.make_move(notation, expected_ply=turn.state.ply)
        report_moves([played.played_move], report)
        turn = game.wait_for_turn(from_ply=played.game.state.ply)
        report_moves(turn.moves, report)
    report(f"Result after {turn.state.ply} plies: {format_status(turn.state.status)}")
    return game.get()


def report_moves(moves: list[game_service_pb2.GameMove], report: Callable[[str], None]) -> None:
    for move in moves:
        report(f"{move.ply + 1:3}. {color_name(move.color)}: {move.notation}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=variant_names(), default="italian")
    parser.add_argument("--engine-level", type=int, default=5, help="1 (weak) to 20 (strong)")
    parser.add_argument("--play-black", action="store_true", help="let the engine move first")
    parser.add_argument(
        "--hint-depth", type=int, default=0, help="0: play the first legal move; N: a depth-N hint"
    )
    arguments = parser.parse_args()

    services = Services.from_environment()
    try:
        game = HostedGame.create_against_engine(
            services,
            parse_variant(arguments.variant),
            engine=search_limits(move_time_ms=ENGINE_MOVE_TIME_MS),
            engine_level=arguments.engine_level,
            seat=types_pb2.COLOR_BLACK if arguments.play_black else types_pb2.COLOR_WHITE,
            display_name="play_vs_engine.py",
        )
        print(f"Created {game.name}; playing {color_name(game.seat)}")
        choose = hinted_move(arguments.hint_depth) if arguments.hint_depth else first_legal_move
        play_game(game, choose)
    finally:
        services.close()


if __name__ == "__main__":
    main()
