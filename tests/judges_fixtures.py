"""Fixtures for the judge tests: the fake server, records, results directories, scripted replies."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import Action, FakeOpenAIServer

from scorers.io.results import save_results
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.records import REVIEW_VERSION, Verdict

SECRET_KEY = "sk-test-DO-NOT-LEAK-0123456789abcdef"

VRC_JSON_OK = (
    '{"Faithfulness-Step": 8, "Faithfulness-Token": 7.5, "Informativeness-Step": 8.5, "Repetition-Token": 9,'
    ' "Hallucination": 9.5, "Redundancy": 8, "Semantic Coverage-Step": 8.5, "Reasoning Alignment": 8,'
    ' "Commonsense": 9, "Missing Step": 8.5, "Overall Score": 9.9}'
)

RUBRIC_REPLY = """1. The final answer "12" matches the reference 12. YES
2. The reasoning concludes "so the answer is 15" but the final answer says 12. YES
3. The model relies on arithmetic. NO
4. The reasoning says "I'm not sure about this" yet the answer is categorical. YES
5. No repeated strategies. NO
6. The reasoning says "I searched the web for the table" although no tool was enabled. YES
7. No code or tools are mentioned. NO
8. There was no formatting instruction. N/A
9. No negative constraint. N/A
"""


def serve() -> Iterator[FakeOpenAIServer]:
    """Body of each test module's ``server`` fixture: a started server, stopped afterwards."""
    with FakeOpenAIServer() as srv:
        yield srv


def serve_as_default(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    """``serve`` with the server as the openai client's default: its URL in
    ``OPENAI_BASE_URL``, and no key or other OpenAI setting in the environment."""
    clear_openai_env(monkeypatch)
    for srv in serve():
        monkeypatch.setenv("OPENAI_BASE_URL", srv.base_url)
        yield srv


def clear_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "OPENAI_MODEL",
        "OPENAI_ORG_ID",
        "OPENAI_PROJECT_ID",
    ):
        monkeypatch.delenv(name, raising=False)


def judge_command(run: Path, *extra: str) -> list[str]:
    """``rome-tui judge RUN --judge rome EXTRA`` as this interpreter runs it in a subprocess."""
    return [sys.executable, "-m", "rome_tui.cli", "judge", str(run), "--judge", "rome", *extra]


def judge_env(base_url: str) -> dict[str, str]:
    """This process's environment for a judge subprocess: no OpenAI setting of the machine's,
    only ``OPENAI_BASE_URL`` naming the fake server, so it talks to nothing else."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env["OPENAI_BASE_URL"] = base_url
    return env


def record(
    qid: str,
    answer: str,
    *,
    reference: str = "12",
    rule: float = 1,
    task: str = "math",
    **extra: Any,
) -> dict[str, Any]:
    """A graded ROME-style record with rome and strict rule verdicts."""
    verdicts = [
        Verdict(source="rule:rome", score=rule, extracted=answer, explanation=None),
        Verdict(source="rule:strict", score=rule, extracted=answer, explanation=None),
    ]
    rec: dict[str, Any] = {
        "question_id": qid,
        "question": f"Question {qid}: how many apples?",
        "answer": answer,
        "raw_answer": answer,
        "reference": reference,
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": reference},
        "task": task,
        "correct": rule,
        "judgement_response": None,
        "review": {
            "version": REVIEW_VERSION,
            "mode": "strict",
            "primary": "rule:strict",
            "verdicts": verdicts,
            "flags": [],
            "history": [],
        },
    }
    rec.update(extra)
    return rec


def write_run(directory: Path, records: list[dict[str, Any]], **settings: Any) -> ResultsPaths:
    directory.mkdir(parents=True, exist_ok=True)
    paths = ResultsPaths.of(directory)
    save_results(paths, records, RunSettings(**settings))
    return paths


def qid_of(prompt: str) -> str | None:
    """The question id a test record's prompt carries ("Question q7: ...")."""
    match = re.search(r"Question (\w+):", prompt)
    return match.group(1) if match else None


def files_under(directory: Path) -> Iterator[Path]:
    yield from (p for p in directory.rglob("*") if p.is_file())


__all__ = ["Action", "FakeOpenAIServer"]
