"""What several tests share: answers the server is known to give, and a position's legal moves."""

import re

from damiera.v1 import rules_service_pb2

# The first bytes of every PNG file.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

# The legal moves of the Italian start position, in the server's stable order.
ITALIAN_OPENING_MOVES = ["21-17", "22-18", "23-19", "24-20", "21-18", "22-19", "23-20"]


def legal_notations(services, variant, fen: str = "") -> list[str]:
    """The legal moves of `fen` (empty: the start position) as notations, in the server's order."""
    request = rules_service_pb2.ListLegalMovesRequest(variant=variant, fen=fen)
    return [move.notation for move in services.rules.ListLegalMoves(request).moves]


# A game's id as the server makes them: ten characters of Crockford's base 32 in lower case.
GAME_ID = re.compile(r"\b[0-9a-hjkmnp-tv-z]{10}\b")


def masked_game_id(text: str) -> str:
    """`text` with the first game id in it written `<id>`, for comparing answers that name a new
    game."""
    return GAME_ID.sub("<id>", text, count=1)
