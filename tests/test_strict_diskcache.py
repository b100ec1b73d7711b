"""Derived name and language data is built once per machine, and rebuilt when its inputs change."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorers.evaluate.strict import diskcache


def _counting(tag: str) -> tuple[list[int], object]:
    built: list[int] = []

    def table() -> dict[str, str]:
        built.append(1)
        return {"tag": tag}

    table.__module__ = __name__
    table.__qualname__ = f"table_{tag}"
    return built, table


def test_built_once_then_read_from_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROME_TUI_CACHE_DIR", str(tmp_path))
    built, table = _counting("a")
    first = diskcache.disk_cached("orjson")(table)  # type: ignore[arg-type]
    assert first() == {"tag": "a"} and first() == {"tag": "a"} and built == [1]
    # A new process (a new wrapper) reads the file instead of building.
    again = diskcache.disk_cached("orjson")(table)  # type: ignore[arg-type]
    assert again() == {"tag": "a"} and built == [1]
    assert len(list(tmp_path.glob("*.pickle"))) == 1 and not list(tmp_path.glob("*.tmp"))


def test_other_package_versions_build_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROME_TUI_CACHE_DIR", str(tmp_path))
    built, table = _counting("b")
    diskcache.disk_cached("orjson")(table)()  # type: ignore[arg-type]
    diskcache.disk_cached("orjson", "no-such-package")(table)()  # type: ignore[arg-type]
    assert built == [1, 1]


def test_a_damaged_or_unwritable_cache_is_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ROME_TUI_CACHE_DIR", str(tmp_path))
    built, table = _counting("c")
    diskcache.disk_cached()(table)()  # type: ignore[arg-type]
    [path] = tmp_path.glob("*.pickle")
    path.write_bytes(b"not a pickle")
    assert diskcache.disk_cached()(table)() == {"tag": "c"} and built == [1, 1]
    # A cache directory that cannot be made (a file is in the way).
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("ROME_TUI_CACHE_DIR", str(tmp_path / "file" / "cache"))
    assert diskcache.disk_cached()(table)() == {"tag": "c"} and built == [1, 1, 1]


def test_off_turns_it_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROME_TUI_CACHE_DIR", "off")
    assert diskcache.cache_dir() is None
    built, table = _counting("d")
    diskcache.disk_cached()(table)()  # type: ignore[arg-type]
    diskcache.disk_cached()(table)()  # type: ignore[arg-type]
    assert built == [1, 1]
