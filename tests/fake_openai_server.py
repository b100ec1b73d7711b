"""A real chat-completions HTTP server on 127.0.0.1 for judge tests and benchmarks.

It listens on an ephemeral port in a background thread (its own asyncio
loop), speaks enough of the OpenAI protocol for the official client
(``POST /v1/chat/completions``, JSON bodies, keep-alive, ``response_format``
passed through to the responder), and records every request so tests can
count them. Each request is answered by the next scripted :class:`Action`
if any, else by the responder function. Actions inject latency, HTTP errors
with headers (429 + Retry-After, 500), hangs (a delay longer than the client
timeout), dropped connections, malformed JSON bodies and any reply text.

It also implements the Files and Batches endpoints the Batch API round trip
uses (``POST /v1/files`` multipart upload, ``GET /v1/files/ID/content``,
``POST /v1/batches``, ``GET /v1/batches/ID``): a batch answers each of its
lines with the same scripted actions or responder as live calls (recorded
under the path ``batch:/v1/chat/completions``), reports ``in_progress`` for
``batch_polls`` status checks, then ``completed`` with an output file and,
when some lines failed without an HTTP status (``close=True``), an error file.
``fail_batches`` makes the provider reject every new batch.

Run as a script it serves until killed and prints its base URL:
``python tests/fake_openai_server.py --latency 0.2``; the script answers rubric
prompts too (:func:`script_responder`).
"""

from __future__ import annotations

import argparse
import asyncio
import email.parser
import email.policy
import hashlib
import itertools
import json
import re
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


# The LRM-Eval rubric prompt's block of numbered questions (scorers/prompts/lrm_rubric_template.txt).
_RUBRIC_BLOCK = re.compile(r"\*\*Rubric Questions:\*\*\n(.*?)\n---", re.DOTALL)


def script_responder(body: dict[str, Any]) -> Action | str:
    """What the script serves, so the README's judges can be tried without a model: a
    rubric prompt gets a YES or NO to each of its numbered questions, drawn from a hash
    of the prompt (items differ, a repeated call gets the same reply); anything else the
    default ``Judgement: 1``."""
    prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    blocks = _RUBRIC_BLOCK.findall(prompt)
    if not blocks:
        return default_responder(body)
    digest = hashlib.sha256(prompt.encode()).digest()
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", blocks[-1], re.MULTILINE)]
    return "\n".join(
        f"{n}. Fake judge, no reading done. {'YES' if digest[n % len(digest)] & 1 else 'NO'}"
        for n in numbers
    )


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
        self.files: dict[str, tuple[str, bytes]] = {}  # id -> (filename, content)
        self.batches: dict[str, dict[str, Any]] = {}
        self.batch_polls = 1  # status checks that see in_progress before completed
        self.fail_batches = False
        self._ids = itertools.count(1)

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
        return self._answer(body)

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
                route = path.split("?")[0]
                if route != "/v1/chat/completions":
                    status, payload = self._files_and_batches(method, route, headers, raw, body)
                    await self._send(writer, status, payload, {})
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

    # -- Files and Batches ---------------------------------------------------------------

    def _files_and_batches(
        self, method: str, route: str, headers: dict[str, str], raw: bytes, body: dict[str, Any]
    ) -> tuple[int, bytes]:
        parts = route.strip("/").split("/")  # v1, files|batches, [id], [content]
        with self._lock:
            if method == "POST" and parts == ["v1", "files"]:
                return 200, self._upload(headers.get("content-type", ""), raw)
            if (
                method == "GET"
                and len(parts) == 4
                and parts[1] == "files"
                and parts[3] == "content"
            ):
                if parts[2] in self.files:
                    return 200, self.files[parts[2]][1]
            elif method == "POST" and parts == ["v1", "batches"]:
                return self._create_batch(body)
            elif method == "GET" and len(parts) == 3 and parts[1] == "batches":
                batch = self.batches.get(parts[2])
                if batch is not None:
                    return 200, json.dumps(self._advance(batch)).encode()
        return 404, _error_body("no such endpoint", "not_found")

    def _upload(self, content_type: str, raw: bytes) -> bytes:
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            f"Content-Type: {content_type}\r\n\r\n".encode("latin-1") + raw
        )
        filename, content, purpose = "upload.jsonl", b"", ""
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            decoded = part.get_payload(decode=True)
            payload = decoded if isinstance(decoded, bytes) else b""
            if name == "file":
                filename = part.get_filename() or filename
                content = payload
            elif name == "purpose":
                purpose = payload.decode()
        file_id = f"file-{next(self._ids)}"
        self.files[file_id] = (filename, content)
        return json.dumps(_file_object(file_id, filename, len(content), purpose)).encode()

    def _create_batch(self, body: dict[str, Any]) -> tuple[int, bytes]:
        source = self.files.get(str(body.get("input_file_id")))
        if source is None:
            return 404, _error_body("no such input file", "not_found")
        batch_id = f"batch_{next(self._ids)}"
        lines = [json.loads(line) for line in source[1].splitlines() if line.strip()]
        batch: dict[str, Any] = {
            "id": batch_id,
            "object": "batch",
            "endpoint": body.get("endpoint"),
            "input_file_id": body.get("input_file_id"),
            "completion_window": body.get("completion_window", "24h"),
            "status": "validating",
            "created_at": int(time.time()),
            "metadata": body.get("metadata"),
            "request_counts": {"total": len(lines), "completed": 0, "failed": 0},
            "output_file_id": None,
            "error_file_id": None,
            "_lines": lines,
            "_polls": 0,
        }
        if self.fail_batches:
            batch["status"] = "failed"
            batch["errors"] = {
                "object": "list",
                "data": [{"code": "invalid_request", "message": "injected batch failure"}],
            }
        self.batches[batch_id] = batch
        return 200, json.dumps(_public(batch)).encode()

    def _advance(self, batch: dict[str, Any]) -> dict[str, Any]:
        if batch["status"] in ("completed", "failed"):
            return _public(batch)
        batch["_polls"] += 1
        total = batch["request_counts"]["total"]
        if batch["_polls"] <= self.batch_polls:
            batch["status"] = "in_progress"
            batch["request_counts"]["completed"] = total * batch["_polls"] // (self.batch_polls + 1)
            return _public(batch)
        outputs: list[bytes] = []
        errors: list[bytes] = []
        failed = 0
        for n, line in enumerate(batch["_lines"]):
            request = line.get("body") or {}
            self.requests.append(
                RecordedRequest(
                    "POST", "batch:" + line.get("url", ""), {}, request, time.monotonic()
                )
            )
            action = self._script.popleft() if self._script else self._answer(request)
            result: dict[str, Any] = {"id": f"batch_req_{n}", "custom_id": line.get("custom_id")}
            if action.close:
                failed += 1
                result.update(
                    response=None, error={"code": "server_error", "message": action.error}
                )
                errors.append(json.dumps(result).encode())
                continue
            if action.status != 200:
                failed += 1
                payload = json.loads(_error_body(action.error, "server_error"))
            else:
                payload = json.loads(action.body or _completion_body(request, action))
            result.update(
                response={"status_code": action.status, "request_id": f"req_{n}", "body": payload},
                error=None,
            )
            outputs.append(json.dumps(result).encode())
        batch["status"] = "completed"
        batch["request_counts"].update(completed=total - failed, failed=failed)
        for kind, lines in (("output_file_id", outputs), ("error_file_id", errors)):
            if lines:
                file_id = f"file-{next(self._ids)}"
                self.files[file_id] = (f"{batch['id']}_{kind}.jsonl", b"\n".join(lines) + b"\n")
                batch[kind] = file_id
        return _public(batch)

    def _answer(self, body: dict[str, Any]) -> Action:
        answer = self.responder(body)
        if isinstance(answer, Action):
            return answer
        if isinstance(answer, dict):
            return Action(content=json.dumps(answer))
        return Action(content=answer)

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


def _public(batch: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in batch.items() if not k.startswith("_")}


def _file_object(file_id: str, filename: str, size: int, purpose: str) -> dict[str, Any]:
    return {
        "id": file_id,
        "object": "file",
        "bytes": size,
        "created_at": int(time.time()),
        "filename": filename,
        "purpose": purpose or "batch",
        "status": "processed",
    }


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
    server = FakeOpenAIServer(script_responder, latency=args.latency).start()
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
