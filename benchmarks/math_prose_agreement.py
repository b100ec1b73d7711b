"""``math_matching`` on math answers written as prose: ``python benchmarks/math_prose_agreement.py``.

Prints, for each blind-written prose set in ``tests/data/math/math_prose*.json``
(each split into ``dev``, read while the sentence rules were written, and
``test``, only scored), how many scores agree with the human label (within
0.01) and how long reading and grading the items took.

``--by-category`` adds the per-category counts; ``--misses`` lists the ``dev``
items that disagree. Item texts of the ``test`` split are never printed.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from scorers.evaluate.mathmatch import math_matching

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "math"


def agreement(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement of ``math_matching`` with the labels of ``items`` (answer, reference, label)."""
    agree = 0
    size: Counter[str] = Counter()
    right: Counter[str] = Counter()
    misses: list[str] = []
    for item in items:
        outcome = math_matching(item["answer"], answer=item["reference"])
        ok = abs(outcome.score - item["label"]) < 0.01
        agree += ok
        category = item.get("category", "all")
        size[category] += 1
        right[category] += ok
        if not ok:
            misses.append(
                f"{item['id']} ({category}): read {outcome.extracted!r}, "
                f"score {outcome.score:g}, label {item['label']:g}"
            )
    return {
        "n": len(items),
        "agree": agree,
        "by_category": {c: (right[c], size[c]) for c in sorted(size)},
        "misses": misses,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-category", action="store_true", help="per-category counts")
    parser.add_argument("--misses", action="store_true", help="list the dev items that disagree")
    args = parser.parse_args(argv)
    for path in sorted(DATA.glob("math_prose*.json")):
        items = json.loads(path.read_text(encoding="utf-8"))
        for split in ("dev", "test"):
            part = [i for i in items if i["split"] == split]
            start = time.perf_counter()
            figures = agreement(part)
            elapsed = time.perf_counter() - start
            n = figures["n"]
            print(
                f"{path.name} {split}: {figures['agree']}/{n} agree with the label "
                f"({100 * figures['agree'] / max(1, n):.1f}%), {1000 * elapsed / max(1, n):.2f} ms/item"
            )
            if args.by_category:
                print(
                    "   ",
                    ", ".join(f"{c} {a}/{k}" for c, (a, k) in figures["by_category"].items()),
                )
            if args.misses and split == "dev":
                for miss in figures["misses"]:
                    print("    miss:", miss)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
