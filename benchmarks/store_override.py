"""Override-to-durable latency on a large run (issue 3: target <= 50 ms at 100,000 items).

Measures ``ResultsStore.override`` (validate, append one journal line, fsync,
update the record and its flags in memory) on a run of N items, beside the
floor of a bare ``write`` + ``fsync`` of a line of the same size in the same
directory, and the orjson parse time of the results file. The rewrite of the
JSON files (``write_back``) is timed separately: the app runs it in a worker.

    .venv/bin/python benchmarks/store_override.py            # 100,000 items
    .venv/bin/python benchmarks/store_override.py --n 10000
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorers.adjudicate.store import ResultsStore  # noqa: E402
from scorers.io.results import save_results  # noqa: E402
from scorers.io.run_paths import ResultsPaths  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402
from scorers.records import content_hash  # noqa: E402

WORDS = [
    "the",
    "answer",
    "seems",
    "to",
    "be",
    "so",
    "I",
    "will",
    "check",
    "the",
    "figure",
    "again",
    "and",
    "then",
    "compare",
    "it",
    "with",
]


def make_records(n: int, reasoning_bytes: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    records = []
    for i in range(n):
        words = []
        size = 0
        target = rng.randint(reasoning_bytes // 2, reasoning_bytes * 2)
        while size < target:
            word = rng.choice(WORDS)
            words.append(word)
            size += len(word) + 1
        rule = rng.randint(0, 1)
        record = {
            "question_id": f"item_{i}",
            "question": f"Question {i}?",
            "answer": f"The answer is {i % 97}.",
            "raw_answer": f"The answer is {i % 97}.",
            "reason": " ".join(words),
            "reference": str(i % 97),
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": i % 97},
            "task": ["geo", "academic", "multi", "recognition"][i % 4],
            "correct": rule,
            "judgement_response": None,
        }
        record["review"] = {
            "version": 1,
            "mode": "strict",
            "primary": "rule:strict",
            "verdicts": [
                {"source": "rule:strict", "score": rule, "extracted": None, "explanation": None}
            ],
            "flags": [],
            "history": [],
            "content_hash": content_hash(record),
        }
        records.append(record)
    return records


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000, help="items in the run (default 100000)")
    parser.add_argument(
        "--overrides", type=int, default=200, help="overrides to time (default 200)"
    )
    parser.add_argument("--reasoning-bytes", type=int, default=2048, help="typical reasoning size")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="rome-tui-bench-") as tmp:
        run = Path(tmp) / "run"
        run.mkdir()
        records = make_records(args.n, args.reasoning_bytes, args.seed)
        save_results(ResultsPaths.of(run), records, RunSettings(mode="strict"))
        del records
        data = (run / "updated_predictions.json").read_bytes()
        t0 = time.perf_counter()
        orjson.loads(data)
        parse = time.perf_counter() - t0
        del data

        t0 = time.perf_counter()
        store = ResultsStore.open(run, annotator="bench")
        open_time = time.perf_counter() - t0

        rng = random.Random(args.seed)
        ids = [f"item_{rng.randrange(args.n)}" for _ in range(args.overrides)]
        store.override(ids[0], 1, "warm-up")  # first call imports the flag detectors
        # Time the journal append + fsync inside override(): the moment it is durable.
        durable: list[float] = []
        writer = store._writer
        plain_write = writer.write

        def timed_write(entry: dict) -> None:
            plain_write(entry)
            durable.append(time.perf_counter())

        writer.write = timed_write  # type: ignore[method-assign]
        latencies = []
        to_durable = []
        for k, qid in enumerate(ids):
            t0 = time.perf_counter()
            store.override(qid, rng.choice([0.0, 0.5, 1.0]), f"benchmark override {k}")
            latencies.append(time.perf_counter() - t0)
            to_durable.append(durable[-1] - t0)

        line = (
            orjson.dumps({"id": "x" * 32, "reason": "benchmark override 0", "pad": "y" * 200})
            + b"\n"
        )
        floor_path = run / "floor.jsonl"
        fd = os.open(floor_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        floors = []
        for _ in range(args.overrides):
            t0 = time.perf_counter()
            os.write(fd, line)
            os.fsync(fd)
            floors.append(time.perf_counter() - t0)
        os.close(fd)

        t0 = time.perf_counter()
        store.write_back()
        rewrite = time.perf_counter() - t0
        store.close()
        del store, writer
        gc.collect()  # measure the reopen alone, not the collection of the first store

        t0 = time.perf_counter()
        ResultsStore.open(run, annotator="bench").close()
        reopen = time.perf_counter() - t0

    ms = 1000.0

    def spread(values: list[float]) -> tuple[float, float, float]:
        ordered = sorted(values)
        return statistics.median(ordered), ordered[int(0.95 * len(ordered)) - 1], ordered[-1]

    med, p95, worst = spread(to_durable)
    t_med, t_p95, t_max = spread(latencies)
    floor = statistics.median(floors)
    print(f"items: {args.n:,}  overrides timed: {args.overrides}  file: {(run).name}")
    print(f"orjson parse of updated_predictions.json: {parse * ms:8.1f} ms (floor for opening)")
    print(
        f"ResultsStore.open (load + journal replay): {open_time * ms:8.1f} ms  = {open_time / parse:5.2f}x parse"
    )
    print(f"bare write+fsync of one line (floor):     {floor * ms:8.2f} ms")
    print(
        f"override-to-durable: median {med * ms:.2f} ms ({med / floor:.2f}x floor), "
        f"p95 {p95 * ms:.2f} ms, max {worst * ms:.2f} ms  (target <= 50 ms)"
    )
    print(
        f"override() returning (durable + record, flags updated in memory): median {t_med * ms:.2f} ms, "
        f"p95 {t_p95 * ms:.2f} ms, max {t_max * ms:.2f} ms"
    )
    print(
        f"write_back (atomic rewrite, background in the app): {rewrite * ms:8.1f} ms  = {rewrite / parse:5.2f}x parse"
    )
    print(
        f"reopen with {len(ids) + 1} journaled overrides (replay): {reopen * ms:8.1f} ms  = {reopen / parse:5.2f}x parse"
    )


if __name__ == "__main__":
    main()
