"""The judge progress bar: shown on a terminal with rate, ETA, tokens and errors; silent otherwise."""

from __future__ import annotations

import io

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
