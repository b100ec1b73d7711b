"""`--use_llm_evaluator` wiring, against a fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from grading_fixtures import grade, read_json


class _Judge(BaseHTTPRequestHandler):
    prompts: list[str] = []  # every prompt received, in order

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][-1]["content"]
        _Judge.prompts.append(prompt)
        # Consistent exactly when the model response mentions "Paris".
        verdict = (
            "1"
            if "[Model Response] : Final Answer: Paris" in prompt
            or "Paris" in prompt.split("[Model Response]")[-1]
            else "0"
        )
        reply = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {
                        "role": "assistant",
                        "content": f"Reasoning.\n\nJudgement: {verdict}",
                    },
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def judge_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    _Judge.prompts.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Judge)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    monkeypatch.setenv("OPENAI_API_KEY", "test")
    monkeypatch.setenv("OPENAI_BASE_URL", url)
    yield url
    server.shutdown()


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


def test_rome_mode_llm_replaces_rules(
    judge_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, p = _inputs(tmp_path)
    code, _, err = grade(
        capsys,
        "--mode",
        "rome",
        "--use_llm_evaluator",
        "--llm_model",
        "m",
        "--annotations",
        a,
        "--predictions",
        p,
        "--out-dir",
        str(tmp_path / "o"),
    )
    assert code == 0, err
    records = read_json(tmp_path / "o" / "updated_predictions.json")
    for record in records:
        assert record["correct"] == 1  # the judge's verdict, whatever the rule said
        assert record["answer"] == "Final Answer: Paris" and "raw_answer" not in record
        assert record["judgement_response"].endswith("Judgement: 1")
        assert record["review"]["primary"] == "judge:rome"
    assert records[1]["review"]["verdicts"][0]["score"] == 0  # rule:rome kept for review


def test_strict_mode_judge_primary_per_bucket(
    judge_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, p = _inputs(tmp_path)
    code, _, err = grade(
        capsys,
        "--use_llm_evaluator",
        "--primary",
        "judge:Other",
        "--annotations",
        a,
        "--predictions",
        p,
        "--out-dir",
        str(tmp_path / "o"),
    )
    assert code == 0, err
    first, second = read_json(tmp_path / "o" / "updated_predictions.json")
    assert first["review"]["primary"] == "rule:strict" and first["correct"] == 1
    assert second["review"]["primary"] == "judge:rome" and second["correct"] == 1
    assert [v["source"] for v in second["review"]["verdicts"]] == [
        "rule:rome",
        "rule:strict",
        "judge:rome",
    ]


@pytest.mark.parametrize("mode", ["rome", "strict"])
def test_the_grader_prompt_is_sent_verbatim_in_either_mode(
    judge_server: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    """Published prompts are byte for byte by default: no fence around the answer."""
    from scorers.judges.rome import build_request

    a, p = _inputs(tmp_path)
    code, _, err = grade(
        capsys,
        "--mode",
        mode,
        "--use_llm_evaluator",
        "--annotations",
        a,
        "--predictions",
        p,
        "--out-dir",
        str(tmp_path / "o"),
    )
    assert code == 0, err
    verbatim = build_request("Capital?", "Paris", "Final Answer: Paris").message_dicts()
    assert _Judge.prompts and all(prompt == verbatim[-1]["content"] for prompt in _Judge.prompts)
    assert not any("<model-answer-" in prompt for prompt in _Judge.prompts)
