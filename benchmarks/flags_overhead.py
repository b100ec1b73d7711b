"""What the behaviour-flag detectors add to grading time, on realistic traces.

    .venv/bin/python benchmarks/flags_overhead.py [--n 20000] [--repeat 3] [--labelled-share 1.0]

Builds a corpus from the labelled flag set (tests/data/flags/labelled.json):
each item's own reasoning is kept as the closing part of a 2-8 KB trace whose
earlier paragraphs come from a pool of ordinary reasoning sentences (image
description, arithmetic, option elimination; a cue word such as "maybe" or
"wait" in about one sentence in six, as in real traces). ``--labelled-share``
is the fraction of traces that close with the labelled item's reasoning (all
of them by default, which makes every trace flag-dense); the others close with
one more ordinary paragraph, as most real traces do. Then it times, in
this process, ``grade_run.grade_files`` (the whole of ``rome-tui grade``: load,
pair, both rule modes, hashing, flags, writing the results; with the grading
worker process when the predictions are large enough, as ``rome-tui grade``
decides) with and without ``scorers.flags.behaviour`` in the detector list,
``--repeat`` times each, alternating, and prints the best of each, the
overhead as a percentage of grading without the detectors (target <= 30%),
the same in CPU seconds of both processes,
and the detectors' own cost per record (best of ``--repeat`` runs of each
record: median, 90th percentile, worst and mean).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from proc_measure import cpu  # noqa: E402

from scorers.flags import flagging  # noqa: E402
from scorers.flags.flagging import FlagContext  # noqa: E402
from scorers.grade import run as grade_run  # noqa: E402
from scorers.io.run_paths import ResultsPaths  # noqa: E402
from scorers.io.run_settings import RunSettings  # noqa: E402
from scorers.records import response_texts  # noqa: E402

FILLER = [
    "The image shows a wide street with several parked cars and a row of shops on the left.",
    "Looking at the legend in the lower right corner, blue marks the 2022 values and orange the 2023 ones.",
    "The first bar reaches the 40 gridline, and the second one stops a little above 55.",
    "Option A talks about the northern tributary, which does not appear anywhere in the map.",
    "Let me compute the area of the rectangle: 12 times 7 is 84 square units.",
    "Counting the windows on the front facade row by row, I get 6, 6, 6 and 5.",
    "The text on the banner is written in a serif font and reads 'Grand Opening'.",
    "Maybe the shadow direction helps: the shadows point to the lower left, so the sun is upper right.",
    "Subtracting the two readings, 73.4 minus 68.9 gives 4.5 degrees.",
    "The figure is a right triangle with legs labelled 5 and 12, so the hypotenuse is 13.",
    "Wait, I should check whether the axis starts at zero; it starts at 20, which changes the proportions.",
    "The second panel shows the same intersection later in the day, with longer shadows.",
    "Option C mentions photosynthesis, but the diagram is about cellular respiration.",
    "The clock on the tower shows roughly ten past four.",
    "Each small square on the grid represents 5 units, so the line rises 15 units over 3 squares.",
    "The vegetation looks temperate: deciduous trees, short grass and no palms.",
    "There are three people on the bench and two more standing near the fountain.",
    "The table lists the population of four towns; the largest value is in the third row.",
    "**Examining the Details**\n\nI'm focusing on the lettering on the storefront and the shape of the roofs.",
    "**Refining the Estimate**\n\nI've revisited the count and separated the partially hidden objects.",
    "The ratio of the two lengths is 3 to 4, consistent with the scale drawing.",
    "If the pattern continues, the next shape should have five sides.",
    "I recall that this kind of tiled facade is common in Lisbon and Porto.",
    "The red line crosses the blue one near x = 3, where both are about 9.",
    "Hmm, the last digit is partly covered, but the first three digits are 4, 1 and 7.",
    "The license plate format, two letters then four digits, narrows the country down.",
    "Adding the three items on the receipt: 4.50 plus 3.25 plus 6.00 is 13.75.",
    "The arrows in the flowchart go from the input box to the decision diamond.",
    "Probably the building in the background is a church, judging from the bell tower.",
    "Comparing the two photos, the tree has lost its leaves in the second one.",
]


def _paragraph(rng: random.Random) -> str:
    return " ".join(rng.choice(FILLER) for _ in range(rng.randint(2, 5)))


def _trace(rng: random.Random, tail: str) -> str:
    size = rng.randint(2048, 8192)
    parts: list[str] = []
    total = len(tail)
    while total < size:
        paragraph = _paragraph(rng)
        parts.append(paragraph)
        total += len(paragraph) + 2
    return "\n\n".join([*parts, tail])


def build(directory: Path, n: int, seed: int = 7, labelled_share: float = 1.0) -> tuple[Path, Path]:
    data = orjson.loads((ROOT / "tests" / "data" / "flags" / "labelled.json").read_bytes())["items"]
    rng = random.Random(seed)
    annotations: list[dict[str, Any]] = []
    predictions: list[dict[str, Any]] = []
    for i in range(n):
        item = data[i % len(data)]
        qid = f"q{i}"
        # (no draw at the default share, so the default corpus stays as it was)
        labelled = labelled_share >= 1 or rng.random() < labelled_share
        tail = item["reason"] if labelled else _paragraph(rng)
        annotations.append(
            {
                "question_id": qid,
                "question": f"Question {i}?",
                "reference": item["reference"],
                "task": "flags",
                "evaluator": item["evaluator"],
                "evaluator_kwargs": item["evaluator_kwargs"],
            }
        )
        predictions.append(
            {
                "question_id": qid,
                "question": f"Question {i}?",
                "answer": "\n" + item["answer"],
                "reason": f"<think>{_trace(rng, tail)}</think>",
            }
        )
    a_path, p_path = directory / "annotations.json", directory / "predictions.json"
    a_path.write_bytes(orjson.dumps(annotations))
    p_path.write_bytes(orjson.dumps(predictions))
    return a_path, p_path


def _grade(
    a_path: Path, p_path: Path, with_flags: bool
) -> tuple[float, float, int, list[dict[str, Any]]]:
    """Wall seconds, CPU seconds, processes used, and the graded records."""
    modules = (
        ("scorers.flags.verdicts", "scorers.flags.behaviour")
        if with_flags
        else ("scorers.flags.verdicts",)
    )
    flagging.DETECTOR_MODULES = modules
    out = a_path.parent / ("out-flags" if with_flags else "out-no-flags")
    start, start_cpu = time.perf_counter(), cpu()
    result = grade_run.grade_files(
        str(a_path), str(p_path), RunSettings(mode="strict"), paths=ResultsPaths.of(str(out))
    )
    processes = int(result.timings.get("processes", 1))
    return time.perf_counter() - start, cpu() - start_cpu, processes, result.records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="records (default 20000)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="timed runs of each variant (default 3)"
    )
    parser.add_argument(
        "--labelled-share",
        type=float,
        default=1.0,
        help="fraction of traces closing with a labelled item's reasoning (default 1.0)",
    )
    args = parser.parse_args(argv)
    original = flagging.DETECTOR_MODULES
    with tempfile.TemporaryDirectory() as tmp:
        a_path, p_path = build(Path(tmp), args.n, labelled_share=args.labelled_share)
        size = p_path.stat().st_size
        best = {True: float("inf"), False: float("inf")}
        best_cpu = {True: float("inf"), False: float("inf")}
        processes = {True: 1, False: 1}
        records: list[dict[str, Any]] = []
        for _ in range(args.repeat):
            for with_flags in (False, True):
                seconds, cpu, processes[with_flags], graded = _grade(a_path, p_path, with_flags)
                best[with_flags] = min(best[with_flags], seconds)
                best_cpu[with_flags] = min(best_cpu[with_flags], cpu)
                if with_flags:
                    records = graded
        flagging.DETECTOR_MODULES = original
    from scorers.flags import behaviour as flags

    ctx = FlagContext()
    texts = [(r, response_texts(r)) for r in records]
    own = [float("inf")] * len(texts)
    raised = 0
    for _ in range(args.repeat):
        raised = 0
        for i, (r, t) in enumerate(texts):
            start = time.perf_counter()
            raised += len(list(flags.detect(r, t, ctx)))
            own[i] = min(own[i], time.perf_counter() - start)
    own.sort()
    mean_reasoning = sum(len(t.reasoning) for _, t in texts) / len(texts)
    n = len(records)
    without, with_ = best[False], best[True]
    print(
        f"{n} records, {size / 1e6:.1f} MB predictions, mean reasoning {mean_reasoning / 1000:.1f} KB"
    )
    print(
        f"grading without behaviour flags: {without:.2f} s ({without / n * 1e6:.0f} us/record), "
        f"{processes[False]} process(es)"
    )
    print(
        f"grading with behaviour flags:    {with_:.2f} s ({with_ / n * 1e6:.0f} us/record), "
        f"{processes[True]} process(es)"
    )
    print(f"overhead: {(with_ - without) / without * 100:.1f}% of grading time (target <= 30%)")
    cpu_without, cpu_with = best_cpu[False], best_cpu[True]
    print(
        f"overhead in CPU time, both processes: {(cpu_with - cpu_without) / cpu_without * 100:.1f}% "
        f"({cpu_without:.2f} s -> {cpu_with:.2f} s)"
    )
    print(
        f"detectors alone per record: median {own[n // 2] * 1e6:.0f} us, "
        f"p90 {own[n * 9 // 10] * 1e6:.0f} us, worst {own[-1] * 1e6:.0f} us, "
        f"mean {sum(own) / n * 1e6:.0f} us; {raised} heuristic flags raised"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
