"""``heuristic_rubric_disagree``: the heuristic flags against the LRM-Eval rubric judge's
answers, from the flag itself to the summary's count, end to end against the fake server."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_openai_server import FakeOpenAIServer
from judges_fixtures import clear_openai_env, qid_of

from rome_tui.cli import main
from scorers.flags.flagging import recompute_flags
from scorers.records import REVIEW_VERSION, Verdict

SEARCH = "I googled the roster and it lists 12 players. So the answer is 12."
OUTPUT_ONLY = "The search results show 12 players on the roster. So the answer is 12."
PLAIN = "Counting the names on the roster gives 12. So the answer is 12."


def rubric(answers: dict[int, str], error: str | None = None) -> Verdict:
    verdict = Verdict(source="judge:rubric", score=None, extracted=None, explanation=None)
    if error:
        verdict["error"] = error
        return verdict
    verdict["metrics"] = {
        "variant": "default",
        "answers": {
            str(n): {"column": "", "answer": a, "justification": f"Because {n}."}
            for n, a in answers.items()
        },
        "missing": [n for n in range(1, 10) if n not in answers],
    }
    return verdict


def item(reason: str, *verdicts: Verdict) -> dict[str, Any]:
    return {
        "question_id": "q1",
        "question": "How many players are on the roster?",
        "reason": reason,
        "answer": "12",
        "reference": "12",
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": "12"},
        "review": {"version": REVIEW_VERSION, "verdicts": list(verdicts), "flags": []},
    }


ALL_NO = dict.fromkeys(range(1, 10), "NO")


def disagreement(record: dict[str, Any]) -> dict[str, Any] | None:
    flags = recompute_flags(record)
    found = [f for f in flags if f["kind"] == "heuristic_rubric_disagree"]
    assert len(found) <= 1  # one flag an item, naming every kind
    return found[0] if found else None


def test_each_side_raising_what_the_other_does_not_is_a_disagreement() -> None:
    # The heuristics read a search claim the rubric says NO to; the rubric reads a
    # contradiction the heuristics do not: both kinds, one flag, both readings in the detail.
    flag = disagreement(item(SEARCH, rubric({**ALL_NO, 1: "YES", 2: "YES"})))
    assert flag is not None and flag["source"] == "judge:rubric"
    assert flag["disagree_on"] == ["answer_contradicts_reasoning", "claims_web_search"]
    assert flag["detail"] == (
        "answer_contradicts_reasoning: heuristic no, rubric Q2 YES; "
        "claims_web_search: heuristic yes (high confidence), rubric Q6 NO"
    )


def test_agreement_on_both_sides_raises_nothing() -> None:
    assert disagreement(item(SEARCH, rubric({**ALL_NO, 6: "YES"}))) is None
    assert disagreement(item(PLAIN, rubric(ALL_NO))) is None
    assert disagreement(item(PLAIN, rubric({**ALL_NO, 6: "N/A"}))) is None  # N/A flags nothing


def test_na_is_read_as_not_flagged_as_lrm_eval_counts_it() -> None:
    flag = disagreement(item(SEARCH, rubric({**ALL_NO, 6: "N/A"})))
    assert flag is not None and flag["detail"].endswith("rubric Q6 N/A")


def test_a_rubric_that_did_not_answer_compares_nothing() -> None:
    # No rubric verdict, a failed call (judge_error says so), or no answer to the question
    # about the kind: there is no rubric reading to disagree with.
    assert disagreement(item(SEARCH)) is None
    assert disagreement(item(SEARCH, rubric({}, error="no rubric answers"))) is None
    unanswered = {n: a for n, a in ALL_NO.items() if n != 6}
    assert disagreement(item(SEARCH, rubric(unanswered))) is None
    flag = disagreement(item(SEARCH, rubric({**unanswered, 2: "YES"})))  # the others still count
    assert flag is not None and flag["disagree_on"] == ["answer_contradicts_reasoning"]


def test_a_low_confidence_heuristic_flag_counts_and_says_so() -> None:
    record = item(OUTPUT_ONLY, rubric(ALL_NO))
    heuristic = [f for f in recompute_flags(record) if f["source"] == "heuristic"]
    assert [(f["kind"], f.get("confidence")) for f in heuristic] == [("claims_web_search", "low")]
    flag = disagreement(record)
    assert flag is not None
    assert flag["detail"] == "claims_web_search: heuristic yes (low confidence), rubric Q6 NO"


def test_a_tool_the_run_had_is_no_disagreement() -> None:
    from scorers.review import FlagContext

    record = item(SEARCH, rubric({**ALL_NO, 6: "YES"}))
    flags = recompute_flags(record, FlagContext(tools_available=("web_search",)))
    assert not any(f["kind"] in ("claims_web_search", "heuristic_rubric_disagree") for f in flags)


# --- end to end: grade -> judge --judge rubric --flagged -> flags -> summary ------------------


def rubric_says(body: dict[str, Any]) -> str:
    """The rubric's reply per item: q0 confirms its search claim, q1 denies it, q2 (no
    claim) finds a contradiction the heuristics did not, q3 leaves question 6 unanswered."""
    prompt = body["messages"][-1]["content"]
    qid = qid_of(prompt) or ""
    numbers = [int(n) for n in re.findall(r"^(\d+)\. ", prompt.split("Rubric Questions")[-1], re.M)]
    yes = {"q0": {6}, "q2": {2}}.get(qid, set())
    return "\n".join(
        f"{n}. The {'trace' if n % 2 else 'answer'} was read. {'YES' if n in yes else 'NO'}"
        for n in numbers
        if not (qid == "q3" and n == 6)
    )


def test_grade_judge_flagged_then_the_flag_and_the_summary_count(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    clear_openai_env(monkeypatch)
    reasons = [SEARCH, SEARCH, PLAIN, SEARCH, PLAIN]
    annotations = [
        {
            "question_id": f"q{i}",
            "question": f"Question q{i}: how many players are on the roster?",
            "reference": "12",
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": 12},
            "task": "count",
        }
        for i in range(len(reasons))
    ]
    predictions = [
        {"question_id": f"q{i}", "reason": reason, "answer": "Final Answer: 12"}
        for i, reason in enumerate(reasons)
    ]
    (tmp_path / "a.json").write_bytes(orjson.dumps(annotations))
    (tmp_path / "p.json").write_bytes(orjson.dumps(predictions))
    run = tmp_path / "run"
    files = ["--annotations", str(tmp_path / "a.json"), "--predictions", str(tmp_path / "p.json")]
    assert main(["grade", *files, "--out-dir", str(run)]) == 0
    capsys.readouterr()

    def load() -> dict[str, dict[str, Any]]:
        records = orjson.loads((run / "updated_predictions.json").read_bytes())
        return {r["question_id"]: r for r in records}

    def written_disagreements() -> dict[str, list[str]]:
        """The kinds each item's written heuristic_rubric_disagree flag names."""
        return {
            q: f["disagree_on"]
            for q, r in load().items()
            for f in r["review"]["flags"]
            if f["kind"] == "heuristic_rubric_disagree"
        }

    def kinds(record: dict[str, Any]) -> set[tuple[str, str]]:
        return {(f["kind"], f["source"]) for f in record["review"]["flags"]}

    graded = load()
    flagged = [q for q, r in graded.items() if ("claims_web_search", "heuristic") in kinds(r)]
    assert flagged == ["q0", "q1", "q3"]
    with FakeOpenAIServer(rubric_says) as server:
        command = ["judge", str(run), "--judge", "rubric", "--base-url", server.base_url]
        assert main([*command, "--flagged"]) == 0
        assert server.count() == 3  # the flagged items only
        said = capsys.readouterr().out.splitlines()[-1]
        assert said == (
            f"rubric and heuristic flags disagree on 1 of 3 items: rome-tui review {run} "
            "--filter flag:heuristic_rubric_disagree"
        )
        disagree = written_disagreements()
        # q0: the rubric confirms; q1: it denies; q3: it did not answer question 6
        assert disagree == {"q1": ["claims_web_search"]}
        assert main([*command]) == 0  # now every item: q2's contradiction is the rubric's alone
    disagree = written_disagreements()
    assert disagree == {"q1": ["claims_web_search"], "q2": ["answer_contradicts_reasoning"]}
    capsys.readouterr()

    assert main(["summary", str(run), "--format", "json"]) == 0
    flags = orjson.loads(capsys.readouterr().out)["flags"]
    assert flags["heuristic_rubric_disagree"]["count"] == 2
    assert flags["claims_web_search"]["heuristic_vs_rubric"]["disagree"] == 1
    assert flags["answer_contradicts_reasoning"]["heuristic_vs_rubric"]["disagree"] == 1
    assert flags["hedged_reasoning_certain_answer"]["heuristic_vs_rubric"]["disagree"] == 0
    assert main(["summary", str(run), "--format", "markdown"]) == 0
    table = capsys.readouterr().out
    header = next(line for line in table.splitlines() if "| Disagree |" in line)
    assert header.split("|")[6].strip() == "Disagree"


def test_the_flag_survives_an_override_its_undo_and_a_journal_replay(tmp_path: Path) -> None:
    from judges_fixtures import write_run

    from scorers.adjudicate.store import ResultsStore

    record = item(SEARCH, rubric({**ALL_NO, 1: "YES"}))
    record["review"]["verdicts"].insert(
        0, Verdict(source="rule:strict", score=1.0, extracted="12", explanation=None)
    )
    record["review"].update(mode="strict", primary="rule:strict", history=[])
    record["correct"] = 1.0
    recompute_flags(record)
    write_run(tmp_path / "run", [record])

    def kinds(store: ResultsStore) -> list[str]:
        return [f["kind"] for f in store.records[0]["review"]["flags"]]

    with ResultsStore.open(tmp_path / "run", annotator="alice") as store:
        assert "heuristic_rubric_disagree" in kinds(store)
        store.override("q1", 0, "the roster has 13")
        assert "heuristic_rubric_disagree" in kinds(store)
        store.undo()
        store.redo()
    with ResultsStore.open(tmp_path / "run", annotator="alice") as store:  # replayed
        assert store.records[0]["correct"] == 0
        assert "heuristic_rubric_disagree" in kinds(store)
        flag = next(f for f in store.records[0]["review"]["flags"] if f["kind"].startswith("heur"))
        assert flag["disagree_on"] == ["claims_web_search"]


def test_a_hand_edited_flag_or_verdict_is_read_as_no_reading() -> None:
    from scorers.stats.summary import summarise

    record = item(SEARCH, rubric(ALL_NO))
    record["review"]["verdicts"][0]["metrics"] = ["not", "a", "dict"]
    assert disagreement(record) is None
    record["correct"] = 1.0
    record["review"]["flags"] = [
        {"kind": "heuristic_rubric_disagree", "source": "judge:rubric", "evidence": [], **extra}
        for extra in ({"disagree_on": [{}, 3, "claims_web_search"]}, {"disagree_on": 7}, {})
    ]
    flags = summarise([("m", [record])]).to_dict()["flags"]
    assert flags["heuristic_rubric_disagree"]["count"] == 1
