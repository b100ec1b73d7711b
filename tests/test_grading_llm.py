"""`--use_llm_evaluator` wiring, against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer
from grading_fixtures import grade, read_json


def _consistent_with_paris(body: dict[str, Any]) -> str:
    """Consistent exactly when the model response mentions "Paris"."""
    prompt = body["messages"][-1]["content"]
    verdict = (
        "1"
        if "[Model Response] : Final Answer: Paris" in prompt
        or "Paris" in prompt.split("[Model Response]")[-1]
        else "0"
    )
    return f"Reasoning.\n\nJudgement: {verdict}"


@pytest.fixture
def judge_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer(_consistent_with_paris) as server:
        monkeypatch.setenv("OPENAI_API_KEY", "test")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        yield server


def _prompts(server: FakeOpenAIServer) -> list[str]:
    """Every prompt the judge received, in order."""
    return [r.body["messages"][-1]["content"] for r in server.requests]


def _inputs(tmp_path: Path) -> tuple[str, str]:
    annotations = [
        {
            "question_id": "1",
            "question": "Capital?",
            "reference": "Paris",
            "evaluator": "key_items_matching",
            "evaluator_kwargs": {"key_items": ["paris"]},
            "task": "Diagrams",
        },
        {
            "question_id": "2",
            "question": "Capital?",
            "reference": "Paris",
            "evaluator": "key_items_matching",
            "evaluator_kwargs": {"key_items": ["lyon"]},
            "task": "Other",
        },
    ]
    predictions = [
        {"question_id": "1", "answer": "Final Answer: Paris"},
        {"question_id": "2", "answer": "Final Answer: Paris"},
    ]
    a, p = tmp_path / "a.json", tmp_path / "p.json"
    a.write_text(json.dumps(annotations))
    p.write_text(json.dumps(predictions))
    return str(a), str(p)


def _grade_with_judge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, *options: str
) -> list[dict[str, Any]]:
    """Grade the two inputs with the LLM judge into tmp_path/o; the records written."""
    a, p = _inputs(tmp_path)
    out = tmp_path / "o"
    code, _, err = grade(
        capsys,
        "--use_llm_evaluator",
        *options,
        "--annotations",
        a,
        "--predictions",
        p,
        "--out-dir",
        str(out),
    )
    assert code == 0, err
    return read_json(out / "updated_predictions.json")


def test_rome_mode_llm_replaces_rules(
    judge_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = _grade_with_judge(capsys, tmp_path, "--mode", "rome", "--llm_model", "m")
    for record in records:
        assert record["correct"] == 1  # the judge's verdict, whatever the rule said
        assert record["answer"] == "Final Answer: Paris" and "raw_answer" not in record
        assert record["judgement_response"].endswith("Judgement: 1")
        assert record["review"]["primary"] == "judge:rome"
    assert records[1]["review"]["verdicts"][0]["score"] == 0  # rule:rome kept for review


def test_strict_mode_judge_primary_per_bucket(
    judge_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _grade_with_judge(capsys, tmp_path, "--primary", "judge:Other")
    assert first["review"]["primary"] == "rule:strict" and first["correct"] == 1
    assert second["review"]["primary"] == "judge:rome" and second["correct"] == 1
    assert [v["source"] for v in second["review"]["verdicts"]] == [
        "rule:rome",
        "rule:strict",
        "judge:rome",
    ]


@pytest.mark.parametrize("mode", ["rome", "strict"])
def test_the_grader_prompt_is_sent_verbatim_in_either_mode(
    judge_server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    """Published prompts are byte for byte by default: no fence around the answer."""
    from scorers.judges.rome import build_request

    _grade_with_judge(capsys, tmp_path, "--mode", mode)
    verbatim = build_request("Capital?", "Paris", "Final Answer: Paris").message_dicts()
    prompts = _prompts(judge_server)
    assert prompts and all(prompt == verbatim[-1]["content"] for prompt in prompts)
    assert not any("<model-answer-" in prompt for prompt in prompts)
