"""The Telegram adapter, offline: python-telegram-bot, a fake Bot API, the live Damiera server."""

import asyncio

from telegram import Update

from chatbot.commands import HELP, ChatBot
from chatbot.telegram_adapter import build_application
from damiera_client.limits import search_limits
from fake_telegram_api import FakeTelegramApi

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHAT_ID = 777


def message_update(update_id: int, text: str) -> dict:
    """A Bot API update: a person wrote `text` in a private chat with the bot."""
    person = {"id": CHAT_ID, "is_bot": False, "first_name": "Anna"}
    chat = {"id": CHAT_ID, "type": "private"}
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


def test_a_new_game_is_sent_as_a_text_board_then_a_png(services):
    api = run_messages(services, ["!new italian", "!move 22-17"])
    (board_message, _), (refusal, _) = api.sent("sendMessage")
    assert board_message["chat_id"] == CHAT_ID
    assert board_message["text"].startswith(
        "New italian game. You play White: your move.\n<pre> b     b"
    )
    assert board_message["text"].endswith("</pre>")
    assert refusal["text"].startswith("That move is not legal here. Legal moves: 21-17, 22-18")

    [(photo_parameters, photo_files)] = api.sent("sendPhoto")
    assert photo_parameters["chat_id"] == CHAT_ID
    [(_file_name, content, _mime_type)] = photo_files.values()
    assert content.startswith(PNG_SIGNATURE)
