"""scorers.review owns what a record's review means; these pin its rules at the edges
and check that every former copy (grader, judge runner, store, app rows, summary)
now answers through it."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import orjson
import pytest
from store_fixtures import by_id, make_record, make_run

from rome_tui.app.items import make_row
from scorers import review
from scorers.adjudicate.journal import read_journal, validate_entry
from scorers.adjudicate.store import ResultsStore
from scorers.errors import ConflictError, UsageError
from scorers.flags.flagging import recompute_flags
from scorers.io.results import load_results
from scorers.io.run_settings import RunSettings
from scorers.io.runfiles import load_run, save_run
from scorers.judges.registry import JUDGE_MODULES, get_judge
from scorers.judges.runner import apply_primary
from scorers.stats.summary import SummaryOptions, summarise_model

ROOT = Path(__file__).resolve().parent.parent


def _kinds(record: dict[str, Any]) -> list[str]:
    return [f["kind"] for f in record["review"]["flags"]]


def _with_human(record: dict[str, Any], score: float, *, old: Any, stale: bool = False) -> None:
    rv = record["review"]
    rv["human"] = {"score": score, "annotator": "a", "time": "t", "reason": "r"}
    rv["history"] = [{"id": "1", "op": "set", "annotator": "a", "old": old, "new": score}]
    if stale:
        rv["stale"] = True
    else:
        record["correct"] = score


# --- the rules at their edges ----------------------------------------------------------


def test_a_stale_override_is_kept_but_not_applied() -> None:
    record = make_record("q", "geo", 0, 1)
    _with_human(record, 1.0, old=0, stale=True)
    assert review.human_in_force(record) is None and review.human_score(record) is None
    assert review.machine_score(record) == 0
    assert review.adjudicated(0, None, review.human_score(record)) == (0, None)
    assert [f["kind"] for f in review.override_flags(record["review"])] == ["override_stale"]
    recompute_flags(record)
    assert _kinds(record).count("override_stale") == 1  # written once, by the owner
    summary = summarise_model("m", [record], SummaryOptions())
    # Not ground truth for the verdicts of the content it was not made on.
    assert (summary.overrides.overridden, summary.overrides.stale) == (0, 1)
    assert summary.error_rates == []
    assert make_row(0, record).machine == 0.0


def test_a_stale_override_on_disk_reverts_correct_and_is_flagged(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    with ResultsStore.open(run, annotator="alice") as store:
        store.override("q3", 1, "right after all")
        store.write_back()
    # The model's answer changes: the override was made on other content.
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    for record in records:
        if record["question_id"] == "q3":
            record["answer"] = record["raw_answer"] = "Now it says 41."
    (run / "updated_predictions.json").write_bytes(orjson.dumps(records))
    with ResultsStore.open(run, annotator="alice") as store:
        i = store.index_of("q3")
        assert store.is_stale(i) and not store.is_overridden(i)
        assert store.records[i]["correct"] == 0 == store.baseline_score(i)
        assert "override_stale" in _kinds(store.records[i])
        row = make_row(i, store.records[i], "task", store.baseline_score(i))
        assert (row.machine, row.correct, row.stale) == (0.0, 0.0, True)


def test_a_boolean_score_reads_as_one_or_zero_but_is_never_set() -> None:
    assert review.is_score(True) and review.is_score(False)
    assert review.read_score(True) == 1 and type(review.read_score(True)) is int
    assert review.read_score(False) == 0
    assert review.read_score(float("nan")) is None and review.read_score("1") is None
    with pytest.raises(UsageError):
        review.valid_score(True)
    assert review.valid_score("0.5") == 0.5
    # The journal reads a stored true as the results files do: a score of 1.
    line = {
        "v": 1,
        "id": "x",
        "op": "set",
        "annotator": "a",
        "time": "2026-01-01T00:00:00.000000Z",
        "question_id": "q",
        "old": False,
        "new": True,
        "reason": "r",
        "content_hash": "h",
    }
    assert validate_entry(line) is None


def test_a_boolean_in_a_journal_replays_as_a_number(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    with ResultsStore.open(run, annotator="alice") as store:
        store.override("q3", 1, "right")
    path = run / "journal" / "alice.jsonl"
    [line] = read_journal(path).entries
    line["new"] = True
    path.write_bytes(orjson.dumps(line) + b"\n")
    with ResultsStore.open(run, annotator="alice") as store:
        record = store.records[store.index_of("q3")]
        assert record["correct"] == 1 and record["correct"] is not True
        assert record["review"]["human"]["score"] == 1


def test_a_boolean_correct_in_a_results_file_counts_as_one(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    records[0]["correct"] = True
    (run / "updated_predictions.json").write_bytes(orjson.dumps(records))
    loaded = load_results(run)
    assert loaded.records[0]["correct"] is True
    assert not any("out of range" in w for w in loaded.warnings)
    assert summarise_model("m", loaded.records, SummaryOptions()).overall.loose.total == 2


def test_an_unknown_judge_grades_correctness_everywhere() -> None:
    assert review.grades_correctness("judge:someone-elses")
    record = make_record("q", "geo", 0, 1)
    record["review"]["verdicts"][1]["source"] = "judge:someone-elses"
    recompute_flags(record)
    assert "rule_judge_disagree" in _kinds(record)
    assert make_row(0, record).judge == 1.0
    human = copy.deepcopy(record)
    _with_human(human, 1.0, old=0)
    summary = summarise_model("m", [human], SummaryOptions())
    assert sorted(e.source for e in summary.error_rates) == ["judge:someone-elses", "rule:strict"]


def test_a_human_partial_score() -> None:
    record = make_record("q", "geo", 1, 1)
    record["correct_strict"] = 1.0
    record["review"]["verdicts"][0]["strict"] = 1.0
    _with_human(record, 0.5, old=1)
    assert review.human_score(record) == 0.5
    assert review.machine_scores(record) == (1, 1.0)
    # Partial credit is not all-or-nothing credit: correct_strict goes to 0.
    assert review.adjudicated(1, 1.0, 0.5) == (0.5, 0.0)
    assert review.adjudicated(0, 0.0, 1.0) == (1.0, 1.0)
    row = make_row(0, record)
    assert (row.machine, row.human, row.correct, row.overridden) == (1.0, 0.5, 0.5, True)
    summary = summarise_model("m", [record], SummaryOptions())
    assert (summary.overrides.before, summary.overrides.after) == (100.0, 50.0)
    assert summary.overrides.changed == 1


def test_a_human_partial_score_through_the_store(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    with ResultsStore.open(run, annotator="alice") as store:
        store.override("q1", 0.5, "half right")
        store.write_back()
    q1 = by_id(run)["q1"]
    assert q1["correct"] == 0.5 and q1["review"]["human"]["score"] == 0.5
    assert review.machine_score(q1) == 1


@pytest.mark.parametrize("name", ["rubric", "vrc-steps"])
def test_a_judge_that_does_not_grade_correctness(name: str) -> None:
    source = f"judge:{name}"
    assert not review.grades_correctness(source)
    record = make_record("q", "geo", 0, 1)
    record["review"]["verdicts"][1]["source"] = source
    settings = RunSettings(mode="strict", primary="judge")
    # Never primary, even where the run's policy says "judge".
    assert review.choose_primary(record, settings, source) == "rule:strict"
    apply_primary(record, settings, get_judge(name))
    assert record["correct"] == 0 and record["review"]["primary"] == "rule:strict"
    recompute_flags(record)
    assert "rule_judge_disagree" not in _kinds(record)
    assert make_row(0, record).judge is None
    _with_human(record, 1.0, old=0)
    summary = summarise_model("m", [record], SummaryOptions())
    assert source not in [e.source for e in summary.error_rates]


def test_the_owner_agrees_with_every_registered_judge() -> None:
    for name in JUDGE_MODULES:
        judge = get_judge(name)
        assert review.grades_correctness(f"judge:{name}") is bool(judge.grades_correctness), name


def test_a_judge_error_under_judge_primary_keeps_the_rule() -> None:
    record = make_record("q", "geo", 0, 1)
    record["review"]["verdicts"][1] = {"source": "judge:rome", "score": None, "error": "timeout"}
    settings = RunSettings(mode="strict", primary="judge")
    assert review.choose_primary(record, settings, "judge:rome") == "rule:strict"
    ok = make_record("q", "geo", 0, 1.0)
    apply_primary(ok, settings, get_judge("rome"))
    assert ok["review"]["primary"] == "judge:rome"
    assert ok["correct"] == 1 and type(ok["correct"]) is int  # the reference's int 0/1


# --- the former copies answer through the owner --------------------------------------


def _edge_records() -> list[dict[str, Any]]:
    plain = make_record("plain", "geo", 1, 0)
    partial = make_record("partial", "geo", 1, 1)
    _with_human(partial, 0.5, old=1)
    stale = make_record("stale", "geo", 0, 1)
    _with_human(stale, 1.0, old=0, stale=True)
    imported = make_record("imported", "geo", 0, 0)  # graded elsewhere, overridden since
    imported["review"]["verdicts"] = []
    _with_human(imported, 1.0, old=0)
    judged = make_record("judged", "geo", 0, 1)
    judged["review"]["primary"] = "judge:rome"
    judged["correct"] = 1
    return [plain, partial, stale, imported, judged]


def test_store_rows_and_summary_agree_on_the_score_before_any_human(tmp_path: Path) -> None:
    records = _edge_records()
    expected = [review.machine_score(r) for r in records]
    assert expected == [1, 1, 0, 0, 1]
    rows = [make_row(i, r) for i, r in enumerate(records)]
    assert [row.machine for row in rows] == expected
    run = tmp_path / "run"
    run.mkdir()
    from scorers.io.results import save_results
    from scorers.io.run_paths import ResultsPaths

    save_results(ResultsPaths.of(run), records, RunSettings(mode="strict"))
    with ResultsStore.open(run, annotator="z") as store:
        assert [store.baseline_score(i) for i in range(len(records))] == expected
    summary = summarise_model("m", records, SummaryOptions())
    assert summary.overrides.before == pytest.approx(100 * sum(expected) / len(expected))


def _calls_and_literals(path: Path) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text())
    calls = {
        node.func.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }
    literals = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    return calls, literals


def test_the_rules_have_one_home() -> None:
    owner = ROOT / "scorers" / "review.py"
    for path in sorted((ROOT / "scorers").rglob("*.py")) + sorted(
        (ROOT / "rome_tui").rglob("*.py")
    ):
        if path == owner:
            continue
        calls, literals = _calls_and_literals(path)
        where = path.relative_to(ROOT)
        assert "FlagContext" not in calls or path.name == "flagging.py", where
        assert (
            not {"override_stale", "override_conflict"} & literals or path.name == "records.py"
        ), where
    app_items = _calls_and_literals(ROOT / "rome_tui" / "app" / "items.py")[1]
    assert "judge:rubric" not in app_items


# --- one conflict check for every writer of a run --------------------------------------


def _files(run: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in run.iterdir() if p.is_file() and p.suffix == ".json"}


def test_a_save_refuses_when_either_file_changed(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run")
    for name in ("updated_predictions.json", "scores.json"):
        loaded, read = load_run(run)
        (run / name).write_bytes(b'{"edited": true}')
        before = _files(run)
        with pytest.raises(ConflictError, match=name):
            save_run(loaded.paths, loaded.records, loaded.settings, read, "try again")
        assert _files(run) == before
        make_run(run)


def test_a_grade_refuses_to_replace_a_run_written_while_it_graded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json

    from scorers.grade import run as grade_run
    from scorers.io.run_paths import ResultsPaths

    out = make_run(tmp_path / "out")
    annotations = [
        {
            "question_id": "q1",
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": 42},
        }
    ]
    (tmp_path / "a.json").write_text(json.dumps(annotations))
    (tmp_path / "p.json").write_text(json.dumps([{"question_id": "q1", "answer": "42"}]))
    # Both ways a grade reads annotations (whole file, or the streamed index)
    # give the app its chance to write.
    for name in ("load_annotations", "load_annotation_index"):
        loader = getattr(grade_run, name)

        def the_app_writes_meanwhile(*args: Any, _load: Any = loader, **kwargs: Any) -> Any:
            (out / "scores.json").write_bytes(b'{"written": "meanwhile"}')
            return _load(*args, **kwargs)

        monkeypatch.setattr(grade_run, name, the_app_writes_meanwhile)
    before = {**_files(out), "scores.json": b'{"written": "meanwhile"}'}
    with pytest.raises(ConflictError, match="scores.json"):
        grade_run.grade_files(
            str(tmp_path / "a.json"),
            str(tmp_path / "p.json"),
            RunSettings(),
            paths=ResultsPaths.of(out),
        )
    assert _files(out) == before


@pytest.mark.parametrize("blank", [None, "", "   ", "\t\n", 7])
def test_an_override_without_a_real_reason_is_refused(blank: Any) -> None:
    with pytest.raises(UsageError, match="needs a reason"):
        review.valid_reason(blank)


def test_a_reason_is_recorded_without_its_surrounding_spaces(tmp_path: Path) -> None:
    assert review.valid_reason("  the key is in the picture \n") == "the key is in the picture"
    with ResultsStore.open(make_run(tmp_path / "run"), annotator="ana") as store:
        with pytest.raises(UsageError, match="needs a reason"):
            store.override("q1", 1, " \t ")
        assert store.override("q1", 1, "  seen  ")["reason"] == "seen"
