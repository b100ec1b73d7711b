"""Throughput and memory of `rome-tui grade` against the orjson floor.

    .venv/bin/python benchmarks/grade_throughput.py [--n 100000] [--mode strict|rome]

Generates a corpus (default 100,000 items over every rule evaluator, answers
with 2-8 KB of reasoning, half in ``reason`` and half as a ``<think>`` block
inside ``answer``), then in fresh subprocesses:

1. grades it (load, pair, both rule modes, flags, hashing, writing the three
   files), with the behaviour-flag detectors and without them;
2. measures the floor: orjson parsing the two input files plus orjson
   serialising and writing the graded records.

Prints items/s, the ratio grading time / floor time, and peak memory (peak RSS
of the grading process above its RSS after imports) as a multiple of the
input size. Targets: ratio <= 1.5, memory <= 2x input.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parent.parent

SENTENCES = [
    "Let me look at the image again and count the objects in the left panel.",
    "The axis runs from 0 to 100, so each tick is worth 10 units.",
    "Hmm, wait. I should double-check the second bar, it might be 35 rather than 30.",
    "Option B mentions the river, which matches the blue line in the map.",
    "If the train leaves at 10:45 and arrives at 12:15, the trip takes 1:30.",
    "I recall that the Golden Gate Bridge is in San Francisco, California.",
    "Ordering the panels by time: first C, then A, then D, and finally B.",
    "Perhaps the answer is 42, but I am not entirely sure about the scale.",
    "I cannot search the web, so I will rely on what is visible in the picture.",
    "Let me compute: 12 × 3 = 36, plus 6 gives 42.",
    "The legend says red is for 2023 and blue for 2024.",
    "So the final ordering seems consistent with the timestamps shown.",
]


def _reasoning(rng: random.Random) -> str:
    size = rng.randint(2048, 8192)
    parts: list[str] = []
    total = 0
    while total < size:
        sentence = rng.choice(SENTENCES)
        parts.append(sentence)
        total += len(sentence) + 1
    text = " ".join(parts)
    return "\n\n".join(text[i : i + 400] for i in range(0, len(text), 400))


def _item(rng: random.Random, i: int) -> tuple[dict[str, Any], str]:
    kwargs: dict[str, Any]
    kind = rng.random()
    if kind < 0.35:
        label = rng.choice("ABCDE")
        guess = label if rng.random() < 0.6 else rng.choice("ABCDE")
        return {
            "evaluator": "choices_matching",
            "evaluator_kwargs": {"label": label},
        }, f"**Final Answer:** {guess}"
    if kind < 0.6:
        value = rng.choice([42, 3.5, 1200, 0.25, 17])
        shown = (
            value if rng.random() < 0.6 else rng.choice(["1,200", "3.5 m", "17 apples", "2.5e2"])
        )
        return {
            "evaluator": "number_matching",
            "evaluator_kwargs": {"value_to_match": value},
        }, f"Final Answer: {shown}"
    if kind < 0.72:
        order = rng.sample(["A", "B", "C", "D"], 4)
        shown = ", ".join(order if rng.random() < 0.6 else rng.sample(order, 4))
        return {
            "evaluator": "ordered_list_matching",
            "evaluator_kwargs": {"order": order},
        }, f"Final Answer: {shown}"
    if kind < 0.84:
        kwargs = {"key_items": [["Monterrey"], ["Seattle Sounders", "Sounders"]]}
        shown = rng.choice(
            [
                "Monterrey and the Seattle Sounders",
                "Only Monterrey",
                "Seattle Sounders FC and CF Monterrey",
            ]
        )
        return {"evaluator": "key_items_matching", "evaluator_kwargs": kwargs}, shown
    if kind < 0.95:
        kwargs = {
            "location_fine_grained": ["golden gate bridge"],
            "location_coarse_grained": ["san francisco"],
        }
        shown = rng.choice(
            ["Golden Gate Bridge, San Francisco", "Somewhere in San Francisco", "Brooklyn Bridge"]
        )
        return {
            "evaluator": "location_matching",
            "evaluator_kwargs": kwargs,
        }, f"Final Answer: {shown}"
    if kind < 0.98:
        kwargs = {"interval": ["1:20", "1:40"], "units": []}
        return {
            "evaluator": "interval_matching",
            "evaluator_kwargs": kwargs,
        }, f"Final Answer: {rng.choice(['1:30', '2:10'])}"
    kwargs = {"intervals": [[10, 15], [1000, 1500]], "units": [["km"], ["m"]]}
    return {
        "evaluator": "multi_interval_matching",
        "evaluator_kwargs": kwargs,
    }, f"Final Answer: {rng.choice(['12 km', '1200 m', '3 km'])}"


def generate(directory: Path, n: int, seed: int = 1) -> tuple[Path, Path]:
    rng = random.Random(seed)
    pool = [_reasoning(rng) for _ in range(256)]
    annotations = []
    predictions = []
    buckets = ["diagrams", "academic", "multi", "recognition", "geo", "spatial", "puzzles", "memes"]
    for i in range(n):
        qid = f"q{i}"
        spec, final = _item(rng, i)
        annotations.append(
            {
                "question_id": qid,
                "question": f"Question {i}?",
                "reference": "",
                "task": buckets[i % 8],
                **spec,
            }
        )
        reasoning = f"Item {i}. " + pool[rng.randrange(len(pool))]
        usage = {
            "prompt_tokens": 900,
            "completion_tokens": len(reasoning) // 4,
            "total_tokens": 900 + len(reasoning) // 4,
        }
        if i % 2:
            predictions.append(
                {
                    "question_id": qid,
                    "question": f"Question {i}?",
                    "answer": "\n" + final,
                    "reason": f"<think>{reasoning}</think>",
                    "usage": usage,
                }
            )
        else:
            predictions.append(
                {
                    "question_id": qid,
                    "question": f"Question {i}?",
                    "answer": f"<think>{reasoning}</think>\n\n{final}",
                    "usage": usage,
                }
            )
    a_path, p_path = directory / "annotations.json", directory / "predictions.json"
    a_path.write_bytes(orjson.dumps(annotations, option=orjson.OPT_INDENT_2))
    p_path.write_bytes(orjson.dumps(predictions, option=orjson.OPT_INDENT_2))
    return a_path, p_path


GRADE_CHILD = r"""
import json, resource, sys, time
from scorers import flagging, grading, rome, strict, flags  # imports before the clock starts
import scorers.mathmatch
from scorers.results import ResultsPaths, RunSettings
if sys.argv[5] == "no-flags":
    flagging.DETECTOR_MODULES = tuple(m for m in flagging.DETECTOR_MODULES if m != "scorers.flags")
flagging.detectors()
def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0
base = rss_kb()
settings = RunSettings(mode=sys.argv[4], reject_filter=sys.argv[4] == "strict", harness_stats=sys.argv[4] == "strict")
start = time.perf_counter()
result = grading.grade_files(sys.argv[1], sys.argv[2], settings, paths=ResultsPaths.of(sys.argv[3]))
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"seconds": seconds, "base_kb": base, "peak_kb": peak, "timings": result.timings, "n": len(result.records)}))
"""

FLOOR_CHILD = r"""
import json, resource, sys, time, orjson
def rss_kb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0
base = rss_kb()
start = time.perf_counter()
inputs = []
for path in sys.argv[1:3]:
    with open(path, "rb") as f:
        inputs.append(orjson.loads(f.read()))
load = time.perf_counter() - start
load_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base
del inputs
with open(sys.argv[3], "rb") as f:
    records = orjson.loads(f.read())
start = time.perf_counter()
data = orjson.dumps(records, option=orjson.OPT_INDENT_2)
with open(sys.argv[4], "wb") as f:
    f.write(data)
dump = time.perf_counter() - start
print(json.dumps({"load": load, "dump": dump, "load_peak_kb": load_peak}))
"""


def _child(code: str, *args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--n", type=int, default=100_000, help="items (default 100000)")
    parser.add_argument("--mode", choices=("strict", "rome"), default="strict")
    parser.add_argument(
        "--flags",
        choices=("both", "on", "off"),
        default="both",
        help="behaviour-flag detectors on, off or both runs",
    )
    parser.add_argument("--keep", default=None, help="generate into this directory and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        a_path, p_path = generate(work, args.n)
        input_bytes = a_path.stat().st_size + p_path.stat().st_size
        print(
            f"corpus: {args.n} items, {input_bytes / 1e6:.1f} MB input, generated in {time.perf_counter() - t0:.1f} s"
        )
        runs = {"both": ("flags", "no-flags"), "on": ("flags",), "off": ("no-flags",)}[args.flags]
        for flags in runs:
            out = work / f"out-{flags}"
            out.mkdir(exist_ok=True)
            graded = _child(GRADE_CHILD, str(a_path), str(p_path), str(out), args.mode, flags)
            floor = _child(
                FLOOR_CHILD,
                str(a_path),
                str(p_path),
                str(out / "updated_predictions.json"),
                str(work / "floor.json"),
            )
            floor_s = floor["load"] + floor["dump"]
            peak_bytes = (graded["peak_kb"] - graded["base_kb"]) * 1024
            print(
                f"{args.mode} mode, {'with' if flags == 'flags' else 'without'} behaviour flags: "
                f"{graded['n'] / graded['seconds']:,.0f} items/s; grade {graded['seconds']:.2f} s "
                f"(load {graded['timings']['load']:.2f}, grade {graded['timings']['grade']:.2f}, save {graded['timings']['save']:.2f}); "
                f"orjson floor {floor_s:.2f} s (load {floor['load']:.2f}, dump {floor['dump']:.2f}); "
                f"ratio {graded['seconds'] / floor_s:.2f} (target <= 1.5); "
                f"peak memory {peak_bytes / 1e6:.0f} MB = {peak_bytes / input_bytes:.2f}x input (target <= 2); "
                f"orjson alone holding the parsed inputs peaks at {floor['load_peak_kb'] * 1024 / input_bytes:.2f}x input"
            )


if __name__ == "__main__":
    main()
