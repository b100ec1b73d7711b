"""Whole graded outputs before and after a change, compared byte for byte.

    .venv/bin/python benchmarks/grade_equality.py --save DIR            # on the old code
    .venv/bin/python benchmarks/grade_equality.py --against DIR         # on the new code
    .venv/bin/python benchmarks/grade_equality.py --against DIR --jobs 2   # forked processes

Generates the realistic corpus (``--n`` items, default 20000) and a quarter as
many synthetic items from ``benchmarks/corpus.py`` (or reuses them from
``--corpus DIR``), grades each in strict and rome mode with every
flag detector on, and writes updated_predictions.json and scores.json per run
under DIR (``--save``) or a temporary directory compared with DIR
(``--against``): it prints "same" or, for a run that differs, how many records
differ and the first question ids and top-level fields that do. A speed change
must leave every file identical; to check one against code that changed
verdicts meanwhile, save again from that code. Grading is in one process
unless ``--jobs N`` (``ROME_TUI_JOBS=N``): saved in one process and compared
with ``--jobs 2``, it checks that forked processes write the same files.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

from scorers.grade import run as grade_run  # noqa: E402
from scorers.io.run_paths import ResultsPaths  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402

FILES = ("updated_predictions.json", "scores.json")


def grade_all(corpus_dir: Path, out: Path, n: int, jobs: int = 1) -> list[str]:
    """Grade every corpus in both modes into ``out``; returns the runs' names."""
    os.environ["ROME_TUI_JOBS"] = str(jobs)
    runs = []
    for name, size in (("realistic", n), ("synthetic", max(1, n // 4))):
        where = corpus_dir / f"{name}-{size}"
        a_path, p_path = where / "annotations.json", where / "predictions.json"
        if not p_path.exists():
            where.mkdir(parents=True, exist_ok=True)
            a_path, p_path = corpus.generate(where, size, name)
        for mode in ("strict", "rome"):
            run = f"{name}-{mode}"
            settings = RunSettings(
                mode=mode, reject_filter=mode == "strict", harness_stats=mode == "strict"
            )
            (out / run).mkdir(parents=True, exist_ok=True)
            grade_run.grade_files(
                str(a_path), str(p_path), settings, paths=ResultsPaths.of(str(out / run))
            )
            runs.append(run)
    return runs


def differences(before: Path, after: Path) -> str | None:
    """None when the two files are equal, else what differs."""
    old, new = before.read_bytes(), after.read_bytes()
    if old == new:
        return None
    a, b = orjson.loads(old), orjson.loads(new)
    if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
        return "differs"
    changed = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    ids = [str(x.get("question_id")) for x, _ in changed[:5]]
    fields = sorted({k for x, y in changed for k in x.keys() | y.keys() if x.get(k) != y.get(k)})
    return f"{len(changed)} record(s) differ (first: {', '.join(ids)}; fields: {', '.join(fields)})"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--save", type=Path, help="write the outputs of this code here")
    what.add_argument("--against", type=Path, help="compare this code's outputs with these")
    parser.add_argument("--n", type=int, default=20_000, help="realistic items (default 20000)")
    parser.add_argument("--corpus", type=Path, help="generate the corpora here and reuse them")
    parser.add_argument(
        "--jobs", type=int, default=1, help="ROME_TUI_JOBS: grading processes (default 1)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        corpus_dir = args.corpus or Path(tmp) / "corpus"
        if args.save is not None:
            runs = grade_all(corpus_dir, args.save, args.n, args.jobs)
            print(f"saved {', '.join(runs)} under {args.save}")
            return
        out = Path(tmp) / "out"
        failed = False
        for run in grade_all(corpus_dir, out, args.n, args.jobs):
            for name in FILES:
                diff = differences(args.against / run / name, out / run / name)
                failed |= diff is not None
                print(f"{run}/{name}: {'same' if diff is None else diff}")
        sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
