"""The image pane and the full-screen image view, driven with Pilot."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from app_fixtures import make_records, open_run, write_run
from image_fixtures import fixed_cell_size, make_image_root, with_images

from rome_tui.app.app import ReviewApp
from rome_tui.app.images import ImageOptions
from rome_tui.app.screens.image import ImageScreen
from rome_tui.app.widgets.image_pane import ImagePane
from scorers.images import ImageRoots


@pytest.fixture(autouse=True)
def _cells(monkeypatch: pytest.MonkeyPatch) -> None:
    fixed_cell_size(monkeypatch)


IMAGES: list[Any] = [
    "img/red.png",
    ["img/green.png", "img/blue.png"],
    "img/nowhere.png",
    "img/empty.png",
    "img/truncated.png",
    "img/huge.png",
    "../secret.png",
    "img/link.png",
]


def image_app(tmp_path: Path, renderer: str = "halfcell") -> ReviewApp:
    make_image_root(tmp_path / "root")
    records = with_images(make_records(12), IMAGES)
    write_run(tmp_path / "run", records)
    options = ImageOptions(renderer, ImageRoots(tmp_path / "root"))
    return ReviewApp(open_run(tmp_path / "run"), images=options)


async def settle(pilot: Any) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def pane_of(app: ReviewApp) -> ImagePane:
    return app.review.detail.image


def note_text(pane: ImagePane) -> str:
    return str(pane.note.content)


async def test_first_image_shows_beside_the_text(tmp_path: Path) -> None:
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        pane = pane_of(app)
        assert pane.display and pane.picture is not None and pane.picture.display
        assert pane.picture.image.size[0] > 0  # type: ignore[attr-defined]
        assert pane.border_title == "Image · <image 1>"
        assert "red.png · 120×80" in str(pane.border_subtitle)
        # An item without images has no pane.
        await pilot.press("end")
        await settle(pilot)
        assert not pane.display


async def test_multi_image_items_step_through_their_images(tmp_path: Path) -> None:
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("down")
        await settle(pilot)
        pane = pane_of(app)
        assert pane.border_title == "Image 1/2 · <image 1>"
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert pane.border_title == "Image 2/2"  # the question mentions only <image 1>
        assert "blue.png · 90×120" in str(pane.border_subtitle)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert "green.png" in str(pane.border_subtitle)


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        (2, ("no such file", "img/nowhere.png")),
        (3, ("empty file (0 bytes)", "img/empty.png")),
        (4, ("corrupt image", "img/truncated.png")),
        (5, ("too large to decode (400,000,000 pixels)", "img/huge.png")),
        (6, ("refused: the path leaves the image root (..)", "secret.png")),
        (7, ("refused: a symlink leads out of the image root", "img/link.png")),
    ],
)
async def test_hostile_images_become_one_line_placeholders(
    tmp_path: Path, row: int, expected: tuple[str, str]
) -> None:
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        for _ in range(row):
            await pilot.press("down")
        await settle(pilot)
        pane = pane_of(app)
        assert pane.picture is not None and not pane.picture.display
        text = note_text(pane)
        problem, path = expected
        assert text.startswith(f"⚠ {problem}") and " · <image 1> " in text, text
        assert text.endswith(path) and str(tmp_path / "root") in text, text
        assert "\n" not in text
        # The full-screen view says the same, and the app goes on.
        await pilot.press("v")
        await settle(pilot)
        assert isinstance(app.screen, ImageScreen)
        await pilot.press("plus", "left", "o", "escape")
        await settle(pilot)
        assert not isinstance(app.screen, ImageScreen)


async def test_pane_toggles_and_stays_hidden_across_items(tmp_path: Path) -> None:
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        pane = pane_of(app)
        await pilot.press("i")
        await settle(pilot)
        assert not pane.display
        await pilot.press("down")
        await settle(pilot)
        assert not pane.display
        await pilot.press("i")
        await settle(pilot)
        assert pane.display and "green.png" in str(pane.border_subtitle)


async def test_full_screen_zoom_pan_and_next(tmp_path: Path, monkeypatch: Any) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(
        "rome_tui.app.screens.image.open_externally", lambda path: opened.append(path)
    )
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        await pilot.press("down", "v")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ImageScreen) and screen.decoded is not None
        await pilot.press("plus", "plus")
        assert screen.zoom_level == 2
        shown = screen.picture.image.size  # type: ignore[union-attr]
        assert shown[0] <= 120 / 2 + 1  # a crop of half the width, at zoom 2
        await pilot.press("right", "right", "down")
        assert screen.cx > 0.5 and screen.cy > 0.5
        await pilot.press("0")
        assert screen.zoom_level == 0 and (screen.cx, screen.cy) == (0.5, 0.5)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.current.raw == "img/blue.png"
        await pilot.press("o")
        assert opened == [tmp_path / "root" / "img" / "blue.png"]
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is app.review


async def test_open_refuses_paths_outside_the_root(tmp_path: Path, monkeypatch: Any) -> None:
    opened: list[Path] = []
    monkeypatch.setattr(
        "rome_tui.app.screens.image.open_externally", lambda path: opened.append(path)
    )
    app = image_app(tmp_path)
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        for _ in range(6):
            await pilot.press("down")
        await settle(pilot)
        await pilot.press("o")
        await pilot.pause()
        assert opened == []
        assert any("refused" in str(n.message) for n in app._notifications)


async def test_renderer_none_shows_paths_only(tmp_path: Path) -> None:
    app = image_app(tmp_path, renderer="none")
    async with app.run_test(size=(140, 40)) as pilot:
        await settle(pilot)
        pane = pane_of(app)
        assert pane.picture is None
        assert "<image 1>" in note_text(pane) and "red.png" in note_text(pane)


def test_review_images_option_is_kept_in_run_json(tmp_path: Path, monkeypatch: Any) -> None:
    from rome_tui.app import app as app_module
    from rome_tui.cli import main
    from rome_tui.commands import review as review_command

    make_image_root(tmp_path / "root")
    write_run(tmp_path / "run", with_images(make_records(3), ["img/red.png"]))
    seen: dict[str, Any] = {}

    def fake_run(self: ReviewApp) -> None:
        seen["options"] = self.image_options
        self.store.write_back()  # type: ignore[attr-defined]

    monkeypatch.setattr(app_module.ReviewApp, "run", fake_run)
    monkeypatch.setattr(review_command, "_terminal_problem", lambda: None)  # pytest has no tty
    monkeypatch.setenv("ROME_TUI_IMAGES", "halfcell")
    monkeypatch.setenv("ROME_TUI_CONFIG", str(tmp_path / "none.toml"))
    code = main(["review", str(tmp_path / "run"), "--images", str(tmp_path / "root")])
    assert code == 0
    assert seen["options"].renderer == "halfcell"
    assert seen["options"].roots.images_dir == tmp_path / "root"
    run = orjson.loads((tmp_path / "run" / "run.json").read_bytes())
    assert run["images"] == str(tmp_path / "root")
    # Next time without --images: run.json's.
    monkeypatch.setenv("ROME_TUI_IMAGES", "none")
    assert main(["review", str(tmp_path / "run")]) == 0
    assert seen["options"].roots.images_dir == tmp_path / "root"
    assert seen["options"].renderer == "none"


def test_bad_renderer_and_bad_images_dir_exit_2(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    from rome_tui.cli import main

    write_run(tmp_path / "run", make_records(3))
    monkeypatch.setenv("ROME_TUI_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("ROME_TUI_IMAGES", "pixels")
    assert main(["review", str(tmp_path / "run")]) == 2
    assert "ROME_TUI_IMAGES" in capsys.readouterr().err
    monkeypatch.delenv("ROME_TUI_IMAGES")
    assert main(["review", str(tmp_path / "run"), "--images", str(tmp_path / "nope")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_grade_keeps_images_in_run_json(tmp_path: Path) -> None:
    from rome_tui.cli import main
    from rome_tui.demo.questions import all_questions

    make_image_root(tmp_path / "root")
    question = all_questions()[0]
    (tmp_path / "a.json").write_bytes(orjson.dumps([question.annotation()]))
    answer = {"question_id": question.qid, "answer": f"Final Answer: {question.right[0]}"}
    (tmp_path / "p.json").write_bytes(orjson.dumps([answer]))
    code = main(
        ["grade", "--annotations", str(tmp_path / "a.json"), "--predictions",
         str(tmp_path / "p.json"), "--out-dir", str(tmp_path / "run"), "--json",
         "--images", str(tmp_path / "root")]
    )  # fmt: skip
    assert code == 0
    settings = orjson.loads((tmp_path / "run" / "run.json").read_bytes())
    assert settings["images"] == str(tmp_path / "root")


def test_renderer_from_the_config_file(tmp_path: Path, monkeypatch: Any) -> None:
    from rome_tui.app.settings import load_image_renderer
    from scorers.errors import RomeTuiError

    config = tmp_path / "config.toml"
    monkeypatch.setenv("ROME_TUI_CONFIG", str(config))
    monkeypatch.delenv("ROME_TUI_IMAGES", raising=False)
    assert load_image_renderer() == "auto"
    config.write_text('[images]\nrenderer = "Sixel"\n')
    assert load_image_renderer() == "sixel"
    monkeypatch.setenv("ROME_TUI_IMAGES", "none")  # the environment wins
    assert load_image_renderer() == "none"
    monkeypatch.delenv("ROME_TUI_IMAGES")
    config.write_text('[images]\nrenderer = "kitty"\n')
    with pytest.raises(RomeTuiError, match=r"\[images\] renderer = 'kitty'"):
        load_image_renderer()


def test_renderer_choice_survives_a_redirected_stdin() -> None:
    """Output on a terminal, input from /dev/null: textual-image cannot ask the terminal
    (it would read the reply from stdin); the choice falls back instead of failing."""
    import os
    import pty
    import subprocess

    main_fd, child_fd = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-c",
             "import sys; from rome_tui.app.renderers import choose_renderer; "
             "sys.stderr.write(choose_renderer('auto') + ' ' + choose_renderer('sixel'))"],
            stdin=subprocess.DEVNULL, stdout=child_fd, stderr=subprocess.PIPE,
            env={k: v for k, v in os.environ.items() if k != "TMUX"},
            cwd=Path(__file__).resolve().parent.parent, timeout=60, check=False,
        )  # fmt: skip
    finally:
        os.close(child_fd)
        os.close(main_fd)
    assert done.returncode == 0, done.stderr
    assert done.stderr.decode().strip().endswith("halfcell sixel")


def test_review_without_a_terminal_is_refused_before_drawing(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    # `review RUN > log` wrote escape codes into the file and then waited for keys.
    from rome_tui.cli import main

    write_run(tmp_path / "run", make_records(3))
    monkeypatch.setenv("ROME_TUI_CONFIG", str(tmp_path / "none.toml"))
    assert main(["review", str(tmp_path / "run")]) == 2
    err = capsys.readouterr().err
    assert "not a terminal" in err and "Traceback" not in err
