"""A Rich progress bar for judge runs: done/total, rate, ETA, tokens, errors.

Shown only on a terminal; in a pipe or a test it stays silent. It is the
``ProgressFactory`` that ``rome-tui judge`` hands to
:func:`scorers.judges.run.judge_run`: the core reports progress through that
protocol and draws nothing, so importing ``scorers`` never loads Rich.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from scorers.judges.client import ClientStats


class JudgeProgress:
    def __init__(
        self, total: int, label: str, stats: ClientStats, console: Console | None = None
    ) -> None:
        self.console = console or Console(stderr=True)
        self.stats = stats
        self.enabled = self.console.is_terminal
        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[tokens]} tok"),
            TextColumn("{task.fields[errors]}"),
            console=self.console,
            disable=not self.enabled,
            refresh_per_second=4,
        )
        self._task: TaskID = self._progress.add_task(
            label, total=total, rate="", tokens="0", errors=""
        )
        self._errors = 0

    def __enter__(self) -> JudgeProgress:
        self._progress.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._progress.__exit__(exc_type, exc, tb)

    def advance(self, error: bool) -> None:
        self._errors += error
        task = self._progress.tasks[0]
        elapsed = task.elapsed or 0.0
        rate = f"{(task.completed + 1) / elapsed:.1f}/s" if elapsed > 0 else ""
        errors = f"[red]{self._errors} errors[/]" if self._errors else "0 errors"
        cached = f" ({self.stats.cached} cached)" if self.stats.cached else ""
        self._progress.update(
            self._task,
            advance=1,
            rate=rate + cached,
            tokens=f"{self.stats.tokens:,}",
            errors=errors,
        )
