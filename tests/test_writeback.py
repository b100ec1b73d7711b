"""scorers.io.writeback: a large file's data is synced while it is written, and a
background sync's error is never lost.

The thresholds are shrunk so that a few hundred records cross them many times.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import InputError
from scorers.io import writeback
from scorers.io.updated_writer import updated_bytes, write_updated


def records(n: int) -> list[dict[str, Any]]:
    return [
        {"question_id": f"q{i}", "answer": "x" * 900, "review": {"flags": [], "verdicts": []}}
        for i in range(n)
    ]


@pytest.fixture
def small_thresholds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writeback, "WRITEBACK_EVERY", 4 << 10)
    monkeypatch.setattr(writeback, "SYNC_EVERY", 16 << 10)


def test_large_write_syncs_in_the_background_and_writes_the_same_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_thresholds: None
) -> None:
    real = writeback._datasync()
    synced: list[tuple[str, int]] = []

    def counting(fd: int) -> None:
        synced.append((threading.current_thread().name, os.fstat(fd).st_size))
        real(fd)

    monkeypatch.setattr(writeback, "_datasync", lambda: counting)
    rows = records(400)  # ~400 KB: many times SYNC_EVERY
    target = tmp_path / "updated_predictions.json"
    write_updated(target, rows)
    assert target.read_bytes() == updated_bytes(rows)
    assert synced, "no background sync ran"
    assert {name for name, _ in synced} == {"rome-tui-datasync"}
    # Each sync saw more of the file than the one before: they ran as it grew.
    sizes = [size for _, size in synced]
    assert sizes == sorted(sizes) and sizes[0] < len(target.read_bytes())


def test_small_write_starts_no_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(writeback, "_datasync", lambda: calls.append)
    write_updated(tmp_path / "u.json", records(3))
    assert calls == []


def test_background_sync_error_is_raised_and_the_old_file_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, small_thresholds: None
) -> None:
    target = tmp_path / "updated_predictions.json"
    target.write_bytes(b"[]")

    def failing(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(writeback, "_datasync", lambda: failing)
    # A failing disk is said as the file it could not write, not as a traceback.
    with pytest.raises(InputError, match="Input/output error; the old file is unchanged"):
        write_updated(target, records(400))
    assert target.read_bytes() == b"[]"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["updated_predictions.json"]
