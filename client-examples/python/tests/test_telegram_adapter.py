"""The Telegram adapter, offline: python-telegram-bot, a fake Bot API, the live Damiera server."""

import asyncio
import threading

from telegram import Update

from chatbot.commands import HELP, ChatBot
from chatbot.reply import Reply
from chatbot.telegram_adapter import build_application
from damiera_client.limits import search_limits
from fake_telegram_api import FakeTelegramApi
from shared import ITALIAN_OPENING_MOVES, PNG_SIGNATURE, masked_game_id

CHAT_ID = 777


def message_update(update_id: int, text: str, chat_id: int = CHAT_ID) -> dict:
    """A Bot API update: a person wrote `text` in a private chat with the bot."""
    person = {"id": chat_id, "is_bot": False, "first_name": "Anna"}
    chat = {"id": chat_id, "type": "private"}
    message = {"message_id": update_id, "date": 0, "chat": chat, "from": person, "text": text}
    return {"update_id": update_id, "message": message}


def run_messages(services, texts: list[str]) -> FakeTelegramApi:
    """Delivers `texts` to the adapter one by one and answers the Bot API calls it made."""
    api = FakeTelegramApi()
    bot = ChatBot(services, engine_limits=search_limits(depth=2))

    async def deliver() -> None:
        application = build_application(bot, "123456:TEST-TOKEN", request=api)
        async with application:
            for update_id, text in enumerate(texts, start=1):
                update = Update.de_json(message_update(update_id, text), application.bot)
                await application.process_update(update)

    asyncio.run(deliver())
    return api


def test_help_is_sent_as_one_html_message(services):
    api = run_messages(services, ["!help", "just chatting"])
    assert api.sent("sendMessage") == [
        ({"chat_id": CHAT_ID, "text": HELP, "parse_mode": "HTML"}, {}),
    ]
    assert api.sent("sendPhoto") == []


def test_slash_review_is_answered_with_the_chart_as_a_photo(services):
    api = run_messages(services, ["!new italian", "!move 22-18", "/review", "/start"])
    messages = [parameters["text"] for parameters, _ in api.sent("sendMessage")]
    assert len(messages) == 3, "/start is not a command of this bot"
    assert messages[2].startswith("Review of 2 moves.\nYou (White): ")
    photos = api.sent("sendPhoto")
    assert len(photos) == 3, "two boards, then the chart"
    [(_file_name, chart, _mime_type)] = photos[2][1].values()
    assert chart.startswith(PNG_SIGNATURE)


def test_a_new_game_is_sent_as_a_text_board_then_a_png(services):
    api = run_messages(services, ["!new italian", "!move 22-17"])
    (board_message, _), (refusal, _) = api.sent("sendMessage")
    assert board_message["chat_id"] == CHAT_ID
    assert masked_game_id(board_message["text"]).startswith(
        "New italian game <id>. You play White: your move.\n<pre> b     b"
    )
    assert board_message["text"].endswith("</pre>")
    assert refusal["text"] == (
        f"That move is not legal here. Legal moves: {', '.join(ITALIAN_OPENING_MOVES)}."
    )

    [(photo_parameters, photo_files)] = api.sent("sendPhoto")
    assert photo_parameters["chat_id"] == CHAT_ID
    [(_file_name, content, _mime_type)] = photo_files.values()
    assert content.startswith(PNG_SIGNATURE)


def test_a_timed_game_is_sent_with_both_clocks_above_the_board(services):
    api = run_messages(services, ["!new turkish 10+5", "!abort"])
    (board_message, _), (aborted, _) = api.sent("sendMessage")
    assert masked_game_id(board_message["text"]).startswith(
        "New turkish game <id> (10+5). You play White: your move.\n"
        "White 10:00 · Black 10:00\n<pre>8  .  .  .  .  .  .  .  ."
    )
    assert aborted["text"].startswith(
        "You aborted the game: it has no result.\nWhite 10:00 · Black 10:00\n<pre>"
    )


SLOW_CHAT, QUICK_CHAT = 801, 802


class QuickChatSignallingApi(FakeTelegramApi):
    """The fake Bot API, telling when a message has been sent to QUICK_CHAT."""

    def __init__(self) -> None:
        super().__init__()
        self.quick_chat_answered = threading.Event()

    async def do_request(self, url, method, request_data=None, **timeouts):
        answer = await super().do_request(url, method, request_data, **timeouts)
        if url.endswith("/sendMessage") and request_data.parameters["chat_id"] == QUICK_CHAT:
            self.quick_chat_answered.set()
        return answer


class GatedBot:
    """A stand-in for ChatBot: SLOW_CHAT's "!slow" is answered only once QUICK_CHAT has been."""

    def __init__(self, quick_chat_answered: threading.Event) -> None:
        self._quick_chat_answered = quick_chat_answered
        self._running: set[int] = set()
        self._running_guard = threading.Lock()
        self.overlapped = False

    def handle(self, chat_id: int, text: str) -> Reply:
        with self._running_guard:
            self.overlapped |= chat_id in self._running
            self._running.add(chat_id)
        try:
            # Only a safety net: with concurrent updates, QUICK_CHAT is answered at once.
            if text == "!slow" and not self._quick_chat_answered.wait(timeout=60):
                return Reply("QUICK_CHAT was never answered")
            return Reply(text)
        finally:
            with self._running_guard:
                self._running.discard(chat_id)


def test_a_slow_chat_holds_up_no_other_chat_and_keeps_its_order():
    api = QuickChatSignallingApi()
    bot = GatedBot(api.quick_chat_answered)
    messages = [(SLOW_CHAT, "!slow"), (SLOW_CHAT, "!after"), (QUICK_CHAT, "!quick")]

    async def deliver() -> None:
        application = build_application(bot, "123456:TEST-TOKEN", request=api)
        async with application:
            await application.start()
            for update_id, (chat_id, text) in enumerate(messages, start=1):
                update = message_update(update_id, text, chat_id)
                await application.update_queue.put(Update.de_json(update, application.bot))
            await application.update_queue.join()
            await application.stop()

    asyncio.run(deliver())
    sent = [(call["chat_id"], call["text"]) for call, _files in api.sent("sendMessage")]
    assert sent == [(QUICK_CHAT, "!quick"), (SLOW_CHAT, "!slow"), (SLOW_CHAT, "!after")]
    assert not bot.overlapped
