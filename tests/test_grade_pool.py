"""A streamed grade shared by forked processes writes, warns and fails as one process does."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest
from test_grade_stream import _files, _grade, _run, _write
from test_loading_stream import (
    ANNOTATIONS,
    LATE_FAULTS,
    PREDICTIONS,
    _earlier_run,
    _grade_into,
    _late_fault_files,
    _pretty,
    _run_files,
)

from scorers.errors import GradingProcessDied
from scorers.grade import pool, stream
from scorers.grade.pool import PiecePool
from scorers.grade.stream import GradingStream, WrittenRecords
from scorers.io import streaming

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or not hasattr(os, "sched_getaffinity"), reason="forks on Linux"
)


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Many small pieces, workers forked for any run, three of them whatever the
    machine; the pids of the workers started."""
    monkeypatch.setattr(streaming, "_BLOCK", 1500)
    monkeypatch.setattr(streaming, "_LINES_PER_BLOCK", 4)
    monkeypatch.setattr(stream, "POOL_MIN_BYTES", 0)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    monkeypatch.delenv(pool.JOBS_ENV, raising=False)
    pids: list[int] = []
    start = PiecePool.start.__func__  # type: ignore[attr-defined]

    def recorded(cls: type[PiecePool], work: Any, count: int) -> PiecePool | None:
        made = start(cls, work, count)
        if made is not None:
            pids.extend(w.pid for w in made._workers)
        return made

    monkeypatch.setattr(PiecePool, "start", classmethod(recorded))
    return pids


def _gone(pids: list[int]) -> bool:
    """Every worker has exited and was waited for (none is left running or a zombie)."""
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        return False
    return True


@pytest.mark.parametrize("shape", ["pretty", "compact", "jsonl", "bom"])
@pytest.mark.parametrize("mode", ["strict", "rome"])
def test_several_processes_write_and_warn_as_one(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, mode: str, shape: str
) -> None:
    """Repeated ids across pieces, unannotated predictions, answers that are not text,
    usage as JSON text and NaN (pieces the workers leave to this process): the same
    files and warnings, byte for byte."""
    a, p = _write(tmp_path / "in", *_run(150, mode), shape)
    many = _grade(a, p, tmp_path / "many", mode)
    assert many.timings["processes"] == 3 and len(started) == 2  # and this one
    assert _gone(started)
    monkeypatch.setenv(pool.JOBS_ENV, "1")
    one = _grade(a, p, tmp_path / "one", mode)
    assert one.timings["processes"] == 1 and len(started) == 2
    assert isinstance(many.graded, WrittenRecords) and isinstance(one.graded, WrittenRecords)
    assert _files(tmp_path / "many") == _files(tmp_path / "one")
    assert many.warnings == one.warnings
    assert (many.flagged, many.rejected) == (one.flagged, one.rejected)


def test_a_regular_run_is_graded_by_the_workers(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A regular run is graded by the workers, not handed back (each piece taken)."""
    taken = stream._taken
    answers: list[bool] = []

    def counted(answer: memoryview) -> Any:
        got = taken(answer)
        answers.append(got is not None)
        return got

    monkeypatch.setattr(stream, "_taken", counted)
    a, p = tmp_path / "a.json", tmp_path / "p.json"
    a.write_bytes(_pretty(ANNOTATIONS))
    p.write_bytes(_pretty(PREDICTIONS))
    _grade(str(a), str(p), tmp_path / "out", "strict")
    assert len(answers) >= 8 and all(answers)


@pytest.mark.parametrize("mode", ["strict", "rome"])
@pytest.mark.parametrize("case", sorted(LATE_FAULTS))
def test_a_late_fault_with_workers_is_the_one_process_runs(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, case: str, mode: str
) -> None:
    """The same error, or the same files and warnings, as one process; a failed grade
    leaves the run it would replace as it was."""
    good_a, good, a, p = _late_fault_files(tmp_path, case)
    outcomes = []
    for jobs in ("", "1"):
        monkeypatch.setenv(pool.JOBS_ENV, jobs)
        out = tmp_path / f"jobs{jobs}"
        out.mkdir()
        assert _grade_into(good_a, good, out, mode)[0] == ""  # an earlier run
        earlier = _run_files(out)
        error, files, warnings = _grade_into(a, p, out, mode)
        if error:
            assert files == earlier, "a failed grade changed the run it would replace"
        outcomes.append((error, files, warnings))
    assert outcomes[0] == outcomes[1]
    assert started and _gone(started)


def test_a_killed_worker_is_a_clear_error_and_the_earlier_run_stays(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, p, out, earlier = _earlier_run(tmp_path)
    answer = GradingStream._answer
    parent = os.getpid()

    def dies(self: GradingStream, piece: streaming.Piece) -> Any:
        if os.getpid() != parent and piece.offset > 6000:
            os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer would
        return answer(self, piece)

    monkeypatch.setattr(GradingStream, "_answer", dies)
    with pytest.raises(GradingProcessDied, match=r"was killed by signal 9 \(SIGKILL\)") as err:
        _grade_into(a, p, out, "strict")
    assert "nothing was written" in str(err.value) and "ROME_TUI_JOBS=1" in str(err.value)
    assert _run_files(out) == earlier  # no temp file either
    assert started and _gone(started)


def test_ctrl_c_with_workers_keeps_the_earlier_run_and_ends_them(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    a, p, out, earlier = _earlier_run(tmp_path)
    taken = stream._taken
    calls = 0

    def interrupted(answer: memoryview) -> Any:  # runs in this process, between pieces
        nonlocal calls
        calls += 1
        if calls == 3:
            raise KeyboardInterrupt
        return taken(answer)

    monkeypatch.setattr(stream, "_taken", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _grade_into(a, p, out, "strict")
    assert calls == 3
    assert _run_files(out) == earlier
    assert started and _gone(started)


def test_a_worker_that_fails_hands_its_piece_back(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """An exception in a worker (here a bug of ours) is met again by this process,
    grading the piece, which then fails as one process would."""
    a, p, out, earlier = _earlier_run(tmp_path)
    grade_record = stream.Grader.grade_record

    def broken(self: Any, pred: dict[str, Any], gt: Any, *given: Any) -> Any:
        if pred.get("question_id") == "q150":
            raise RuntimeError("a bug met at q150")
        return grade_record(self, pred, gt, *given)

    monkeypatch.setattr(stream.Grader, "grade_record", broken)
    with pytest.raises(RuntimeError, match="q150"):
        _grade_into(a, p, out, "strict")
    assert _run_files(out) == earlier
    assert _gone(started)


def test_no_fork_while_another_thread_runs(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The review app grades from a worker thread: forking a threaded process can
    leave a child waiting forever on a lock another thread held, so it grades alone."""
    a, p = _write(tmp_path / "in", *_run(60, "strict"), "pretty")
    done = threading.Event()
    thread = threading.Thread(target=done.wait, name="app-worker")
    thread.start()
    try:
        assert pool.processes() == 1
        result = _grade(a, p, tmp_path / "out", "strict")
    finally:
        done.set()
        thread.join()
    assert result.timings["processes"] == 1 and not started
    assert pool.processes() == 3


def test_jobs_caps_the_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)))
    monkeypatch.delenv(pool.JOBS_ENV, raising=False)
    assert pool.processes() == 8
    for value, expected in (("3", 3), ("1", 1), ("16", 8), ("0", 8), ("x", 8)):
        monkeypatch.setenv(pool.JOBS_ENV, value)
        assert pool.processes() == expected


def test_math_verify_in_workers(
    started: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """math_matching's comparisons run in math-verify processes: each forked worker
    starts its own (sharing the parent's would mix their answers)."""
    annotations, predictions = [], []
    for i in range(1, 41):
        annotations.append(
            {
                "question_id": f"m{i}",
                "evaluator": "math_matching",
                "evaluator_kwargs": {"answer": f"x^2 + {2 * i}x + {i * i}"},
            }
        )
        shown = f"(x+{i})^2" if i % 3 else f"(x+{i + 1})^2"
        predictions.append({"question_id": f"m{i}", "answer": f"Final Answer: ${shown}$"})
    a, p = _write(tmp_path / "in", annotations, predictions, "pretty")
    many = _grade(a, p, tmp_path / "many", "strict")
    assert many.timings["processes"] == 3
    monkeypatch.setenv(pool.JOBS_ENV, "1")
    _grade(a, p, tmp_path / "one", "strict")
    assert _files(tmp_path / "many") == _files(tmp_path / "one")
    written = _files(tmp_path / "one")["updated_predictions.json"]
    assert b'"correct": 0.0' in written and b'"correct": 1.0' in written
