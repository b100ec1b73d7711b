"""Large files are parsed piece by piece; the result must equal parsing the whole file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers.errors import InputError
from scorers.io import loading
from scorers.io.loading import load_predictions, parse_file

RECORDS: list[dict[str, Any]] = [
    {
        "question_id": f"q{i}",
        "answer": "x},\n  {y" * (i % 3) + "é" * i,
        "nested": [{"a": [{"b": i}]}, {"c": "},{"}],
        "usage": {"total_tokens": i},
    }
    for i in range(40)
]


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loading, "_BLOCK", 97)


@pytest.mark.parametrize("indent", [1, 2, 4, "\t", None])
@pytest.mark.parametrize("bom", [False, True])
def test_streamed_array_equals_whole_parse(
    small_blocks: None, tmp_path: Path, indent: Any, bom: bool
) -> None:
    path = tmp_path / "p.json"
    text = json.dumps(RECORDS, indent=indent, ensure_ascii=False) + "\n"
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode())
    parsed = parse_file(str(path))
    assert parsed.value == RECORDS
    assert any("BOM" in w for w in parsed.warnings) == bom


def test_streamed_jsonl_keeps_line_numbers(small_blocks: None, tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    lines = [json.dumps(r, ensure_ascii=False) for r in RECORDS]
    path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    parsed = parse_file(str(path))
    assert parsed.value == RECORDS
    assert parsed.lines == [1 + 2 * i for i in range(len(RECORDS))]
    path.write_text(lines[0] + "\n" + lines[1] + "\n{oops\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"p\.jsonl:3: invalid JSON Lines record"):
        parse_file(str(path))


def test_broken_array_falls_back_to_exact_error(small_blocks: None, tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    text = json.dumps(RECORDS, indent=2).splitlines()
    broken = next(i for i, line in enumerate(text) if i > 100 and '"question_id":' in line)
    text[broken] = text[broken].replace(":", "", 1)  # a missing colon
    path.write_text("\n".join(text), encoding="utf-8")
    with pytest.raises(InputError, match=rf"p\.json:{broken + 1}: invalid JSON"):
        load_predictions(str(path))


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.dictionaries(
            st.text(max_size=4),
            st.recursive(
                st.text(max_size=8) | st.integers(),
                lambda c: (
                    st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3)
                ),
                max_leaves=6,
            ),
            max_size=4,
        ),
        max_size=12,
    ),
    st.sampled_from([2, 4, None]),
)
def test_streaming_matches_orjson_on_arbitrary_arrays(
    tmp_path: Path, records: list[dict[str, Any]], indent: int | None
) -> None:
    """Pretty-printed and compact (``indent=None``: cut where a candidate piece parses)."""
    path = tmp_path / "p.json"
    path.write_text(json.dumps(records, indent=indent), encoding="utf-8")
    whole = orjson.loads(path.read_bytes())  # integers beyond 64 bits come back as floats
    original = loading._BLOCK
    loading._BLOCK = 53
    try:
        assert parse_file(str(path)).value == whole
    finally:
        loading._BLOCK = original
