"""ResultsStore: override, undo/redo, write-back and reopening, checked on disk."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest
from grading_fixtures import EXAMPLE
from store_fixtures import ITEMS, by_id, journal_lines, load_json, make_record, make_run

from scorers.adjudicate.store import ResultsStore
from scorers.errors import ConflictError, InputError, UsageError
from scorers.io.results import save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings

UTC_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$")


@pytest.fixture
def run(tmp_path: Path) -> Path:
    return make_run(tmp_path / "run")


def test_override_written_back_with_history_and_scores(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    entry = store.override("q2", 1, "the judge is right: 42 is stated")
    # Durable before write-back: the journal already holds the line.
    assert [(e["op"], e["question_id"], e["new"]) for e in journal_lines(run)] == [
        ("set", "q2", 1.0)
    ]
    assert by_id(run)["q2"]["correct"] == 0
    store.write_back()

    q2 = by_id(run)["q2"]
    assert q2["correct"] == 1.0
    human = q2["review"]["human"]
    assert human["score"] == 1.0 and human["annotator"] == "alice"
    assert human["reason"] == "the judge is right: 42 is stated"
    [hist] = q2["review"]["history"]
    assert hist["op"] == "set" and hist["annotator"] == "alice"
    assert hist["old"] == 0 and hist["new"] == 1.0
    assert hist["reason"] == "the judge is right: 42 is stated"
    assert UTC_TIME.match(hist["time"]) and hist["time"] == entry["time"]
    assert hist["content_hash"] == q2["review"]["content_hash"]
    # The rule verdict itself is untouched: the override lives beside it.
    assert q2["review"]["verdicts"][0] == {
        "source": "rule:strict",
        "score": 0,
        "extracted": "42",
        "explanation": None,
    }
    scores = load_json(run / "scores.json")
    assert scores["final_score"] == [3.0, 4] and scores["accuracy"] == 75.0
    assert scores["geo"][:3] == [2.0, 2, 1.0]
    assert scores["academic"][:3] == [1, 2, 0.5]
    # Untouched records are written back unchanged.
    assert by_id(run)["q1"]["correct"] == 1 and "human" not in by_id(run)["q1"]["review"]


def test_partial_credit_and_second_override_keep_full_history(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q3", 0.5, "half of the steps")
    store.override("q3", 0.25, "on reflection, a quarter")
    store.write_back()
    q3 = by_id(run)["q3"]
    assert q3["correct"] == 0.25
    assert [(h["old"], h["new"], h["reason"]) for h in q3["review"]["history"]] == [
        (0, 0.5, "half of the steps"),
        (0.5, 0.25, "on reflection, a quarter"),
    ]
    assert load_json(run / "scores.json")["academic"][:3] == [1.25, 2, 0.625]


def test_undo_redo_on_disk(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "r1")
    store.override("q3", 1, "r2")
    undone = store.undo()
    assert undone is not None and undone["op"] == "undo" and undone["question_id"] == "q3"
    assert (undone["old"], undone["new"]) == (1.0, 0)
    store.write_back()
    disk = by_id(run)
    assert disk["q3"]["correct"] == 0 and "human" not in disk["q3"]["review"]
    assert [h["op"] for h in disk["q3"]["review"]["history"]] == ["set", "undo"]
    assert disk["q2"]["correct"] == 1.0
    assert load_json(run / "scores.json")["accuracy"] == 75.0

    redone = store.redo()
    assert redone is not None and redone["question_id"] == "q3" and redone["new"] == 1.0
    assert store.redo() is None
    store.write_back()
    assert by_id(run)["q3"]["correct"] == 1.0
    assert load_json(run / "scores.json")["accuracy"] == 100.0

    # Undo twice goes back past q3 to q2; a third undo has nothing left.
    assert store.undo()["question_id"] == "q3"  # type: ignore[index]
    assert store.undo()["question_id"] == "q2"  # type: ignore[index]
    assert store.undo() is None
    store.write_back()
    assert [r["correct"] for r in by_id(run).values()] == [1, 0, 0, 1]
    # A new override clears the redo stack.
    store.redo()
    store.override("q4", 0, "wrong unit")
    assert store.redo() is None


def test_reopen_shows_every_override_and_keeps_undo(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q1", 0, "wrong city")
    store.override("q2", 0.5, "partly")
    store.write_back()
    store.close()
    again = ResultsStore.open(run, annotator="alice")
    assert [again.adjudicated_score(i) for i in range(4)] == [0.0, 0.5, 0, 1]
    assert [again.baseline_score(i) for i in range(4)] == [1, 0, 0, 1]
    assert again.is_overridden(0) and not again.is_overridden(2)
    assert not again.dirty  # replay found nothing the files lack
    # Undo continues across sessions: the stack is rebuilt from the journal.
    assert again.undo()["question_id"] == "q2"  # type: ignore[index]
    assert again.adjudicated_score(1) == 0


def test_crash_between_journal_and_write_back_loses_nothing(run: Path) -> None:
    before = (run / "updated_predictions.json").read_bytes()
    store = ResultsStore.open(run, annotator="alice")
    store.override("q3", 1, "accepted")
    store.override("q4", 0, "rejected")
    store.close()  # "crash": the rewrite never happened
    assert (run / "updated_predictions.json").read_bytes() == before
    again = ResultsStore.open(run, annotator="bob")
    assert again.dirty
    assert (
        again.records[2]["correct"] == 1.0
        and again.records[2]["review"]["human"]["annotator"] == "alice"
    )
    assert again.records[3]["correct"] == 0.0
    again.write_back()
    assert [r["correct"] for r in by_id(run).values()] == [1, 0, 1.0, 0.0]
    assert load_json(run / "scores.json")["accuracy"] == 50.0


def test_refuses_to_clobber_a_concurrent_change(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    # Another process re-writes the results (same size even: a one-character edit).
    data = (run / "updated_predictions.json").read_bytes()
    theirs = data.replace(b"Question q4?", b"Question q5?")
    assert len(theirs) == len(data)
    (run / "updated_predictions.json").write_bytes(theirs)
    store.override("q1", 0, "mine")
    with pytest.raises(ConflictError, match="changed on disk"):
        store.write_back()
    assert (run / "updated_predictions.json").read_bytes() == theirs
    # After a reload both their edit and the journaled override are kept.
    store.reload()
    assert store.records[0]["correct"] == 0.0
    store.write_back()
    disk = by_id(run)
    assert disk["q4"]["question"] == "Question q5?" and disk["q1"]["correct"] == 0.0


def test_refuses_when_only_scores_json_changed(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    (run / "scores.json").write_bytes(b'{"edited": true}')
    store.override("q1", 0, "mine")
    with pytest.raises(ConflictError):
        store.write_back()
    assert (run / "scores.json").read_bytes() == b'{"edited": true}'


def test_own_successive_write_backs_do_not_conflict(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    for k, qid in enumerate(["q1", "q2", "q3", "q1"]):
        store.override(qid, k % 2, f"pass {k}")
        store.write_back()
        assert not store.dirty
    assert by_id(run)["q1"]["correct"] == 1.0


@pytest.mark.parametrize("score", [1.5, -0.1, float("nan"), float("inf"), "abc", None, True])
def test_bad_score_rejected_and_nothing_journaled(run: Path, score: object) -> None:
    store = ResultsStore.open(run, annotator="alice")
    with pytest.raises(UsageError, match="between 0 and 1"):
        store.override("q1", score, "reason")  # type: ignore[arg-type]
    assert journal_lines(run) == []


@pytest.mark.parametrize("reason", ["", "   ", None])
def test_missing_reason_rejected(run: Path, reason: object) -> None:
    store = ResultsStore.open(run, annotator="alice")
    with pytest.raises(UsageError, match="reason"):
        store.override("q1", 1, reason)  # type: ignore[arg-type]
    assert journal_lines(run) == []


def test_unknown_question_rejected(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    with pytest.raises(UsageError, match="no item with question_id 'nope'"):
        store.override("nope", 1, "reason")
    with pytest.raises(KeyError):
        store.index_of("nope")
    assert store.index_of("q3") == 2
    assert journal_lines(run) == []
    # A typo names the ids it is a typo of (`question_geo_3` for question_geo_20 said
    # only "no item"); an id like none names none.
    with pytest.raises(UsageError, match=r"no item with question_id 'q33'.*the closest: q3"):
        store.override("q33", 1, "reason")
    with pytest.raises(UsageError) as caught:
        store.override("zzzz-unknown", 1, "reason")
    assert "closest" not in str(caught.value)


def test_stale_after_regrade(run: Path) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "fine")
    store.write_back()
    store.close()
    # A re-grade changes q2's answer (and the rule score) and rewrites the files.
    records = list(by_id(run).values())
    regraded = make_record("q2", "geo", 0, 0, answer="It is 41.")
    records[1] = regraded
    save_results(ResultsPaths.of(run), records, RunSettings(mode="strict"))

    again = ResultsStore.open(run, annotator="alice")
    review = again.records[1]["review"]
    assert review["stale"] is True
    assert review["human"]["score"] == 1.0  # still shown, with what it was made on
    assert again.records[1]["correct"] == 0  # but not applied to different content
    assert again.is_stale(1) and not again.is_overridden(1)
    assert "override_stale" in {f["kind"] for f in review["flags"]}
    again.write_back()
    assert by_id(run)["q2"]["review"]["stale"] is True
    # A fresh override on the new content clears the staleness.
    again.override("q2", 0.5, "re-judged on the new answer")
    assert "stale" not in again.records[1]["review"]
    assert again.records[1]["correct"] == 0.5
    assert "override_stale" not in {f["kind"] for f in again.records[1]["review"]["flags"]}


def test_reference_grader_output_can_be_overridden(tmp_path: Path) -> None:
    src = EXAMPLE / "updated_predictions.json"
    run = tmp_path / "ref"
    run.mkdir()
    (run / "updated_predictions.json").write_bytes(src.read_bytes())
    store = ResultsStore.open(run, annotator="alice")
    store.override("question_diagrams_2", 1, "Monterrey and Seattle both stay put")
    store.write_back()
    rec = by_id(run)["question_diagrams_2"]
    assert rec["correct"] == 1.0 and rec["review"]["human"]["annotator"] == "alice"
    assert load_json(run / "scores.json")["final_score"] == [3.0, 5]
    # The ROME fields of other records survive the rewrite unchanged.
    original = {r["question_id"]: r for r in orjson.loads(src.read_bytes())}
    for qid, rec in by_id(run).items():
        for key, value in original[qid].items():
            if key != "correct" or qid != "question_diagrams_2":
                assert rec[key] == value, (qid, key)


def _failing_journal(store: ResultsStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """The next journal appends fail as a full disk makes them fail."""

    def full_disk(entry: object) -> None:
        raise InputError(str(store._writer.path), "cannot write the journal: No space left")

    monkeypatch.setattr(store._writer, "write", full_disk)


def _state(store: ResultsStore, i: int) -> tuple[object, ...]:
    record = store.records[i]
    review = record["review"]
    return (
        record["correct"],
        review.get("human"),
        review.get("history"),
        [f["kind"] for f in review.get("flags", ())],
        store.version,
        store.dirty,
    )


def test_a_failed_journal_append_leaves_no_override_in_memory(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Journal first: an override the journal did not take is never applied in memory."""
    store = ResultsStore.open(run, annotator="alice")
    before = _state(store, 1)
    _failing_journal(store, monkeypatch)
    with pytest.raises(InputError, match="cannot write the journal"):
        store.override("q2", 1, "the judge is right")
    assert _state(store, 1) == before
    assert store.undo() is None  # nothing was acknowledged, so nothing to undo
    monkeypatch.undo()
    store.write_back()
    assert by_id(run)["q2"]["correct"] == 0 and "human" not in by_id(run)["q2"]["review"]
    assert journal_lines(run) == []


def test_a_failed_journal_append_leaves_undo_and_redo_undone(
    run: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ResultsStore.open(run, annotator="alice")
    store.override("q2", 1, "the judge is right")
    overridden = _state(store, 1)
    _failing_journal(store, monkeypatch)
    with pytest.raises(InputError):
        store.undo()
    assert _state(store, 1) == overridden
    monkeypatch.undo()
    assert store.undo() is not None
    undone = _state(store, 1)
    assert undone[0] == 0
    _failing_journal(store, monkeypatch)
    with pytest.raises(InputError):
        store.redo()
    assert _state(store, 1) == undone


def test_unwritable_journal_is_a_clear_error_and_nothing_changes(run: Path) -> None:
    (run / "journal" / "alice.jsonl").mkdir(parents=True)  # cannot be opened as a file
    store = ResultsStore.open(run, annotator="alice")
    with pytest.raises(InputError, match="cannot write the journal") as caught:
        store.override("q1", 0, "x")
    assert caught.value.path.endswith("alice.jsonl")
    assert store.records[0]["correct"] == 1 and not store.dirty


def test_regrade_through_the_real_pipeline(tmp_path: Path) -> None:
    from scorers.grade.run import grade_files

    annotations = [
        {
            "question_id": f"n{k}",
            "question": f"How many? ({k})",
            "reference": str(k),
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": k},
            "task": "count",
        }
        for k in range(1, 4)
    ]
    predictions = [
        {"question_id": f"n{k}", "question": "q", "answer": f"Final Answer: {k + (k == 2)}"}
        for k in range(1, 4)
    ]
    ann, pred = tmp_path / "annotation.json", tmp_path / "predictions.json"
    ann.write_bytes(orjson.dumps(annotations))
    pred.write_bytes(orjson.dumps(predictions))
    out = tmp_path / "out"
    out.mkdir()

    def grade() -> None:
        grade_files(str(ann), str(pred), RunSettings(mode="strict"), paths=ResultsPaths.of(out))

    grade()
    store = ResultsStore.open(out, annotator="alice")
    assert store.records[1]["correct"] == 0
    store.override("n2", 1, "the image shows 3, the reference is wrong")
    store.write_back()
    store.close()

    grade()  # same content re-graded: the override stays in force
    again = ResultsStore.open(out, annotator="alice")
    assert again.records[1]["correct"] == 1.0 and not again.is_stale(1)
    again.close()

    predictions[1]["answer"] = "Final Answer: 2"  # a new response for n2
    pred.write_bytes(orjson.dumps(predictions))
    grade()
    final = ResultsStore.open(out, annotator="alice")
    assert final.is_stale(1) and final.records[1]["correct"] == 1  # the new rule verdict
    assert final.records[1]["review"]["human"]["reason"].startswith("the image shows 3")
    assert "override_stale" in {f["kind"] for f in final.records[1]["review"]["flags"]}


def test_all_or_nothing_score_follows_the_override(tmp_path: Path) -> None:
    record = make_record("m1", "math", 0.5, 1)
    record["correct_strict"] = 0.0  # a math item: half the blanks right
    record["review"]["verdicts"][0].update(score=0.5, strict=0.0)
    run = tmp_path / "run"
    run.mkdir()
    save_results(ResultsPaths.of(run), [record], RunSettings(mode="strict"))
    store = ResultsStore.open(run, annotator="alice")
    store.override("m1", 1, "both blanks are right, the second in another form")
    assert (store.records[0]["correct"], store.records[0]["correct_strict"]) == (1.0, 1.0)
    store.override("m1", 0.75, "three quarters")
    assert (store.records[0]["correct"], store.records[0]["correct_strict"]) == (0.75, 0.0)
    store.undo()
    store.undo()
    assert (store.records[0]["correct"], store.records[0]["correct_strict"]) == (0.5, 0.0)
    store.redo()
    store.write_back()
    disk = by_id(run)["m1"]
    assert (disk["correct"], disk["correct_strict"]) == (1.0, 1.0)
    assert load_json(run / "scores.json")["accuracy_strict"] == 100.0


def test_a_question_id_shared_by_two_items_cannot_be_overridden(tmp_path: Path) -> None:
    """Two models' answers to q1 in one file: an override by question_id would land on
    whichever came first, not necessarily the one the reviewer looked at."""
    records = [make_record(*item) for item in ITEMS]
    second = make_record("q1", "geo", 0, 0, answer="The answer to q1 is 7.")
    second["model"] = "other-model"
    records.append(second)
    save_results(ResultsPaths.of(tmp_path), records, RunSettings(mode="strict"))
    store = ResultsStore.open(tmp_path, annotator="alice")
    with pytest.raises(UsageError, match=r"question_id 'q1' names 2 items .*unique ids"):
        store.override("q1", 1, "looks right")
    assert journal_lines(tmp_path) == []
    assert [r["correct"] for r in store.records] == [r["correct"] for r in records]
    # Items with their own id are unaffected.
    store.override("q2", 1, "looks right")
    assert store.records[1]["correct"] == 1


@pytest.mark.parametrize(
    ("read_only", "says"), [(True, "read-only file system"), (False, "permission denied")]
)
def test_a_journal_that_cannot_be_written_says_why_before_review_starts(
    run: Path, monkeypatch: pytest.MonkeyPatch, read_only: bool, says: str
) -> None:
    """A run on a read-only mount said "permission denied", which sent a user to chmod."""
    import os
    from types import SimpleNamespace

    store = ResultsStore.open(run, annotator="alice")
    monkeypatch.setattr(os, "access", lambda *_a, **_k: False)
    flag = os.ST_RDONLY if read_only else 0
    monkeypatch.setattr(os, "statvfs", lambda _p: SimpleNamespace(f_flag=flag))
    with pytest.raises(InputError, match=f"cannot write the journal: {says} .*copy of the run"):
        store.check_journal()
    assert journal_lines(run) == []
