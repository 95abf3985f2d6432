"""The bot's commands, `!new`, `!move`, `!board`, `!hint`, `!review`, `!resign`, `!abort` and
`!help`, for any chat.

A person plays White in their chat's game and the engine plays Black on the server. Every answer
that shows the board carries it twice, from RulesService.RenderPosition: as monospace text and as
a PNG. `!review` (also written `/review`, as chat platforms write commands) reviews the chat's game
with GameService.ReviewGame and answers the faults of each side with the evaluation chart as a PNG.
A refused command is answered in words, never with an exception. `!new` resigns the chat's game if
it is still going on: a chat plays one game at a time, and none is left running forever.

`!new italian 3+2` (or `30s` per move, `3d` per move) starts a game under a clock, which the server
keeps: every answer that shows the board then says both clocks, as the server read them.
"""

import threading
from collections.abc import Callable

import grpc

from damiera.v1 import game_service_pb2, rules_service_pb2, types_pb2
from damiera_client.clocks import (
    TIME_CONTROL_SYNTAX,
    format_clocks,
    format_time_control,
    parse_time_control,
)
from damiera_client.connection import Services
from damiera_client.errors import DamieraError, decode_error
from damiera_client.formatting import format_score, format_status
from damiera_client.hosted_game import HostedGame, TokensAlreadyIssued, WatchEnded, is_over
from damiera_client.limits import search_limits
from damiera_client.variants import parse_variant, variant_name, variant_names
from chatbot.chat_games import ChatGames
from chatbot.reply import Reply

PREFIX = "!"

# The one command also taken in the slash form chat platforms use for commands.
SLASH_COMMANDS = ("/review",)

# The engine's seat thinks briefly, so that a chat gets its answer at once.
ENGINE_LIMITS = search_limits(move_time_ms=200)
HINT_LIMITS = search_limits(depth=6, move_time_ms=200)
# Each position of a review is searched this long: a 40-move game takes some 8 seconds.
REVIEW_LIMITS = search_limits(move_time_ms=100)

HELP = "\n".join(
    [
        "Commands:",
        f"!new {'|'.join(variant_names())} [3+2|30s|3d] - start a game (resigning the one going "
        "on): you play White, the engine Black; optional clock: 3+2 is 3 min each + 2 s a move, "
        "30s is 30 s a move, 3d is 3 days a move",
        "!move 22-18 - play a move, in full (22x13x6) or short (22x6); Turkish: c3-c4",
        "!board - show the board",
        "!hint - ask the engine for a good move",
        "!review (or /review) - a review of this game by the engine, with its chart",
        "!resign - give up this game",
        "!abort - call this game off, before each side has made its first move",
        "!help - this list",
    ]
)


GAME_OVER = f"This game is over. Start another with !new {variant_names()[0]}."
NOT_ANSWERING = "The game server is not answering; try again in a moment."

# The status codes of a call that got no answer: the server is gone, or too slow for the deadline.
TRANSPORT_FAILURES = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED)


class NoGame(Exception):
    """The chat has no game yet."""


class ChatBot:
    """Answers the commands of many chats, each with its own game. `handle` may be called from
    many threads at once: different chats are served concurrently, one chat's commands one at a
    time."""

    def __init__(
        self,
        services: Services,
        *,
        games: ChatGames | None = None,
        engine_level: int = 0,
        engine_limits: types_pb2.SearchLimits = ENGINE_LIMITS,
        hint_limits: types_pb2.SearchLimits = HINT_LIMITS,
        review_limits: types_pb2.SearchLimits = REVIEW_LIMITS,
    ):
        self._services = services
        self._games = games if games is not None else ChatGames()
        self._engine_level = engine_level
        self._engine_limits = engine_limits
        self._hint_limits = hint_limits
        self._review_limits = review_limits
        # One lock per chat, so that a chat's commands never interleave (a `!board` while its
        # `!move` waits for the engine, two `!new`s each resigning the same game); `_locks_guard`
        # guards the dict itself.
        self._chat_locks: dict[str, threading.Lock] = {}
        self._locks_guard = threading.Lock()
        self._commands: dict[str, Callable[[str, str], Reply]] = {
            "new": self._new,
            "move": self._move,
            "board": self._board,
            "hint": self._hint,
            "review": self._review,
            "resign": self._resign,
            "abort": self._abort,
            "help": lambda _chat_id, _argument: Reply(HELP),
        }

    def handle(self, chat_id: str | int, text: str) -> Reply | None:
        """The answer to a message of chat `chat_id`; None when the message is not a command."""
        text = text.strip()
        if text.split(" ")[0].lower() in SLASH_COMMANDS:
            text = PREFIX + text.removeprefix("/")
        if not text.startswith(PREFIX):
            return None
        command, _, argument = text.removeprefix(PREFIX).partition(" ")
        action = self._commands.get(command.lower())
        if action is None:
            return Reply(f"I don't know the command '{PREFIX}{command}'.\n{HELP}")
        chat_id = str(chat_id)
        with self._lock_of(chat_id):
            try:
                return action(chat_id, argument.strip())
            except NoGame:
                return Reply(
                    f"There is no game in this chat yet: start one with !new {variant_names()[0]}."
                )
            except grpc.RpcError as error:
                return Reply(explain_refusal(decode_error(error)))
            except TokensAlreadyIssued:
                # The connection broke after the game was made; its seat's token went with it.
                return Reply("The new game was lost on the way to me: send the command again.")

    def _lock_of(self, chat_id: str) -> threading.Lock:
        with self._locks_guard:
            return self._chat_locks.setdefault(chat_id, threading.Lock())

    def _game_of(self, chat_id: str) -> HostedGame:
        game = self._games.get(chat_id)
        if game is None:
            raise NoGame
        return game

    def _new(self, chat_id: str, argument: str) -> Reply:
        variant_text, _, control_text = argument.partition(" ")
        try:
            variant = parse_variant(variant_text)
        except ValueError:
            return Reply(f"Which variant? !new {'|'.join(variant_names())}")
        try:
            time_control = parse_time_control(control_text) if control_text.strip() else None
        except ValueError:
            return Reply(f"Which time control? {TIME_CONTROL_SYNTAX}.")
        previous = self._games.get(chat_id)
        resigned = previous is not None and resign_if_ongoing(previous)
        game = HostedGame.create_against_engine(
            self._services,
            variant,
            engine=self._engine_limits,
            engine_level=self._engine_level,
            time_control=time_control,
            # No display name: games are public to read, and a private chat's id is its person's
            # Telegram user id.
        )
        self._games.put(chat_id, game)
        state = game.get().state
        clock = f" ({format_time_control(time_control)})" if time_control else ""
        text = f"New {variant_name(variant)} game {game.game_id}{clock}. You play White: your move."
        if resigned:
            text = f"You resigned your previous game. {text}"
        return self._with_board(game, state, text)

    def _move(self, chat_id: str, argument: str) -> Reply:
        game = self._game_of(chat_id)
        if not argument:
            return Reply("Which move? For example: !move 22-18")
        played = game.make_move(argument)
        lines = [f"You played {played.played_move.notation}."]
        try:
            turn = game.wait_for_turn(from_ply=played.game.state.ply)
        except (grpc.RpcError, WatchEnded):
            # The move stands: only the wait for the engine's reply failed.
            return Reply(f"{lines[0]} The engine's reply has not come yet: see !board in a moment.")
        lines += [f"The engine played {move.notation}." for move in turn.moves]
        lines.append(
            f"Game over: {format_status(turn.state.status, turn.state.abort_reason)}."
            if is_over(turn.state.status)
            else "Your move."
        )
        return self._with_board(game, turn.state, " ".join(lines))

    def _board(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        state = game.get().state
        to_move = "your move" if state.position.side_to_move == game.seat else "the engine's move"
        over = is_over(state.status)
        status = format_status(state.status, state.abort_reason) if over else to_move
        return self._with_board(game, state, f"After {state.ply} plies: {status}.")

    def _hint(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        snapshot = game.get()
        if is_over(snapshot.state.status):
            return Reply(GAME_OVER)
        result = game.hint(snapshot, self._hint_limits)
        return Reply(
            f"Try {result.best_move.notation} (score {format_score(result.score)}, "
            f"depth {result.depth})."
        )

    def _review(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        request = game_service_pb2.ReviewGameRequest(name=game.name, limits=self._review_limits)
        moves, summary = [], None
        for message in self._services.games.ReviewGame(request):
            if message.HasField("reviewed_move"):
                moves.append(message.reviewed_move)
            else:
                summary = message.summary
        if not moves or summary is None:
            return Reply("No move has been played yet: there is nothing to review.")
        lines = [
            f"Review of {len(moves)} moves.",
            f"You (White): {format_counts(summary.white)}.",
            f"Engine (Black): {format_counts(summary.black)}.",
        ]
        worst = max(moves, key=lambda move: move.expected_before - move.expected_after)
        if worst.judgement >= game_service_pb2.JUDGEMENT_INACCURACY:
            lines.append(
                f"Worst move: {worst.played} at ply {worst.ply + 1}, "
                f"{JUDGEMENT_NAMES[worst.judgement]}; the engine preferred {worst.best_move}."
            )
        return Reply("\n".join(lines), chart_png=summary.chart_png)

    def _resign(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        finished = game.resign()
        return self._with_board(
            game, finished.state, f"You resigned. {format_status(finished.state.status)}."
        )

    def _abort(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        aborted = game.abort()
        return self._with_board(game, aborted.state, "You aborted the game: it has no result.")

    def _with_board(self, game: HostedGame, state, text: str) -> Reply:
        """`text`, then the clocks of a timed game on a line of their own, and the board."""
        request = rules_service_pb2.RenderPositionRequest(
            variant=game.variant,
            fen=state.position.fen,
            labels=True,
            formats=[rules_service_pb2.IMAGE_FORMAT_TEXT, rules_service_pb2.IMAGE_FORMAT_PNG],
        )
        pictures = self._services.rules.RenderPosition(request)
        clocks = format_clocks(state.clock)
        if clocks:
            text = f"{text}\n{clocks}"
        return Reply(text, board_text=pictures.text, board_png=pictures.png)


JUDGEMENT_NAMES = {
    game_service_pb2.JUDGEMENT_INACCURACY: "an inaccuracy",
    game_service_pb2.JUDGEMENT_MISTAKE: "a mistake",
    game_service_pb2.JUDGEMENT_BLUNDER: "a blunder",
}


def format_counts(counts: game_service_pb2.JudgementCounts) -> str:
    """One side's faults, in words."""

    def count(number: int, singular: str, plural: str) -> str:
        return f"{number} {singular if number == 1 else plural}"

    return ", ".join(
        [
            count(counts.inaccuracies, "inaccuracy", "inaccuracies"),
            count(counts.mistakes, "mistake", "mistakes"),
            count(counts.blunders, "blunder", "blunders"),
        ]
    )


def resign_if_ongoing(game: HostedGame) -> bool:
    """Resigns `game` unless it is already over (TIME_UP: it ended at its deadline just now); True
    if it was resigned."""
    try:
        game.resign()
    except grpc.RpcError as error:
        if decode_error(error).reason in ("GAME_OVER", "TIME_UP"):
            return False
        raise
    return True


def explain_refusal(error: DamieraError) -> str:
    """A failed call, said for people: by its ErrorInfo reason, or as a server not answering."""
    if error.reason == "ILLEGAL_MOVE":
        return f"That move is not legal here. Legal moves: {', '.join(error.legal_moves)}."
    if error.reason == "AMBIGUOUS_MOVE":
        candidates = ", ".join(error.metadata.get("candidates", "").split())
        return f"That fits several moves; say which: {candidates}."
    if error.reason == "INVALID_MOVE_TEXT":
        return "That is not a move. Write it like 22-18 (Turkish: c3-c4), or 22x13 for a capture."
    if error.reason == "NOT_YOUR_TURN":
        return "It is the engine's turn: wait for its move."
    if error.reason == "GAME_OVER":
        return GAME_OVER
    if error.reason == "TIME_UP":
        return (
            "Your time ran out: you lost on time. "
            f"Start another game with !new {variant_names()[0]}."
        )
    if error.reason == "ABORT_REFUSED":
        return "Too late to abort: both sides have moved. !resign gives the game up."
    if error.code in TRANSPORT_FAILURES:
        return NOT_ANSWERING
    return f"The server refused that: {error.message}"
