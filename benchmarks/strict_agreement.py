"""Strict mode against careful human labels: ``python benchmarks/strict_agreement.py``.

Prints, for each batch of blind-written hard cases
(``tests/data/strict/blind_hard_cases*.json``, batches 1-7, each split into ``dev``, which
the rules were tuned on, and ``test``, which was only scored) and for the team's own hard cases (``hard_cases.json``):

- overall agreement: the strict score equals the human label;
- the share of verdicts carrying ``uncertain`` (the ``rule_uncertain`` flag:
  strict mode says it cannot decide, and the item joins the review queue);
- agreement on the verdicts without it.

``--by-category`` adds the per-category counts. Item texts of the ``test`` split
are never printed.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from scorers.errors import EvaluatorError
from scorers.evaluate import strict

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "strict"
BATCHES = (
    ("blind hard cases", "blind_hard_cases.json"),
    ("blind hard cases 2", "blind_hard_cases2.json"),
    ("blind hard cases 3", "blind_hard_cases3.json"),
    ("blind hard cases 4", "blind_hard_cases4.json"),
    ("blind hard cases 5", "blind_hard_cases5.json"),
    ("blind hard cases 6", "blind_hard_cases6.json"),
    ("blind hard cases 7", "blind_hard_cases7.json"),
    ("blind hard cases 8", "blind_hard_cases8.json"),
    ("blind hard cases 9", "blind_hard_cases9.json"),
    ("blind hard cases 10", "blind_hard_cases10.json"),
    ("blind hard cases 11", "blind_hard_cases11.json"),
    ("blind hard cases 12", "blind_hard_cases12.json"),
    ("blind hard cases 13", "blind_hard_cases13.json"),
    ("blind hard cases 14", "blind_hard_cases14.json"),
    ("blind hard cases 15", "blind_hard_cases15.json"),
    ("blind hard cases 16", "blind_hard_cases16.json"),
    ("blind hard cases 17", "blind_hard_cases17.json"),
    ("blind hard cases 18", "blind_hard_cases18.json"),
    ("blind hard cases 19", "blind_hard_cases19.json"),
    ("blind hard cases 20", "blind_hard_cases20.json"),
    ("blind hard cases 21", "blind_hard_cases21.json"),
    ("blind hard cases 22", "blind_hard_cases22.json"),
    ("blind hard cases 23", "blind_hard_cases23.json"),
    ("blind hard cases 24", "blind_hard_cases24.json"),
    ("blind hard cases 25", "blind_hard_cases25.json"),
    ("blind hard cases 26", "blind_hard_cases26.json"),
    ("blind hard cases 27", "blind_hard_cases27.json"),
    ("blind hard cases 28", "blind_hard_cases28.json"),
)


def score(cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement figures of strict mode on ``cases`` (answer, evaluator, kwargs, label)."""
    agree = uncertain = agree_sure = refused = 0
    by_category: Counter[str] = Counter()
    size: Counter[str] = Counter()
    for case in cases:
        try:
            outcome = strict.evaluate(
                case["evaluator"], case["kwargs"], case["answer"], case.get("question")
            )
        except EvaluatorError:
            # A grade run reports such a record as an error and gives it no score:
            # counted here as a disagreement, sure, and named on the line.
            refused += 1
            right = doubt = False
        else:
            right = outcome.score == case["label"]
            doubt = outcome.uncertain is not None
        agree += right
        uncertain += doubt
        agree_sure += right and not doubt
        category = case.get("category", "all")
        size[category] += 1
        by_category[category] += right
    n = len(cases)
    return {
        "n": n,
        "agree": agree,
        "uncertain": uncertain,
        "agree_sure": agree_sure,
        "sure": n - uncertain,
        "refused": refused,
        "by_category": {c: (by_category[c], size[c]) for c in sorted(size)},
    }


def line(name: str, figures: dict[str, Any]) -> str:
    n, sure = figures["n"], figures["sure"]
    return (
        f"{name}: overall {figures['agree']}/{n} ({100 * figures['agree'] / n:.1f}%), "
        f"uncertain {figures['uncertain']}/{n} ({100 * figures['uncertain'] / n:.1f}%), "
        f"agree without uncertain {figures['agree_sure']}/{sure} "
        f"({100 * figures['agree_sure'] / max(1, sure):.1f}%)"
        + (f", refused {figures['refused']}" if figures["refused"] else "")
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--by-category", action="store_true", help="per-category counts")
    args = parser.parse_args(argv)
    own = json.loads((DATA / "hard_cases.json").read_text(encoding="utf-8"))
    for name, batch in BATCHES:
        blind = json.loads((DATA / batch).read_text(encoding="utf-8"))
        for split in ("dev", "test"):
            figures = score([c for c in blind if c["split"] == split])
            print(line(f"{name}, {split}", figures))
            if args.by_category:
                counts = figures["by_category"].items()
                print("   ", ", ".join(f"{c} {a}/{n}" for c, (a, n) in counts))
    print(line("team hard cases", score(own)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
