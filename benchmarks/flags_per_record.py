"""What the behaviour-flag detectors cost per record on a benchmark corpus.

    .venv/bin/python benchmarks/flags_per_record.py [--corpus realistic|synthetic] [--n 5000]
        [--repeat 5] [--no-memo] [--stages]
    .venv/bin/python benchmarks/flags_per_record.py --annotations A --predictions P


Generates the first ``--n`` items of a corpus of ``benchmarks/corpus.py``
(``realistic`` by default, the one ``grade_throughput.py`` grades), grades them without the detectors, then times ``scorers.flags.behaviour.detect``
on each record in this process, ``--repeat`` times, keeping each record's best,
and prints the mean and the median per record. ``--no-memo`` clears the
detectors' memo of scanned texts before each record, for the cost on runs
whose answers never repeat. With ``--annotations`` and ``--predictions`` it
times the detectors on those files instead (e.g. the reference grader's
example, real Gemini traces). Only the public ``detect`` is timed, so the
script runs against any version of the detectors. Also printed: the mean cost
per KB of reasoning, the mean length of the answers, which are scanned too, and the
detectors' total time over the orjson floor of the same items (parsing both inputs and
dumping the graded records, best of three, in the same process): the flags' share of the
``rome-tui grade`` budget of 2.0x that floor. ``--stages`` also prints the CPU time of each
stage of ``detect`` per record (the answer's declines, claims, the closing part's sentences,
the conclusion reader, hedging, the comparison with the answer, ...), each timed inclusively
where ``detect`` calls it (the timers add their own cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus  # noqa: E402

from scorers.flags import flagging  # noqa: E402
from scorers.flags.flagging import FlagContext  # noqa: E402
from scorers.grade.grader import Grader  # noqa: E402
from scorers.io.loading import load_annotations, load_predictions  # noqa: E402
from scorers.io.pairing import pair  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402
from scorers.records import ResponseTexts, response_texts  # noqa: E402


def graded_jobs(
    n: int,
    annotations_path: str | None = None,
    predictions_path: str | None = None,
    corpus_name: str = "realistic",
) -> list[tuple[dict[str, Any], ResponseTexts]]:
    """The records of the given files, or of the first ``n`` items of a benchmark
    corpus, graded in strict mode without the behaviour-flag detectors, with their texts."""
    modules = flagging.DETECTOR_MODULES
    flagging.DETECTOR_MODULES = tuple(m for m in modules if m != "scorers.flags.behaviour")
    try:
        if annotations_path and predictions_path:
            annotations, _ = load_annotations(annotations_path)
            predictions, _ = load_predictions(predictions_path)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                a_path, p_path = corpus.generate(Path(tmp), n, corpus_name)
                annotations, _ = load_annotations(str(a_path))
                predictions, _ = load_predictions(str(p_path))
        grader = Grader(RunSettings(mode="strict"))
        jobs = []
        for pred, gt in pair(annotations, predictions, "strict").pairs:
            record = grader.grade_record(pred, gt)
            grader.finish(record)
            jobs.append((record, response_texts(record)))
        FLOOR.append(_floor(annotations, predictions, [record for record, _ in jobs]))
        return jobs
    finally:
        flagging.DETECTOR_MODULES = modules


FLOOR: list[float] = []  # the orjson floor of the last graded_jobs, in seconds


def _floor(annotations: Any, predictions: Any, records: list[dict[str, Any]]) -> float:
    """The orjson floor of these items, best of three: parse both inputs, dump the output."""
    inputs = [orjson.dumps(annotations), orjson.dumps(predictions)]
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for data in inputs:
            orjson.loads(data)
        orjson.dumps(records, option=orjson.OPT_INDENT_2)
        best = min(best, time.perf_counter() - start)
    return best


def corpus_parser(doc: str | None) -> argparse.ArgumentParser:
    """The options every per-record detector benchmark shares: --corpus, --n and --repeat."""
    parser = argparse.ArgumentParser(
        description=doc, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    corpus.add_argument(parser)
    parser.add_argument("--n", type=int, default=5000, help="items (default 5000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes (default 5)")
    return parser


def main() -> None:
    parser = corpus_parser(__doc__)
    parser.add_argument(
        "--no-memo", action="store_true", help="clear the short-answer memo before each record"
    )
    parser.add_argument(
        "--stages", action="store_true", help="also print the CPU time of each stage of detect"
    )
    parser.add_argument("--annotations", help="time these items instead of generated ones")
    parser.add_argument("--predictions", help="(with --annotations)")
    args = parser.parse_args()
    if bool(args.annotations) != bool(args.predictions):
        parser.error("--annotations and --predictions go together")
    from scorers.flags import behaviour as flags

    jobs = graded_jobs(args.n, args.annotations, args.predictions, args.corpus)
    from scorers.flags.behaviour import cues

    memo = getattr(cues, "_read", None)
    clear = memo.cache_clear if args.no_memo and memo is not None else None
    ctx = FlagContext()
    stages = _timed_stages() if args.stages else {}
    best = [float("inf")] * len(jobs)
    raised = 0
    for _ in range(max(1, args.repeat)):
        raised = 0
        for i, (record, texts) in enumerate(jobs):
            if clear is not None:
                clear()
            start = time.perf_counter()
            raised += len(list(flags.detect(record, texts, ctx)))
            best[i] = min(best[i], time.perf_counter() - start)
    reasoning_kb = sum(len(t.reasoning) for _, t in jobs) / 1000
    mean_answer = sum(len(t.answer) for _, t in jobs) / len(jobs)
    print(
        f"{len(jobs)} records, mean reasoning {reasoning_kb / len(jobs):.1f} KB, mean answer "
        f"{mean_answer:.0f} characters, memo {'cleared before each record' if clear else 'on'}: "
        f"detectors per record mean {statistics.fmean(best) * 1e6:.0f} us, median "
        f"{statistics.median(best) * 1e6:.0f} us, {sum(best) / reasoning_kb * 1e6:.1f} us per KB "
        f"of reasoning (best of {args.repeat}); {raised} heuristic flags; detectors / orjson "
        f"floor of the same items = {sum(best) / FLOOR[-1]:.2f}"
    )
    passes = len(jobs) * max(1, args.repeat)
    for name, seconds in sorted(stages.items(), key=lambda kv: -kv[1]):
        print(f"  {name:44s} {seconds / passes * 1e6:6.1f} us a record (CPU, mean of all passes)")


# Stages of ``scorers.flags.behaviour.detect``, timed where it calls them (inclusive CPU
# time; a stage that reads a text first pays for lowercasing and gating it). Names the
# detectors of another version lack are left out.
STAGES = (
    ("abstention", "answer_declines", "the answer declines (its gate)"),
    ("injection", "detect", "injection"),
    ("claims", "detect", "tool and web claims (the reasoning's gate)"),
    ("", "closing_part", "closing part: its sentences"),
    ("contradiction", "conclusion", "conclusion reader"),
    ("", "final_stretch", "final stretch"),
    ("abstention", "reasoning_declines", "the reasoning declines"),
    ("hedging", "detect", "hedging"),
    ("contradiction", "detect", "conclusion against the answer"),
)


def _timed_stages() -> dict[str, float]:
    """Wrap each stage as ``detect`` sees it with a CPU timer; the totals, filled as it runs."""
    import functools
    import inspect

    from scorers.flags import behaviour

    totals: dict[str, float] = {}
    for module_name, name, label in STAGES:
        module = getattr(behaviour, module_name) if module_name else behaviour
        function = getattr(module, name, None)
        if function is None:
            continue
        totals[label] = 0.0

        def timed(*args: Any, _f: Any = function, _label: str = label, **kwargs: Any) -> Any:
            start = time.process_time()
            try:  # a generator is timed as it is consumed
                return (
                    list(_f(*args, **kwargs))
                    if inspect.isgeneratorfunction(_f)
                    else _f(*args, **kwargs)
                )
            finally:
                totals[_label] += time.process_time() - start

        setattr(module, name, functools.wraps(function)(timed))
    return totals


if __name__ == "__main__":
    main()
