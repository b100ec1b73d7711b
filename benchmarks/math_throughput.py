"""Throughput of the ``math_matching`` evaluator against a parsing floor.

    .venv/bin/python benchmarks/math_throughput.py [--n 10000] [--limit 5] [--slow 0] [--seed 1]

Generates ``--n`` MathReal-style items (a reference, a question type and a
model response of a few hundred characters ending in the answer) with a fixed
mix: single numbers with and without units, fractions vs decimals, surds and
pi, thousands separators, multi-part answers with labelled blanks, "or"
alternatives, points, ranges, multiple choice, polynomial and equation answers,
trigonometric and exponential forms, and about 2% answers only sympy settles
(complex numbers, which go to math-verify). About a third of the answers are wrong.
``--slow N`` adds N pathological items that sympy cannot finish, to show the
per-item time limit (``--limit`` seconds) at work.

Measures, in this process: the floor (orjson load of the item file plus
``float()`` on every reference, which is the least any grader must do), then
grading every item with ``math_matching``. Prints total time, items/s, the
ratio grading / floor, how many items reached math-verify and how many hit the
time limit. The target is 10,000 items in under 30 s on one core.
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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorers.evaluate.mathmatch import math_matching, mvpool, set_time_limit  # noqa: E402

FILLER = (
    "Let me read the figure carefully. The side lengths are marked on the photo. "
    "Using the formula for the area and checking the units again, we substitute the values. "
)
UNITS = ["cm", "m", "cm^2", "dm^3", "mL", "kg", "元", "平方厘米", "立方分米", "km/h"]


def _wrap(rng: random.Random, answer: str) -> str:
    style = rng.random()
    body = FILLER * rng.randint(1, 4)
    if style < 0.6:
        return f"{body}\nSo the result is $\\boxed{{{answer}}}$."
    if style < 0.8:
        return f"{body}\nFinal answer: {answer}"
    return f"{body}\nThe answer is {answer}"


def _number(rng: random.Random) -> tuple[str, str]:
    a = rng.randint(1, 5000)
    kind = rng.random()
    if kind < 0.3:
        d, n = rng.randint(2, 9), rng.randint(1, 20)
        ref, good = f"\\frac{{{n}}}{{{d}}}", f"{n / d:.10g}" if (10**6 * n) % d == 0 else f"{n}/{d}"
    elif kind < 0.5:
        ref, good = f"{a * 1000:,}", str(a * 1000)
    elif kind < 0.7:
        root = rng.choice([2, 3, 5])
        ref, good = f"{a}\\sqrt{{{root}}}", f"{a}√{root}"
    else:
        ref, good = str(a / 4), f"{a}/4"
    return ref, good


def _item(rng: random.Random, i: int) -> dict[str, Any]:
    wrong = rng.random() < 0.33
    kind = rng.random()
    qtype = "FillInTheBlank"
    if kind < 0.30:
        ref, good = _number(rng)
        if rng.random() < 0.5:
            unit = rng.choice(UNITS)
            ref, good = f"{ref}{unit}", f"{good} {unit}"
        answer = good if not wrong else f"{rng.randint(1, 99)}"
    elif kind < 0.45:
        qtype = "ConstructedResponse"
        blanks = [_number(rng) for _ in range(rng.randint(2, 3))]
        ref = ";\n".join(f"({k + 1}){r}" for k, (r, _) in enumerate(blanks))
        goods = [g for _, g in blanks]
        if wrong:
            goods[-1] = "0"
        answer = "}, \\boxed{".join(goods)
    elif kind < 0.55:
        qtype = "MultipleChoice"
        ref = rng.choice("ABCD")
        answer = (
            rng.choice([ref, f"{ref}. the second option", f"Option {ref}"])
            if not wrong
            else rng.choice(["A and C", "B", "D"])
        )
    elif kind < 0.65:
        x, y = rng.randint(-20, 20), rng.randint(-20, 20)
        if rng.random() < 0.5:
            ref, answer = f"{x}或{y}", f"x = {y} or x = {x}" if not wrong else f"{x}"
        else:
            ref, answer = (
                f"({x},{y}),({y},{x})",
                f"({y}, {x}), ({x}, {y})" if not wrong else f"({x}, {y + 1})",
            )
    elif kind < 0.75:
        a, b = sorted(rng.sample(range(-30, 30), 2))
        ref = f"{a}\\le x<{b}"
        answer = f"[{a}, {b})" if not wrong else f"({a}, {b})"
    elif kind < 0.85:
        a, b = rng.randint(2, 9), rng.randint(1, 9)
        ref = f"(x+{b})^2+{a}"
        answer = f"x^2+{2 * b}x+{b * b + a}" if not wrong else f"x^2+{b}x+{a}"
    elif kind < 0.93:
        a, b = rng.randint(2, 9), rng.randint(1, 9)
        ref = f"y={a}x+{b}"
        answer = f"y = {b} + {a}x" if not wrong else f"y = {a}x - {b}"
    elif kind < 0.98:
        a, b = rng.randint(2, 60), rng.randint(2, 60)
        ref = f"{a}\\sin(x)+e^{{{b}x}}"
        answer = f"e^{{{b} x}} + \\sin(x)\\cdot {a}" if not wrong else f"{a}\\cos(x)+e^{{{b}x}}"
    else:
        a, b = rng.randint(2, 99), rng.randint(2, 99)
        ref = f"{a}+{b}i"
        answer = f"{b}i+{a}" if not wrong else f"{b}+{a}i"
    return {"id": i, "answer": ref, "question_type": qtype, "response": _wrap(rng, answer)}


def _slow_item(i: int) -> dict[str, Any]:
    ref = f"i+\\frac{{(x+y+z)^{{{40 + i}}}}}{{(x-y)^{{20}}}}"
    pred = f"i+\\frac{{(x+y+z)^{{{41 + i}}}}}{{(x-y)^{{21}}}}"
    return {
        "id": f"slow{i}",
        "answer": ref,
        "question_type": "FillInTheBlank",
        "response": f"\\boxed{{{pred}}}",
    }


def _floor(path: Path) -> float:
    start = time.perf_counter()
    items = orjson.loads(path.read_bytes())
    parsed = 0
    for item in items:
        try:
            float(item["answer"])
            parsed += 1
        except ValueError:
            pass
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10000, help="number of items (default 10000)")
    parser.add_argument("--limit", type=float, default=5.0, help="per-item time limit in seconds")
    parser.add_argument("--slow", type=int, default=0, help="pathological items to add")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    items = [_item(rng, i) for i in range(args.n)] + [_slow_item(i) for i in range(args.slow)]
    set_time_limit(args.limit)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "math_items.json"
        path.write_bytes(orjson.dumps(items))
        # Start a math-verify worker first: its start-up is paid once per process
        # and never counts against an item's time limit.
        t0 = time.perf_counter()
        mvpool.pool().equal("1", "1", 120)
        startup = time.perf_counter() - t0
        floor = min(_floor(path) for _ in range(3))

        start = time.perf_counter()
        loaded = orjson.loads(path.read_bytes())
        total = strict = 0.0
        timed_out = 0
        slowest = (0.0, "")
        for item in loaded:
            t = time.perf_counter()
            out = math_matching(
                item["response"], answer=item["answer"], question_type=item["question_type"]
            )
            took = time.perf_counter() - t
            slowest = max(slowest, (took, str(item["id"])))
            total += out.score
            strict += out.strict or 0.0
            timed_out += out.note is not None and "timed out" in out.note
        elapsed = time.perf_counter() - start

    pool = mvpool.pool()
    n = len(items)
    print(f"items: {n} ({args.slow} pathological), per-item limit {args.limit:g} s")
    print(f"math-verify worker start-up (once, not timed below): {startup:.2f} s")
    print(f"floor (orjson load + float parse): {floor * 1000:.1f} ms")
    print(
        f"grading: {elapsed:.2f} s, {n / elapsed:,.0f} items/s, ratio to floor {elapsed / floor:,.0f}x"
    )
    print(f"mean partial score {total / n:.3f}, strict accuracy {strict / n:.3f}")
    print(f"items reaching math-verify: {pool.calls} calls; timed out: {timed_out} item(s)")
    print(f"slowest item: {slowest[1]} ({slowest[0] * 1000:.0f} ms)")
    print("target: 10,000 items under 30 s ->", "met" if n < 10000 or elapsed < 30 else "NOT met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
