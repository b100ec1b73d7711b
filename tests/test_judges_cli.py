"""``rome-tui judge`` on a results directory, against the local server; and the grade hook."""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_openai_server import Action, FakeOpenAIServer, script_responder
from grading_fixtures import EXAMPLE
from judges_fixtures import (
    SECRET_KEY,
    clear_openai_env,
    files_under,
    judge_command,
    judge_env,
    qid_of,
    record,
    serve,
    write_run,
)

from rome_tui.cli import main
from scorers.judges.cache import CACHE_NAME
from scorers.judges.grade_hook import llm_scores
from scorers.records import verdict_of

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    yield from serve()


@pytest.fixture
def no_openai_env(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_openai_env(monkeypatch)


def load(directory: Path) -> dict[str, dict[str, Any]]:
    records = orjson.loads((directory / "updated_predictions.json").read_bytes())
    return {r["question_id"]: r for r in records}


def judge_says_1_for_even(body: dict[str, Any]) -> str:
    qid = qid_of(body["messages"][-1]["content"]) or "q0"
    return f"Reasoning: checked.\nJudgement: {1 if int(qid[1:]) % 2 == 0 else 0}"


@pytest.fixture
def env(
    server: FakeOpenAIServer, no_openai_env: None, monkeypatch: pytest.MonkeyPatch
) -> FakeOpenAIServer:
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    server.responder = judge_says_1_for_even
    return server


def run_of(tmp_path: Path, n: int = 6, **settings: Any) -> Path:
    recs = [
        record(f"q{i}", f"The answer is {i}", rule=1, task="diagrams" if i < 3 else "geo")
        for i in range(n)
    ]
    write_run(tmp_path / "run", recs, **settings)
    return tmp_path / "run"


def test_judge_adds_verdicts_flags_and_keeps_rule_primary(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_of(tmp_path)
    assert main(["judge", str(run), "--judge", "rome", "--model", "m1"]) == 0
    records = load(run)
    for qid, rec in records.items():
        verdict = verdict_of(rec, "judge:rome")
        assert verdict is not None and verdict["model"] == "m1"
        assert verdict["score"] == (1.0 if int(qid[1:]) % 2 == 0 else 0.0)
        assert rec["correct"] == 1  # the rule stays primary
        kinds = {f["kind"] for f in rec["review"]["flags"]}
        assert ("rule_judge_disagree" in kinds) == (int(qid[1:]) % 2 == 1)
    assert (run / CACHE_NAME).exists()
    out = capsys.readouterr().out
    assert "6/6 records judged, 0 errors; 6 requests, 0 cached" in out


def test_judge_primary_by_bucket_sets_correct_and_scores(
    env: FakeOpenAIServer, tmp_path: Path
) -> None:
    run = run_of(tmp_path, primary_by_bucket={"diagrams": "judge"})
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    records = load(run)
    assert [records[f"q{i}"]["correct"] for i in range(6)] == [1, 0, 1, 1, 1, 1]
    assert records["q1"]["review"]["primary"] == "judge:rome"
    assert records["q1"]["judgement_response"] == "Reasoning: checked.\nJudgement: 0"
    assert records["q4"]["review"]["primary"] == "rule:strict"
    scores = orjson.loads((run / "scores.json").read_bytes())
    assert scores["final_score"] == [5, 6] and scores["diagrams"][:2] == [2, 3]


def test_judge_error_under_judge_primary_falls_back_to_the_rule(
    env: FakeOpenAIServer, tmp_path: Path
) -> None:
    run = run_of(tmp_path, n=1, primary="judge")
    env.script(Action(content="no verdict here"))
    assert main(["judge", str(run), "--judge", "rome"]) == 5
    rec = load(run)["q0"]
    assert verdict_of(rec, "judge:rome")["error"].startswith("unparsable reply")  # type: ignore[index]
    assert rec["correct"] == 1 and rec["review"]["primary"] == "rule:strict"
    assert "judge_error" in {f["kind"] for f in rec["review"]["flags"]}


def test_second_run_and_dry_run_make_zero_requests(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_of(tmp_path)
    assert main(["judge", str(run), "--judge", "rome", "--dry-run"]) == 0
    out = capsys.readouterr().out
    assert env.count() == 0 and "calls:          6 to send (0 already cached)" in out
    assert "input tokens:   ~" in out
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    first = (run / "updated_predictions.json").read_bytes()
    assert env.count() == 6
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    assert env.count() == 6
    assert "0 requests, 6 cached" in capsys.readouterr().out
    assert (run / "updated_predictions.json").read_bytes() == first
    assert main(["judge", str(run), "--judge", "rome", "--dry-run"]) == 0
    assert "calls:          0 to send (6 already cached)" in capsys.readouterr().out


def test_where_selects_records(env: FakeOpenAIServer, tmp_path: Path) -> None:
    run = run_of(tmp_path)
    assert (
        main(
            [
                "judge",
                str(run),
                "--judge",
                "rome",
                "--where",
                "task=geo",
                "--where",
                "question_id=q4",
            ]
        )
        == 0
    )
    records = load(run)
    assert [q for q, r in records.items() if verdict_of(r, "judge:rome")] == ["q4"]
    assert env.count() == 1


def test_where_on_a_field_no_record_has_is_a_usage_error(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--where tsk=geo` (a typo) said "no record matches; nothing to do" and exited 0.
    run = run_of(tmp_path)
    assert main(["judge", str(run), "--judge", "rome", "--where", "tsk=geo"]) == 2
    err = capsys.readouterr().err
    assert "no record has the field 'tsk'" in err and "task" in err and env.count() == 0
    # A value no record has is still "nothing to do" (exit 0): a triage loop's end.
    assert main(["judge", str(run), "--judge", "rome", "--where", "task=nowhere"]) == 0


def test_usage_errors_exit_2_with_one_line(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_of(tmp_path)
    assert main(["judge", str(run), "--judge", "rubric", "--parse", "rome"]) == 2
    assert main(["judge", str(run), "--judge", "rome", "--where", "task"]) == 2
    assert main(["judge", str(tmp_path / "missing"), "--judge", "rome"]) == 2
    err = capsys.readouterr().err
    assert "--parse rome applies to --judge rome only" in err
    assert "expected FIELD=VALUE" in err
    assert "missing" in err and "Traceback" not in err


def test_nothing_listening_stops_the_run_with_nothing_written(
    no_openai_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A server not started (or a mistyped --base-url) is one clear error (exit 2), not an
    # error verdict and a judge_error flag on every selected item; cached replies are kept.
    run = run_of(tmp_path)
    srv = FakeOpenAIServer().start()
    url = srv.base_url
    assert (
        main(["judge", str(run), "--judge", "rome", "--base-url", url, "--where", "task=geo"]) == 0
    )
    srv.stop()
    before = (run / "updated_predictions.json").read_bytes()
    assert main(["judge", str(run), "--judge", "rome", "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert f"nothing answers at {url}" in err and "nothing was written to the run" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert (run / "updated_predictions.json").read_bytes() == before
    assert not any(verdict_of(r, "judge:rome") for q, r in load(run).items() if r["task"] != "geo")


def test_the_report_counts_where_judge_and_rule_disagree(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every rule verdict is 1 and the judge says 0 for odd ids: q1, q3, q5 disagree. The
    # report said only how many were judged; the reviewer's queue was left to find.
    run = run_of(tmp_path)
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    out = capsys.readouterr().out
    assert f"judge and rule disagree on 3 of 6 items: rome-tui review {run}" in out
    assert "--filter flag:rule_judge_disagree" in out


def test_dry_run_and_export_say_which_records_cannot_be_asked(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # vrc-steps needs reference steps; these records have none. The dry run said "0 calls
    # to send" and the export "0 request lines", with no reason, before a live run gave
    # every record an error verdict naming it.
    run = run_of(tmp_path, n=3)
    assert main(["judge", str(run), "--judge", "vrc-steps", "--dry-run"]) == 0
    export = ["--batch-export", str(tmp_path / "calls.jsonl")]
    assert main(["judge", str(run), "--judge", "vrc-steps", *export]) == 0
    out = capsys.readouterr().out
    says = "3 record(s) the judge cannot be asked about (the record has no reference steps"
    assert out.count(says) == 2 and env.requests == []
    assert main(["judge", str(run), "--judge", "rome", "--dry-run"]) == 0
    assert "cannot be asked" not in capsys.readouterr().out


def test_a_base_url_without_v1_stops_the_run_with_nothing_written(
    server: FakeOpenAIServer,
    no_openai_env: None,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # `--base-url http://host:8000` (no /v1) answers 404 to every call: each item got an
    # error verdict and judge_error (exit 5). Before any call succeeded, a 404 is a wrong
    # URL or model, so the run stops at once (exit 2), as when nothing listens.
    run = run_of(tmp_path, n=12)
    before = (run / "updated_predictions.json").read_bytes()
    root = server.base_url.removesuffix("/v1")
    args = ["judge", str(run), "--judge", "rome", "--base-url", root, "--concurrency", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "HTTP 404" in err and f"{root}/chat/completions" in err and "ends in /v1" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert (run / "updated_predictions.json").read_bytes() == before
    assert server.count("/chat/completions") <= 2  # not one call per item


def test_a_web_page_for_an_answer_stops_the_run_with_nothing_written(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A proxy's login page (200, HTML) for every call: each was retried five times and
    # every item got judge_error (exit 5). Before any API reply, it is the wrong URL.
    run = run_of(tmp_path, n=6)
    before = (run / "updated_predictions.json").read_bytes()
    env.script(*[Action(body=b"<!DOCTYPE html><html>Sign in to the proxy</html>")] * 20)
    assert main(["judge", str(run), "--judge", "rome", "--concurrency", "1"]) == 2
    err = capsys.readouterr().err
    assert "answers with a web page, not the API" in err and "Sign in to the proxy" in err
    assert "Traceback" not in err and err.count("\n") == 1
    assert (run / "updated_predictions.json").read_bytes() == before
    assert env.count() <= 2


def test_a_run_that_cannot_be_written_is_refused_before_any_call(
    env: FakeOpenAIServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # On a read-only run every call was sent (and paid for), then nothing could be cached
    # or saved: exit 2 at the very end, the replies lost.
    import errno

    run = run_of(tmp_path)

    def read_only(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("tempfile.TemporaryFile", read_only)
    assert main(["judge", str(run), "--judge", "rome"]) == 2
    err = capsys.readouterr().err
    assert f"{run}: cannot write here (Read-only file system)" in err and "nothing was sent" in err
    # grade's LLM evaluator asks the same judge: refused alike, before any call
    out = tmp_path / "graded"
    out.mkdir()
    args = ["grade", "--annotations", str(EXAMPLE / "annotation.json")]
    args += ["--predictions", str(EXAMPLE / "predictions.json"), "--out-dir", str(out)]
    assert main([*args, "--use_llm_evaluator"]) == 2
    assert "nothing was sent" in capsys.readouterr().err
    assert env.count() == 0


def test_a_404_after_a_reply_is_one_error_verdict(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Once the endpoint has answered, a 404 is that call's problem, not the URL's.
    run = run_of(tmp_path, n=4)
    env.script(Action(), Action(status=404, error="gone"))
    assert main(["judge", str(run), "--judge", "rome", "--concurrency", "1"]) == 5
    errors = [q for q, r in load(run).items() if (verdict_of(r, "judge:rome") or {}).get("error")]
    captured = capsys.readouterr()
    assert len(errors) == 1 and "HTTP 404: gone" in captured.err
    # the one error verdict disagrees with nothing: the count is over the 3 answered
    assert "judge and rule disagree on 1 of 3 items" in captured.out


def test_rubric_triage_of_flagged_items_against_the_scripts_server(
    no_openai_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The README's loop with the server `python tests/fake_openai_server.py` starts: the
    # rubric judge reads exactly the flagged items, a repeat is cached, and the summary
    # sets the heuristic flag against the rubric's answers with an interval.
    claim = "I googled the roster and it lists 12 players. So 12."
    recs = [record(f"q{i}", "12", reason=claim if i < 3 else "Counting: 12.") for i in range(5)]
    for rec in recs[:4]:  # q3's flag is stale: the detectors no longer raise it
        rec["review"]["flags"] = [
            {
                "kind": "claims_web_search",
                "source": "heuristic",
                "evidence": [],
                "confidence": "high",
            }
        ]
    write_run(tmp_path / "run", recs)
    run = tmp_path / "run"
    command = ["judge", str(run), "--judge", "rubric", "--flagged", "claims_web_search"]
    with FakeOpenAIServer(script_responder) as srv:
        assert main([*command, "--base-url", srv.base_url]) == 0
        assert main([*command, "--base-url", srv.base_url]) == 0
        assert srv.count() == 4
    assert "0 requests, 3 cached" in capsys.readouterr().out  # q3 is no longer flagged
    verdicts = {q: verdict_of(r, "judge:rubric") for q, r in load(run).items()}
    assert [q for q, v in verdicts.items() if v is not None] == ["q0", "q1", "q2", "q3"]
    assert all(
        v.get("error") is None and len(v["metrics"]["answers"]) == 9 for v in verdicts.values() if v
    )
    assert main(["summary", str(run), "--format", "json"]) == 0
    versus = orjson.loads(capsys.readouterr().out)["flags"]["claims_web_search"][
        "heuristic_vs_rubric"
    ]
    assert versus["n"] == 4 and versus["kappa"] is not None and len(versus["kappa_ci95"]) == 2


def test_key_never_written_anywhere(
    env: FakeOpenAIServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET_KEY)
    run = run_of(tmp_path, n=3)
    env.script(
        Action(status=401, error=f"Incorrect API key provided: {SECRET_KEY}"),
        Action(content=f"Reasoning: the key is {SECRET_KEY}.\nJudgement: 1"),
        Action(content=f"Reasoning: partial {SECRET_KEY[:10]}...\nJudgement: 0"),
    )
    assert main(["judge", str(run), "--judge", "rome", "--concurrency", "1"]) == 5
    assert all(r.headers["authorization"] == f"Bearer {SECRET_KEY}" for r in env.requests)
    captured = capsys.readouterr()
    written = list(files_under(tmp_path))
    assert any(p.name == CACHE_NAME for p in written)
    for blob in [p.read_bytes() for p in written] + [captured.out.encode(), captured.err.encode()]:
        assert SECRET_KEY[:8].encode() not in blob
    assert b"[redacted]" in (run / "updated_predictions.json").read_bytes()


@pytest.mark.slow
def test_interrupted_run_saves_finished_work_and_resumes(
    server: FakeOpenAIServer, tmp_path: Path
) -> None:
    server.responder = judge_says_1_for_even
    server.latency = 0.25
    run = run_of(tmp_path, n=16)
    command = judge_command(run, "--concurrency", "2")
    environ = judge_env(server.base_url)
    proc = subprocess.Popen(
        command,
        env=environ,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 20
    while server.count() < 6 and time.monotonic() < deadline:
        time.sleep(0.02)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=20)
    assert proc.returncode == 130, err
    assert "Run again to resume" in err
    first_requests = server.count()
    assert 6 <= first_requests < 16
    done = [q for q, r in load(run).items() if verdict_of(r, "judge:rome")]
    assert len(done) >= 4  # finished verdicts were written back
    cached = sum(1 for line in (run / CACHE_NAME).read_bytes().splitlines() if line.strip())
    assert cached >= len(done)

    again = subprocess.run(
        command, env=environ, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert again.returncode == 0, again.stderr
    assert server.count() - first_requests == 16 - cached  # only what was not finished is sent
    records = load(run)
    assert all(verdict_of(r, "judge:rome") for r in records.values())
    assert f"{16 - cached} requests, {cached} cached" in again.stdout


# --- the grade hook ----------------------------------------------------------------------


def test_llm_scores_parse_modes(server: FakeOpenAIServer, no_openai_env: None) -> None:
    replies = {
        "a1": "Reasoning: 54.584 is not 54\nJudgement: 0",
        "a2": "Reasoning: same\n\nJudgement: 1",
        "a3": "no verdict",
    }

    def responder(body: dict[str, Any]) -> str:
        prompt = body["messages"][0]["content"]
        return next(reply for key, reply in replies.items() if f": {key}\n" in prompt)

    server.responder = responder
    triples = [("Q?", "54", "a1"), ("Q?", "54", "a2"), ("Q?", "54", "a3")]
    rome = llm_scores(triples, model="m", base_url=server.base_url, parse="rome")
    assert rome == [(1, replies["a1"], None), (1, replies["a2"], None), (0, "no verdict", None)]
    robust = llm_scores(triples, model="m", base_url=server.base_url, parse="robust")
    assert [r[0] for r in robust] == [0, 1, None]
    assert robust[2][2] == "no 'Judgement:' line in the reply"
    assert server.requests[0].body["model"] == "m"


def test_llm_scores_failed_call_is_an_error(server: FakeOpenAIServer, no_openai_env: None) -> None:
    server.script(Action(status=500), Action(status=500))
    ((score, raw, error),) = llm_scores(
        [("q", "r", "a")], model=None, base_url=server.base_url, parse="rome", max_retries=1
    )
    assert score is None and raw is None and "HTTP 500" in (error or "")
    assert server.requests[0].body["model"] == "gpt-4.1-mini"


def test_grade_use_llm_evaluator_rome_mode_end_to_end(
    server: FakeOpenAIServer, no_openai_env: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rome-tui grade --use_llm_evaluator --mode rome`` goes through the grade hook and the cache."""
    annotations = [
        {
            "question_id": f"q{i}",
            "question": f"Question q{i}: what is the value?",
            "reference": "54",
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": 54},
            "task": "geo",
        }
        for i in range(3)
    ]
    predictions = [
        {
            "question_id": f"q{i}",
            "question": f"Question q{i}: what is the value?",
            "answer": f"Final Answer: {50 + i}",
        }
        for i in range(3)
    ]
    (tmp_path / "ann.json").write_bytes(orjson.dumps(annotations))
    (tmp_path / "pred.json").write_bytes(orjson.dumps(predictions))
    replies = {
        "q0": "Reasoning: 50 is not 54\nJudgement: 0",  # the reference parser reads the 50: scores 1
        "q1": "Reasoning: different.\n\nJudgement: 0",
        "q2": "Reasoning: equal.\n\nJudgement: 1",
    }
    server.responder = lambda body: replies[qid_of(body["messages"][0]["content"]) or ""]
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    out = tmp_path / "out"
    command = [
        "grade",
        "--annotations",
        str(tmp_path / "ann.json"),
        "--predictions",
        str(tmp_path / "pred.json"),
    ]
    command += [
        "--mode",
        "rome",
        "--use_llm_evaluator",
        "--llm_model",
        "judge-m",
        "--out-dir",
        str(out),
    ]
    assert main(command) == 0
    assert server.count() == 3
    assert all(r.body["model"] == "judge-m" for r in server.requests)
    # The unextracted answer is sent (the requests arrive in any order).
    assert any(
        "[Model Response] : Final Answer: 50\n" in r.body["messages"][0]["content"]
        for r in server.requests
    )
    records = load(out)
    assert [records[f"q{i}"]["correct"] for i in range(3)] == [1, 0, 1]
    assert records["q0"]["judgement_response"] == replies["q0"]
    scores = orjson.loads((out / "scores.json").read_bytes())
    assert scores["final_score"] == [2, 3]
    assert main(command) == 0
    assert server.count() == 3  # the second grade is served from the cache beside the results


def test_missing_key_for_openai_is_a_usage_error(
    no_openai_env: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_of(tmp_path, n=1)
    assert main(["judge", str(run), "--judge", "rome"]) == 2
    assert "OPENAI_API_KEY is not set" in capsys.readouterr().err
    assert main(["judge", str(run), "--judge", "rome", "--dry-run"]) == 0  # a dry run sends nothing


def test_a_run_written_while_judging_is_not_overwritten(
    env: FakeOpenAIServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = run_of(tmp_path)
    target = run / "updated_predictions.json"
    meanwhile: list[bytes] = []

    def write_back_then_answer(body: dict[str, Any]) -> str:
        if not meanwhile:  # the review app writes the run back while the judge works
            records = orjson.loads(target.read_bytes())
            records[0]["note"] = "written meanwhile"
            target.write_bytes(orjson.dumps(records, option=orjson.OPT_INDENT_2))
            meanwhile.append(target.read_bytes())
        return judge_says_1_for_even(body)

    env.responder = write_back_then_answer
    assert main(["judge", str(run), "--judge", "rome"]) == 3
    assert target.read_bytes() == meanwhile[0]
    err = capsys.readouterr().err
    assert "changed on disk since it was read" in err and "nothing was overwritten" in err
    assert "run the same command again" in err
    assert env.count() == 6
    # Again: the cached answers are applied to the file as it is now, without a request.
    assert main(["judge", str(run), "--judge", "rome"]) == 0
    assert env.count() == 6
    records = load(run)
    assert records["q0"]["note"] == "written meanwhile"
    assert all(verdict_of(r, "judge:rome") for r in records.values())


def test_judge_keeps_images_in_run_json(env: FakeOpenAIServer, tmp_path: Path) -> None:
    run = run_of(tmp_path, n=2)
    (tmp_path / "pictures").mkdir()
    assert main(["judge", str(run), "--judge", "rome", "--images", str(tmp_path / "pictures")]) == 0
    settings = orjson.loads((run / "run.json").read_bytes())
    assert settings["images"] == str(tmp_path / "pictures")
    assert main(["judge", str(run), "--judge", "rome", "--images", str(tmp_path / "nope")]) == 2
