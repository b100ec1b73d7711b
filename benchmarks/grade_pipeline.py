"""What `rome-tui grade`'s pipeline costs without the grading: against the orjson floor.

    .venv/bin/python benchmarks/grade_pipeline.py --keep DIR [--reuse] [--n 100000] [--repeat 2]

Runs ``grade_files`` on a realistic corpus (``benchmarks/corpus.py``; ``--keep
DIR --reuse`` as ``grade_throughput.py``) with the grader's per-record work
replaced by a stub that copies the annotation over the prediction and sets a
fixed score and an empty review: what remains is the streamed pipeline (reading
the annotations into their index, cutting and parsing the predictions, pairing,
serialising, writing with fsync, tallying). Then the orjson floor on the same
files: parse both inputs whole, write the stub's records indented. Each in a
fresh process; prints wall and CPU seconds (of every process: the grade forks
one per CPU unless ``ROME_TUI_JOBS=1``) and their ratio (target of the whole
grade: 1.5). The gap between this and ``grade_throughput.py`` is the grading.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402
from proc_measure import child_imports  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# CPU of the process and of the forked grading processes it waited for.
CPU = child_imports("cpu")

PIPELINE = (
    CPU
    + r"""
import json, sys, time
from scorers.grade import grader, run
from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings

def stub(self, pred, gt, given=None):
    pred["raw_answer"] = pred["answer"]
    pred.update(gt)
    pred["correct"] = 1
    pred["judgement_response"] = None
    pred["review"] = {"version": 1, "mode": "strict", "primary": "rule:strict",
                      "verdicts": [], "flags": [], "history": []}
    return pred

grader.Grader.grade_record = stub
grader.Grader.finish = lambda self, record: None
settings = RunSettings(mode="strict", reject_filter=True, harness_stats=True)
start, start_cpu = time.perf_counter(), cpu()
result = run.grade_files(sys.argv[1], sys.argv[2], settings, paths=ResultsPaths.of(sys.argv[3]))
print(json.dumps({"seconds": time.perf_counter() - start, "cpu": cpu() - start_cpu,
                  "n": len(result.graded), "streamed": result.timings.get("grade") == 0.0}))
"""
)

FLOOR = (
    CPU
    + r"""
import json, sys, time, orjson
with open(sys.argv[3], "rb") as f:
    records = orjson.loads(f.read())
start, start_cpu = time.perf_counter(), cpu()
for path in sys.argv[1:3]:
    with open(path, "rb") as f:
        orjson.loads(f.read())
with open(sys.argv[4], "wb") as f:
    f.write(orjson.dumps(records, option=orjson.OPT_INDENT_2))
print(json.dumps({"seconds": time.perf_counter() - start, "cpu": cpu() - start_cpu}))
"""
)


def _child(code: str, *args: str) -> dict[str, float]:
    if hasattr(os, "sync"):
        os.sync()  # no run waits for writes the one before left
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000, help="items (default 100000)")
    parser.add_argument("--keep", default=None, help="generate into this directory and keep it")
    parser.add_argument("--reuse", action="store_true", help="with --keep: the corpus there")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="grade-pipeline-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        a_path, p_path = work / "annotations.json", work / "predictions.json"
        if not (args.reuse and a_path.exists() and p_path.exists()):
            a_path, p_path = corpus.generate(work, args.n, "realistic")
        out = work / "out-pipeline"
        out.mkdir(exist_ok=True)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"realistic corpus, {args.n} items; load average {load} on {os.cpu_count()} CPUs")
        for _ in range(max(1, args.repeat)):
            t0 = time.perf_counter()
            piped = _child(PIPELINE, str(a_path), str(p_path), str(out))
            floor = _child(
                FLOOR,
                str(a_path),
                str(p_path),
                str(out / "updated_predictions.json"),
                str(work / "floor-pipeline.json"),
            )
            print(
                f"pipeline without grading ({'streamed' if piped['streamed'] else 'read whole'}, "
                f"{piped['n']:.0f} records): {piped['seconds']:.2f} s, CPU {piped['cpu']:.2f} s; "
                f"orjson floor {floor['seconds']:.2f} s, CPU {floor['cpu']:.2f} s; ratio "
                f"{piped['seconds'] / floor['seconds']:.2f}, by CPU time "
                f"{piped['cpu'] / floor['cpu']:.2f} ({time.perf_counter() - t0:.0f} s)"
            )
        print(f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
