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
from scorers.io import streaming
from scorers.io.loading import load_predictions
from scorers.io.parse import parse_file

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
    monkeypatch.setattr(streaming, "_BLOCK", 97)


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
    original = streaming._BLOCK
    streaming._BLOCK = 53
    try:
        assert parse_file(str(path)).value == whole
    finally:
        streaming._BLOCK = original


# A streamed grade under broken files: a fault placed after the first blocks must give
# what the whole-file path gives (the same error, or the same files and warnings), and
# a grade that fails or is interrupted leaves the run it would replace as it was.

_N, _LATE = 200, 180


def _annotation(i: int) -> dict[str, Any]:
    return {
        "question_id": f"q{i}",
        "task": "abc"[i % 3],
        "evaluator": "choices_matching",
        "evaluator_kwargs": {"label": "B"},
    }


def _prediction(i: int, **more: Any) -> dict[str, Any]:
    return {"question_id": f"q{i}", "answer": f"Step {i}. Final Answer: {'BC'[i % 2]}", **more}


ANNOTATIONS = [_annotation(i) for i in range(_N)]
PREDICTIONS = [_prediction(i) for i in range(_N)]


def _pretty(x: Any) -> bytes:
    return json.dumps(x, indent=2).encode()


def _compact(x: Any) -> bytes:
    return json.dumps(x).encode()


def _jsonl(x: list[Any]) -> bytes:
    return b"".join(json.dumps(r).encode() + b"\n" for r in x)


def _replaced(records: list[Any], value: Any) -> list[Any]:
    return records[:_LATE] + [value] + records[_LATE + 1 :]


def _late_faults() -> dict[str, tuple[bytes, bytes, str]]:
    shapes = {
        "pretty": (_pretty, "json"),
        "compact": (_compact, "json"),
        "jsonl": (_jsonl, "jsonl"),
    }
    ann = _pretty(ANNOTATIONS)
    cases: dict[str, tuple[bytes, bytes, str]] = {}
    for shape, (write, ext) in shapes.items():
        whole = write(PREDICTIONS)
        cases[f"truncated {shape}"] = (ann, whole[:-40], ext)
        cases[f"not an object {shape}"] = (ann, write(_replaced(PREDICTIONS, 42)), ext)
        nan = write([_prediction(i, usage={"total_tokens": 7}) for i in range(_N)])
        at = nan.rindex(b'"total_tokens": 7') + len(b'"total_tokens": ')
        cases[f"NaN {shape}"] = (ann, nan[:at] + b"NaN" + nan[at + 1 :], ext)
        no_answer = {"question_id": f"q{_LATE}"}
        cases[f"no answer {shape}"] = (ann, write(_replaced(PREDICTIONS, no_answer)), ext)
        braces = _prediction(_LATE, answer='x }, { "a": 1}, {"q": "Final Answer: B')
        cases[f"'}}, {{' in a string {shape}"] = (ann, write(_replaced(PREDICTIONS, braces)), ext)
        two = [_prediction(i, model="m1") for i in range(_N)]
        two += [_prediction(i, model="m2") for i in range(_LATE, _N)]
        cases[f"second model late {shape}"] = (ann, write(two), ext)
        stranger = PREDICTIONS[:_LATE] + [_prediction(999)] + PREDICTIONS[_LATE:]
        cases[f"no annotation {shape}"] = (ann, write(stranger), ext)
        repeated = PREDICTIONS + [_prediction(_LATE, answer="Final Answer: C")]
        cases[f"repeated id {shape}"] = (ann, write(repeated), ext)
        target = ANNOTATIONS + [dict(_annotation(_LATE), evaluator_kwargs={"label": "C"})]
        cases[f"annotation target twice {shape}"] = (write(target), _pretty(PREDICTIONS), "json")
    jsonl = _jsonl(PREDICTIONS)
    cases["CRLF jsonl"] = (ann, jsonl.replace(b"\n", b"\r\n"), "jsonl")
    lines = jsonl.split(b"\n")
    cases["blank lines jsonl"] = (
        ann,
        b"\n".join(lines[:_LATE] + [b"", b" \t"] + lines[_LATE:]),
        "jsonl",
    )
    cases["BOM jsonl"] = (ann, b"\xef\xbb\xbf" + jsonl, "jsonl")
    cut = jsonl.rindex(b"Final")
    cases["one line cut jsonl"] = (ann, jsonl[:cut] + b"\n" + jsonl[cut:], "jsonl")
    cases["escaped key"] = (
        ann,
        _pretty(PREDICTIONS).replace(b'"answer"', b'"\\u0061nswer"'),
        "json",
    )
    long = _replaced(PREDICTIONS, _prediction(_LATE, answer="x" * 50_000 + " Final Answer: B"))
    cases["long line jsonl"] = (ann, _jsonl(long), "jsonl")
    cases["empty array"] = (ann, b"[ ]\n", "json")
    cases["only whitespace"] = (ann, b" \n\t\n" * 500, "json")
    deep = _prediction(_LATE, extra=json.loads("[" * 300 + "]" * 300))
    cases["too deep late"] = (ann, _pretty(_replaced(PREDICTIONS, deep)), "json")
    return cases


LATE_FAULTS = _late_faults()


def _grade_into(a: Path, p: Path, out: Path, mode: str) -> tuple[str, dict[str, bytes], list[str]]:
    """(error or "", the run's files, warnings) of grading ``p`` into ``out``."""
    from scorers.grade.run import grade_files
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings

    strict = mode == "strict"
    settings = RunSettings(mode=mode, reject_filter=strict, harness_stats=strict)
    try:
        result = grade_files(str(a), str(p), settings, paths=ResultsPaths.of(out))
    except InputError as exc:
        return str(exc), _run_files(out), []
    return "", _run_files(out), result.warnings


def _run_files(out: Path) -> dict[str, bytes]:
    """Every file of the directory, with the time of grading blanked out of run.json."""
    files = {f.name: f.read_bytes() for f in sorted(out.iterdir())}
    if "run.json" in files:
        settings = json.loads(files["run.json"])
        settings.pop("graded_at", None)
        files["run.json"] = _compact(settings)
    return files


def _late_fault_files(tmp_path: Path, case: str) -> tuple[Path, Path, Path, Path]:
    """The inputs of a good earlier run, then the ones of ``LATE_FAULTS[case]``."""
    annotations, predictions, ext = LATE_FAULTS[case]
    good_a, good = tmp_path / "good_a.json", tmp_path / "good.json"
    a, p = tmp_path / "a.json", tmp_path / f"p.{ext}"
    good_a.write_bytes(_pretty(ANNOTATIONS))
    good.write_bytes(_pretty(PREDICTIONS))
    a.write_bytes(annotations)
    p.write_bytes(predictions)
    return good_a, good, a, p


def _earlier_run(tmp_path: Path) -> tuple[Path, Path, Path, dict[str, bytes]]:
    """(annotations, predictions, out, its files): a good strict run graded into out."""
    a, p = tmp_path / "a.json", tmp_path / "p.json"
    a.write_bytes(_pretty(ANNOTATIONS))
    p.write_bytes(_pretty(PREDICTIONS))
    out = tmp_path / "out"
    out.mkdir()
    assert _grade_into(a, p, out, "strict")[0] == ""
    return a, p, out, _run_files(out)


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(streaming, "_BLOCK", 1500)  # ~20 records a block
    monkeypatch.setattr(streaming, "_LINES_PER_BLOCK", 16)


@pytest.mark.parametrize("mode", ["strict", "rome"])
@pytest.mark.parametrize("case", sorted(LATE_FAULTS))
def test_a_late_fault_in_a_streamed_grade_is_the_whole_file_paths(
    tiny_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str, mode: str
) -> None:
    from scorers.grade import run as grade_run

    good_a, good, a, p = _late_fault_files(tmp_path, case)
    outcomes = []
    for whole in (False, True):
        out = tmp_path / ("whole" if whole else "streamed")
        out.mkdir()
        assert _grade_into(good_a, good, out, mode)[0] == ""  # an earlier run
        earlier = _run_files(out)
        with monkeypatch.context() as m:
            if whole:
                m.setattr(grade_run, "_streamed", lambda *args: None)
            error, files, warnings = _grade_into(a, p, out, mode)
        if error:
            assert files == earlier, "a failed grade changed the run it would replace"
            assert str(p) in error or str(a) in error
        outcomes.append((error, files, warnings))
    assert outcomes[0] == outcomes[1]


def test_an_interrupted_streamed_grade_keeps_the_earlier_run(
    tiny_blocks: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Ctrl+C midway: the run it would replace is intact, nothing half-written is left,
    and the next grade works though a killed writer left its lock and a temp file."""
    from scorers.grade.grader import Grader
    from scorers.grade.stream import WrittenRecords

    a, p, out, earlier = _earlier_run(tmp_path)
    grade_record = Grader.grade_record
    graded = 0

    def interrupted(self: Grader, *args: Any, **kwargs: Any) -> dict[str, Any]:
        nonlocal graded
        graded += 1
        if graded == _LATE:
            raise KeyboardInterrupt
        return grade_record(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Grader, "grade_record", interrupted)
        with pytest.raises(KeyboardInterrupt):
            _grade_into(a, p, out, "strict")
    assert graded == _LATE
    assert _run_files(out) == earlier  # no temp file either
    (out / ".updated_predictions.json.killed.tmp").write_bytes(b"[{")  # a SIGKILLed writer's
    (out / ".rome-tui.lock").write_bytes(b"")
    from scorers.grade.run import grade_files
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings

    again = grade_files(str(a), str(p), RunSettings(mode="strict"), paths=ResultsPaths.of(out))
    assert isinstance(again.graded, WrittenRecords)  # streamed
    assert sorted(f.name for f in out.iterdir()) == [
        ".rome-tui.lock",
        "run.json",
        "scores.json",
        "updated_predictions.json",
    ]
