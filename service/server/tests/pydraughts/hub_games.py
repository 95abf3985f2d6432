#!/usr/bin/env python3
"""Plays whole games with pydraughts' HubEngine driving `damiera hub` (tests/hub.rs runs it).

Usage: hub_games.py DAMIERA VARIANT GAMES DEPTH

pydraughts keeps the board: each game opens with two to six random moves (a fixed seed), then the
engine plays both sides at DEPTH plies through `HubEngine.play`, which sends `pos` (pydraughts' Hub
position and the moves since), `level depth=N` and `go think`, and reads `info` and `done`. Every
move the engine sends must be one of pydraughts' legal moves; a game ends when pydraughts says it
is over, when Damiera's Hub refuses the position because its rules ended the game (a Turkish
material ending, which pydraughts does not know: `error message="... the game is over ..."`, then
`go` answered with an error and a bare `done`, which pydraughts cannot read as a move), or is cut
at 200 plies (neither side's rules adjudicate such games alike).

Prints one line a game and a summary (`games played: N`, `plies: N`); exits 0 when every move was
legal, 1 at the first that was not, 3 if pydraughts cannot be imported.
"""

import logging
import random
import sys

try:
    from draughts import Board
    from draughts.engine import HubEngine, Limit
except ImportError as error:
    print(
        f"pydraughts is not importable by {sys.executable}: {error}\n"
        f"Install it with `{sys.executable} -m pip install pydraughts==0.6.7`, or point "
        "DAMIERA_PYTHON at a Python that has it.",
        file=sys.stderr,
    )
    sys.exit(3)

MAX_PLIES = 200


class EngineErrors(logging.Handler):
    """Keeps the engine lines pydraughts logs as unexpected (Damiera's `error` lines)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.lines = []

    def emit(self, record):
        self.lines.append(record.getMessage())


ERRORS = EngineErrors()
logging.getLogger("pydraughts").addHandler(ERRORS)


def ended_by_damiera():
    """Whether the engine refused the last position as a game its rules had ended; says so."""
    over = [line for line in ERRORS.lines if "the game is over" in line]
    if over:
        print(f"ended by Damiera's rules: {over[0]}")
    return bool(over)


def play(engine, variant, depth, rng):
    board = Board(variant=variant)
    for _ in range(rng.randint(2, 6)):
        board.push(rng.choice(board.legal_moves()))
    while not board.is_over() and len(board.move_stack) < MAX_PLIES:
        legal = {move.hub_position_move: move for move in board.legal_moves()}
        history = [m.hub_move for m in board.move_stack]
        ERRORS.lines.clear()
        try:
            result = engine.play(board, Limit(depth=depth), ponder=False)
        except (KeyError, ValueError, IndexError) as error:  # no move, or one pydraughts cannot place
            if ended_by_damiera():
                return board
            print(f"ILLEGAL (pydraughts: {error!r}) after {history}")
            return None
        if result.move.hub_position_move not in legal:
            print(f"ILLEGAL {result.move.hub_move} after {history}")
            return None
        board.push(legal[result.move.hub_position_move])
    return board


def main():
    damiera, variant, games, depth = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(14)
    engine = HubEngine([damiera, "hub"])
    engine.configure({"variant": variant, "hash": 1})
    engine.init()
    plies = 0
    for number in range(1, games + 1):
        engine.send("new-game")
        board = play(engine, variant, depth, rng)
        if board is None:
            engine.quit()
            sys.exit(1)
        plies += len(board.move_stack)
        print(f"game {number}: {len(board.move_stack)} plies, winner {board.winner()}")
    engine.ping()
    engine.quit()
    print(f"games played: {games}")
    print(f"plies: {plies}")


if __name__ == "__main__":
    main()
