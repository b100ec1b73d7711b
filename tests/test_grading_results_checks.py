"""load_results on damaged runs: every command gets well-typed records or one clear error.

Bad review parts and scores are set aside under ``review.malformed`` with one
counted warning per kind; an empty file, bad run.json settings and records
nested too deep to write back are InputErrors naming the file and the place.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import InputError
from scorers.io.record_checks import WRITABLE_DEPTH
from scorers.io.results import load_results, save_results
from scorers.io.review_checks import MALFORMED_KEY
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.io.scores import scores_of
from scorers.io.updated_writer import updated_bytes, write_updated


def verdict(source: str, score: Any) -> dict[str, Any]:
    return {"source": source, "score": score, "extracted": "B", "explanation": None}


def graded(qid: str, correct: Any = 1, **review: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "version": 1,
        "mode": "strict",
        "primary": "rule:strict",
        "verdicts": [verdict("rule:rome", correct), verdict("rule:strict", correct)],
        "flags": [],
        "history": [],
        "content_hash": "0" * 16,
    }
    base.update(review)
    return {"question_id": qid, "answer": "B", "task": "t", "correct": correct, "review": base}


def run_dir(tmp_path: Path, records: Any, settings: dict[str, Any] | None = None) -> Path:
    # json writes the nesting orjson refuses to (sys.setrecursionlimit permitting).
    (tmp_path / "updated_predictions.json").write_text(json.dumps(records))
    (tmp_path / "run.json").write_text(json.dumps(settings or {"mode": "strict"}))
    return tmp_path


def warned(warnings: list[str], text: str) -> list[str]:
    return [w for w in warnings if text in w]


# --- H4: empty -------------------------------------------------------------------


@pytest.mark.parametrize("content", ["", "[]", "{}", "\n\n"])
def test_a_results_file_without_records_is_an_error(tmp_path: Path, content: str) -> None:
    (tmp_path / "updated_predictions.json").write_text(content)
    with pytest.raises(InputError) as err:
        load_results(tmp_path)
    assert str(err.value) == f"{tmp_path / 'updated_predictions.json'}: empty: no graded records"


# --- H5 / H15: review parts ---------------------------------------------------------


def test_good_records_load_untouched_and_without_warnings(tmp_path: Path) -> None:
    flag = {
        "kind": "abstained",
        "source": "heuristic",
        "evidence": [{"field": "answer", "start": 0, "end": 1, "text": "B"}],
    }
    human = {"score": 0.5, "annotator": "ann", "reason": "r"}
    records = [
        graded("q1", flags=[flag], human=human, history=[{"op": "set"}]),
        graded("q2", 0.5, stale=False),
        graded("q3", None),
        graded("q4", True),
    ]
    loaded = load_results(run_dir(tmp_path, records))
    assert loaded.records == records
    assert loaded.warnings == []


@pytest.mark.parametrize(
    ("part", "value", "kept", "kind"),
    [
        ("verdicts", "rule:rome=1", ["rule:rome=1"], "review.verdicts"),
        ("verdicts", 1, [1], "review.verdicts"),
        ("verdicts", None, [None], "review.verdicts"),
        ("flags", 1, [1], "review.flags"),
        ("history", True, [True], "review.history"),
        ("history", {"x": 1}, [{"x": 1}], "review.history"),
        ("human", "alice says 1", ["alice says 1"], "review.human"),
        ("human", {"score": "1"}, [{"score": "1"}], "review.human"),
        ("primary", 5, [5], "review.primary"),
        ("conflict", "x", ["x"], "review.conflict"),
        ("stale", "yes", ["yes"], "review.stale"),
    ],
)
def test_a_review_part_of_the_wrong_type_is_set_aside_with_a_warning(
    tmp_path: Path, part: str, value: Any, kept: list[Any], kind: str
) -> None:
    records = [graded("q1", **{part: value}), graded("q2"), graded("q3", **{part: value})]
    loaded = load_results(run_dir(tmp_path, records))
    review = loaded.records[0]["review"]
    assert part not in review or review[part] == []
    assert review[MALFORMED_KEY] == {part: kept}
    assert loaded.records[1] == graded("q2")
    [warning] = warned(loaded.warnings, kind)
    assert f"2 record(s) with a malformed {kind} (first: q1, q3)" in warning


def test_bad_items_are_dropped_one_by_one(tmp_path: Path) -> None:
    good_flag = {"kind": "abstained", "source": "h", "evidence": []}
    bad_flags = [
        1,
        {"kind": "abstained", "evidence": [{"start": "x"}]},
        {"kind": "no_such_kind", "evidence": []},
        {"kind": "abstained", "evidence": [{"field": "answer", "start": 3, "end": 1}]},
        {"kind": "abstained", "evidence": [{"field": "answer", "start": True, "end": 1}]},
    ]
    bad_verdicts = [{"score": "1"}, 5, {"source": "x", "score": [1]}]
    records = [
        graded(
            "q1",
            verdicts=[verdict("rule:strict", 1), *bad_verdicts],
            flags=[good_flag, *bad_flags],
            history=[{"op": "set"}, 3],
        )
    ]
    loaded = load_results(run_dir(tmp_path, records))
    review = loaded.records[0]["review"]
    assert review["verdicts"] == [verdict("rule:strict", 1)]
    assert review["flags"] == [good_flag]
    assert review["history"] == [{"op": "set"}]
    assert review[MALFORMED_KEY] == {"verdicts": bad_verdicts, "flags": bad_flags, "history": [3]}
    kinds = sorted(w.split("malformed ")[1].split(" ")[0] for w in loaded.warnings)
    assert kinds == ["review.flags", "review.history", "review.verdicts"]


def test_a_review_that_is_not_an_object_is_rebuilt_from_correct(tmp_path: Path) -> None:
    records = [dict(graded("q1"), review="fine"), graded("q2")]
    loaded = load_results(run_dir(tmp_path, records))
    review = loaded.records[0]["review"]
    assert [v["source"] for v in review["verdicts"]] == ["rule:rome"]
    assert review[MALFORMED_KEY] == {"review": ["fine"]}
    assert warned(loaded.warnings, "1 record(s) whose review is not an object (first: q1)")


def test_what_was_set_aside_survives_a_write_back(tmp_path: Path) -> None:
    """Nothing a user wrote is lost: a second load finds it kept and does not warn again."""
    records = [graded("q1", human="alice says 1", verdicts=[5, verdict("rule:strict", 1)])]
    loaded = load_results(run_dir(tmp_path, records))
    save_results(loaded.paths, loaded.records, loaded.settings)
    again = load_results(tmp_path)
    assert again.warnings == []
    assert again.records[0]["review"][MALFORMED_KEY] == {"verdicts": [5], "human": ["alice says 1"]}
    # A later load that sets more aside keeps both.
    again.records[0]["review"]["verdicts"].append("junk")
    save_results(again.paths, again.records, again.settings)
    third = load_results(tmp_path)
    assert third.records[0]["review"][MALFORMED_KEY]["verdicts"] == [5, "junk"]


def test_warnings_come_in_the_order_the_problems_were_found(tmp_path: Path) -> None:
    """Whatever the hash seed: the kinds of one record's problems were once a set, whose
    order (and so the warnings') changed from one run to the next."""
    records = [graded("q1", 7, flags="x", history=3, mode=5, stale="no")]
    run = run_dir(tmp_path, records)
    code = (
        "import json, sys; from scorers.io.results import load_results; "
        "print(json.dumps(load_results(sys.argv[1]).warnings))"
    )
    seen = []
    for seed in ("0", "1", "2", "3"):
        done = subprocess.run(
            [sys.executable, "-c", code, str(run)],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        seen.append(json.loads(done.stdout))
    assert all(warnings == seen[0] for warnings in seen)
    kinds = [w.split("record(s) with a ")[1].split(" (")[0] for w in seen[0]]
    assert kinds == [
        "score out of range",
        "malformed review.flags",
        "malformed review.history",
        "malformed review.mode",
        "malformed review.stale",
    ]


# --- H11: scores out of range ---------------------------------------------------------


def test_scores_outside_0_1_are_not_counted_and_are_named(tmp_path: Path) -> None:
    records = [
        graded("q1", 7),
        graded("q2", -3),
        dict(graded("q3"), correct_strict="1"),
        graded("q4", 1, verdicts=[verdict("rule:strict", 42), verdict("rule:rome", 1)]),
        graded("q5", 1, human={"score": 2}),
        graded("q6", 0.5),
    ]
    loaded = load_results(run_dir(tmp_path, records))
    by_id = {r["question_id"]: r for r in loaded.records}
    assert by_id["q1"]["correct"] is None and by_id["q2"]["correct"] is None
    assert by_id["q1"]["review"][MALFORMED_KEY]["correct"] == [7]
    assert "correct_strict" not in by_id["q3"]
    assert [v["source"] for v in by_id["q4"]["review"]["verdicts"]] == ["rule:rome"]
    assert "human" not in by_id["q5"]["review"]
    [warning] = warned(loaded.warnings, "out of range")
    assert "5 record(s) with a score out of range" in warning
    assert "(not a number in [0, 1]; first: q1, q2, q3, q4, q5)" in warning
    scores = scores_of(loaded.records, loaded.settings)
    assert scores["final_score"] == [3.5, 4]  # q3 (1), q4 (1), q5 (1), q6 (0.5); q1, q2 left out


def test_imported_records_check_correct_before_it_becomes_a_verdict(tmp_path: Path) -> None:
    rows = [{"question_id": "h1", "answer": "B", "correct": 4}, {"question_id": "h2", "correct": 1}]
    loaded = load_results(run_dir(tmp_path, rows))
    first = loaded.records[0]
    assert first["correct"] is None and first["review"]["verdicts"] == []
    assert first["review"][MALFORMED_KEY] == {"correct": [4]}
    assert warned(loaded.warnings, "1 record(s) with a score out of range")


# --- H6: repeated ids -------------------------------------------------------------------


def test_repeated_question_ids_are_one_counted_warning(tmp_path: Path) -> None:
    records = [graded("q1"), graded("q2"), graded("q1"), graded("q2"), graded("q1")]
    records += [dict(graded("x"), question_id=7), dict(graded("x"), question_id="7")]
    records += [dict(graded("x"), question_id=None), dict(graded("x"), question_id=None)]
    loaded = load_results(run_dir(tmp_path, records))
    [warning] = warned(loaded.warnings, "more than once")
    assert "3 question_id(s) appear more than once (first: q1, q2, 7)" in warning
    assert len(loaded.records) == 9  # every copy is kept


# --- H7 / H8: run.json -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"mode": 5}, "mode must be 'rome' or 'strict', got 5"),
        ({"mode": "lenient"}, "mode must be 'rome' or 'strict', got 'lenient'"),
        ({"primary": "vibes"}, "primary must be 'rule' or 'judge', got 'vibes'"),
        ({"tracker_type": ["task"]}, "tracker_type must be a non-empty string, got a list"),
        ({"tracker_type": ""}, "tracker_type must be a non-empty string, got ''"),
        ({"tracker_subtype": 3}, "tracker_subtype must be a string or null, got 3"),
        ({"primary_by_bucket": "x"}, "primary_by_bucket must be an object mapping buckets"),
        ({"primary_by_bucket": {"geo": "vibes"}}, "primary_by_bucket must be an object"),
        ({"tools_available": 3}, "tools_available must be a list of tool names, got 3"),
        ({"tools_available": ["web", 1]}, "tools_available must be a list of tool names"),
        ({"harness_stats": "yes"}, "harness_stats must be true or false, got 'yes'"),
        ({"version": "1"}, "version must be an integer, got '1'"),
        ({"graded_at": None, "llm_model": {}}, "llm_model must be a string or null, got an object"),
    ],
)
def test_run_json_fields_are_checked(
    tmp_path: Path, settings: dict[str, Any], message: str
) -> None:
    run_dir(tmp_path, [graded("q1")], settings)
    with pytest.raises(InputError) as err:
        load_results(tmp_path)
    assert str(err.value).startswith(f"{tmp_path / 'run.json'}: bad run.json setting: {message}")


def test_run_json_that_fits_loads_and_unknown_fields_are_ignored(tmp_path: Path) -> None:
    settings = {
        "mode": "rome",
        "primary": "judge",
        "primary_by_bucket": {"geo": "rule"},
        "tools_available": ["web_search"],
        "tracker_subtype": None,
        "use_llm_evaluator": True,
        "from_the_future": [1],
    }
    loaded = load_results(run_dir(tmp_path, [graded("q1")], settings))
    assert loaded.settings.primary_for("geo") == "rule" and loaded.settings.primary == "judge"
    written = RunSettings.from_dict(json.loads(RunSettings(mode="rome").to_json()))
    assert written == RunSettings(mode="rome")


# --- H9: nesting that cannot be written back ----------------------------------------------


def deep(levels: int) -> Any:
    value: Any = 1
    for _ in range(levels):
        value = [value]
    return value


def test_records_nested_too_deep_are_rejected_on_load(tmp_path: Path) -> None:
    records = [graded("q1"), dict(graded("q2"), meta=deep(300))]
    with pytest.raises(InputError) as err:
        load_results(run_dir(tmp_path, records))
    assert err.value.record == "q2" and "nested more than 253 levels deep" in str(err.value)
    # An imported record whose kwargs are too deep to hash: the same error, not a TypeError.
    rows = [{"question_id": "h1", "correct": 1, "evaluator_kwargs": deep(400)}]
    with pytest.raises(InputError, match="record h1: nested more than"):
        load_results(run_dir(tmp_path, rows))
    # A value set aside under review.malformed sits deeper: checked after it moved.
    edge = graded("q3", verdicts={"x": deep(WRITABLE_DEPTH - 4)})  # 252 levels where it is
    assert updated_bytes([edge])  # writable where it was
    with pytest.raises(InputError, match="record q3: nested more than"):
        load_results(run_dir(tmp_path, [edge]))


def test_writing_a_record_orjson_cannot_write_names_it(tmp_path: Path) -> None:
    records = [graded(f"q{i}") for i in range(70)] + [dict(graded("q70"), meta=deep(300))]
    target = tmp_path / "updated_predictions.json"
    with pytest.raises(InputError) as err:
        write_updated(target, records)
    assert (err.value.path, err.value.record) == (str(target), "q70")
    assert not target.exists() and not list(tmp_path.iterdir())  # no temp file left
    with pytest.raises(InputError, match="record q70: nested more than"):
        updated_bytes(records)
    paths = ResultsPaths.of(tmp_path)
    with pytest.raises(InputError):
        save_results(paths, records, RunSettings())
