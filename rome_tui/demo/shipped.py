"""The demo set shipped inside the package, and the writable copy the app opens.

The app (``rome-tui review`` without a results path) owns the demo set, so the
core store only ever opens a path it is given.
"""

from __future__ import annotations

import hashlib
import importlib.resources
import os
from pathlib import Path

from scorers.errors import UsageError
from scorers.io.jsonio import atomic_write_bytes, read_bytes

DEMO_FILES = ("updated_predictions.json", "scores.json", "run.json")


def shipped_demo_dir() -> Path:
    """The demo set inside the installed package (read-only by convention)."""
    return Path(str(importlib.resources.files("rome_tui") / "demo"))


def demo_dir() -> Path:
    """Where the demo set is opened: a writable copy, so overrides never touch the package."""
    explicit = os.environ.get("ROME_TUI_DEMO_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rome-tui" / "demo"


def prepare_demo() -> Path:
    """A writable copy of the shipped demo set; refreshed when the package's copy changes.

    The reviewer's demo journal is kept across refreshes (replay marks overrides
    of changed items stale instead of dropping them).
    """
    source = shipped_demo_dir()
    target = demo_dir()
    try:
        target.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file in its place, an unwritable parent
        where = "$ROME_TUI_DEMO_DIR" if os.environ.get("ROME_TUI_DEMO_DIR") else "the demo copy"
        why = "a file is in its place" if target.is_file() else exc.strerror or str(exc)
        raise UsageError(
            f"cannot create {where} {target}: {why}; set ROME_TUI_DEMO_DIR to a folder "
            "you can write"
        ) from None
    stamp = hashlib.sha256()
    blobs = {}
    for name in DEMO_FILES:
        if (source / name).exists():
            blobs[name] = read_bytes(source / name)
            stamp.update(name.encode() + b"\0" + blobs[name])
    if not blobs:
        raise UsageError(
            f"the demo set is missing from {source}: run `python -m rome_tui.demo.build`"
        )
    marker = target / ".source"
    digest = stamp.hexdigest()
    if not marker.exists() or marker.read_text().strip() != digest:
        for name, data in blobs.items():
            atomic_write_bytes(target / name, data)
        atomic_write_bytes(marker, digest.encode())
    return target / "updated_predictions.json"
