"""Progress of a judge run as plain lines, for a run nobody watches (a pipe, a log file).

The Rich bar (:mod:`rome_tui.render.judge_progress`) draws only on a terminal; a run
left to itself with its output in a log showed nothing for hours. This writes one line
a minute to stderr, so ``tail -f`` says how far it got, how fast and what failed.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

from scorers.judges.client import ClientStats


def _duration(seconds: float) -> str:
    minutes = round(seconds / 60)
    if minutes < 1:
        return "under a minute"
    hours, minutes = divmod(minutes, 60)
    return f"about {hours}h{minutes:02d}m" if hours else f"about {minutes} min"


class JudgeLogLines:
    INTERVAL = 60.0  # seconds between lines

    def __init__(
        self, total: int, label: str, stats: ClientStats, stream: TextIO | None = None
    ) -> None:
        self.total, self.label, self.stats = total, label, stats
        self.stream = stream if stream is not None else sys.stderr
        self.done = self.errors = 0
        self.started = self._last = time.monotonic()

    def __enter__(self) -> JudgeLogLines:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None  # the command's report follows

    def advance(self, error: bool) -> None:
        self.done += 1
        self.errors += error
        now = time.monotonic()
        if now - self._last < self.INTERVAL or self.done >= self.total:
            return
        self._last = now
        elapsed = now - self.started
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = f", {_duration((self.total - self.done) / rate)} left" if rate else ""
        speed = f"{rate:.1f}/s" if rate >= 1 else f"{rate * 60:.1f}/min"
        cached = f" ({self.stats.cached:,} cached)" if self.stats.cached else ""
        self.stream.write(
            f"{self.label}: {self.done:,}/{self.total:,} done{cached}, {speed}{left}, "
            f"{self.errors:,} error{'s' if self.errors != 1 else ''}, "
            f"{self.stats.tokens:,} tokens\n"
        )
        self.stream.flush()
