"""The judge progress: a bar on a terminal with rate, ETA, tokens and errors; plain lines in a log."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from rome_tui.render.judge_progress import JudgeProgress
from scorers.judges.client import ClientStats


def test_progress_shows_counts_tokens_and_errors_on_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=160, color_system=None)
    stats = ClientStats(prompt_tokens=1200, completion_tokens=34, cached=1)
    with JudgeProgress(3, "judge rome", stats, console=console) as progress:
        progress.advance(error=False)
        progress.advance(error=True)
        progress.advance(error=False)
    text = out.getvalue()
    assert "judge rome" in text and "3/3" in text
    assert "1,234 tok" in text and "1 errors" in text and "(1 cached)" in text
    assert "/s" in text and "ETA" in text


def test_progress_is_silent_off_a_terminal() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=False)
    with JudgeProgress(2, "judge rome", ClientStats(), console=console) as progress:
        progress.advance(error=False)
    assert out.getvalue() == ""


def test_a_run_in_a_log_gets_a_plain_line_a_minute(monkeypatch: pytest.MonkeyPatch) -> None:
    from rome_tui.render import judge_log
    from rome_tui.render.judge_log import JudgeLogLines

    clock = iter([0.0, 30.0, 61.0, 62.0, 200.0])  # start; then one reading per verdict
    monkeypatch.setattr(judge_log.time, "monotonic", lambda: next(clock))
    out = io.StringIO()
    stats = ClientStats(prompt_tokens=1200, completion_tokens=34, cached=2)
    with JudgeLogLines(5, "judge rome", stats, stream=out) as progress:
        progress.advance(error=False)  # 30 s: not yet a minute
        progress.advance(error=True)  # 61 s: a line
        progress.advance(error=False)  # 62 s: a minute has not passed since
        progress.advance(error=False)  # 200 s: another line
    lines = out.getvalue().splitlines()
    assert lines == [
        "judge rome: 2/5 done (2 cached), 2.0/min, about 2 min left, 1 error, 1,234 tokens",
        "judge rome: 4/5 done (2 cached), 1.2/min, about 1 min left, 1 error, 1,234 tokens",
    ]
    # The last verdict prints nothing: the command's report follows.
