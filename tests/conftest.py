"""Shared pytest configuration. Area-specific fixtures live in tests/<area>_fixtures.py."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _this_checkout_first() -> None:
    """Subprocesses the tests start (``python -m rome_tui.cli``, the ``rome-tui`` script,
    ``python -c``) import the code these tests were run from: the venv's editable install
    points at one checkout (/work/main), so from a worktree they tested another's code.
    PYTHONPATH leads with this checkout, and a relative entry (``PYTHONPATH=.``) is made
    absolute, as a subprocess run in a temporary folder would read it there."""
    entries = [str(ROOT)]
    for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if entry and str(Path(entry).resolve()) not in entries:
            entries.append(str(Path(entry).resolve()))
    os.environ["PYTHONPATH"] = os.pathsep.join(entries)


_this_checkout_first()
