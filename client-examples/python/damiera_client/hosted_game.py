"""A person's seat in a hosted game against the engine: create, move, watch, resign, ask for a hint.

The seat token that CreateGame answers is the person's only key to the seat; every action for the
seat sends it as `authorization: Bearer <token>` metadata. Reading and watching need no token.
"""

import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field

from damiera.v1 import engine_service_pb2, game_service_pb2, rules_service_pb2, types_pb2
from damiera_client.connection import Services
from damiera_client.retries import with_retries

# How long to wait for the engine's reply before giving up on it.
ENGINE_REPLY_DEADLINE_SECONDS = 60.0


class WatchEnded(Exception):
    """The WatchGame stream ended before the seat's turn came, with the game still going on."""


class TokensAlreadyIssued(Exception):
    """CreateGame answered a game an earlier attempt of the same request made, whose answer (with
    the seat's token) was lost: Damiera gives a token once, so the game cannot be played. Create
    another; the server aborts the lost one when its first move does not come."""


@dataclass(frozen=True)
class Turn:
    """The game as it stands when the seat is to move again, or is over."""

    state: game_service_pb2.GameState
    # The moves played since the ply the wait started from: the seat's own, then the engine's.
    moves: list[game_service_pb2.GameMove]


def is_over(status: types_pb2.PositionStatus) -> bool:
    """True once the game is won, drawn or aborted."""
    return status.state in (
        types_pb2.PositionStatus.STATE_WON,
        types_pb2.PositionStatus.STATE_DRAWN,
        types_pb2.PositionStatus.STATE_ABORTED,
    )


@dataclass(frozen=True)
class HostedGame:
    """A game on the server (`games/{id}`) and the person's seat in it."""

    services: Services
    # The resource name, `games/{id}`.
    name: str
    variant: "types_pb2.Variant"
    # The colour the person plays; the engine plays the other.
    seat: "types_pb2.Color"
    # The seat's secret token: given once by CreateGame, stored by the server only as a hash. Kept
    # out of the repr, so that no log line, traceback or test diff shows it.
    token: str = field(repr=False)

    @property
    def game_id(self) -> str:
        """The id in the game's name (`7k2mq9xj4d` of `games/7k2mq9xj4d`): short enough for a
        person to read in a chat and type back; the server reads it ignoring case."""
        return self.name.removeprefix("games/")

    @classmethod
    def create_against_engine(
        cls,
        services: Services,
        variant: "types_pb2.Variant",
        *,
        engine: types_pb2.SearchLimits,
        engine_level: int = 0,
        seat: "types_pb2.Color" = types_pb2.COLOR_WHITE,
        display_name: str = "",
        time_control: game_service_pb2.TimeControl | None = None,
    ) -> "HostedGame":
        """Creates a game with the person at `seat` and the engine (level 1-20, 0: 20, searching
        within `engine` limits) at the other, under `time_control` (None: untimed). The request
        id makes a retried create safe: it answers the same game, and no second one is made."""
        person = game_service_pb2.Seat(person=game_service_pb2.Person(display_name=display_name))
        computer = game_service_pb2.Seat(
            engine=game_service_pb2.EngineSeat(level=engine_level, limits=engine)
        )
        white, black = (person, computer) if seat == types_pb2.COLOR_WHITE else (computer, person)
        request = game_service_pb2.CreateGameRequest(
            variant=variant,
            white=white,
            black=black,
            options=game_service_pb2.GameOptions(time_control=time_control),
            request_id=str(uuid.uuid4()),
        )
        created = with_retries(lambda: services.games.CreateGame(request))
        if created.tokens_already_issued:
            raise TokensAlreadyIssued(created.game.name)
        token = created.white_token if seat == types_pb2.COLOR_WHITE else created.black_token
        return cls(services, created.game.name, variant, seat, token)

    def _seat_metadata(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.token}"),)

    def get(self) -> game_service_pb2.Game:
        """The game with all its moves and its state."""
        return self.services.games.GetGame(game_service_pb2.GetGameRequest(name=self.name)).game

    def make_move(
        self, notation: str, expected_ply: int | None = None
    ) -> game_service_pb2.MakeMoveResponse:
        """Plays `notation` for the seat; with `expected_ply`, only if the game still has that many
        moves (else ABORTED STALE_STATE). Retries are safe: the request id makes a repeat answer
        the stored move."""
        request = game_service_pb2.MakeMoveRequest(
            name=self.name,
            notation=notation,
            expected_ply=expected_ply,
            request_id=str(uuid.uuid4()),
        )
        return with_retries(
            lambda: self.services.games.MakeMove(request, metadata=self._seat_metadata())
        )

    def resign(self) -> game_service_pb2.Game:
        """The seat resigns; the engine's side wins."""
        request = game_service_pb2.ResignRequest(name=self.name)
        return self.services.games.Resign(request, metadata=self._seat_metadata()).game

    def abort(self) -> game_service_pb2.Game:
        """The seat aborts the game, which ends with no result; refused (ABORT_REFUSED) once each
        side has made its first move."""
        request = game_service_pb2.AbortGameRequest(name=self.name)
        return self.services.games.AbortGame(request, metadata=self._seat_metadata()).game

    def watch(self, from_ply: int | None = None, deadline: float | None = None):
        """The WatchGame stream: call it, iterate it, `cancel()` it when done."""
        request = game_service_pb2.WatchGameRequest(name=self.name, from_ply=from_ply)
        return self.services.games.WatchGame(request, timeout=deadline)

    def wait_for_turn(self, from_ply: int) -> Turn:
        """Follows the game from `from_ply` until the seat is to move or the game is over, and
        answers that state with the moves played since `from_ply`: the engine's reply. Raises
        grpc.RpcError (DEADLINE_EXCEEDED after ENGINE_REPLY_DEADLINE_SECONDS) or WatchEnded."""
        stream = self.watch(from_ply, deadline=ENGINE_REPLY_DEADLINE_SECONDS)
        moves: list[game_service_pb2.GameMove] = []
        try:
            for new_moves, state in changes_of(stream, from_ply):
                moves += new_moves
                if is_over(state.status) or state.position.side_to_move == self.seat:
                    return Turn(state, moves)
        finally:
            stream.cancel()
        raise WatchEnded(f"the watch of {self.name} ended with the game still going on")

    def legal_moves(self, state: game_service_pb2.GameState) -> list[types_pb2.Move]:
        """The legal moves in the game's current position, in the server's stable order."""
        request = rules_service_pb2.ListLegalMovesRequest(
            variant=self.variant, fen=state.position.fen
        )
        return list(self.services.rules.ListLegalMoves(request).moves)

    def hint(
        self, game: game_service_pb2.Game, limits: types_pb2.SearchLimits
    ) -> engine_service_pb2.SearchResult:
        """The engine's best move for the side to move in `game` (as read by `get`), searched
        within `limits`. The game's moves are sent, not just its position, because they count for
        repetitions. The search sees the board only: check first that the game is not over."""
        search = engine_service_pb2.SearchRequest(
            variant=self.variant,
            fen=game.start_position.fen,
            moves=[move.notation for move in game.moves],
            limits=limits,
        )
        request = engine_service_pb2.BestMoveRequest(search=search)
        return with_retries(lambda: self.services.engine.BestMove(request)).result


def changes_of(
    stream, from_ply: int
) -> Iterator[tuple[list[game_service_pb2.GameMove], game_service_pb2.GameState]]:
    """The changes a WatchGame stream from `from_ply` shows: the new moves and the state after
    them, keep-alives skipped. A resumed stream starts with an update holding the moves since
    `from_ply`; a whole game, when sent, is cut to those moves too."""
    for message in stream:
        event = message.WhichOneof("event")
        if event == "game":
            yield list(message.game.moves[from_ply:]), message.game.state
        elif event == "update":
            yield list(message.update.moves), message.update.state
