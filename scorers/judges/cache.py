"""On-disk cache of judge replies, content-addressed by model, prompt and parameters.

One JSON-lines file. Each entry is appended with a single ``write`` on an
``O_APPEND`` descriptor, so an interrupted run leaves at worst one torn last
line, which loading skips; every completed call before it is kept, which is
what makes an interrupted run resume. Only replies that parsed are stored
(the client writes an entry once the judge has read it): a call that failed,
or a reply that could not be read, is asked again next time. A cached reply
that no longer parses is dropped by appending a tombstone line. The API key is
never part of an entry.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from scorers.errors import InputError
from scorers.io.jsonio import unreadable

if TYPE_CHECKING:
    from scorers.judges.base import ChatReply

CACHE_NAME = "judge_cache.jsonl"


class JudgeCache:
    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._entries: dict[str, dict[str, Any]] = {}
        self._fd: int | None = None
        self.skipped_lines = 0
        self._load()

    @classmethod
    def beside(cls, results_dir: str | os.PathLike[str]) -> JudgeCache:
        """The cache a results directory keeps next to its files."""
        return cls(Path(results_dir) / CACHE_NAME)

    def _load(self) -> None:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return
        except OSError as exc:
            raise unreadable(self.path, exc) from None
        for line in data.splitlines():
            if not line.strip():
                continue
            try:
                entry = orjson.loads(line)
            except orjson.JSONDecodeError:
                self.skipped_lines += 1  # a torn write from an interrupted run
                continue
            if isinstance(entry, dict) and isinstance(entry.get("key"), str):
                if entry.get("dropped"):
                    self._entries.pop(entry["key"], None)
                else:
                    self._entries[entry["key"]] = entry

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def get(self, key: str) -> dict[str, Any] | None:
        return self._entries.get(key)

    def put(self, key: str, entry: dict[str, Any]) -> None:
        entry = {"key": key, **entry}
        self._entries[key] = entry
        self._append(entry)

    def keeper(self, key: str, model: str, reply: ChatReply) -> Callable[[bool], None]:
        """The settle hook (``ChatReply.on_settle``) of a reply just received, live or from a
        Batch output: the reply is stored under ``key`` once the judge has read it and only if
        it parsed, so an unreadable reply is asked again next run."""

        def keep(parsed: bool) -> None:
            if parsed:
                self.put(
                    key,
                    {
                        "model": model,
                        "content": reply.content,
                        "usage": reply.usage,
                        "finish_reason": reply.finish_reason,
                    },
                )

        return keep

    def drop(self, key: str) -> None:
        """Forget an entry (a tombstone line, so the file stays append-only)."""
        if self._entries.pop(key, None) is not None:
            self._append({"key": key, "dropped": True})

    def _append(self, entry: dict[str, Any]) -> None:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(self._fd, orjson.dumps(entry) + b"\n")

    def completion_tokens(self, model: str) -> tuple[int, float]:
        """How many cached replies of ``model`` report usage, and their mean completion tokens."""
        counts = [
            e["usage"]["completion_tokens"]
            for e in self._entries.values()
            if e.get("model") == model
            and isinstance(e.get("usage"), dict)
            and isinstance(e["usage"].get("completion_tokens"), int)
        ]
        return len(counts), (sum(counts) / len(counts) if counts else 0.0)

    def close(self) -> None:
        if self._fd is not None:
            os.fsync(self._fd)
            os.close(self._fd)
            self._fd = None


def check_writable(directory: str | os.PathLike[str]) -> None:
    """InputError before a single call when the run's folder cannot be written: the
    replies (paid for) could be neither cached nor saved, and were lost at the end."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as exc:
        raise InputError(
            str(directory),
            f"cannot write here ({exc.strerror or exc}): the judge's replies could be "
            "neither cached nor saved, so nothing was sent; use a folder you can write",
        ) from None
