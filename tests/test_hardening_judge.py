"""`rome-tui judge` as a real process against the local fake server: secrets and interruptions.

The API key is a unique marker; every file the run leaves anywhere it may write
(results directory, cache, HOME, XDG and temp directories) and everything it
prints is scanned for it, after a run that includes failing requests whose
error messages echo the key. Interruptions: SIGINT (graceful), then SIGKILL
(no chance to clean up); each time the next run resumes without repeating a
call whose reply was cached and without a second verdict for any item.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

pytest.importorskip("rome_tui.commands.judge", reason="rome-tui judge (judges engineer) is missing")

from fake_openai_server import Action, FakeOpenAIServer  # noqa: E402
from judges_fixtures import judge_command, judge_env  # noqa: E402
from judges_fixtures import record as judged_record  # noqa: E402

from scorers.io.results import save_results  # noqa: E402
from scorers.io.run_paths import ResultsPaths  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
QID = re.compile(r"HQ(\d+)Z")


def _records(n: int) -> list[dict[str, Any]]:
    return [judged_record(f"HQ{i}Z", f"Final Answer: {i}", reference=str(i)) for i in range(n)]


def _make_run(directory: Path, n: int) -> Path:
    directory.mkdir(parents=True)
    save_results(ResultsPaths.of(directory), _records(n), RunSettings())
    return directory


def _qid(body: dict[str, Any]) -> str | None:
    text = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
    found = QID.search(text)
    return found.group(0) if found else None


def _files(root: Path) -> Iterator[Path]:
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            yield path


def _env(home: Path, server: FakeOpenAIServer, key: str | None) -> dict[str, str]:
    env = judge_env(server.base_url)
    for name in (
        "HOME",
        "XDG_CACHE_HOME",
        "XDG_CONFIG_HOME",
        "XDG_DATA_HOME",
        "XDG_STATE_HOME",
        "TMPDIR",
    ):
        target = home / name.lower()
        target.mkdir(parents=True, exist_ok=True)
        env[name] = str(target)
    if key is not None:
        env["OPENAI_API_KEY"] = key
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _command(run: Path, *extra: str) -> list[str]:
    return judge_command(run, "--timeout", "5", "--max-retries", "1", *extra)


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as srv:
        yield srv


@pytest.mark.slow
def test_api_key_is_never_written_or_printed(server: FakeOpenAIServer, tmp_path: Path) -> None:
    key = f"sk-hardening-{uuid.uuid4().hex}"
    run = _make_run(tmp_path / "run", 8)
    home = tmp_path / "home"
    echo = f"Incorrect API key provided: {key}. You can find your API key at ..."
    server.script(
        Action(status=401, error=echo),  # not retried: an error verdict quoting the key
        Action(status=500, error=f"upstream failed for key {key}"),  # retried once
        Action(status=500, error=f"upstream failed again for {key}"),  # and fails for good
        Action(body=b'{"choices": [ {"message": '),  # malformed body
        Action(close=True),  # dropped connection
        Action(content=f"Reasoning: the caller's key is {key}.\nJudgement: 1"),
    )
    proc = subprocess.run(
        _command(run, "--concurrency", "1"),
        env=_env(home, server, key),
        cwd=ROOT,
        capture_output=True,
        timeout=120,
    )
    assert "Traceback" not in proc.stderr.decode(), proc.stderr.decode()[-2000:]
    assert proc.returncode == 5, proc.stderr.decode()[-2000:]  # some calls failed
    # The key did reach the server: the marker is live, not a string that never left the test.
    assert all(r.headers.get("authorization") == f"Bearer {key}" for r in server.requests)
    assert server.count() >= 8
    written = list(_files(tmp_path))
    assert any(p.name.startswith("judge_cache") for p in written), [p.name for p in written]
    secret_bits = [key.encode(), key[-16:].encode(), key[:20].encode()]
    for blob, where in [(p.read_bytes(), str(p)) for p in written] + [
        (proc.stdout, "stdout"),
        (proc.stderr, "stderr"),
    ]:
        for bit in secret_bits:
            assert bit not in blob, f"{where} contains the API key"
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    errors = [
        v
        for r in records
        for v in r["review"]["verdicts"]
        if v["source"] == "judge:rome" and v.get("error")
    ]
    assert errors, "the failing requests became error verdicts"


def _judge_counts(run: Path) -> Counter[str]:
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    counts: Counter[str] = Counter()
    for record in records:
        for verdict in record["review"]["verdicts"]:
            if verdict["source"] == "judge:rome":
                counts[record["question_id"]] += 1
    return counts


def _cached_qids(run: Path) -> set[str]:
    """Items whose reply is in the cache (the replies name their item; a torn line is ignored)."""
    cache = run / "judge_cache.jsonl"
    if not cache.exists():
        return set()
    text = cache.read_bytes().decode("utf-8", "replace")
    return {m.group(0) for m in QID.finditer(text)}


def _reply_naming_item(body: dict[str, Any]) -> str:
    return f"Reasoning: item {_qid(body)} is right.\nJudgement: 1"


def _interrupt(
    proc: subprocess.Popen[bytes], server: FakeOpenAIServer, after: int, sig: int
) -> None:
    deadline = time.monotonic() + 30
    while server.count() < after and time.monotonic() < deadline:
        time.sleep(0.01)
    assert server.count() >= after, "the judge never got going"
    proc.send_signal(sig)
    proc.wait(timeout=30)


@pytest.mark.slow
def test_interrupted_runs_resume_without_repeats(server: FakeOpenAIServer, tmp_path: Path) -> None:
    n, concurrency = 24, 2
    server.latency = 0.15
    server.responder = _reply_naming_item
    run = _make_run(tmp_path / "run", n)
    env = _env(tmp_path / "home", server, None)
    command = _command(run, "--concurrency", str(concurrency))

    def asked_since(start: int) -> list[str | None]:
        return [_qid(r.body) for r in server.requests[start:]]

    # 1. SIGINT: finished verdicts saved, exit 130.
    first = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _interrupt(first, server, 6, signal.SIGINT)
    err = first.stderr.read().decode() if first.stderr else ""
    assert first.returncode == 130, err
    assert "Traceback" not in err, err
    judged = _judge_counts(run)
    assert judged and max(judged.values()) == 1 and len(judged) < n
    cached_1 = _cached_qids(run)
    assert set(judged) <= cached_1

    # 2. SIGKILL: no cleanup at all. Whatever is on disk must still parse.
    start_2 = server.count()
    second = subprocess.Popen(
        command, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    _interrupt(second, server, start_2 + 6, signal.SIGKILL)
    assert second.returncode == -signal.SIGKILL
    orjson.loads((run / "updated_predictions.json").read_bytes())
    orjson.loads((run / "scores.json").read_bytes())
    assert not set(asked_since(start_2)) & cached_1, "run 2 re-sent calls run 1 had finished"
    cached_2 = _cached_qids(run)
    assert cached_2 > cached_1, "run 2 cached replies before it was killed"

    # 3. Resume to the end.
    start_3 = server.count()
    final = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, timeout=120)
    assert final.returncode == 0, final.stderr.decode()[-2000:]
    assert "Traceback" not in final.stderr.decode()
    resumed = asked_since(start_3)
    assert not set(resumed) & cached_2, "run 3 re-sent calls already answered"
    assert len(resumed) == n - len(cached_2)

    judged = _judge_counts(run)
    assert set(judged) == {f"HQ{i}Z" for i in range(n)}, "every item judged"
    assert set(judged.values()) == {1}, f"duplicate verdicts: {judged}"
    asked = Counter(_qid(r.body) for r in server.requests)
    assert None not in asked
    # Only calls in flight at an interruption (at most `concurrency` each time) are asked twice.
    assert sum(c - 1 for c in asked.values()) <= 2 * concurrency, asked


@pytest.mark.parametrize(
    "name",
    [
        "r19_markup_everywhere.json",
        "r20_judge_address.json",
        "r10_correct_types.json",
        "r17_qid_types.json",
        "r24_model_types.json",
        "r28_task_types.json",
    ],
)
def test_judge_runs_on_hostile_results(
    name: str, server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real judge run (fake server) on hostile runs: one verdict per record, files parse."""
    from hardening_fixtures import CORPUS_DIR, TERMINAL_ATTACKS, results_dir_of, run_cli

    for var in [v for v in os.environ if v.startswith("OPENAI_")]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    run = results_dir_of(CORPUS_DIR / name, tmp_path)
    ran = run_cli(["judge", str(run), "--judge", "rome", "--max-retries", "0"], 60)
    assert ran.code == 0 and not ran.traceback, ran.err[-2000:]
    assert not [s for s in TERMINAL_ATTACKS if s in ran.out + ran.err]
    records = orjson.loads((run / "updated_predictions.json").read_bytes())
    counts = [sum(v["source"] == "judge:rome" for v in r["review"]["verdicts"]) for r in records]
    assert counts == [1] * len(records)
    # One call per distinct prompt: records with the same answer share one reply.
    bodies = [orjson.dumps(r.body, option=orjson.OPT_SORT_KEYS) for r in server.requests]
    assert 1 <= len(bodies) == len(set(bodies)) <= len(records)
    orjson.loads((run / "scores.json").read_bytes())


def test_judge_keeps_human_overrides(
    server: FakeOpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge run with the judge primary never replaces a human score, written back or journaled only."""
    from hardening_fixtures import run_cli

    from scorers.adjudicate.store import ResultsStore
    from scorers.io.results import load_results

    for var in [v for v in os.environ if v.startswith("OPENAI_")]:
        monkeypatch.delenv(var)
    monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
    server.responder = lambda body: "Reasoning: no.\nJudgement: 0"
    run = _make_run(tmp_path / "run", 4)
    loaded = load_results(run)
    loaded.settings.primary = "judge"
    save_results(loaded.paths, loaded.records, loaded.settings)
    assert (
        run_cli(
            ["override", str(run), "HQ1Z", "0.5", "--reason", "half", "--annotator", "alice"]
        ).code
        == 0
    )
    with ResultsStore.open(run, annotator="bob") as store:  # journaled, never written back
        store.override("HQ2Z", 0.25, "journal only")

    ran = run_cli(["judge", str(run), "--judge", "rome"], 60)
    assert ran.code == 0, ran.err[-1500:]
    on_disk = {
        r["question_id"]: r for r in orjson.loads((run / "updated_predictions.json").read_bytes())
    }
    assert on_disk["HQ0Z"]["correct"] == 0  # the judge is primary where no human spoke
    assert on_disk["HQ1Z"]["correct"] == 0.5
    with ResultsStore.open(run, annotator="carol") as store:
        scores = {r["question_id"]: r["correct"] for r in store.records}
    assert scores == {"HQ0Z": 0, "HQ1Z": 0.5, "HQ2Z": 0.25, "HQ3Z": 0}
