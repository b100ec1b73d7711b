"""How far two careful graders agree on the hard cases, and strict mode with each.

Usage: .venv/bin/python benchmarks/strict_label_agreement.py

``tests/data/strict_agreement/second_labels.json`` holds a second, independent grader's
labels of the ``test`` halves of ``blind_hard_cases3.json`` and ``blind_hard_cases4.json``;
``second_labels_b15_20.json`` two more graders' labels of the ``test`` halves of batches
15-18 and of both halves of batches 19 and 20, ``second_labels_b23_24.json`` another grader's
labels of both halves of batches 23 and 24 (each grader saw each item's question,
evaluator, reference and answer: neither the first labels nor strict mode, its docs or its
verdicts). No rule was written from these labels;
only the aggregate figures below are printed, never an item. For each batch: how often
the two graders agree, and strict mode's agreement (overall, and on its verdicts without
``rule_uncertain``) with the first grader, with the second, and on the items where both
graders agree. Where two careful graders disagree on an item, no grader of either kind
can agree with both.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorers.evaluate import strict  # noqa: E402

DATA = ROOT / "tests" / "data" / "strict"
SECOND = ROOT / "tests" / "data" / "strict_agreement"
# Each file of second labels, with the batches it labels.
SECONDS = (
    ("second_labels.json", (3, 4)),
    ("second_labels_b15_20.json", (15, 16, 17, 18, 19, 20)),
    ("second_labels_b23_24.json", (23, 24)),
)


def _same(a: float, b: float) -> bool:
    return abs(a - b) < 0.01


def _share(hits: int, n: int) -> str:
    return f"{hits}/{n} ({100 * hits / n:.1f}%)" if n else "-"


def report(cases: list[dict[str, Any]], second: dict[str, float]) -> list[str]:
    """The figures of one batch's doubly-graded cases, one cell each."""
    rows = []
    for case in cases:
        outcome = strict.evaluate(
            case["evaluator"], case["kwargs"], case["answer"], case.get("question")
        )
        rows.append((case["label"], second[case["id"]], outcome.score, outcome.uncertain is None))
    humans = sum(_same(a, b) for a, b, _, _ in rows)
    cells = [str(len(rows)), _share(humans, len(rows))]
    for pick in (0, 1):
        agree = sum(_same(r[pick], r[2]) for r in rows)
        sure = [r for r in rows if r[3]]
        cells.append(
            f"{_share(agree, len(rows))}; sure {_share(sum(_same(r[pick], r[2]) for r in sure), len(sure))}"
        )
    both = [r for r in rows if _same(r[0], r[1])]
    sure_both = [r for r in both if r[3]]
    cells.append(
        f"{_share(sum(_same(r[0], r[2]) for r in both), len(both))}; "
        f"sure {_share(sum(_same(r[0], r[2]) for r in sure_both), len(sure_both))}"
    )
    return cells


def _cases(batch: int) -> list[dict[str, Any]]:
    data = json.loads((DATA / f"blind_hard_cases{batch}.json").read_text(encoding="utf-8"))
    return data["items"] if isinstance(data, dict) else data


def main() -> int:
    print(
        "| batch (half) | items | graders agree | strict vs first | strict vs second "
        "| strict where both graders agree |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for file, batches in SECONDS:
        labels = json.loads((SECOND / file).read_text(encoding="utf-8"))
        second = {row["id"]: float(row["label"]) for row in labels["items"]}
        for batch in batches:
            for split in ("dev", "test"):
                cases = [c for c in _cases(batch) if c["split"] == split and c["id"] in second]
                if cases:
                    print(f"| {batch} ({split}) | " + " | ".join(report(cases, second)) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
