"""The grading worker gives the serial run's files; writing frees orjson's UTF-8 copies."""

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

from scorers.errors import InputError
from scorers.flags import flagging
from scorers.grade import grader as grading
from scorers.grade import run as grade_run
from scorers.grade import worker as grade_worker
from scorers.grade.grader import Grader
from scorers.grade.run import DeferredRecords
from scorers.grade.worker import BATCH, GradeWorker
from scorers.io import pairing, streaming
from scorers.io.results import save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.scores import tally_of
from scorers.io.updated_writer import updated_bytes
from scorers.records import REVIEW_KEY

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


def _grade_dir(directory: Path, out: Path, settings: RunSettings) -> grade_run.GradeResult:
    return grade_run.grade_files(
        str(directory / "a.json"), str(directory / "p.json"), settings, paths=ResultsPaths.of(out)
    )


def _files(out: Path) -> dict[str, bytes]:
    # run.json holds the grading time, which differs between any two runs.
    return {name: (out / name).read_bytes() for name in ("updated_predictions.json", "scores.json")}


_STREAMED = grade_run._streamed


@pytest.fixture
def worker_always(monkeypatch: pytest.MonkeyPatch) -> None:
    # The whole-file path, which the worker shares (a streamed run has no worker).
    monkeypatch.setattr(grade_run, "_streamed", lambda *args: None)
    monkeypatch.setattr(grade_run, "GRADE_WORKER_MIN_BYTES", 0)
    monkeypatch.setattr(grade_worker, "BATCH", 7)  # many batches, and a short last one
    monkeypatch.delenv("ROME_TUI_JOBS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)


def _serial(monkeypatch: pytest.MonkeyPatch) -> None:
    """One process: the run streamed where it can be, which must write what the worker writes."""
    monkeypatch.setenv("ROME_TUI_JOBS", "1")
    monkeypatch.setattr(grade_run, "_streamed", _STREAMED)


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
    # The queue's length, counted without building the child's records.
    assert (
        parallel.flagged
        == serial.flagged
        == sum(1 for r in serial.records if r[REVIEW_KEY]["flags"])
    )
    assert 0 < serial.flagged < len(pairs)
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
        # an answer frame whose pickle would run past its end
        "import sys; sys.stdin.buffer.read(100); sys.stdout.buffer.write(b'\\x0a' + b'\\0' * 7 + b'A' + b'\\xff' * 8 + b'x'); sys.stdout.flush(); sys.stdin.buffer.read()",
    ],
    ids=["exits", "dies-mid-batch", "garbage", "answer-cut-short"],
)
def test_a_failing_worker_costs_time_not_grades(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, body: str
) -> None:
    _write_inputs(tmp_path / "in", _inputs(60))
    _serial(monkeypatch)
    _grade_dir(tmp_path / "in", tmp_path / "one", RunSettings())
    monkeypatch.delenv("ROME_TUI_JOBS")
    monkeypatch.setattr(grade_run, "_streamed", lambda *args: None)
    monkeypatch.setattr(sys, "executable", _fake_python(tmp_path, body))
    result = _grade_dir(tmp_path / "in", tmp_path / "two", RunSettings())
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    failures = [w for w in result.warnings if "grading worker" in w]
    assert len(failures) == 1
    assert "graded in this process" in failures[0]


def test_a_worker_that_cannot_start_is_no_worker(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _write_inputs(tmp_path / "in", _inputs(20))
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    result = _grade_dir(tmp_path / "in", tmp_path / "out", RunSettings())
    assert result.timings["processes"] == 1
    assert not [w for w in result.warnings if "grading worker" in w]
    assert _heuristic_kinds(tmp_path / "out")


def _frame(payload: bytes) -> bytes:
    return len(payload).to_bytes(8, "little") + payload


def _answers(data: bytes) -> list[tuple[bytes, Any]]:
    """The child's frames: (tag, what it pickled)."""
    answers = []
    out = io.BytesIO(data)
    while head := out.read(8):
        payload = out.read(int.from_bytes(head, "little"))
        if payload[:1] == b"A":
            got = grade_worker.read_answer(payload)
            written = None if got.data is None else bytes(got.data)
            answers.append((b"A", (got.unpickled(), got.tally, written)))
        else:
            answers.append((payload[:1], pickle.loads(payload[1:])))
    return answers


def test_the_child_grades_as_the_parent_and_stops_at_an_error() -> None:
    settings = RunSettings()
    pairs = [(p, g) for p, g in _inputs(12)]
    jobs = [grade_worker._job(item) for item in orjson.loads(orjson.dumps(pairs))]  # noqa: SLF001
    source = io.BytesIO(
        _frame(pickle.dumps((settings, flagging.DETECTOR_MODULES)))
        + _frame(pickle.dumps(jobs))
        + _frame(pickle.dumps([(None, (), {}, ())]))  # no prediction: grading fails
        + _frame(pickle.dumps(jobs))
    )
    sink = io.BytesIO()
    assert grade_worker.serve(source, sink) == 1
    answers = _answers(sink.getvalue())
    assert [tag for tag, _ in answers] == [b"A", b"E"]  # the good batch, the error, no more
    graded, tally, data = answers[0][1]
    assert "TypeError" in answers[1][1]
    # What the child computed is what this process computes, record by record.
    expected, _ = grading.grade_pairs(orjson.loads(orjson.dumps(pairs)), settings)
    taken = 0
    for (pred, gt), got, want in zip(pairs, graded, expected, strict=True):
        if got is None:  # a note or a reject: left to the parent
            assert not isinstance(pred["answer"], str) or pred["answer"].startswith("Error code")
            continue
        record = Grader(settings).take(orjson.loads(orjson.dumps(pred)), gt, got)
        assert record == want
        taken += 1
    assert taken >= 6
    # Some pair was left to the parent, so the batch has no serialisation and no tally.
    assert None in graded and data is None and tally is None


def test_an_answer_frame_carries_the_records_bytes_after_its_pickles() -> None:
    sink = io.BytesIO()
    graded: list[grading.Graded | None] = [None, None]
    tally: grade_worker.BatchTally = ([(None, 1, 1, False, "all", "all", False)] * 2, ["q1"])
    grade_worker._write_answer(sink, grade_worker.Answer(graded, tally, b"[\n  {}\n]"))  # noqa: SLF001
    grade_worker._write_answer(sink, grade_worker.Answer(graded, None, None))  # noqa: SLF001
    frames = sink.getvalue()
    first = frames[8 : 8 + int.from_bytes(frames[:8], "little")]
    got = grade_worker.read_answer(first)
    assert got.unpickled() == graded and got.tally == tally
    assert got.data is not None and bytes(got.data) == b"[\n  {}\n]"
    assert first.endswith(b"[\n  {}\n]")  # raw, not pickled
    second = grade_worker.read_answer(frames[8 + len(first) + 8 :])
    assert (second.unpickled(), second.tally, second.data) == (graded, None, None)
    for bad in (b"", b"E", b"A\x01", first[:12], first[:30], b"X" + first[1:]):
        with pytest.raises(ValueError):
            grade_worker.read_answer(bad)


def test_the_child_serialises_and_tallies_a_batch_it_graded_whole() -> None:
    settings = RunSettings(mode="rome", harness_stats=True)
    pairs = [(p, g) for p, g in _inputs(40) if isinstance(p["answer"], str)][:10]
    usages: list[Any] = [
        {"prompt_tokens": 7, "completion_tokens": 2.5},
        "n/a",
        '{"total_tokens": 3}',
    ]
    for i, usage in enumerate(usages):
        pairs[i][0]["usage"] = usage
    jobs = [grade_worker._job(item) for item in orjson.loads(orjson.dumps(pairs))]  # noqa: SLF001
    grader = Grader(settings)
    graded, tally, data = grade_worker.grade_jobs(jobs, grader)
    assert None not in graded and tally is not None
    expected, _ = grading.grade_pairs(orjson.loads(orjson.dumps(pairs)), settings)
    assert data == orjson.dumps(expected, option=orjson.OPT_INDENT_2)
    rows, unreadable = tally
    assert unreadable == [(expected[1]["question_id"], "")]
    whole, by_rows = tally_of(settings), tally_of(settings)
    whole.add(expected)
    by_rows.add_rows(rows)
    assert by_rows.result() == whole.result()
    assert whole.result()["average_prompt_tokens"] == 7 / 10


def test_long_non_ascii_texts_cross_as_bytes_and_leave_no_utf8_copy() -> None:
    latin = "Étape: 12 × 3 = 36. " * 100
    wide = "先算 12 × 3 → 36。" * 100  # beyond Latin-1
    pred = {"question_id": "q", "answer": latin, "reason": wide, "note": "short é"}
    gt = {"evaluator": "choices_matching", "question": "Quelle réponse ? " * 100}
    bare = [sys.getsizeof(t) for t in (latin, wide, gt["question"])]
    job = grade_worker._job((pred, gt))  # noqa: SLF001
    pickle.dumps(job)
    # Pickling a str would have cached its UTF-8 form inside it.
    assert [sys.getsizeof(t) for t in (latin, wide, gt["question"])] == bare
    assert job[1] == (("answer", "latin-1"), ("reason", "utf-8"))
    assert job[3] == (("question", "latin-1"),)
    sent = pickle.loads(pickle.dumps(job))
    assert grade_worker._restored(sent[0], sent[1]) == pred  # noqa: SLF001
    assert grade_worker._restored(sent[2], sent[3]) == gt  # noqa: SLF001
    assert pred["answer"] is latin  # the caller's record is not touched


def test_stop_ends_a_busy_child_at_once(tmp_path: Path) -> None:
    worker = GradeWorker.start(RunSettings(), flagging.DETECTOR_MODULES)
    assert worker is not None
    pred = {"question_id": "q", "reason": "Maybe B. " * 20000, "answer": "B"}
    gt = {"evaluator": "choices_matching", "evaluator_kwargs": {"label": "B"}}
    for _ in range(BATCH * 20):
        worker.submit((pred, gt))
    worker.close()
    started = time.monotonic()
    worker.stop()
    assert time.monotonic() - started < 5
    assert worker._proc.returncode is not None  # noqa: SLF001 - the child is gone
    assert worker.failure is None  # stopping on purpose is no failure


def test_deferred_records_stream_in_order(worker_always: None) -> None:
    """Slicing reaches exactly as far as asked, so a writer waits for no later record."""
    settings = RunSettings()
    pairs = orjson.loads(orjson.dumps(_inputs(30)))
    expected, notes = grading.grade_pairs(
        orjson.loads(orjson.dumps(pairs)), settings, predictions_path="p.json"
    )
    assert notes  # two null answers, graded as empty text
    worker = GradeWorker.start(settings, flagging.DETECTOR_MODULES)
    assert worker is not None
    try:
        deferred = DeferredRecords(
            pairs, Grader(settings), worker, ("p.json", "a.json"), writing=True
        )
        assert len(deferred) == 30
        assert deferred[0:10] == expected[:10]
        assert deferred._done == 14  # noqa: SLF001 - two batches of 7, no more
        spans = list(deferred.spans())
        assert [(a, b) for a, b, _ in spans] == [(0, 7), (7, 14), (14, 21), (21, 28), (28, 30)]
        assert list(deferred) == expected
        assert deferred.notes.warnings("p.json") == notes
    finally:
        worker.stop()


class _Queue:
    """A stand-in for a GradeWorker: what the feed submits."""

    def __init__(self) -> None:
        self.pairs: list[Any] = []

    def submit(self, pair: Any) -> None:
        self.pairs.append(pair)


@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_the_feed_pairs_as_pair_does(mode: str) -> None:
    annotations = {
        f"q{i}": {"question_id": f"q{i}", "evaluator": "choices_matching", "evaluator_kwargs": {}}
        for i in range(8)
    }
    ids = ["q1", "q2", "q1", "q9", "q3", "q3", "q7", "q0", "q2"]
    if mode == "rome":
        ids.remove("q9")  # rome mode stops at an unannotated prediction
    predictions = [{"question_id": qid, "answer": f"A{n}"} for n, qid in enumerate(ids)]
    queue = _Queue()
    feed = grade_run._Feed(annotations, mode, queue)  # type: ignore[arg-type]  # noqa: SLF001
    for start in range(0, len(predictions), 4):
        feed(predictions[start : start + 4])
    paired = pairing.pair(annotations, predictions, mode)
    assert queue.pairs == feed.fed
    assert feed.matches(paired.pairs)
    assert len(feed.fed) == len(paired.pairs)  # it fed every pair
    # A record whose usage is still JSON text stops the feed: the rest is submitted later.
    late = [{"question_id": "q4", "answer": "B", "usage": '{"total_tokens": 3}'}, *predictions]
    stopped = grade_run._Feed(annotations, mode, _Queue())  # type: ignore[arg-type]  # noqa: SLF001
    stopped(late)
    assert stopped.fed == []
    # Different objects are no match.
    assert not feed.matches(orjson.loads(orjson.dumps(paired.pairs)))


def _count_fed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """After each parsed block, how many pairs the feed has sent to the worker so far."""
    fed: list[int] = []
    feed_call = grade_run._Feed.__call__  # noqa: SLF001

    def spy(self: Any, block: list[Any]) -> None:
        feed_call(self, block)
        fed.append(len(self.fed))

    monkeypatch.setattr(grade_run._Feed, "__call__", spy)  # noqa: SLF001
    return fed


def test_a_file_read_twice_is_graded_here(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A streamed parse that falls back to reading the whole file hands the feed
    records that are not the ones graded: the worker is dropped, nothing differs."""
    pairs = _inputs(30)
    directory = tmp_path / "in"
    _write_inputs(directory, pairs)
    # A nested list whose objects sit at the records' own indentation, the
    # second one longer than a block: the streamed parse cuts inside the list,
    # fails, and the whole file is read again.
    text = (directory / "p.json").read_text()
    nested = '"x": [\n  {},\n  {"pad": "' + "p" * 10_000 + '"}],'
    text = text.replace('"question_id": "q20",', '"question_id": "q20", ' + nested, 1)
    (directory / "p.json").write_text(text)
    monkeypatch.setattr(streaming, "_BLOCK", 4096)
    fed = _count_fed(monkeypatch)
    result = _grade_dir(directory, tmp_path / "two", RunSettings())
    assert fed and fed[-1] > 0  # pairs went to the worker before the fallback
    assert result.timings["processes"] == 1
    _serial(monkeypatch)
    _grade_dir(directory, tmp_path / "one", RunSettings())
    assert _files(tmp_path / "two") == _files(tmp_path / "one")


def test_when_the_worker_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ROME_TUI_JOBS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    big = grade_run.GRADE_WORKER_MIN_BYTES
    settings = RunSettings()
    assert grade_run.wants_grade_worker(big, settings)
    # Small runs: the child costs more than it saves.
    assert not grade_run.wants_grade_worker(big - 1, settings)
    # A judged run's time goes to the judge.
    assert not grade_run.wants_grade_worker(big, RunSettings(use_llm_evaluator=True))
    monkeypatch.setenv("ROME_TUI_JOBS", "1")
    assert not grade_run.wants_grade_worker(big, settings)
    monkeypatch.delenv("ROME_TUI_JOBS")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0}, raising=False)
    assert not grade_run.wants_grade_worker(big, settings)  # one core: nothing to gain


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


def test_grading_without_writing_gives_the_serial_records_and_scores(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _write_inputs(tmp_path / "in", _inputs(50))
    paths = (str(tmp_path / "in" / "a.json"), str(tmp_path / "in" / "p.json"))
    settings = RunSettings(reject_filter=True, harness_stats=True)
    parallel = grade_run.grade_files(*paths, settings, write=False)
    _serial(monkeypatch)
    serial = grade_run.grade_files(
        *paths, RunSettings(reject_filter=True, harness_stats=True), write=False
    )
    assert parallel.timings["processes"] == 2
    assert parallel.records == serial.records
    assert parallel.scores == serial.scores
    assert parallel.warnings == serial.warnings
    assert parallel.rejected == serial.rejected > 0
    assert not (tmp_path / "in" / "updated_predictions.json").exists()


class _Unpicklable:
    """A value pickle refuses, in a record grading never reads."""

    def __reduce__(self) -> Any:
        raise TypeError("not this one")


def test_a_batch_that_cannot_be_sent_is_graded_here(worker_always: None) -> None:
    settings = RunSettings()
    pairs = orjson.loads(orjson.dumps(_inputs(30)))
    expected, _ = grading.grade_pairs(orjson.loads(orjson.dumps(pairs)), settings)
    marker = _Unpicklable()
    pairs[16][0]["extra"] = marker  # the third batch of 7
    worker = GradeWorker.start(settings, flagging.DETECTOR_MODULES)
    assert worker is not None
    try:
        deferred = DeferredRecords(
            pairs, Grader(settings), worker, ("p.json", "a.json"), writing=False
        )
        records = deferred.resolve()
    finally:
        worker.stop()
    assert deferred.failure is not None
    assert "cannot send to the grading worker" in deferred.failure
    assert records[16].pop("extra") is marker
    assert records == expected


def test_records_with_non_string_keys_are_written_as_before() -> None:
    """The writer tries without OPT_NON_STR_KEYS first; a key that needs it still works."""
    records, _ = grading.grade_pairs(orjson.loads(orjson.dumps(_inputs(9))), RunSettings())
    records[4]["counts"] = {1: "one", 2.5: "two and a half"}
    option = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS
    assert updated_bytes(records) == orjson.dumps(records, option=option)
    del records[4]["counts"]
    assert updated_bytes(records) == orjson.dumps(records, option=option)


@pytest.mark.parametrize(
    "shape", ["jsonl", "jsonl-bom", "keyed", "one-line-array", "usage-as-text"]
)
def test_every_predictions_shape_with_the_worker(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, shape: str
) -> None:
    """The feed sees JSON Lines and arrays as they are parsed, and nothing of the
    other shapes; either way the files are the one-process run's."""
    pairs = _inputs(40)
    directory = tmp_path / "in"
    _write_inputs(directory, pairs)
    preds = [p for p, _ in pairs]
    if shape == "usage-as-text":  # the feed stops at the first field still JSON text
        for i, pred in enumerate(preds):
            if i >= 9:
                pred["usage"] = orjson.dumps({"total_tokens": i}).decode()
    if shape.startswith("jsonl") or shape == "usage-as-text":
        text = b"\n".join(orjson.dumps(p) for p in preds) + b"\n"
        if shape == "jsonl-bom":
            text = b"\xef\xbb\xbf" + text
        (directory / "p.json").write_bytes(text)
    elif shape == "keyed":
        keyed = {
            p["question_id"]: {k: v for k, v in p.items() if k != "question_id"} for p in preds
        }
        (directory / "p.json").write_bytes(orjson.dumps(keyed, option=orjson.OPT_INDENT_2))
    else:
        (directory / "p.json").write_bytes(orjson.dumps(preds))
    monkeypatch.setattr(streaming, "_LINES_PER_BLOCK", 8)
    fed = _count_fed(monkeypatch)
    settings = RunSettings(reject_filter=True, harness_stats=True)
    parallel = _grade_dir(directory, tmp_path / "two", settings)
    # What went to the worker while the file was read.
    expected_fed = {"jsonl": 40, "jsonl-bom": 40, "one-line-array": 40, "usage-as-text": 9}.get(
        shape, 0
    )
    assert (fed[-1] if fed else 0) == expected_fed
    _serial(monkeypatch)
    serial = _grade_dir(
        directory, tmp_path / "one", RunSettings(reject_filter=True, harness_stats=True)
    )
    assert parallel.timings["processes"] == 2
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert parallel.warnings == serial.warnings


def test_a_written_run_rebuilds_the_childs_records_only_when_read(
    worker_always: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Mostly plain text answers, so that most batches are the child's whole; a few rejects.
    pairs = [
        (p, g)
        for i, (p, g) in enumerate(_inputs(300))
        if isinstance(p["answer"], str) and (i < 100 or not p["answer"].startswith("Error"))
    ]
    usages: list[Any] = [{"prompt_tokens": 9, "total_tokens": 12.5}, "broken", None, '{"x": 1}']
    for i, (pred, _) in enumerate(pairs):
        if i % 5:
            pred["usage"] = usages[i % len(usages)]
    _write_inputs(tmp_path / "in", pairs)

    def settings() -> RunSettings:
        return RunSettings(reject_filter=True, harness_stats=True)

    # This process waits for the child instead of grading batches itself.
    monkeypatch.setattr(GradeWorker, "steal", lambda self: None)
    parallel = _grade_dir(tmp_path / "in", tmp_path / "two", settings())
    _serial(monkeypatch)
    serial = _grade_dir(tmp_path / "in", tmp_path / "one", settings())
    assert _files(tmp_path / "two") == _files(tmp_path / "one")
    assert parallel.scores == serial.scores and "average_tokens" in serial.scores
    assert parallel.warnings == serial.warnings
    assert [w for w in serial.warnings if "unreadable usage" in w]
    assert parallel.rejected == serial.rejected > 0
    # The scores and files came from the child's tally rows and bytes: the
    # batches it graded whole are still predictions here, until read.
    deferred = parallel.graded
    assert isinstance(deferred, DeferredRecords)
    unbuilt = dict(deferred._unbuilt)  # noqa: SLF001
    assert len(unbuilt) >= 5
    first = min(unbuilt) * deferred._size  # noqa: SLF001
    assert REVIEW_KEY not in deferred._records[first]  # noqa: SLF001
    assert parallel.records == serial.records
    assert not deferred._unbuilt  # noqa: SLF001
