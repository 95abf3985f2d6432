"""Plugs the chat bot into Telegram with python-telegram-bot: each chat's commands in, replies out.

    export TELEGRAM_BOT_TOKEN=123:ABC DAMIERA_ADDR=127.0.0.1:50051
    .venv/bin/python -m chatbot.telegram_adapter

Messages that start with "!" (and `/review`) go to ChatBot.handle (in a worker thread: the gRPC calls block, and
the engine's reply takes a moment); the answer comes back as an HTML message with the text board
in a <pre> block, then the PNG board (or a review's chart) as a photo. The Telegram chat id is the bot's chat id.

Updates are handled concurrently, so that one chat's `!move`, waiting for the engine, holds up no
other chat; each chat's messages are still answered one at a time, in the order they came.
"""

import asyncio
import html
import os

from telegram import Message, Update
from telegram.constants import ParseMode
from telegram.ext import Application, ContextTypes, MessageHandler, filters
from telegram.request import BaseRequest

from chatbot.commands import PREFIX, SLASH_COMMANDS, ChatBot
from chatbot.reply import Reply
from damiera_client.connection import Services

TOKEN_VARIABLE = "TELEGRAM_BOT_TOKEN"


def build_application(bot: ChatBot, token: str, request: BaseRequest | None = None) -> Application:
    """A Telegram application that answers commands with `bot`. `request` replaces the HTTP
    client that talks to Telegram's Bot API (tests give one that never leaves the machine)."""
    builder = Application.builder().token(token).concurrent_updates(True)
    if request is not None:
        builder = builder.request(request).get_updates_request(request)
    application = builder.build()
    slash = "|".join(command.removeprefix("/") for command in SLASH_COMMANDS)
    commands = filters.TEXT & filters.Regex(rf"^\s*({PREFIX}|/({slash})\b)")
    application.add_handler(MessageHandler(commands, _answer_with(bot)))
    return application


def _answer_with(bot: ChatBot):
    # One lock per chat, taken in the order the updates came (asyncio.Lock wakes its waiters first
    # come, first served), so that a chat's commands are run, and answered, in that order. A
    # command waits for its turn here, on the event loop, not in one of to_thread's few workers.
    chat_locks: dict[int, asyncio.Lock] = {}

    async def answer(update: Update, _context: ContextTypes.DEFAULT_TYPE) -> None:
        message = update.effective_message
        chat_id = update.effective_chat.id
        async with chat_locks.setdefault(chat_id, asyncio.Lock()):
            reply = await asyncio.to_thread(bot.handle, chat_id, message.text)
            if reply is not None:
                await _send(message, reply)

    return answer


async def _send(message: Message, reply: Reply) -> None:
    """The reply as an HTML message with the text board in <pre>, then the PNG board as a photo."""
    text = html.escape(reply.text)
    if reply.board_text:
        text += f"\n<pre>{html.escape(reply.board_text)}</pre>"
    await message.reply_text(text, parse_mode=ParseMode.HTML)
    if reply.board_png:
        await message.reply_photo(photo=reply.board_png)
    if reply.chart_png:
        await message.reply_photo(photo=reply.chart_png)


def main() -> None:
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise SystemExit(f"${TOKEN_VARIABLE} is not set: ask Telegram's @BotFather for a bot token")
    services = Services.from_environment()
    try:
        build_application(ChatBot(services), token).run_polling(allowed_updates=[Update.MESSAGE])
    finally:
        services.close()


if __name__ == "__main__":
    main()
