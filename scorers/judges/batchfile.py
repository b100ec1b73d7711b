"""The OpenAI Batch file formats: request lines out, response lines in.

Input (one line per call): ``{"custom_id", "method": "POST", "url":
"/v1/chat/completions", "body": {model, messages, parameters}}``. Output (one
line per call, any order): ``{"id", "custom_id", "response": {"status_code",
"request_id", "body"}, "error"}``, where a failed call has an ``error`` object
(or string) or a non-200 ``status_code``. vLLM's offline runner
(``python -m vllm.entrypoints.openai.run_batch -i IN -o OUT --model M``)
reads and writes the same two formats, so one exported file runs on a GPU
node with no server to keep up.

The ``custom_id`` is the call's cache key (model, messages and parameters),
so an output line finds its request again however the lines were reordered,
split or merged, and importing the same file twice changes nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io.jsonio import atomic_write_chunks, read_bytes
from scorers.judges.base import ChatReply, ChatRequest
from scorers.judges.client import read_completion

ENDPOINT = "/v1/chat/completions"


def custom_id(request: ChatRequest, model: str) -> str:
    return request.cache_key(model)


def request_line(request: ChatRequest, model: str) -> dict[str, Any]:
    """One Batch input line: the exact body the live client would send."""
    return {
        "custom_id": custom_id(request, model),
        "method": "POST",
        "url": ENDPOINT,
        "body": {"model": model, "messages": request.message_dicts(), **request.param_dict()},
    }


def encode_requests(calls: Iterable[tuple[ChatRequest, str]]) -> tuple[bytes, int]:
    """The JSONL bytes of the calls (a call asked twice is written once) and the line count."""
    seen: set[str] = set()
    lines: list[bytes] = []
    for request, model in calls:
        line = request_line(request, model)
        if line["custom_id"] in seen:
            continue
        seen.add(line["custom_id"])
        lines.append(orjson.dumps(line) + b"\n")
    return b"".join(lines), len(lines)


def write_requests(path: str | os.PathLike[str], calls: Iterable[tuple[ChatRequest, str]]) -> int:
    """Write the Batch input file atomically; the number of lines written."""
    data, count = encode_requests(calls)
    atomic_write_chunks(path, [data])
    return count


@dataclass
class BatchOutput:
    replies: dict[str, ChatReply]  # custom_id -> the reply (an error reply for a failed line)
    lines: int
    failed: int


def read_outputs(paths: Iterable[str | os.PathLike[str]]) -> BatchOutput:
    """Read Batch output (and error) files; a line that is not a Batch result is a bad input."""
    out = BatchOutput({}, 0, 0)
    for path in paths:
        data = read_bytes(path)
        for number, raw in enumerate(data.splitlines(), 1):
            if not raw.strip():
                continue
            try:
                line = orjson.loads(raw)
            except orjson.JSONDecodeError as exc:
                raise InputError(str(path), f"not JSON ({exc})", line=number) from None
            if not isinstance(line, dict) or not isinstance(line.get("custom_id"), str):
                raise InputError(
                    str(path), "not a Batch output line (no custom_id string)", line=number
                )
            reply = reply_of_line(line)
            out.lines += 1
            out.failed += reply.error is not None
            previous = out.replies.get(line["custom_id"])
            # The same call in two files (an output and a retry's output): a success wins.
            if previous is None or previous.error is not None:
                out.replies[line["custom_id"]] = reply
    return out


def reply_of_line(line: dict[str, Any]) -> ChatReply:
    """The reply one Batch output line carries, or an error reply saying what failed."""
    response = line.get("response")
    error = line.get("error")
    status = response.get("status_code") if isinstance(response, dict) else None
    body = response.get("body") if isinstance(response, dict) else None
    if error:
        return ChatReply(content=None, error=f"batch error: {_describe(error, body)}")
    if not isinstance(response, dict):
        return ChatReply(content=None, error="batch error: the line has no response")
    if status != 200:
        return ChatReply(content=None, error=f"batch HTTP {status}: {_describe(None, body)}")
    read = read_completion(body)
    if read.problem is not None:
        return ChatReply(content=None, usage=read.usage, error=read.problem)
    return ChatReply(content=read.content, usage=read.usage, finish_reason=read.finish_reason)


def _describe(error: Any, body: Any) -> str:
    """The message of an ``error`` value or an error body, whatever its shape."""
    for value in (error, body):
        if isinstance(value, dict):
            inner = value.get("error", value)
            if isinstance(inner, dict):
                message = inner.get("message") or inner.get("code")
                if message:
                    code = inner.get("code")
                    prefix = f"{code}: " if code and code != message else ""
                    return f"{prefix}{message}"[:300]
        elif isinstance(value, str) and value:
            return value[:300]
    return "no message"
