"""Talks to the chat bot from a terminal, as one chat: type commands, read the answers.

    .venv/bin/python -m chatbot.console

The PNG board of each answer is written to board.png in the current folder, a review's chart to
chart.png.
"""

from pathlib import Path

from chatbot.commands import ChatBot
from damiera_client.connection import Services

CHAT_ID = "console"
PNG_FILE = Path("board.png")
CHART_FILE = Path("chart.png")


def main() -> None:
    services = Services.from_environment()
    bot = ChatBot(services)
    print("Type !help for the commands; an empty line or end of input quits.")
    try:
        while line := input("> ").strip():
            reply = bot.handle(CHAT_ID, line)
            if reply is None:
                print("(not a command: commands start with !)")
                continue
            print(reply.text)
            if reply.board_text:
                print(reply.board_text)
            if reply.board_png:
                PNG_FILE.write_bytes(reply.board_png)
                print(f"(the board is also in {PNG_FILE})")
            if reply.chart_png:
                CHART_FILE.write_bytes(reply.chart_png)
                print(f"(the chart is in {CHART_FILE})")
    except EOFError:
        pass
    finally:
        services.close()


if __name__ == "__main__":
    main()
