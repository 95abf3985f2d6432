"""play_vs_engine.py plays a hosted game to its end; the seat token stays out of reprs."""

from damiera.v1 import types_pb2
from damiera_client.formatting import color_name
from damiera_client.hosted_game import HostedGame
from damiera_client.limits import search_limits
from play_vs_engine import first_legal_move, play_game


def test_a_whole_game_against_the_engine_ends_in_its_win(services):
    # A depth limit (not a time limit) makes the engine's moves the same on every run.
    game = HostedGame.create_against_engine(
        services, types_pb2.VARIANT_ITALIAN, engine=search_limits(depth=4)
    )
    lines: list[str] = []
    finished = play_game(game, first_legal_move, report=lines.append)

    status = finished.state.status
    assert status.state == types_pb2.PositionStatus.STATE_WON
    assert status.winner == types_pb2.COLOR_BLACK
    assert status.win_reason in (types_pb2.WIN_REASON_NO_PIECES, types_pb2.WIN_REASON_NO_MOVES)
    assert finished.state.ply == len(finished.moves) > 0
    assert [move.color for move in finished.moves] == [
        types_pb2.COLOR_WHITE if ply % 2 == 0 else types_pb2.COLOR_BLACK
        for ply in range(len(finished.moves))
    ]
    assert lines[:-1] == [
        f"{move.ply + 1:3}. {color_name(move.color)}: {move.notation}" for move in finished.moves
    ]
    assert lines[-1].startswith(f"Result after {finished.state.ply} plies: Black wins (")


def test_the_engine_moves_first_when_the_person_plays_black(services):
    game = HostedGame.create_against_engine(
        services,
        types_pb2.VARIANT_TURKISH,
        engine=search_limits(depth=2),
        seat=types_pb2.COLOR_BLACK,
    )
    turn = game.wait_for_turn(from_ply=0)
    assert turn.state.ply == 1
    assert [move.color for move in turn.moves] == [types_pb2.COLOR_WHITE]
    assert turn.state.position.side_to_move == types_pb2.COLOR_BLACK
    game.resign()


def test_the_seat_token_stays_out_of_the_games_repr(services):
    game = HostedGame.create_against_engine(
        services, types_pb2.VARIANT_ITALIAN, engine=search_limits(depth=1)
    )
    assert game.token
    assert game.token not in repr(game)
    assert "token=" not in repr(game)
    game.resign()
