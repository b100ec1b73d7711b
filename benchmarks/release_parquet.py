"""Grading and opening a release from Parquet against the same run from JSON.

    .venv/bin/python benchmarks/release_parquet.py [--n 100000] [--repeat 2]

Builds ``n`` rows in the schema of the BAAI/ROME-Evaluated release from the
realistic corpus (benchmarks/corpus.py: four models sharing question ids, each
row carrying its annotation, ``evaluator_kwargs``/``usage``/``meta_info`` as
JSON text and a published ``correct``) and writes them twice: as a JSON list
and as Parquet (row groups of 10,000 rows, as ``datasets`` writes them). Then,
each in a fresh process, alternating and keeping the fastest of ``--repeat``:

1. grade: ``grade_files`` with no annotations file, from JSON and from Parquet;
2. open: what ``rome-tui review`` does before the app starts, on the JSON run
   directory (``ResultsStore.open``) and on the release (``release_run``, which
   finds the run already graded, then ``ResultsStore.open``).

Prints the wall and CPU seconds of each (CPU: the process and its grading worker)
and the ratios Parquet / JSON (target: <= 1.3); on a shared machine the CPU ratio
is the steadier of the two.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("model-a", "model-b", "model-c", "model-d")
sys.path.insert(0, str(ROOT / "tests"))


def release_rows(n: int) -> list[dict[str, Any]]:
    """``n`` release rows: the corpus's items, question i//4 answered by model i%4."""
    from release_fixture import COLUMNS

    annotations, predictions = corpus.realistic(n)
    rng = random.Random(7)
    rows = []
    for i, (gt, pred) in enumerate(zip(annotations, predictions, strict=True)):
        row: dict[str, Any] = dict.fromkeys(COLUMNS)
        row.update({k: v for k, v in gt.items() if k in COLUMNS})
        row.update({k: v for k, v in pred.items() if k in COLUMNS})
        row["model"] = MODELS[i % len(MODELS)]
        row["question_id"] = f"q{i // len(MODELS)}"
        row["dataset"] = "visual" if i % 3 else "textual"
        row["raw_answer"] = pred["answer"]
        row["evaluator_kwargs"] = json.dumps(gt["evaluator_kwargs"])
        row["usage"] = json.dumps(pred.get("usage") or {})
        row["meta_info"] = json.dumps({"source": "corpus", "index": i})
        row["correct"] = float(rng.random() < 0.6)
        row["judgement_response"] = None
        row["inference_scores"] = json.dumps([row["correct"]])
        row["num_inferences"] = 1
        for key in ("question", "reference", "reason", "img_path", "image_type", "question_type"):
            if row[key] is not None and not isinstance(row[key], str):
                row[key] = json.dumps(row[key])
        rows.append(row)
    return rows


CHILD = r"""
import gc, json, resource, sys, time
sys.path.insert(0, {root!r})
what, source, run_dir = sys.argv[1:4]
t0 = time.perf_counter()
if what == "grade":
    from scorers.grade.run import grade_files
    from scorers.io.run_paths import ResultsPaths
    from scorers.io.run_settings import RunSettings
    grade_files(None, source, RunSettings(), paths=ResultsPaths.of(run_dir))
else:
    from scorers.adjudicate.store import ResultsStore
    if source.endswith(".parquet"):
        from scorers.grade.release import release_run
        run_dir = str(release_run(source, run_dir)[0])
    gc.disable()
    store = ResultsStore.open(run_dir, annotator="bench")
    assert len(store) > 0
wall = time.perf_counter() - t0
usage = [resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)]
print(json.dumps([wall, sum(u.ru_utime + u.ru_stime for u in usage)]))
"""


def _child(what: str, source: Path, run_dir: Path) -> tuple[float, float]:
    subprocess.run(["sync"], check=False)
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(root=str(ROOT)), what, str(source), str(run_dir)],
        capture_output=True,
        text=True,
        check=True,
    )
    wall, cpu = json.loads(done.stdout.strip().splitlines()[-1])
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    import pyarrow as pa
    import pyarrow.parquet as pq
    from release_fixture import SCHEMA

    with tempfile.TemporaryDirectory(prefix="release-bench-") as tmp:
        base = Path(tmp)
        rows = release_rows(args.n)
        as_json = base / "release.json"
        as_json.write_text(json.dumps(rows))
        as_parquet = base / "release.parquet"
        pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), as_parquet, row_group_size=10_000)
        del rows
        sizes = {p.suffix: os.path.getsize(p) >> 20 for p in (as_json, as_parquet)}
        times: dict[tuple[str, str], tuple[float, float]] = {}
        for what in ("grade", "open"):
            for _ in range(args.repeat):
                for source in (as_json, as_parquet):
                    run_dir = base / f"run{source.suffix}"
                    if what == "grade":
                        for f in run_dir.glob("*"):
                            if f.is_file():
                                f.unlink()
                    elapsed = _child(what, source, run_dir)
                    key = (what, source.suffix)
                    times[key] = min(times.get(key, elapsed), elapsed)
        print(f"rows: {args.n:,} (JSON {sizes['.json']} MB, Parquet {sizes['.parquet']} MB)")
        print(f"load average: {os.getloadavg()[0]:.2f}")
        for what in ("grade", "open"):
            (j, jc), (p, pc) = times[(what, ".json")], times[(what, ".parquet")]
            print(
                f"{what:5}  wall: JSON {j:7.2f} s  Parquet {p:7.2f} s  ratio {p / j:.2f} "
                f"(target <= 1.3)   CPU: JSON {jc:7.2f} s  Parquet {pc:7.2f} s  "
                f"ratio {pc / jc:.2f}"
            )


if __name__ == "__main__":
    t = time.perf_counter()
    main()
    print(f"total {time.perf_counter() - t:.0f} s")
