"""Snapshots of the main screens with fixed data (no clocks, no blinking cursors)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_fixtures import hostile_record, make_records, open_run, write_run
from textual.pilot import Pilot
from textual.widgets import Input

from rome_tui.app.app import ReviewApp

SIZE = (140, 40)


def make_app(tmp_path: Path) -> ReviewApp:
    records = make_records(30)
    records.insert(2, hostile_record())
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    app.review.location = "~/runs/gemini"  # the status bar's path, the same on every machine
    return app


def no_blink(app: Any) -> None:
    for widget in app.screen.query(Input):
        widget.cursor_blink = False


async def settled(pilot: Pilot[None]) -> None:
    """Wait for the background index so the status bar shows its counts."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_review_screen(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("n", "e")  # first flagged item, its evidence highlighted
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_hostile_item(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("down", "down")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_override_dialog(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("down", "0")
        await pilot.pause()
        no_blink(pilot.app)
        await pilot.press(*"wrong unit")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_filtered_and_help(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        pilot.app.review.set_filter("flag:rule_judge bucket:geo")  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_summary_screen(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("t")
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()  # the full summary, computed in a worker
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


def test_review_screen_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """The smallest usual terminal: save state, accuracy, undo, help, quit, summary stay."""

    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("n", "e")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=run_before)


def test_review_screen_200x50(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("n", "e")
        await pilot.pause()

    assert snap_compare(make_app(tmp_path), terminal_size=(200, 50), run_before=run_before)
