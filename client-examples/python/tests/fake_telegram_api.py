"""A stand-in for Telegram's Bot API server, plugged into python-telegram-bot as its HTTP client.

It answers getMe, sendMessage and sendPhoto the way the Bot API does and records every call, so
the Telegram adapter runs for real without a network or a bot token.
"""

import json

from telegram.request import BaseRequest, RequestData

BOT_USER = {"id": 4242, "is_bot": True, "first_name": "Damiera", "username": "damiera_test_bot"}


class FakeTelegramApi(BaseRequest):
    """Records (method, parameters, files) for each Bot API call and answers it."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict, dict]] = []

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    async def do_request(self, url, method, request_data: RequestData | None = None, **_timeouts):
        api_method = url.rsplit("/", 1)[-1]
        parameters = request_data.parameters if request_data else {}
        files = request_data.multipart_data if request_data and request_data.contains_files else {}
        self.calls.append((api_method, parameters, files))
        return (
            200,
            json.dumps({"ok": True, "result": self._result(api_method, parameters)}).encode(),
        )

    def _result(self, api_method: str, parameters: dict):
        if api_method == "getMe":
            return BOT_USER
        # sendMessage and sendPhoto answer the message sent.
        return {
            "message_id": len(self.calls),
            "date": 0,
            "chat": {"id": parameters["chat_id"], "type": "private"},
            "from": BOT_USER,
        }

    def sent(self, api_method: str) -> list[tuple[dict, dict]]:
        """The parameters and files of every call of `api_method`, in order."""
        return [(parameters, files) for name, parameters, files in self.calls if name == api_method]
