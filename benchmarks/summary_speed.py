"""How long `rome-tui summary` takes on a 100,000-item run, beside the time to parse the file.

Builds a realistic synthetic run (rule, judge and human verdicts, flags, usage,
four inference runs per question; see tests/summary_fixtures.py), writes it as
updated_predictions.json, then times, best of --repeat:

- the floor: orjson parsing of the same file (read + loads);
- load_results: rome-tui's loader (the floor plus validation);
- summarise: every number of the summary (bootstrap intervals included);
- rendering the JSON and Markdown outputs.

Target (issue 7): summarise under 2 s on top of the load time. Also shows why
the bootstrap is formulated as a multinomial draw over distinct score values:
the same interval by index resampling is timed on a few resamples and scaled.

    .venv/bin/python benchmarks/summary_speed.py            # 100,000 items
    .venv/bin/python benchmarks/summary_speed.py --n 10000  # smaller
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from summary_fixtures import synthetic_run  # noqa: E402

from rome_tui.render.text import to_json, to_markdown  # noqa: E402
from scorers.io.results import load_results  # noqa: E402
from scorers.stats import DEFAULT_RESAMPLES, bootstrap_mean_ci  # noqa: E402
from scorers.stats.summary import SummaryOptions, summarise  # noqa: E402


def best_of(repeat: int, func: Callable[[], Any]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = func()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000, help="items in the run (default 100,000)")
    parser.add_argument("--repeat", type=int, default=3, help="take the best of this many timings")
    parser.add_argument(
        "--bootstrap", type=int, default=DEFAULT_RESAMPLES, help="resamples per interval"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        run_dir = Path(tmp) / "model-x"
        run_dir.mkdir()
        path = run_dir / "updated_predictions.json"
        records = synthetic_run(args.n, "model-x", 0.6, seed=1, runs=4)
        path.write_bytes(orjson.dumps(records, option=orjson.OPT_INDENT_2))
        (run_dir / "run.json").write_bytes(orjson.dumps({"mode": "strict", "tracker_type": "task"}))
        del records
        size_mb = path.stat().st_size / 1e6

        floor, _ = best_of(args.repeat, lambda: orjson.loads(path.read_bytes()))
        load, loaded = best_of(args.repeat, lambda: load_results(path))
        options = SummaryOptions(n_resamples=args.bootstrap)
        groups = [("model-x", loaded.records)]
        compute, summary = best_of(args.repeat, lambda: summarise(groups, options))
        cpu_start = time.process_time()  # CPU seconds: what a busy shared machine cannot inflate
        summarise(groups, options)
        compute_cpu = time.process_time() - cpu_start
        render_json, _ = best_of(args.repeat, lambda: to_json(summary))
        render_md, _ = best_of(args.repeat, lambda: to_markdown(summary))

        scores = np.asarray([r["correct"] for r in loaded.records], dtype=np.float64)
        fast, _ = best_of(
            args.repeat, lambda: bootstrap_mean_ci(scores, n_resamples=args.bootstrap)
        )
        few = 50
        rng = np.random.default_rng(0)

        def naive() -> None:
            for _ in range(few):
                scores[rng.integers(0, scores.size, scores.size)].mean()

        naive_few, _ = best_of(1, naive)
        naive_full = naive_few * args.bootstrap / few

    total = summary.models[0]
    print(
        f"run: {args.n:,} items, {size_mb:.0f} MB, {len(total.buckets)} buckets, 4 runs per question"
    )
    print(f"  floor    orjson parse of the file    {floor:7.3f} s   1.00x")
    print(f"  load     load_results                {load:7.3f} s   {load / floor:5.2f}x floor")
    print(
        f"  summary  summarise, {args.bootstrap} resamples {compute:7.3f} s   {compute / floor:5.2f}x floor"
        f"   ({compute_cpu:.3f} s CPU)   target < 2 s: {'met' if compute < 2.0 else 'MISSED'}"
    )
    print(
        f"  render   JSON                        {render_json * 1000:7.1f} ms  {render_json / floor:6.4f}x floor"
    )
    print(
        f"  render   Markdown                    {render_md * 1000:7.1f} ms  {render_md / floor:6.4f}x floor"
    )
    print(
        f"  one overall interval: multinomial draw {fast * 1000:.1f} ms; index resampling "
        f"{naive_full:.2f} s (timed on {few} resamples, scaled to {args.bootstrap}), "
        f"{naive_full / max(fast, 1e-9):,.0f}x slower"
    )
    print(
        f"  overall accuracy {total.overall.loose.accuracy:.2f}% "
        f"[{total.overall.loose.ci95.low:.2f}, {total.overall.loose.ci95.high:.2f}]"
        if total.overall.loose.ci95
        else ""
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
