"""Damiera's HTTP/JSON routes with `httpx`: JSON in and out, errors read from their
`google.rpc.Status` JSON, and WatchGame read as newline-delimited JSON.
"""

import json
from collections.abc import Iterator

import httpx

ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"


class DamieraHttpError(Exception):
    """A call the server refused: its HTTP status, gRPC code, reason and metadata."""

    def __init__(self, http_status: int, status: dict) -> None:
        super().__init__(status.get("message", ""))
        self.http_status = http_status
        self.code = status.get("code", 0)
        info = next((d for d in status.get("details", []) if d.get("@type") == ERROR_INFO), {})
        # A stable name to switch on, such as ILLEGAL_MOVE or NOT_YOUR_TURN.
        self.reason: str = info.get("reason", "")
        # Facts for programs, such as the legal moves of an illegal move (`legalMoves`).
        self.metadata: dict[str, str] = info.get("metadata", {})


class DamieraHttp:
    """A Damiera server at `base_url` (http://host:port), with an API key if it wants one."""

    def __init__(self, base_url: str, api_key: str | None = None, timeout: float = 30.0) -> None:
        headers = {"x-api-key": api_key} if api_key else {}
        self._client = httpx.Client(base_url=base_url, headers=headers, timeout=timeout)

    def close(self) -> None:
        self._client.close()

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None, **params) -> dict:
        """One unary call: `POST /v1/games`, `GET /v1/games/{id}`; `token` acts for a seat."""
        headers = {"authorization": f"Bearer {token}"} if token else {}
        response = self._client.request(method, path, json=body, params=params or None, headers=headers)
        if response.status_code != 200:
            raise DamieraHttpError(response.status_code, response.json())
        return response.json()

    def watch(self, name: str, from_ply: int) -> Iterator[dict]:
        """WatchGame from `from_ply`: each message as it comes, until the game is over."""
        with self._client.stream("GET", f"/v1/{name}:watch", params={"fromPly": from_ply}) as response:
            if response.status_code != 200:
                response.read()
                raise DamieraHttpError(response.status_code, response.json())
            for line in response.iter_lines():
                if not line:
                    continue
                item = json.loads(line)
                if "error" in item:
                    raise DamieraHttpError(200, item["error"])
                yield item["result"]
