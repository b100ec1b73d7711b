"""The top-level command: what `rome-tui` says before any sub-command runs."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from hardening_fixtures import run_cli


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """The example files graded into a run."""
    example = Path(__file__).parent / "data" / "grading" / "example"
    run = tmp_path / "run"
    graded = run_cli(
        ["grade", "--annotations", str(example / "annotation.json")]
        + ["--predictions", str(example / "predictions.json"), "--out-dir", str(run), "--json"]
    )
    assert graded.code == 0, graded.err
    return run


def test_version_is_printed() -> None:
    """`rome-tui --version`, what a bug report asks for, was "unrecognized arguments"."""
    ran = run_cli(["--version"])
    assert ran.code == 0 and ran.out.strip() == f"rome-tui {version('rome-tui')}", ran


def test_no_command_prints_the_commands_and_exits_2() -> None:
    ran = run_cli([])
    assert ran.code == 2 and "COMMAND" in ran.out and "review" in ran.out


def test_override_says_when_the_score_is_kept(run: Path) -> None:
    """The README's `override runs/gemini question_geo_20 1` printed "1 -> 1", which read
    as if nothing had happened; the item is now reviewed at the score it had."""
    kept = run_cli(
        ["override", str(run), "question_geo_20", "1", "--reason", "r", "--annotator", "ana"]
    )
    assert kept.code == 0 and kept.out.startswith("question_geo_20: 1 kept, now reviewed by ana")
    changed = run_cli(
        ["override", str(run), "question_geo_20", "0", "--reason", "r", "--annotator", "ana"]
    )
    assert changed.code == 0 and changed.out.startswith("question_geo_20: 1 -> 0 by ana"), (
        changed.out
    )


def test_undo_says_when_the_score_is_kept(run: Path) -> None:
    """Undoing an override that kept the score printed "1 -> 1"; what it changes is
    whether the item is reviewed, so it says so (and redo that it is reviewed again)."""
    for annotator in ("bob", "ana"):
        kept = run_cli(
            ["override", str(run), "question_geo_20", "1", "--reason", "r"]
            + ["--annotator", annotator]
        )
        assert kept.code == 0, kept.err
    undone = run_cli(["undo", str(run), "--annotator", "ana"])
    assert undone.code == 0 and undone.out.startswith(
        "undo question_geo_20: 1 kept by ana, still reviewed (bob's override stands)"
    ), undone.out
    undone = run_cli(["undo", str(run), "--annotator", "bob"])
    assert undone.code == 0 and undone.out.startswith(
        "undo question_geo_20: 1 kept by bob, no longer reviewed"
    ), undone.out
    redone = run_cli(["undo", str(run), "--redo", "--annotator", "bob"])
    assert redone.code == 0 and redone.out.startswith(
        "redo question_geo_20: 1 kept by bob, now reviewed"
    ), redone.out


def test_subprocesses_run_the_code_the_tests_run_from(tmp_path: Path) -> None:
    """The venv's editable install points at one checkout: a subprocess started in a
    temporary folder (``python -m rome_tui.cli`` in tests/test_release_parquet.py) ran
    that checkout's code when the tests ran from a worktree (tests/conftest.py)."""
    root = Path(__file__).resolve().parent.parent
    code = "import rome_tui, scorers; print(rome_tui.__file__); print(scorers.__file__)"
    ran = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    for line in ran.stdout.splitlines():
        assert Path(line).resolve().is_relative_to(root), (line, root)
