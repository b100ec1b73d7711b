"""Snapshots of the image pane and the full-screen image view (half-cells, fixed data)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_fixtures import make_records, open_run, write_run
from image_fixtures import fixed_cell_size, make_image_root, with_images
from textual.pilot import Pilot

from rome_tui.app.app import ReviewApp
from rome_tui.app.images import ImageOptions
from scorers.images import ImageRoots


@pytest.fixture(autouse=True)
def _cells(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_cell_size(monkeypatch)


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ReviewApp:
    # A relative image root, so that the paths shown do not name the temporary folder.
    monkeypatch.chdir(tmp_path)
    make_image_root(tmp_path / "root")
    paths: list[Any] = ["img/red.png", ["img/green.png", "img/blue.png"], "img/truncated.png"]
    write_run(tmp_path / "run", with_images(make_records(12), paths))
    app = ReviewApp(
        open_run(tmp_path / "run"), images=ImageOptions("halfcell", ImageRoots(Path("root")))
    )
    app.review.location = "~/runs/pictures"  # the status bar's path, the same everywhere
    return app


async def settled(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_image_pane(snap_compare: Any, app: ReviewApp) -> None:
    assert snap_compare(app, terminal_size=(120, 36), run_before=settled)


def test_image_pane_second_image_at_80x24(snap_compare: Any, app: ReviewApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("down", "right_square_bracket")
        await settled(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_image_placeholder(snap_compare: Any, app: ReviewApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("down", "down")
        await settled(pilot)

    assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)


def test_full_screen_zoomed(snap_compare: Any, app: ReviewApp) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await settled(pilot)
        await pilot.press("v")
        await settled(pilot)
        await pilot.press("plus", "plus", "right")
        await settled(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=run_before)
