"""The demo set shipped in the package: coverage, freshness, and opening it safely."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import orjson
import pytest

from rome_tui.demo.shipped import prepare_demo, shipped_demo_dir
from scorers.adjudicate.store import ResultsStore
from scorers.evaluate.evaluators import ALL_EVALUATORS
from scorers.records import FLAG_KINDS, response_texts

DEMO = Path(__file__).resolve().parent.parent / "rome_tui" / "demo"


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return orjson.loads((DEMO / "updated_predictions.json").read_bytes())


def test_demo_covers_models_evaluators_and_sources(records: list[dict]) -> None:
    assert len(records) >= 200
    assert len({r["question_id"] for r in records}) == len(records)
    models = Counter(r["model"] for r in records)
    assert len(models) >= 4 and min(models.values()) >= 50
    assert {r["evaluator"] for r in records} == set(ALL_EVALUATORS)
    sources = Counter(v["source"] for r in records for v in r["review"]["verdicts"])
    assert sources["rule:rome"] == sources["rule:strict"] == len(records)
    assert sources["judge:rome"] == len(records)
    assert {"judge:rubric", "judge:vrc-steps", "judge:mathreal"} <= set(sources)
    # Every judge verdict carries what the real judge code records.
    for r in records:
        for v in r["review"]["verdicts"]:
            if v["source"].startswith("judge:"):
                assert v["model"] == "gpt-4.1-mini" and v.get("prompt_hash")
                if v.get("error"):
                    assert v.get("score") is None  # an error is never read as a score


def test_demo_has_something_to_review(records: list[dict]) -> None:
    kinds = Counter(f["kind"] for r in records for f in r["review"]["flags"])
    wanted = {
        "rome_strict_disagree",
        "rule_judge_disagree",
        "judge_error",
        "judge_rationale_contradicts",
        "answer_contradicts_reasoning",
        "hedged_reasoning_certain_answer",
        "claims_web_search",
        "claims_tool_use",
        "abstained",
        "judge_prompt_injection",
        "override_stale",
        "override_conflict",
    }
    assert wanted <= set(kinds), wanted - set(kinds)
    assert set(kinds) <= set(FLAG_KINDS)
    flagged = sum(1 for r in records if r["review"]["flags"])
    assert 0.2 * len(records) < flagged < 0.9 * len(records)  # a queue, not everything
    # Evidence offsets index the texts the app shows.
    for r in records:
        texts = response_texts(r)
        for flag in r["review"]["flags"]:
            for ev in flag["evidence"]:
                text = texts.reasoning if ev["field"] == "reasoning" else texts.answer
                assert text[ev["start"] : ev["end"]] == ev["text"]


# A word of the shown text, apostrophes inside it included ("I'm", "can’t").
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def _cuts_a_word(text: str, at: int) -> bool:
    return any(w.start() < at < w.end() for w in _WORD.finditer(text, max(0, at - 100), at + 100))


def test_every_evidence_span_starts_and_ends_on_a_word_boundary(records: list[dict]) -> None:
    spans = cut = 0
    for r in records:
        texts = response_texts(r)
        for flag in r["review"]["flags"]:
            for ev in flag["evidence"]:
                text = texts.reasoning if ev["field"] == "reasoning" else texts.answer
                spans += 1
                if _cuts_a_word(text, ev["start"]) or _cuts_a_word(text, ev["end"]):
                    cut += 1
                    print(flag["source"], repr(text[max(0, ev["start"] - 10) : ev["end"] + 10]))
    assert spans > 100
    assert cut == 0, f"{cut} of {spans} evidence spans start or end inside a word"


def test_demo_traces_look_like_reasoning(records: list[dict]) -> None:
    lengths = [len(response_texts(r).reasoning) for r in records]
    assert min(lengths) > 400 and sum(lengths) / len(lengths) > 1000
    styles = {r["model"]: response_texts(r).reasoning[:2] for r in records}
    assert styles["gemini-2.5-pro"] == "**"  # bold-headed summaries
    qwen = next(r for r in records if r["model"].startswith("qwen"))
    assert "<think>" in qwen["raw_answer"] and "reason" not in qwen
    scores = Counter(r["correct"] for r in records)
    assert 0.3 < scores[1.0] / len(records) < 0.85 and scores[0] > 0


def test_demo_files_are_modest() -> None:
    total = sum(
        (DEMO / name).stat().st_size
        for name in ("updated_predictions.json", "scores.json", "run.json")
    )
    assert total < 4 * 1024 * 1024


def test_open_demo_uses_a_writable_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROME_TUI_DEMO_DIR", str(tmp_path / "demo"))
    shipped = (shipped_demo_dir() / "updated_predictions.json").read_bytes()
    store = ResultsStore.open(prepare_demo(), annotator="tester")
    assert Path(store.paths.updated) == tmp_path / "demo" / "updated_predictions.json"
    assert len(store.records) >= 200 and not store.dirty
    # The shipped audit trail replays: a conflict, a stale override, an undone one.
    reviews = [r["review"] for r in store.records]
    assert sum(1 for r in reviews if r.get("conflict")) == 1
    assert sum(1 for r in reviews if r.get("stale")) == 1
    assert any(h["op"] == "undo" for r in reviews for h in r.get("history", ()))
    qid = store.records[10]["question_id"]
    store.override(qid, 0.5, "demo override")
    store.write_back()
    assert (shipped_demo_dir() / "updated_predictions.json").read_bytes() == shipped
    again = ResultsStore.open(prepare_demo(), annotator="tester")
    assert again.records[10]["correct"] == 0.5
    assert again.undo() is not None  # the tester's own override, not the maintainers'
    assert again.undo() is None


def test_a_demo_dir_that_cannot_be_made_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file at $ROME_TUI_DEMO_DIR (or a parent that cannot hold it) was a traceback."""
    from hardening_fixtures import run_cli

    (tmp_path / "afile").write_text("x")
    monkeypatch.setenv("ROME_TUI_DEMO_DIR", str(tmp_path / "afile"))
    ran = run_cli(["review"])
    assert ran.code == 2 and "Traceback" not in ran.err, ran
    assert f"$ROME_TUI_DEMO_DIR {tmp_path / 'afile'}: a file is in its place" in ran.err


@pytest.mark.slow
def test_build_is_deterministic_and_the_shipped_set_is_current(tmp_path: Path) -> None:
    from rome_tui.demo.build import build

    summary = build(tmp_path / "a", quiet=True)
    assert summary["items"] >= 200 and summary["judge_calls"]["rome"] == summary["items"]
    build(tmp_path / "b", quiet=True)
    for name in ("updated_predictions.json", "scores.json", "run.json"):
        fresh = (tmp_path / "a" / name).read_bytes()
        assert fresh == (tmp_path / "b" / name).read_bytes(), f"{name} differs between two builds"
        assert fresh == (DEMO / name).read_bytes(), (
            f"rome_tui/demo/{name} is out of date: run `python -m rome_tui.demo.build`"
        )
