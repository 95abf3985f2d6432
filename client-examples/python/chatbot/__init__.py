"""A draughts chat bot that knows no chat platform: commands in, text and a PNG board out.

`commands.ChatBot` does the work; `telegram_adapter` plugs it into Telegram, `console` into a
terminal.
"""
