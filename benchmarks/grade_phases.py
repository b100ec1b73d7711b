"""Where `rome-tui grade`'s time goes, piece by piece, on a benchmark corpus.

    .venv/bin/python benchmarks/grade_phases.py [--corpus realistic|synthetic]
        [--keep DIR [--reuse]] [--n 100000] [--sample 20000]

Prints, in this process:

1. loading the annotations, and the two ways of checking their nesting limit
   (the Python walk, ``record_checks.deeper_than``, and orjson writing them as one
   list, which ``load_annotations`` tries first);
2. per record, on the first ``--sample`` pairs, what passing a record through the
   grading worker costs: this process pickling it, the child unpickling it,
   the child writing its answer, and rebuilding the record here from that
   answer (which ``rome-tui grade`` no longer does);
3. one whole grading run without the behaviour-flag detectors, with how long
   the final fsync of ``updated_predictions.json`` and its rename took, for
   each background-sync interval given to ``--sync-every`` (in MB, default 64;
   a huge one means no background sync). The rename frees the blocks of the
   file it replaces: the first run into a new directory has none.

The garbage collector is paused throughout, as ``grade_files`` pauses it.
Each timing is the best of ``--repeat`` (default 3). The corpus is
``grade_throughput.py``'s (``benchmarks/corpus.py``, realistic by default, same
seed); ``--keep DIR --reuse`` shares one with it.
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import pickle
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402
from summary_speed import best_of  # noqa: E402

from scorers.flags import flagging  # noqa: E402
from scorers.grade import run as grade_run  # noqa: E402
from scorers.grade import worker as grade_worker  # noqa: E402
from scorers.grade.grader import Grader  # noqa: E402
from scorers.io import loading, pairing, record_checks, writeback  # noqa: E402
from scorers.io.run_paths import ResultsPaths  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402


def best(repeat: int, func: Callable[[], Any]) -> float:
    return best_of(repeat, func)[0]


def _worker_costs(
    p_path: Path, annotations: dict[str, Any], settings: RunSettings, sample: int, repeat: int
) -> None:
    """Part 2: what one record costs on its way through the grading worker."""
    predictions, _ = loading.load_predictions(str(p_path))
    pairs: list[grade_worker.Pair] = list(
        pairing.pair(annotations, predictions[:sample], "strict").pairs
    )
    batches = [pairs[i : i + grade_worker.BATCH] for i in range(0, len(pairs), grade_worker.BATCH)]
    frames = [grade_worker._batch_frame(b) for b in batches]  # noqa: SLF001
    pickling = best(repeat, lambda: [grade_worker._batch_frame(b) for b in batches])  # noqa: SLF001
    unpickling = best(repeat, lambda: [pickle.loads(f) for f in frames])
    grader = Grader(settings)
    answers = [grade_worker.grade_jobs(pickle.loads(f), grader) for f in frames]

    def write_answers() -> list[bytes]:
        out = []
        for answer in answers:
            sink = io.BytesIO()
            grade_worker._write_answer(sink, answer)  # noqa: SLF001
            out.append(sink.getvalue()[8:])
        return out

    bodies = write_answers()
    answering = best(repeat, write_answers)

    def rebuild() -> None:
        here = Grader(settings)
        for batch, body in zip(batches, bodies, strict=True):
            graded = grade_worker.read_answer(body).unpickled()
            for (pred, gt), one in zip(batch, graded, strict=True):
                if one is not None:
                    here.take(dict(pred), gt, one)

    rebuilding = best(repeat, rebuild)
    n = len(pairs)
    print(
        f"per record, over {n:,} pairs: pickling here {pickling / n * 1e6:.1f} us, unpickling "
        f"in the child {unpickling / n * 1e6:.1f} us, the child's answer "
        f"{answering / n * 1e6:.1f} us, rebuilding the record here {rebuilding / n * 1e6:.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    corpus.add_argument(parser)
    parser.add_argument("--keep", help="generate into this directory and keep it")
    parser.add_argument("--reuse", action="store_true", help="use the corpus already there")
    parser.add_argument("--n", type=int, default=100_000, help="items to generate")
    parser.add_argument("--sample", type=int, default=20_000, help="pairs timed in part 2")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--sync-every", type=int, nargs="+", default=[64], help="background sync intervals, MB"
    )
    args = parser.parse_args()
    gc.disable()
    with tempfile.TemporaryDirectory(prefix="grade-phases-") as tmp:
        _measure(Path(args.keep or tmp), args)


def _measure(work: Path, args: argparse.Namespace) -> None:
    work.mkdir(parents=True, exist_ok=True)
    a_path, p_path = work / "annotations.json", work / "predictions.json"
    if not (args.reuse and a_path.exists() and p_path.exists()):
        a_path, p_path = corpus.generate(work, args.n, args.corpus)
    flagging.DETECTOR_MODULES = tuple(
        m for m in flagging.DETECTOR_MODULES if m != "scorers.flags.behaviour"
    )
    settings = RunSettings(mode="strict", reject_filter=True, harness_stats=True)

    # 1. annotations
    seconds = best(args.repeat, lambda: loading.load_annotations(str(a_path)))
    annotations, _ = loading.load_annotations(str(a_path))
    values = list(annotations.values())
    walk = best(args.repeat, lambda: record_checks.deeper_than(values))
    by_orjson = best(args.repeat, lambda: orjson.dumps(values))
    print(
        f"load_annotations: {seconds * 1e3:.0f} ms for {len(values):,} annotations; nesting "
        f"check by the walk {walk * 1e3:.0f} ms, by orjson {by_orjson * 1e3:.0f} ms"
    )

    _worker_costs(p_path, annotations, settings, args.sample, args.repeat)

    # 3. a whole run: the final fsync and the rename
    timed: list[tuple[str, float]] = []
    fsync, replace = os.fsync, os.replace

    def timed_fsync(fd: Any) -> None:
        start = time.perf_counter()
        fsync(fd)
        timed.append(("fsync", time.perf_counter() - start))

    def timed_replace(src: Any, dst: Any, **kwargs: Any) -> None:
        start = time.perf_counter()
        replace(src, dst, **kwargs)
        timed.append((f"rename {Path(dst).name}", time.perf_counter() - start))

    os.fsync, os.replace = timed_fsync, timed_replace
    try:
        for mb in args.sync_every:
            writeback.SYNC_EVERY = mb << 20
            os.sync()
            timed.clear()
            start = time.perf_counter()
            grade_run.grade_files(
                str(a_path), str(p_path), settings, paths=ResultsPaths.of(work / "out-phases")
            )
            total = time.perf_counter() - start
            # The first fsync and rename are updated_predictions.json's.
            final = next(s for name, s in timed if name == "fsync")
            rename = next(s for name, s in timed if name.startswith("rename updated"))
            print(
                f"grading without the detectors, a background sync every {mb} MB: {total:.2f} s; "
                f"final fsync {final * 1e3:.0f} ms, rename {rename * 1e3:.0f} ms"
            )
    finally:
        os.fsync, os.replace = fsync, replace


if __name__ == "__main__":
    main()
