"""The HTTP/JSON chat bot against the real server at $DAMIERA_URL (or http://$DAMIERA_ADDR), with
only httpx: a game against the engine, an illegal move's legal moves, and a resignation."""

import os

import pytest

from http_chatbot.bot import HttpChatBot
from http_chatbot.client import DamieraHttp

OPENINGS = "21-17 22-18 23-19 24-20 21-18 22-19 23-20"


@pytest.fixture()
def damiera():
    url = os.environ.get("DAMIERA_URL") or f"http://{os.environ['DAMIERA_ADDR']}"
    client = DamieraHttp(url)
    yield client
    client.close()


def test_a_move_gets_the_engines_reply_and_the_board(damiera):
    bot = HttpChatBot(damiera)
    started = bot.handle("c1", "!new italian")
    assert started.text.startswith("New game games/") and started.text.endswith("you are White, your move.")
    assert len(started.board_text.splitlines()) >= 8

    moved = bot.handle("c1", "!move 22-18")
    assert moved.text.startswith("You played 22-18. The engine played "), moved.text
    reply = moved.text.removeprefix("You played 22-18. The engine played ").removesuffix(".")
    after = "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    legal = damiera.call("POST", "/v1/positions:listLegalMoves", {"variant": "VARIANT_ITALIAN", "fen": after})
    assert reply in [move["notation"] for move in legal["moves"]]
    assert moved.board_text != started.board_text


def test_an_illegal_move_is_answered_with_the_legal_moves(damiera):
    bot = HttpChatBot(damiera)
    bot.handle("c2", "!new")
    assert bot.handle("c2", "!move 12-16").text == f"That is not a legal move here. Legal moves: {OPENINGS}"
    assert bot.handle("c2", "!move 22-").text == "Write a move as 22-18 or 22x13."


def test_resigning_ends_the_game(damiera):
    bot = HttpChatBot(damiera)
    bot.handle("c3", "!new turkish")
    resigned = bot.handle("c3", "!resign")
    assert resigned.text == "You resigned. Black wins."
    assert bot.handle("c3", "!move c3-c4").text == "This game is over. Start another with !new."
    assert bot.handle("c4", "!board").text == "No game in this chat: start one with !new."
    assert bot.handle("c4", "hello") is None
