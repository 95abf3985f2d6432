"""The chat bot end to end: every command, its refusals in words, and one game per chat."""

import dataclasses
import re
import threading
import time

import grpc
import pytest

from chatbot.chat_games import ChatGames
from chatbot.commands import GAME_OVER, HELP, NOT_ANSWERING, ChatBot, explain_refusal
from damiera.v1 import rules_service_pb2, types_pb2
from damiera_client import hosted_game
from damiera_client.connection import Services, open_channel
from damiera_client.errors import decode_error
from damiera_client.limits import search_limits
from shared import ITALIAN_OPENING_MOVES, PNG_SIGNATURE, legal_notations, masked_game_id

NO_GAME = "There is no game in this chat yet: start one with !new italian."
ITALIAN_START_BOARD = [
    " b     b     b     b        1     2     3     4",
    "    b     b     b     b        5     6     7     8",
    " b     b     b     b        9    10    11    12",
    "    .     .     .     .       13    14    15    16",
    " .     .     .     .       17    18    19    20",
    "    w     w     w     w       21    22    23    24",
    " w     w     w     w       25    26    27    28",
    "    w     w     w     w       29    30    31    32",
]


@pytest.fixture
def bot(services):
    # Depth limits keep the engine's answers quick and the same on every run.
    return ChatBot(
        services,
        engine_limits=search_limits(depth=2),
        hint_limits=search_limits(depth=2),
        review_limits=search_limits(depth=4),
    )


def test_help_lists_every_command(bot):
    reply = bot.handle("chat-help", "!help")
    assert reply.text == HELP
    assert [line.split()[0] for line in HELP.splitlines()[1:]] == [
        "!new",
        "!move",
        "!board",
        "!hint",
        "!review",
        "!resign",
        "!abort",
        "!help",
    ]
    assert (reply.board_text, reply.board_png) == ("", b"")


def test_plain_messages_are_not_answered(bot):
    assert bot.handle("chat-plain", "good move!") is None


def test_an_unknown_command_is_named_and_help_follows(bot):
    reply = bot.handle("chat-unknown", "!castle kingside")
    assert reply.text == f"I don't know the command '!castle'.\n{HELP}"


@pytest.mark.parametrize(
    "command", ["!board", "!move 22-18", "!hint", "!review", "/review", "!resign", "!abort"]
)
def test_commands_before_a_game_say_there_is_none(bot, command):
    assert bot.handle("chat-without-game", command).text == NO_GAME


def test_new_needs_a_known_variant(bot):
    assert (
        bot.handle("chat-new", "!new checkers").text
        == "Which variant? !new italian|triestina|turkish"
    )
    assert bot.handle("chat-new", "!board").text == NO_GAME


def test_new_game_answers_the_board_as_text_and_png(bot):
    reply = bot.handle("chat-start", "!new italian")
    assert masked_game_id(reply.text) == "New italian game <id>. You play White: your move."
    assert reply.board_text.splitlines() == ITALIAN_START_BOARD
    assert reply.board_png.startswith(PNG_SIGNATURE)


def test_new_needs_a_known_time_control(bot):
    assert bot.handle("chat-control", "!new italian 3m").text == (
        "Which time control? 3+2 (minutes each + seconds added per move), 30s (per move) "
        "or 3d (days per move)."
    )
    assert bot.handle("chat-control", "!board").text == NO_GAME


def test_a_timed_game_shows_both_clocks(bot):
    reply = bot.handle("chat-clocks", "!new italian 3+2")
    # No clock runs before each side's first move.
    assert masked_game_id(reply.text) == (
        "New italian game <id> (3+2). You play White: your move.\nWhite 3:00 · Black 3:00"
    )
    assert reply.board_text.splitlines() == ITALIAN_START_BOARD
    reply = bot.handle("chat-clocks", "!move 22-18")
    played, clocks = reply.text.splitlines()
    assert re.fullmatch(r"You played 22-18\. The engine played \S+\. Your move\.", played)
    # The first moves, made before any clock ran, add no increment. White's clock now runs, and
    # has run for a moment when the server reads it (shown in whole seconds, rounded down).
    assert clocks in (
        "White 2:59 · Black 3:00 (running: White)",
        "White 3:00 · Black 3:00 (running: White)",
    ), clocks
    assert bot.handle("chat-clocks", "!board").text.splitlines()[0] == "After 2 plies: your move."


def test_a_clock_that_runs_out_loses_on_time(bot):
    bot.handle("chat-flag", "!new italian 1s")
    bot.handle("chat-flag", "!move 22-18")
    # White's second move has 1 s: the server ends the game at the deadline by itself.
    time.sleep(1.5)
    reply = bot.handle("chat-flag", "!board")
    assert reply.text.splitlines()[0] == "After 2 plies: Black wins (White lost on time)."
    assert bot.handle("chat-flag", "!move 21-17").text == GAME_OVER


def test_a_game_is_aborted_before_both_sides_moved(bot):
    bot.handle("chat-abort", "!new italian 10+0")
    reply = bot.handle("chat-abort", "!abort")
    assert reply.text == "You aborted the game: it has no result.\nWhite 10:00 · Black 10:00"
    assert reply.board_png.startswith(PNG_SIGNATURE)
    assert bot.handle("chat-abort", "!board").text == (
        "After 0 plies: Aborted (by a player).\nWhite 10:00 · Black 10:00"
    )
    assert bot.handle("chat-abort", "!move 22-18").text == GAME_OVER
    # Once each side has moved, the game can only be resigned.
    bot.handle("chat-abort", "!new italian")
    bot.handle("chat-abort", "!move 22-18")
    assert bot.handle("chat-abort", "!abort").text == (
        "Too late to abort: both sides have moved. !resign gives the game up."
    )


def test_an_illegal_move_is_refused_with_the_legal_moves(bot):
    bot.handle("chat-illegal", "!new italian")
    reply = bot.handle("chat-illegal", "!move 22-17")
    assert reply.text == (
        f"That move is not legal here. Legal moves: {', '.join(ITALIAN_OPENING_MOVES)}."
    )
    assert bot.handle("chat-illegal", "!move zz").text.startswith("That is not a move.")
    assert bot.handle("chat-illegal", "!move").text == "Which move? For example: !move 22-18"
    assert bot.handle("chat-illegal", "!board").text == "After 0 plies: your move."


def test_a_move_is_answered_by_the_engine(bot, services):
    bot.handle("chat-move", "!new italian")
    reply = bot.handle("chat-move", "!move 22-18")
    played = re.fullmatch(r"You played 22-18\. The engine played (\S+)\. Your move\.", reply.text)
    assert played is not None, reply.text
    after_22_18 = "B:W18,21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    assert played.group(1) in legal_notations(services, types_pb2.VARIANT_ITALIAN, after_22_18)
    assert reply.board_text.splitlines()[4] == " .     w     .     .       17    18    19    20"
    assert reply.board_png.startswith(PNG_SIGNATURE)
    assert bot.handle("chat-move", "!board").text == "After 2 plies: your move."


def test_hint_suggests_a_legal_move(bot, services):
    bot.handle("chat-hint", "!new turkish")
    reply = bot.handle("chat-hint", "!hint")
    hinted = re.fullmatch(r"Try (\S+) \(score [^,]+, depth 2\)\.", reply.text)
    assert hinted is not None, reply.text
    assert hinted.group(1) in legal_notations(services, types_pb2.VARIANT_TURKISH)


def test_review_answers_each_sides_faults_with_the_chart(bot):
    bot.handle("chat-review", "!new italian")
    assert bot.handle("chat-review", "/review").text == (
        "No move has been played yet: there is nothing to review."
    )
    bot.handle("chat-review", "!move 22-18")
    for command in ("/review", "!review"):
        reply = bot.handle("chat-review", command)
        lines = reply.text.splitlines()
        assert lines[0] == "Review of 2 moves.", reply.text
        assert re.fullmatch(r"You \(White\): \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?\.", lines[1])
        assert re.fullmatch(r"Engine \(Black\): \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?\.", lines[2])
        assert reply.chart_png.startswith(PNG_SIGNATURE)
        assert (reply.board_text, reply.board_png) == ("", b"")
    # Only the one command is taken in the slash form: others are not commands.
    assert bot.handle("chat-review", "/board") is None


def test_resigning_ends_the_game(bot):
    bot.handle("chat-resign", "!new triestina")
    reply = bot.handle("chat-resign", "!resign")
    assert reply.text == "You resigned. Black wins (resignation)."
    assert reply.board_png.startswith(PNG_SIGNATURE)
    assert bot.handle("chat-resign", "!move 31-27").text == GAME_OVER
    assert bot.handle("chat-resign", "!hint").text == GAME_OVER
    assert bot.handle("chat-resign", "!board").text == "After 0 plies: Black wins (resignation)."


def test_each_chat_has_its_own_game(bot):
    bot.handle(1001, "!new italian")
    bot.handle(1002, "!new turkish")
    bot.handle(1001, "!move 22-18")

    assert bot.handle(1001, "!board").text == "After 2 plies: your move."
    other = bot.handle(1002, "!board")
    assert other.text == "After 0 plies: your move."
    assert other.board_text.splitlines()[1] == "7  b  b  b  b  b  b  b  b"
    assert bot.handle(1002, "!move 22-18").text.startswith("That is not a move.")
    assert bot.handle(1002, "!move c3-c4").text.startswith("You played c3-c4. The engine played ")


def test_an_ambiguous_move_is_explained_with_its_candidates(services):
    request = rules_service_pb2.ApplyMoveRequest(
        variant=types_pb2.VARIANT_ITALIAN, fen="W:W22:B19,11,18,10", notation="22x6"
    )
    with pytest.raises(grpc.RpcError) as raised:
        services.rules.ApplyMove(request)
    # The candidates come in the legal moves' order, which is the same on every run
    # (docs/architecture.md: move order is deterministic).
    assert explain_refusal(decode_error(raised.value)) == (
        "That fits several moves; say which: 22x13x6, 22x15x6."
    )


def test_a_server_that_is_not_answering_is_said_so():
    unreachable = Services.on(open_channel("127.0.0.1:1"))
    try:
        reply = ChatBot(unreachable).handle("chat-no-server", "!new italian")
    finally:
        unreachable.close()
    assert reply.text == NOT_ANSWERING


def test_a_move_whose_reply_is_late_is_answered_without_it(services, monkeypatch):
    # The engine thinks for 3 s (its search goes on after the resignation: keep it short); the bot
    # stops waiting for its reply after 0.1 s.
    monkeypatch.setattr(hosted_game, "ENGINE_REPLY_DEADLINE_SECONDS", 0.1)
    games = ChatGames()
    slow = ChatBot(services, games=games, engine_limits=search_limits(move_time_ms=3_000))
    slow.handle("chat-slow", "!new italian")
    reply = slow.handle("chat-slow", "!move 22-18")
    assert reply.text == (
        "You played 22-18. The engine's reply has not come yet: see !board in a moment."
    )
    games.get("chat-slow").resign()


def test_a_new_game_resigns_the_one_going_on(services):
    games = ChatGames()
    bot = ChatBot(services, games=games, engine_limits=search_limits(depth=2))
    bot.handle("chat-again", "!new italian")
    first = games.get("chat-again")
    reply = bot.handle("chat-again", "!new turkish")
    assert masked_game_id(reply.text) == (
        "You resigned your previous game. New turkish game <id>. You play White: your move."
    )
    assert first.get().state.status.win_reason == types_pb2.WIN_REASON_RESIGNATION
    second = games.get("chat-again")
    # The answer names the game by its short id, which the server takes back in any case.
    assert f"New turkish game {second.game_id}." in reply.text
    renamed = dataclasses.replace(second, name="games/" + second.game_id.upper())
    assert renamed.get().name == second.name
    # Games are public to read: the chat id (a Telegram user id) is not shown as a name.
    assert second.get().white.person.display_name == ""
    # A game that is over already is left as it is.
    bot.handle("chat-again", "!resign")
    reply = bot.handle("chat-again", "!new italian")
    assert masked_game_id(reply.text) == "New italian game <id>. You play White: your move."
    assert second.get().state.status.win_reason == types_pb2.WIN_REASON_RESIGNATION


class HeldGames(ChatGames):
    """ChatGames whose first look-up is held until `release` is set: a command caught midway."""

    def __init__(self) -> None:
        super().__init__()
        self.held = threading.Event()
        self.release = threading.Event()
        self.lookups: list[str] = []

    def get(self, chat_id: str):
        self.lookups.append(chat_id)
        if len(self.lookups) == 1:
            self.held.set()
            self.release.wait(timeout=60)
        return super().get(chat_id)


def test_a_chats_commands_run_one_at_a_time_while_other_chats_go_on(services):
    games = HeldGames()
    bot = ChatBot(services, games=games)
    replies: list[str] = []
    first, second = (
        threading.Thread(target=lambda: replies.append(bot.handle("chat-a", "!board").text))
        for _ in range(2)
    )
    first.start()
    assert games.held.wait(timeout=60)
    second.start()
    # Chat b is served while chat a's first command is held; chat a's second waits for it.
    assert bot.handle("chat-b", "!board").text == NO_GAME
    assert games.lookups == ["chat-a", "chat-b"]
    games.release.set()
    first.join()
    second.join()
    assert games.lookups == ["chat-a", "chat-b", "chat-a"]
    assert replies == [NO_GAME, NO_GAME]
