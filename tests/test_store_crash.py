"""Crash safety: SIGKILL a writer at random moments; no acknowledged override is lost."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import orjson
import pytest
from store_fixtures import journal_lines, make_run

from scorers.adjudicate.store import ResultsStore
from scorers.flags.flagging import detectors

KILLS = 200
SEED = 20261122


def _writer(run: Path, ack_fd: int, seed: int) -> None:
    """Child: override, acknowledge, write back, forever (until killed)."""
    rng = random.Random(seed)
    store = ResultsStore.open(run, annotator="crash")
    os.write(ack_fd, b"ready\n")
    ids = [r["question_id"] for r in store.records]
    for step in range(10_000):
        qid = rng.choice(ids)
        entry = store.override(qid, rng.choice([0.0, 0.5, 1.0]), f"seed {seed} step {step}")
        # The override is acknowledged only once override() has returned.
        os.write(ack_fd, f"{entry['id']} {qid} {entry['new']}\n".encode())
        store.write_back()


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_sigkill_during_write_back_loses_no_acknowledged_override(tmp_path: Path) -> None:
    run = make_run(tmp_path / "run", n_extra=1500)  # ~1 MB, so kills land inside rewrites
    detectors()  # import the flag detectors once, before forking, not in every child
    rng = random.Random(SEED)
    acked: list[tuple[str, str, float]] = []
    mid_rewrite = 0
    for kill in range(KILLS):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - child
            os.close(read_fd)
            try:
                _writer(run, write_fd, SEED + kill)
            finally:
                os._exit(0)
        os.close(write_fd)
        # Kill at a random moment after the child has the run open (loading is not
        # what is under test, and its length varies with the machine's load).
        head = b""
        while not head.endswith(b"\n"):
            chunk = os.read(read_fd, 1)
            if not chunk:
                break
            head += chunk
        assert head == b"ready\n", head
        time.sleep(rng.uniform(0.0, 0.15))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        chunks = []
        while chunk := os.read(read_fd, 65536):
            chunks.append(chunk)
        os.close(read_fd)
        for line in b"".join(chunks).decode().splitlines():
            entry_id, qid, score = line.split()
            acked.append((entry_id, qid, float(score)))
        if any(p.name.endswith(".tmp") for p in run.iterdir()):
            mid_rewrite += 1  # killed inside an atomic rewrite
        # After every kill, every file parses.
        for name in ("updated_predictions.json", "scores.json", "run.json"):
            orjson.loads((run / name).read_bytes())

    assert len(acked) >= KILLS // 4, "too few overrides acknowledged to test anything"
    assert mid_rewrite >= 10, (
        f"{mid_rewrite} too few kills landed inside a rewrite to test anything"
    )
    lines = journal_lines(run)
    order = {line["id"]: n for n, line in enumerate(lines)}
    assert all(entry_id in order for entry_id, _, _ in acked)
    assert [order[e] for e, _, _ in acked] == sorted(order[e] for e, _, _ in acked)
    # Independently of the store: the last journaled set of each item is in force.
    last = {line["question_id"]: line["new"] for line in lines}
    assert {qid for _, qid, _ in acked} <= set(last)
    store = ResultsStore.open(run, annotator="checker")
    history_ids = {h["id"] for r in store.records for h in r["review"].get("history", ())}
    assert {entry_id for entry_id, _, _ in acked} <= history_ids
    for qid, score in last.items():
        assert store.records[store.index_of(qid)]["correct"] == score
    store.write_back()
    disk = {
        r["question_id"]: r for r in orjson.loads((run / "updated_predictions.json").read_bytes())
    }
    assert all(disk[qid]["correct"] == score for qid, score in last.items())
    print(
        f"\n{KILLS} kills ({mid_rewrite} inside a rewrite), "
        f"{len(acked)} acknowledged overrides, all recovered"
    )
