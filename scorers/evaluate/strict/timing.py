"""Per-call cost of strict grading on a realistic mix: ``python -m scorers.evaluate.strict.timing``.

Each item is a reasoning-model response (a ``<think>`` block of about 4 KB, a
short write-up, then the final answer) for one of the seven evaluators. The
figure is printed beside rome mode's cost on the same items and beside the
floor every grading run pays anyway: orjson parsing and dumping the same
records. ``--n`` sets the number of items. CPU time is printed beside wall
time: on a shared machine, wall time also counts the waits for a core.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import orjson

from scorers.evaluate import rome, strict

_ITEMS: list[tuple[str, dict[str, Any], str]] = [
    ("choices_matching", {"label": "C"}, "Final Answer: C"),
    ("choices_matching", {"label": "B"}, "**Final Answer:** Option B"),
    ("choices_matching", {"label": "A,C"}, "Final Answer: A, C"),
    (
        "number_matching",
        {"value_to_match": 3},
        "Therefore, there are 3 airlines.\n\nFinal Answer: 3",
    ),
    ("number_matching", {"value_to_match": 2.25}, "Final Answer: $\\boxed{\\frac{9}{4}}$"),
    ("number_matching", {"value_to_match": 1234}, "Final Answer: 1,234 m^2"),
    ("ordered_list_matching", {"order": ["C", "D", "A", "B"]}, "**Final Answer: C, D, A, B**"),
    ("ordered_list_matching", {"order": ["C", "D", "A", "B"]}, "Final Answer: C → D → A → B"),
    (
        "key_items_matching",
        {"key_items": [["Monterrey"], ["Seattle Sounders"]]},
        "Monterrey play in Los Angeles, and the Seattle Sounders in Seattle.",
    ),
    (
        "location_matching",
        {"location_fine_grained": ["Tokyo Disney"], "location_coarse_grained": ["Tokyo"]},
        "\nFinal Answer: Tokyo DisneySea, Japan",
    ),
    ("interval_matching", {"interval": [10, 15], "units": ["km"]}, "Final Answer: 12 km"),
]
_REASONING = "Let me look at the image carefully and count what I see. " * 70
_WRITE_UP = "The figure shows several labelled parts; comparing them gives the result. " * 4


def _records(n: int) -> list[dict[str, Any]]:
    out = []
    for i in range(n):
        evaluator, kwargs, answer = _ITEMS[i % len(_ITEMS)]
        response = f"<think>{_REASONING}</think>\n{_WRITE_UP}\n\n{answer}"
        out.append(
            {
                "question_id": f"q{i}",
                "answer": response,
                "evaluator": evaluator,
                "evaluator_kwargs": kwargs,
            }
        )
    return out


def _time(func: Callable[[], object], repeat: int = 3) -> tuple[float, float]:
    """The best (wall, CPU) seconds of ``repeat`` runs."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        func()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    return best, best_cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20_000, help="items (default 20000)")
    args = parser.parse_args(argv)
    records = _records(args.n)
    blob = orjson.dumps(records)

    def floor() -> None:
        orjson.dumps(orjson.loads(blob))

    def grade(evaluate: Callable[[str, dict[str, Any], str], Any]) -> Callable[[], None]:
        def run() -> None:
            for r in records:
                evaluate(r["evaluator"], r["evaluator_kwargs"], r["answer"])

        return run

    t_floor, c_floor = _time(floor)
    t_strict, c_strict = _time(grade(strict.evaluate))
    t_rome, c_rome = _time(grade(rome.evaluate))
    n = len(records)
    print(f"items: {n}, {len(blob) / n:.0f} bytes each as JSON")
    print(
        f"orjson load+dump: {t_floor / n * 1e6:.2f} us/item (the floor), "
        f"CPU {c_floor / n * 1e6:.2f} us"
    )
    for name, wall, cpu in (("strict", t_strict, c_strict), ("rome", t_rome, c_rome)):
        print(
            f"{name + ':':7} {wall / n * 1e6:.2f} us/call = {wall / t_floor:.2f}x the floor; "
            f"CPU {cpu / n * 1e6:.2f} us = {cpu / c_floor:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
