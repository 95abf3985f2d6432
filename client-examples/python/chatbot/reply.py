"""What the bot answers: a message, the board as monospace text and as a PNG when it has one, and a
review's evaluation chart as a PNG."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Reply:
    """One answer to one command; an adapter shows it the way its platform can."""

    # The message for people: what happened, or what was wrong with the command.
    text: str
    # The board drawn in plain text by RenderPosition, for a monospace block; empty: no board.
    board_text: str = ""
    # The same board as a PNG image; empty: no board.
    board_png: bytes = b""
    # A game review's evaluation chart as a PNG image; empty: none.
    chart_png: bytes = b""
