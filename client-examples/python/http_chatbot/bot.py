"""The chat bot's game commands over HTTP/JSON: `!new`, `!move`, `!board`, `!resign` and `!help`.

A person plays White in their chat's game and the engine plays Black on the server. After the
person's move the bot watches the game until the engine has answered, and shows the board as
monospace text drawn by the server (`POST /v1/positions:render`). A refused command is answered in
words, from the error's reason and metadata (the legal moves of an illegal move).
"""

import threading
from dataclasses import dataclass

from http_chatbot.client import DamieraHttp, DamieraHttpError

PREFIX = "!"
VARIANTS = {"italian": "VARIANT_ITALIAN", "triestina": "VARIANT_TRIESTINA", "turkish": "VARIANT_TURKISH"}
# The engine's seat: a quick player, so that a chat gets its answer at once.
ENGINE = {"engine": {"level": 5, "limits": {"moveTime": "0.2s"}}}

HELP = "\n".join(
    [
        "Commands:",
        f"!new [{'|'.join(VARIANTS)}] - start a game: you play White, the engine Black",
        "!move 22-18 - play a move",
        "!board - show the board",
        "!resign - give up this game",
        "!help - this list",
    ]
)


@dataclass(frozen=True)
class ChatGame:
    """A chat's game: its name and White's seat token (a secret: it moves for the seat)."""

    name: str
    token: str
    variant: str


@dataclass(frozen=True)
class Reply:
    """One answer: a message and the board as monospace text (empty: no board)."""

    text: str
    board_text: str = ""


class HttpChatBot:
    """Answers the commands of every chat; one game per chat, kept in memory."""

    def __init__(self, damiera: DamieraHttp) -> None:
        self._damiera = damiera
        self._games: dict[str, ChatGame] = {}
        self._lock = threading.Lock()

    def handle(self, chat_id: str, text: str) -> Reply | None:
        """The answer to a chat message; none when it is not a command."""
        if not text.startswith(PREFIX):
            return None
        command, _, argument = text[len(PREFIX) :].partition(" ")
        handler = {"new": self._new, "move": self._move, "board": self._board, "resign": self._resign}.get(command)
        if handler is None:
            return Reply(HELP)
        try:
            return handler(chat_id, argument.strip())
        except DamieraHttpError as error:
            return Reply(explain(error))

    def _new(self, chat_id: str, argument: str) -> Reply:
        variant = VARIANTS.get(argument.lower() or "italian")
        if variant is None:
            return Reply(f"Unknown variant '{argument}'. {HELP}")
        created = self._damiera.call(
            "POST",
            "/v1/games",
            {"variant": variant, "white": {"person": {"displayName": f"chat {chat_id}"}}, "black": ENGINE},
        )
        game = ChatGame(created["game"]["name"], created["whiteToken"], variant)
        with self._lock:
            self._games[chat_id] = game
        return self._with_board(game, created["game"]["state"], f"New game {game.name}: you are White, your move.")

    def _move(self, chat_id: str, argument: str) -> Reply:
        game = self._game_of(chat_id)
        if game is None:
            return Reply("No game in this chat: start one with !new.")
        played = self._damiera.call("POST", f"/v1/{game.name}:move", {"notation": argument}, token=game.token)
        state = played["game"]["state"]
        text = f"You played {played['playedMove']['notation']}."
        if state["status"]["state"] == "STATE_ONGOING":
            state, reply = self._engine_reply(game, state.get("ply", 0))
            text += f" The engine played {reply}." if reply else ""
        return self._with_board(game, state, text)

    def _board(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        if game is None:
            return Reply("No game in this chat: start one with !new.")
        got = self._damiera.call("GET", f"/v1/{game.name}", view="GAME_VIEW_BASIC")
        return self._with_board(game, got["game"]["state"], f"Game {game.name}.")

    def _resign(self, chat_id: str, _argument: str) -> Reply:
        game = self._game_of(chat_id)
        if game is None:
            return Reply("No game in this chat: start one with !new.")
        resigned = self._damiera.call("POST", f"/v1/{game.name}:resign", {}, token=game.token)
        return self._with_board(game, resigned["game"]["state"], "You resigned.")

    def _game_of(self, chat_id: str) -> ChatGame | None:
        with self._lock:
            return self._games.get(chat_id)

    def _engine_reply(self, game: ChatGame, ply: int) -> tuple[dict, str]:
        """Watches the game from `ply` until the engine has moved or the game is over: the state
        then, and the engine's move."""
        for message in self._damiera.watch(game.name, ply):
            update = message.get("update", {})
            moves = update.get("moves", [])
            if moves or update.get("state", {}).get("status", {}).get("state", "STATE_ONGOING") != "STATE_ONGOING":
                return update["state"], moves[0]["notation"] if moves else ""
        raise DamieraHttpError(200, {"message": "the watch ended before the engine moved"})

    def _with_board(self, game: ChatGame, state: dict, text: str) -> Reply:
        drawn = self._damiera.call(
            "POST",
            "/v1/positions:render",
            {"variant": game.variant, "fen": state["position"]["fen"], "formats": ["IMAGE_FORMAT_TEXT"]},
        )
        return Reply(f"{text} {describe(state['status'])}".strip(), drawn["text"])


def describe(status: dict) -> str:
    """The game's result in words; empty while it goes on."""
    match status.get("state"):
        case "STATE_WON":
            return f"{status['winner'].removeprefix('COLOR_').capitalize()} wins."
        case "STATE_DRAWN":
            return "Draw."
        case "STATE_ABORTED":
            return "The game was called off."
    return ""


def explain(error: DamieraHttpError) -> str:
    """A refusal in words, from its reason."""
    match error.reason:
        case "ILLEGAL_MOVE":
            return f"That is not a legal move here. Legal moves: {error.metadata.get('legalMoves', '')}"
        case "AMBIGUOUS_MOVE":
            return f"That fits several moves: {error.metadata.get('candidates', '')}. Write it in full."
        case "INVALID_MOVE_TEXT":
            return "Write a move as 22-18 or 22x13."
        case "NOT_YOUR_TURN":
            return "Wait for the engine's move."
        case "GAME_OVER":
            return "This game is over. Start another with !new."
    return f"The server refused: {error}"
