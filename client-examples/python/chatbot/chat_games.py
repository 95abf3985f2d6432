"""Which hosted game each chat plays: chat id → game name and seat token, one game per chat.

Kept in memory here. A real bot keeps it in its database so games survive a restart, and treats
the seat tokens as secrets: whoever has one can move for the seat.
"""

import threading

from damiera_client.hosted_game import HostedGame


class ChatGames:
    """The current game of every chat; a new game in a chat replaces its old one."""

    def __init__(self) -> None:
        self._games: dict[str, HostedGame] = {}
        # Chat platforms deliver messages of different chats concurrently.
        self._lock = threading.Lock()

    def get(self, chat_id: str) -> HostedGame | None:
        with self._lock:
            return self._games.get(chat_id)

    def put(self, chat_id: str, game: HostedGame) -> None:
        with self._lock:
            self._games[chat_id] = game
