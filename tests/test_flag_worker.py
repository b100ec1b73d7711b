"""The flag worker gives the serial run's files; writing frees orjson's UTF-8 copies."""

from __future__ import annotations

import io
import os
import pickle
import stat
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from scorers import flag_worker, grading
from scorers.errors import InputError
from scorers.flag_worker import BATCH, DeferredFlags, FlagWorker
from scorers.flagging import FlagContext, recompute_flags
from scorers.results import ResultsPaths, RunSettings, save_results, updated_bytes

LABELLED = Path(__file__).parent / "data" / "flags" / "labelled.json"

_FINALS = {
    "choices_matching": ({"label": "B"}, ["Final Answer: B", "**Final Answer:** C", "Option b"]),
    "number_matching": ({"value_to_match": 1200}, ["Answer: 1,200", "1.2e3 m", "no idea"]),
    "ordered_list_matching": ({"order": ["A", "B", "C"]}, ["A, B, C", "Answer: C → B → A"]),
    "key_items_matching": (
        {"key_items": [["Monterrey"], ["Seattle Sounders", "Sounders"]]},
        ["Monterrey and the Seattle Sounders", "Only Monterrey"],
    ),
    "location_matching": (
        {"location_fine_grained": ["Zürich HB"], "location_coarse_grained": ["Zürich"]},
        ["Final Answer: Zürich HB", "Somewhere in Zurich", "Genève"],
    ),
    "interval_matching": ({"interval": ["1:20", "1:40"], "units": []}, ["Answer: 1:30", "2:10"]),
}


def _inputs(n: int) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Every answer shape grading knows, and the labelled flag items' traces, which raise every flag."""
    labelled = orjson.loads(LABELLED.read_bytes())["items"]
    pairs = []
    names = sorted(_FINALS)
    for i in range(n):
        name = names[i % len(names)]
        kwargs, finals = _FINALS[name]
        final = finals[i % len(finals)]
        item = labelled[i % len(labelled)]
        reasoning = f"Étape {i}: je compte 12 × 3 = 36. " * 30 + item["reason"]
        gt = {
            "question_id": f"q{i}",
            "question": f"Question {i}?",
            "reference": item.get("reference", ""),
            "task": "abc"[i % 3],
            "evaluator": item["evaluator"] if i % 3 == 0 else name,
            "evaluator_kwargs": item["evaluator_kwargs"] if i % 3 == 0 else kwargs,
        }
        pred: dict[str, Any] = {"question_id": f"q{i}", "question": f"Question {i}?"}
        if i % 3 == 0:
            final = item["answer"]
        if i % 7 == 3:
            pred["answer"] = {"inference_1": final, "inference_0": f"<think>x</think>{final}"}
        elif i % 11 == 5:
            pred["answer"] = "Error code: 500"
        elif i % 13 == 6:
            pred["answer"] = None
        elif i % 2:
            pred["answer"] = f"<think>{reasoning}</think>\n{final}"
        else:
            pred["answer"] = final
            pred["reason"] = reasoning
        if "tools_available" in item:
            pred["tools_available"] = item["tools_available"]
        pairs.append((pred, gt))
    return pairs


def _write_inputs(directory: Path, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "a.json").write_bytes(orjson.dumps([gt for _, gt in pairs]))
    (directory / "p.json").write_bytes(
        orjson.dumps([p for p, _ in pairs], option=orjson.OPT_INDENT_2)
    )


def _grade_dir(directory: Path, out: Path, settings: RunSettings) -> grading.GradeResult:
    return grading.grade_files(
        str(directory / "a.json"), str(directory / "p.json"), settings, paths=ResultsPaths.of(out)
    )


def _files(out: Path) -> dict[str, bytes]:
    # run.json holds the grading time, which differs between any two runs.
    return {name: (out / name).read_bytes() for name in ("updated_predictions.json", "scores.json")}


@pytest.fixture
def worker_always(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(grading, "FLAG_WORKER_MIN_BYTES", 0)
    monkeypatch.setattr(flag_worker, "BATCH", 7)  # many batches, and a short last one
    monkeypatch.delenv("ROME_TUI_JOBS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)


def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROME_TUI_JOBS", "1")


def _heuristic_kinds(out: Path) -> set[str]:
    records = orjson.loads((out / "updated_predictions.json").read_bytes())
    return {
        flag["kind"]
        for record in records
        for flag in record["review"]["flags"]
        if flag["source"] == "heuristic"
    }


@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_the_worker_writes_the_serial_files(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: str
) -> None:
    pairs = _inputs(150)
    if mode == "rome":  # the reference crashes on a null answer: keep those out
        pairs = [(p, g) for p, g in pairs if isinstance(p["answer"], (str, dict))]
    _write_inputs(tmp_path / "in", pairs)
    reject = mode == "strict"
    parallel = _grade_dir(
        tmp_path / "in", tmp_path / "two", RunSettings(mode=mode, reject_filter=reject)
    )
    _serial(monkeypatch)
    serial = _grade_dir(
        tmp_path / "in", tmp_path / "one", RunSettings(mode=mode, reject_filter=reject)
    )
    assert parallel.timings["processes"] == 2
    assert serial.timings["processes"] == 1
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert parallel.warnings == serial.warnings
    # The runs really raised heuristic flags, of several kinds, and graded.
    assert len(_heuristic_kinds(tmp_path / "one")) >= 5
    assert b"rome_strict_disagree" in _files(tmp_path / "one")["updated_predictions.json"]


def test_regrading_own_output_with_the_worker(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _write_inputs(tmp_path / "in", _inputs(60))
    _grade_dir(tmp_path / "in", tmp_path / "first", RunSettings())
    again = tmp_path / "again"
    again.mkdir()
    (again / "a.json").write_bytes((tmp_path / "in" / "a.json").read_bytes())
    (again / "p.json").write_bytes((tmp_path / "first" / "updated_predictions.json").read_bytes())
    _grade_dir(again, tmp_path / "two", RunSettings())
    _serial(monkeypatch)
    _grade_dir(again, tmp_path / "one", RunSettings())
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_an_evaluator_error_is_the_serial_error(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pairs = _inputs(40)
    pairs[25][1]["evaluator_kwargs"] = {"labels": "B"}
    pairs[25][1]["evaluator"] = "choices_matching"
    _write_inputs(tmp_path / "in", pairs)
    with pytest.raises(InputError) as parallel:
        _grade_dir(tmp_path / "in", tmp_path / "two", RunSettings())
    _serial(monkeypatch)
    with pytest.raises(InputError) as serial:
        _grade_dir(tmp_path / "in", tmp_path / "one", RunSettings())
    assert str(parallel.value) == str(serial.value)
    assert parallel.value.record == "q25"
    assert not (tmp_path / "two" / "updated_predictions.json").exists()


def _fake_python(tmp_path: Path, body: str) -> str:
    """An executable that stands in for the child's interpreter."""
    script = tmp_path / "fake-python"
    script.write_text(f"#!{sys.executable}\n{body}\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


@pytest.mark.parametrize(
    "body",
    [
        "import sys; sys.exit(3)",  # dies before reading anything
        # reads the context and part of the first batch, then dies
        "import sys; sys.stdin.buffer.read(4000); sys.exit(1)",
        # answers with garbage
        "import sys; sys.stdin.buffer.read(100); sys.stdout.buffer.write(b'\\x05' + b'\\0' * 7 + b'junk!'); sys.stdout.flush()",
    ],
    ids=["exits", "dies-mid-batch", "garbage"],
)
def test_a_failing_worker_costs_time_not_flags(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: str
) -> None:
    _write_inputs(tmp_path / "in", _inputs(60))
    _serial(monkeypatch)
    _grade_dir(tmp_path / "in", tmp_path / "one", RunSettings())
    monkeypatch.delenv("ROME_TUI_JOBS")
    monkeypatch.setattr(sys, "executable", _fake_python(tmp_path, body))
    result = _grade_dir(tmp_path / "in", tmp_path / "two", RunSettings())
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    failures = [w for w in result.warnings if "flag worker" in w]
    assert len(failures) == 1
    assert "computed in this process" in failures[0]


def test_a_worker_that_cannot_start_is_no_worker(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _write_inputs(tmp_path / "in", _inputs(20))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    result = _grade_dir(tmp_path / "in", tmp_path / "out", RunSettings())
    assert result.timings["processes"] == 1
    assert not [w for w in result.warnings if "flag worker" in w]
    assert _heuristic_kinds(tmp_path / "out")


def test_the_child_reports_a_detector_error_and_stops() -> None:
    def frame(payload: bytes) -> bytes:
        return len(payload).to_bytes(8, "little") + payload

    good = ({"evaluator": "choices_matching"}, "I searched the web for it.", "B")
    source = io.BytesIO(
        frame(pickle.dumps(FlagContext()))
        + frame(pickle.dumps([good]))
        + frame(pickle.dumps([(None, "x", "y")]))  # no record: detect fails
        + frame(pickle.dumps([good]))
    )
    sink = io.BytesIO()
    assert flag_worker.serve(source, sink) == 1
    answers = []
    out = io.BytesIO(sink.getvalue())
    while head := out.read(8):
        answers.append(pickle.loads(out.read(int.from_bytes(head, "little"))))
    assert len(answers) == 2  # the good batch, then the error; nothing after it
    assert [flag["kind"] for flag in answers[0][0]] == ["claims_web_search"]
    assert answers[1][0] == "error"
    assert "AttributeError" in answers[1][1]


def test_stop_ends_a_busy_child_at_once(tmp_path: Path) -> None:
    worker = FlagWorker.start(FlagContext())
    assert worker is not None
    record = {"evaluator": "choices_matching", "reason": "Maybe B. " * 20000, "answer": "B"}
    for _ in range(BATCH * 20):
        worker.submit(record, 0)
    worker.close()
    started = time.monotonic()
    worker.stop()
    assert time.monotonic() - started < 5
    assert worker._proc.returncode is not None  # noqa: SLF001 - the child is gone
    assert worker.failure is None  # stopping on purpose is no failure


def test_deferred_records_stream_in_order(worker_always: None) -> None:
    """Slicing reaches exactly as far as asked, so a writer waits for no later record."""
    pairs = orjson.loads(orjson.dumps(_inputs(30)))
    settings = RunSettings()
    ctx = grading.grader_context(settings)
    worker = FlagWorker.start(ctx)
    assert worker is not None

    def heuristic(record: dict[str, Any]) -> list[dict[str, Any]]:
        return [f for f in record["review"]["flags"] if f["source"] == "heuristic"]

    try:
        records, _ = grading.grade_pairs(pairs, settings, flags=worker)
        # Graded: every flag but the worker's is there already.
        assert not any(heuristic(record) for record in records)
        assert any(record["review"]["flags"] for record in records)
        expected = [recompute_flags(orjson.loads(orjson.dumps(r)), ctx) for r in records]
        assert sum(len(heuristic({"review": {"flags": e}})) for e in expected) > 10
        deferred = DeferredFlags(records, worker, ctx)
        assert len(deferred) == 30
        deferred[0:10]
        got = [r["review"]["flags"] for r in records]
        assert got[:10] == expected[:10]
        assert not any(heuristic(r) for r in records[14:])  # past the second batch of 7
        assert list(deferred) == records
        assert [r["review"]["flags"] for r in records] == expected
    finally:
        worker.stop()


def test_when_the_worker_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROME_TUI_JOBS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    big = grading.FLAG_WORKER_MIN_BYTES
    assert grading.wants_flag_worker(big)
    assert not grading.wants_flag_worker(big - 1)  # small runs: the child costs more than it saves
    monkeypatch.setenv("ROME_TUI_JOBS", "1")
    assert not grading.wants_flag_worker(big)
    monkeypatch.delenv("ROME_TUI_JOBS")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not grading.wants_flag_worker(big)  # one core: nothing to gain


def test_writing_frees_utf8_copies_and_keeps_the_bytes(tmp_path: Path) -> None:
    settings = RunSettings(mode="rome")
    records, _ = grading.grade_pairs(
        [(p, g) for p, g in orjson.loads(orjson.dumps(_inputs(30))) if p["answer"]], settings
    )
    long_texts = [
        r["raw_answer"]
        for r in records
        if isinstance(r["raw_answer"], str) and "Étape" in r["raw_answer"]
    ]
    assert long_texts
    bare = [sys.getsizeof(t) for t in long_texts]
    expected = orjson.dumps(records, option=orjson.OPT_INDENT_2)
    # Serialised, each non-ASCII text now carries a cached UTF-8 copy.
    assert all(sys.getsizeof(t) > b for t, b in zip(long_texts, bare, strict=True))
    assert updated_bytes(records) == expected
    # The records now hold equal strings without the copy.
    after = [
        r["raw_answer"]
        for r in records
        if isinstance(r["raw_answer"], str) and "Étape" in r["raw_answer"]
    ]
    assert after == long_texts
    assert [sys.getsizeof(t) for t in after] == bare
    # rome mode's extracted answer may be the same object as the record's answer: still shared.
    for record in records:
        rome_verdict = record["review"]["verdicts"][0]
        if rome_verdict["extracted"] == record["answer"] and len(record["answer"]) > 1024:
            assert rome_verdict["extracted"] is record["answer"]
    save_results(ResultsPaths.of(tmp_path), records, settings)
    assert (tmp_path / "updated_predictions.json").read_bytes() == expected
