"""Judge throughput, whole command: ``rome-tui judge`` on a run against a server with fixed latency.

Writes a graded run of N records (default 1,000), starts
``tests/fake_openai_server.py`` in its own process with 200 ms latency per
reply, and times ``rome-tui judge RUN --judge rome --concurrency 32`` as a
subprocess from start to exit: interpreter start-up, imports, loading the
run, every call, the verdicts, flags, primary policy and the atomic save. The
floor is the ideal calls x latency / concurrency; the target is a ratio
<= 1.3. ``--client-only`` also times the client alone (the calls, nothing
else) in this process, to show where the rest goes.

    .venv/bin/python benchmarks/judge_throughput.py [--n 1000] [--latency 0.2] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the judge command line the tests run, too

from judges_fixtures import judge_command, judge_env  # noqa: E402

from scorers.judges.base import ChatRequest  # noqa: E402
from scorers.judges.client import JudgeClient  # noqa: E402


def build_run(directory: Path, n: int) -> Path:
    """A graded run of ``n`` counting questions (rule verdicts in place, as after grading)."""
    from scorers.io.results import save_results
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings
    from scorers.records import REVIEW_VERSION

    records = []
    for i in range(n):
        answer = f"Counting carefully, there are {i % 40} apples.\n\nFinal Answer: {i % 40}"
        rule = {"score": 1, "extracted": str(i % 40), "explanation": None}
        records.append(
            {
                "question_id": f"q{i}",
                "question": f"Question q{i}: how many apples are on the table?",
                "answer": answer,
                "raw_answer": answer,
                "reference": str(i % 40),
                "evaluator": "number_matching",
                "evaluator_kwargs": {"value_to_match": str(i % 40)},
                "task": "math",
                "correct": 1,
                "judgement_response": None,
                "review": {
                    "version": REVIEW_VERSION,
                    "mode": "strict",
                    "primary": "rule:strict",
                    "verdicts": [
                        {"source": "rule:rome", **rule},
                        {"source": "rule:strict", **rule},
                    ],
                    "flags": [],
                    "history": [],
                },
            }
        )
    (directory / "run").mkdir(parents=True, exist_ok=True)
    save_results(ResultsPaths.of(directory / "run"), records, RunSettings())
    return directory / "run"


def time_command(run: Path, base_url: str, concurrency: int) -> tuple[float, float, int, str]:
    """Wall time, CPU time (user + system), exit code and last line of the command."""
    env = judge_env(base_url)
    command = judge_command(run, "--concurrency", str(concurrency))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.returncode, (proc.stdout + proc.stderr).strip().splitlines()[-1]


async def client_only(run: Path, base_url: str, concurrency: int) -> tuple[float, float]:
    """The same calls as the command (the run's ROME prompts) through the client alone."""
    from scorers.io.results import load_results
    from scorers.judges.rome import build_request
    from scorers.records import response_texts

    requests = [
        build_request(r["question"], r["reference"], response_texts(r).answer)
        for r in load_results(run).records
    ]
    async with JudgeClient(
        model="bench", base_url=base_url, concurrency=concurrency, timeout=30, max_retries=2
    ) as client:
        await client(ChatRequest.of([("user", "warm-up")]))
        started, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(client(r) for r in requests))
        return time.perf_counter() - started, time.process_time() - cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="records, one call each (default 1000)")
    parser.add_argument(
        "--latency", type=float, default=0.2, help="server latency per reply, seconds (default 0.2)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=32, help="requests in flight (default 32)"
    )
    parser.add_argument(
        "--client-only", action="store_true", help="also time the client alone, for comparison"
    )
    args = parser.parse_args()
    server = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "tests" / "fake_openai_server.py"),
            "--latency",
            str(args.latency),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        base_url = server.stdout.readline().strip()
        with tempfile.TemporaryDirectory() as tmp:
            run = build_run(Path(tmp), args.n)
            elapsed, command_cpu, code, last = time_command(run, base_url, args.concurrency)
            client = (
                asyncio.run(client_only(run, base_url, args.concurrency))
                if args.client_only
                else None
            )
    finally:
        server.terminate()
        server.wait(timeout=10)
    ideal = args.n * args.latency / args.concurrency
    print(
        f"judge throughput (whole command): {args.n} calls, latency {args.latency * 1000:.0f} ms, "
        f"concurrency {args.concurrency}"
    )
    print(
        f"  rome-tui judge: {elapsed:.2f} s (exit {code}); ideal {ideal:.2f} s; "
        f"{command_cpu:.2f} s of CPU (what a loaded machine stretches)"
    )
    print(f"  ratio to ideal: {elapsed / ideal:.3f}  (target <= 1.3)")
    if client is not None:
        alone, cpu = client
        print(
            f"  the same calls through the client alone: {alone:.2f} s (ratio {alone / ideal:.3f}), "
            f"{cpu / args.n * 1000:.2f} ms of CPU per call"
        )
    print(f"  last line: {last}")
    print(f"  machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
