"""Batch runs: export/import through the OpenAI Batch file formats, and the Batch API round trip."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_openai_server import Action, FakeOpenAIServer
from judges_fixtures import qid_of, record, serve_as_default, write_run

import scorers.judges.batch_api as batch_api
from rome_tui.cli import main
from scorers.judges.batch_api import STATE_NAME
from scorers.judges.cache import CACHE_NAME, JudgeCache
from scorers.records import verdict_of

OK = "Reasoning: the answers agree.\nJudgement: 1"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAIServer]:
    yield from serve_as_default(monkeypatch)


def make_run(tmp_path: Path, n: int = 4, **extra: Any) -> Path:
    write_run(tmp_path / "run", [record(f"q{i}", f"The answer is {i}", **extra) for i in range(n)])
    return tmp_path / "run"


def load(run: Path) -> dict[str, dict[str, Any]]:
    return {
        r["question_id"]: r for r in orjson.loads((run / "updated_predictions.json").read_bytes())
    }


def lines(path: Path) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in path.read_bytes().splitlines() if line.strip()]


def output_line(
    request: dict[str, Any], content: str | None = OK, **override: Any
) -> dict[str, Any]:
    """A Batch output line answering one input line, as OpenAI writes it."""
    body = {
        "id": "chatcmpl-x",
        "object": "chat.completion",
        "model": request["body"]["model"],
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }
    line = {
        "id": "batch_req_1",
        "custom_id": request["custom_id"],
        "response": {"status_code": 200, "request_id": "req_1", "body": body},
        "error": None,
    }
    line.update(override)
    return line


def write_lines(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(i) + b"\n" for i in items))
    return path


def test_export_writes_openai_batch_input_lines_and_sends_nothing(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    run = make_run(tmp_path)
    out = tmp_path / "calls.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(out)]) == 0
    exported = lines(out)
    assert len(exported) == 4 and server.requests == []
    first = exported[0]
    assert set(first) == {"custom_id", "method", "url", "body"}
    assert first["method"] == "POST" and first["url"] == "/v1/chat/completions"
    assert first["body"]["model"] == "gpt-4.1-mini" and first["body"]["temperature"] == 0
    assert first["body"]["messages"][0]["role"] == "user"
    assert len({line["custom_id"] for line in exported}) == 4


def test_export_import_round_trip_with_failed_lines(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path)
    calls = tmp_path / "calls.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(calls)]) == 0
    requests = {qid_of(r["body"]["messages"][0]["content"]): r for r in lines(calls)}
    results = write_lines(
        tmp_path / "results.jsonl",
        [
            output_line(requests["q0"]),
            output_line(requests["q1"], "Judgement: 0"),
            # OpenAI: a request the API refused.
            output_line(
                requests["q2"],
                response={
                    "status_code": 400,
                    "request_id": "r",
                    "body": {"error": {"message": "context too long", "code": "invalid"}},
                },
            ),
            # vLLM run_batch: an error string and a response without a body.
            output_line(
                requests["q3"],
                response={"status_code": 400, "request_id": "r", "body": None},
                error="The model does not support Chat Completions API",
            ),
        ],
    )
    code = main(["judge", str(run), "--judge", "rome", "--batch-import", str(results)])
    assert code == 5
    records = load(run)
    assert verdict_of(records["q0"], "judge:rome")["score"] == 1.0  # type: ignore[index]
    assert verdict_of(records["q1"], "judge:rome")["score"] == 0.0  # type: ignore[index]
    assert "rule_judge_disagree" in {f["kind"] for f in records["q1"]["review"]["flags"]}
    q2 = verdict_of(records["q2"], "judge:rome")
    assert q2 is not None and q2["score"] is None and "context too long" in q2["error"]
    q3 = verdict_of(records["q3"], "judge:rome")
    assert q3 is not None and "does not support" in q3["error"]
    assert "judge_error" in {f["kind"] for f in records["q3"]["review"]["flags"]}
    assert len(JudgeCache(run / CACHE_NAME)) == 2  # only the replies that parsed
    assert "2 of 4 judgements failed" in capsys.readouterr().err.strip().splitlines()[-1]
    # The next export holds only the two failed calls; importing them finishes the run.
    again = tmp_path / "again.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(again)]) == 0
    retry = lines(again)
    assert {qid_of(r["body"]["messages"][0]["content"]) for r in retry} == {"q2", "q3"}
    fixed = write_lines(tmp_path / "fixed.jsonl", [output_line(r) for r in retry])
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(fixed)]) == 0
    assert all(verdict_of(r, "judge:rome").get("error") is None for r in load(run).values())  # type: ignore[union-attr]
    assert server.requests == []  # nothing was ever sent live


def _mathreal_run(tmp_path: Path) -> Path:
    """A run for mathreal: m0 boxes its answer (judged at once), m1 needs the extraction
    call first (its judge call waits for that reply: a second round)."""
    run = tmp_path / "run"
    write_run(
        run,
        [
            record("m0", r"so \boxed{12}", AnswerCN="12", QuestionType="FillInTheBlank"),
            record("m1", "it is twelve", AnswerCN="12", QuestionType="FillInTheBlank"),
        ],
    )
    return run


def test_mathreal_batch_takes_two_rounds(server: FakeOpenAIServer, tmp_path: Path) -> None:
    run = _mathreal_run(tmp_path)
    first = tmp_path / "round1.jsonl"
    assert main(["judge", str(run), "--judge", "mathreal", "--batch-export", str(first)]) == 0
    round1 = lines(first)
    assert len(round1) == 2  # m0's judge call, m1's extraction (its judge call needs the reply)
    replies = [
        output_line(
            r, "13" if "extraction" in r["body"]["messages"][0]["content"] else "<score>1.0</score>"
        )
        for r in round1
    ]
    code = main(
        [
            "judge",
            str(run),
            "--judge",
            "mathreal",
            "--batch-import",
            str(write_lines(tmp_path / "out1.jsonl", replies)),
        ]
    )
    assert code == 0
    assert verdict_of(load(run)["m0"], "judge:mathreal")["score"] == 1.0  # type: ignore[index]
    assert verdict_of(load(run)["m1"], "judge:mathreal") is None  # waits for round 2
    second = tmp_path / "round2.jsonl"
    assert main(["judge", str(run), "--judge", "mathreal", "--batch-export", str(second)]) == 0
    (judge_call,) = lines(second)
    assert '**Model Answer**:  \n"13"' in judge_call["body"]["messages"][0]["content"]
    out2 = write_lines(tmp_path / "out2.jsonl", [output_line(judge_call, "<score>0.0</score>")])
    assert main(["judge", str(run), "--judge", "mathreal", "--batch-import", str(out2)]) == 0
    assert verdict_of(load(run)["m1"], "judge:mathreal")["score"] == 0.0  # type: ignore[index]


def test_a_malformed_output_file_is_a_clear_error(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path, n=1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"custom_id": "x", "response": null}\nnot json\n')
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(bad)]) == 2
    assert f"{bad}:2: not JSON" in capsys.readouterr().err


# --- the Batch API round trip -------------------------------------------------------------


def test_batch_round_trip_through_files_and_batches(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path)
    server.script(Action(content=OK), Action(close=True), Action(status=500), Action(content=OK))
    code = main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"])
    assert code == 5
    paths = [r.path for r in server.requests]
    assert paths.count("/v1/files") == 1 and paths.count("/v1/batches") == 1
    assert paths.count("batch:/v1/chat/completions") == 4 and server.count() == 0
    err = capsys.readouterr().err
    assert "in_progress" in err and "completed, 2/4 done, 2 failed" in err
    records = load(run)
    errors = [q for q, r in records.items() if verdict_of(r, "judge:rome").get("error")]  # type: ignore[union-attr]
    assert len(errors) == 2 and not (run / STATE_NAME).exists()
    # Again: only the two failed calls go in a new batch.
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 0
    batch_ids = sorted(server.batches)
    assert len(batch_ids) == 2
    assert server.batches[batch_ids[1]]["request_counts"]["total"] == 2


def test_batch_interrupted_while_polling_resumes_the_same_batch(
    server: FakeOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run = make_run(tmp_path)
    server.batch_polls = 3
    naps = {"n": 0}

    def interrupted_sleep(seconds: float) -> None:
        naps["n"] += 1
        if naps["n"] == 1:
            raise KeyboardInterrupt  # Ctrl+C while the batch runs at the provider

    monkeypatch.setattr(batch_api.time, "sleep", interrupted_sleep)
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 130
    state = orjson.loads((run / STATE_NAME).read_bytes())
    assert state["batch_id"] in server.batches and state["requests"] == 4
    assert "run the same command again" in capsys.readouterr().err
    assert all(verdict_of(r, "judge:rome") is None for r in load(run).values())
    # Resume: no second upload or batch, the same batch polled to the end and imported.
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 0
    paths = [r.path for r in server.requests]
    assert paths.count("/v1/files") == 1 and paths.count("/v1/batches") == 1
    assert "resuming batch" in capsys.readouterr().err
    assert all(verdict_of(r, "judge:rome")["score"] == 1.0 for r in load(run).values())  # type: ignore[index]
    assert not (run / STATE_NAME).exists()
    assert len(JudgeCache(run / CACHE_NAME)) == 4


def test_a_failed_batch_is_reported_and_forgotten(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path, n=2)
    server.fail_batches = True
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 2
    assert "injected batch failure" in capsys.readouterr().err
    assert not (run / STATE_NAME).exists()


def test_batch_with_everything_cached_sends_nothing(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    run = make_run(tmp_path, n=2)
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    before = len(server.requests)
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 0
    assert len(server.requests) == before


def test_batch_runs_mathreal_second_round_itself(server: FakeOpenAIServer, tmp_path: Path) -> None:
    run = _mathreal_run(tmp_path)

    def responder(body: dict[str, Any]) -> str:
        prompt = body["messages"][0]["content"]
        return "13" if "answer extraction expert" in prompt else "<score>0.5</score>"

    server.responder = responder
    assert main(["judge", str(run), "--judge", "mathreal", "--batch", "--poll", "0.01"]) == 0
    assert len(server.batches) == 2  # the extraction, then the judge call that needed it
    records = load(run)
    assert verdict_of(records["m0"], "judge:mathreal")["score"] == 0.5  # type: ignore[index]
    m1 = verdict_of(records["m1"], "judge:mathreal")
    assert m1 is not None and m1["score"] == 0.5 and m1["extracted"] == "13"
    assert "judge_parse_fallback" not in {f["kind"] for f in records["m1"]["review"]["flags"]}


def test_batch_id_resumes_a_batch_whose_state_file_is_gone(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = make_run(tmp_path, n=2)
    server.batch_polls = 5

    def interrupted_sleep(seconds: float) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(batch_api.time, "sleep", interrupted_sleep)
    assert main(["judge", str(run), "--judge", "rome", "--batch", "--poll", "0.01"]) == 130
    batch_id = orjson.loads((run / STATE_NAME).read_bytes())["batch_id"]
    (run / STATE_NAME).unlink()
    monkeypatch.setattr(batch_api.time, "sleep", lambda seconds: None)
    code = main(
        ["judge", str(run), "--judge", "rome", "--batch", "--batch-id", batch_id, "--poll", "0.01"]
    )
    assert code == 0 and len(server.batches) == 1
    assert all(verdict_of(r, "judge:rome")["score"] == 1.0 for r in load(run).values())  # type: ignore[index]


def test_a_panel_goes_through_batch_files_too(server: FakeOpenAIServer, tmp_path: Path) -> None:
    run = make_run(tmp_path, n=2)
    calls = tmp_path / "calls.jsonl"
    panel = ["--models", "a,b,c"]
    assert main(["judge", str(run), "--judge", "rome", *panel, "--batch-export", str(calls)]) == 0
    exported = lines(calls)
    assert sorted(r["body"]["model"] for r in exported) == ["a", "a", "b", "b", "c", "c"]
    replies = [
        output_line(r, OK if r["body"]["model"] != "c" else "Judgement: 0") for r in exported
    ]
    results = write_lines(tmp_path / "results.jsonl", replies)
    assert main(["judge", str(run), "--judge", "rome", *panel, "--batch-import", str(results)]) == 0
    for rec in load(run).values():
        verdict = verdict_of(rec, "judge:rome")
        assert verdict is not None and verdict["score"] == 1.0
        assert verdict["agreement"] == pytest.approx(2 / 3, abs=1e-4)
        assert verdict_of(rec, "judge:rome@c")["score"] == 0.0  # type: ignore[index]


def test_an_unreachable_batch_api_is_a_clear_error(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path, n=1)
    code = main(
        [
            "judge",
            str(run),
            "--judge",
            "rome",
            "--batch",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--max-retries",
            "0",
        ]
    )
    assert code == 2
    err = capsys.readouterr().err
    assert "the Batch API call failed" in err and "Traceback" not in err


@pytest.mark.parametrize("content", [b"", b"\n\n"])
def test_importing_an_empty_output_file_is_an_error(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    """An empty results.jsonl (a batch that did not run) said "0/4 records judged" and
    exited 0, so a script went on as if the batch had been imported."""
    run = make_run(tmp_path)
    before = (run / "updated_predictions.json").read_bytes()
    empty = tmp_path / "results.jsonl"
    empty.write_bytes(content)
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(empty)]) == 2
    err = capsys.readouterr().err
    assert f"{empty}: empty: no Batch result lines" in err and "Traceback" not in err
    assert (run / "updated_predictions.json").read_bytes() == before


def test_export_names_the_model_in_the_vllm_command(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_run(tmp_path)
    calls = tmp_path / "calls.jsonl"
    args = ["judge", str(run), "--judge", "rome", "--batch-export", str(calls)]
    assert main([*args, "--model", "Qwen/Qwen3-8B"]) == 0
    assert "-o results.jsonl --model Qwen/Qwen3-8B\n" in capsys.readouterr().out


def test_importing_another_judge_s_output_is_an_error(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """rome's results imported for vrc-answer matched no call: "0/4 judged", exit 0."""
    run = make_run(tmp_path)
    calls = tmp_path / "calls.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(calls)]) == 0
    results = write_lines(tmp_path / "results.jsonl", [output_line(r) for r in lines(calls)])
    before = (run / "updated_predictions.json").read_bytes()
    args = ["judge", str(run), "--judge", "vrc-answer", "--batch-import", str(results)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{results}: none of its 4 result line(s) answers a call of judge vrc-answer" in err
    assert (run / "updated_predictions.json").read_bytes() == before
    # The right judge imports them; doing it again finds them cached, which is no error.
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(results)]) == 0
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(results)]) == 0


def test_export_with_every_call_cached_writes_no_file(
    server: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An export the cache answers wholly wrote an empty calls.jsonl, which no batch runs
    (OpenAI refuses an empty input file): it writes none and says how to read the cache."""
    run = make_run(tmp_path)
    calls = tmp_path / "calls.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(calls)]) == 0
    results = write_lines(tmp_path / "results.jsonl", [output_line(r) for r in lines(calls)])
    assert main(["judge", str(run), "--judge", "rome", "--batch-import", str(results)]) == 0
    capsys.readouterr()
    again = tmp_path / "again.jsonl"
    assert main(["judge", str(run), "--judge", "rome", "--batch-export", str(again)]) == 0
    out = capsys.readouterr().out
    assert not again.exists()
    assert out.startswith(
        "batch export: nothing to export, no file written: the cache answers all 4 calls"
    ), out
    assert f"rome-tui judge {run} --judge rome writes their verdicts from it" in out
    assert "vllm" not in out
    # ... and the run it names reads them from the cache, sending nothing.
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    assert server.requests == []
