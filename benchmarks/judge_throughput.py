"""Judge client throughput against a local fake server with fixed latency.

Sends N chat completions (default 1,000) with distinct prompts through
``JudgeClient`` (the real openai client, no cache) to
``tests/fake_openai_server.py`` running in its own process with 200 ms
latency per reply, at concurrency 32. The floor is the ideal time
calls x latency / concurrency; the issue's target is a ratio <= 1.2.
The reference graders call the judge one request at a time (N x latency).

    .venv/bin/python benchmarks/judge_throughput.py [--n 1000] [--latency 0.2] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorers.judges.base import ChatRequest  # noqa: E402
from scorers.judges.client import JudgeClient  # noqa: E402


async def send_all(base_url: str, n: int, concurrency: int) -> tuple[float, float, int, int]:
    requests = [
        ChatRequest.of([("user", f"item {i}: is 2+2 equal to 4?")], temperature=0) for i in range(n)
    ]
    async with JudgeClient(
        model="bench", base_url=base_url, concurrency=concurrency, timeout=30, max_retries=2
    ) as client:
        await client(
            ChatRequest.of([("user", "warm-up")])
        )  # import and first-connection costs are not throughput
        started, cpu = time.perf_counter(), time.process_time()
        replies = await asyncio.gather(*(client(r) for r in requests))
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
        errors = sum(1 for r in replies if r.error is not None)
        return elapsed, cpu, errors, client.stats.retries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=1000, help="calls (default 1000)")
    parser.add_argument(
        "--latency", type=float, default=0.2, help="server latency per reply, seconds (default 0.2)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=32, help="requests in flight (default 32)"
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
        elapsed, cpu, errors, retries = asyncio.run(send_all(base_url, args.n, args.concurrency))
    finally:
        server.terminate()
        server.wait(timeout=10)
    ideal = args.n * args.latency / args.concurrency
    ratio = elapsed / ideal
    print(
        f"judge throughput: {args.n} calls, latency {args.latency * 1000:.0f} ms, concurrency {args.concurrency}"
    )
    print(f"  elapsed {elapsed:.2f} s, ideal (calls x latency / concurrency) {ideal:.2f} s")
    print(f"  ratio to ideal: {ratio:.3f}  (target <= 1.2)  errors {errors}, retries {retries}")
    print(f"  {args.n / elapsed:.0f} calls/s; client CPU {cpu / args.n * 1000:.2f} ms per call")
    print(f"  one request at a time (the reference graders): {args.n * args.latency:.0f} s")
    # The client needs ~2 ms of CPU per call; on a shared machine the ratio
    # tracks how much CPU the run got, so show what else was running.
    print(f"  machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end")
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
