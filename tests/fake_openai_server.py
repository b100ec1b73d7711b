"""A real chat-completions HTTP server on 127.0.0.1 for judge tests and benchmarks.

It listens on an ephemeral port in a background thread (its own asyncio
loop), speaks enough of the OpenAI protocol for the official client
(``POST /v1/chat/completions``, JSON bodies, keep-alive, ``response_format``
passed through to the responder), and records every request so tests can
count them. Each request is answered by the next scripted :class:`Action`
if any, else by the responder function. Actions inject latency, HTTP errors
with headers (429 + Retry-After, 500), hangs (a delay longer than the client
timeout), dropped connections, malformed JSON bodies and any reply text.

Run as a script it serves until killed and prints its base URL:
``python tests/fake_openai_server.py --latency 0.2``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Action:
    content: str | None = "Reasoning: the answers agree.\nJudgement: 1"
    status: int = 200
    delay: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None  # sent as is instead of a completion (e.g. malformed JSON)
    error: str = "injected error"
    close: bool = False  # drop the connection without answering
    completion_tokens: int | None = None
    finish_reason: str = "stop"


@dataclass
class RecordedRequest:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float

    @property
    def prompt(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.body.get("messages", []))


Responder = Callable[[dict[str, Any]], "Action | str | dict[str, Any]"]


def default_responder(body: dict[str, Any]) -> Action:
    return Action()


class FakeOpenAIServer:
    def __init__(self, responder: Responder | None = None, *, latency: float = 0.0) -> None:
        self.responder: Responder = responder or default_responder
        self.latency = latency
        self.requests: list[RecordedRequest] = []
        self._script: deque[Action] = deque()
        self._lock = threading.Lock()
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="fake-openai", daemon=True
        )
        self._server: asyncio.AbstractServer | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self.port = 0

    # -- lifecycle ---------------------------------------------------------------------

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._start(), self._loop)
        future.result(timeout=10)
        return self

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0, backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]

    def stop(self) -> None:
        async def shutdown() -> None:
            if self._server is not None:
                self._server.close()
            for task in list(self._handlers):
                task.cancel()
            await asyncio.gather(*self._handlers, return_exceptions=True)

        if self._thread.is_alive():
            asyncio.run_coroutine_threadsafe(shutdown(), self._loop).result(timeout=10)
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
        self._loop.close()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    # -- scripting ---------------------------------------------------------------------

    def script(self, *actions: Action) -> None:
        """Answer the next requests with these actions, in order, before the responder."""
        with self._lock:
            self._script.extend(actions)

    def count(self, path: str = "/v1/chat/completions") -> int:
        with self._lock:
            return sum(1 for r in self.requests if r.path == path)

    def _action_for(self, body: dict[str, Any]) -> Action:
        with self._lock:
            if self._script:
                return self._script.popleft()
        answer = self.responder(body)
        if isinstance(answer, Action):
            return answer
        if isinstance(answer, dict):
            return Action(content=json.dumps(answer))
        return Action(content=answer)

    # -- HTTP ----------------------------------------------------------------------------

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._handlers.add(task)
        try:
            while True:
                request_line = await reader.readline()
                if not request_line:
                    return
                method, path, _ = request_line.decode("latin-1").split(" ", 2)
                headers: dict[str, str] = {}
                while True:
                    line = await reader.readline()
                    if line in (b"\r\n", b"\n", b""):
                        break
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                length = int(headers.get("content-length", "0") or 0)
                raw = await reader.readexactly(length) if length else b""
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {"_unparsable": raw.decode("utf-8", "replace")}
                with self._lock:
                    self.requests.append(
                        RecordedRequest(method, path.split("?")[0], headers, body, time.monotonic())
                    )
                if path.split("?")[0] != "/v1/chat/completions":
                    await self._send(writer, 404, _error_body("no such endpoint", "not_found"), {})
                    continue
                action = self._action_for(body)
                delay = self.latency + action.delay
                if delay:
                    await asyncio.sleep(delay)
                if action.close:
                    return
                if action.body is not None:
                    payload = action.body
                elif action.status != 200:
                    payload = _error_body(
                        action.error,
                        "rate_limit_exceeded" if action.status == 429 else "server_error",
                    )
                else:
                    payload = _completion_body(body, action)
                await self._send(writer, action.status, payload, action.headers)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, ValueError):
            return
        finally:
            self._handlers.discard(task)
            writer.close()

    @staticmethod
    async def _send(
        writer: asyncio.StreamWriter, status: int, payload: bytes, headers: dict[str, str]
    ) -> None:
        reason = {
            200: "OK",
            404: "Not Found",
            429: "Too Many Requests",
            500: "Internal Server Error",
        }.get(status, "Status")
        head = [
            f"HTTP/1.1 {status} {reason}",
            "content-type: application/json",
            f"content-length: {len(payload)}",
        ]
        head += [f"{k}: {v}" for k, v in headers.items()]
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + payload)
        await writer.drain()


def _error_body(message: str, code: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": code, "code": code}}).encode()


def _completion_body(request: dict[str, Any], action: Action) -> bytes:
    prompt_chars = sum(len(str(m.get("content", ""))) for m in request.get("messages", []))
    prompt_tokens = max(1, prompt_chars // 4)
    completion_tokens = action.completion_tokens
    if completion_tokens is None:
        completion_tokens = max(1, len(action.content or "") // 4)
    return json.dumps(
        {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": request.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": action.content},
                    "finish_reason": action.finish_reason,
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        }
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description="serve fake chat completions on 127.0.0.1")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before every reply")
    args = parser.parse_args()
    server = FakeOpenAIServer(latency=args.latency).start()
    print(server.base_url, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
