"""Helpers shared by the grading tests (test_grading_*, test_rome_*, test_loading_*)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from rome_tui.cli import main
from scorers.flags import flagging

DATA = Path(__file__).parent / "data"
EXAMPLE = DATA / "grading" / "example"
PARITY = DATA / "rome_parity"


def detectors_ready() -> None:
    """Drop a flag detector module that does not load yet (modules are being written in parallel).

    Only a module without a ``detect`` function is dropped; one that raises on
    import or inside ``detect`` still fails the test.
    """
    ready = []
    for name in flagging.DETECTOR_MODULES:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "detect"):
            ready.append(name)
    if tuple(ready) != flagging.DETECTOR_MODULES:
        flagging.DETECTOR_MODULES = tuple(ready)


def grade(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    detectors_ready()
    code = main(["grade", *args])
    out, err = capsys.readouterr()
    return code, out, err


def without_review(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "review"} for r in records]


def read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))
