"""How far two careful human labellers agree on the flags, and the detectors with each.

Usage: .venv/bin/python benchmarks/flags_label_agreement.py
       [--test | --rt11 | --rt12 | --mixed | --strata]

``tests/data/flags_agreement/second_labels.json`` holds a second, independent labeller's reading of
dev items of the real-trace sets (the labeller saw only each item's question, reference,
reasoning and answer: neither the first labels nor the detectors). For each kind the
second labeller read, this prints the two humans' agreement (the second labeller's
precision and recall against the first, and Cohen's kappa) beside the detectors'
precision and recall against each labeller and on the items both humans agree on. The
humans' agreement is the ceiling any detector can be measured against: a kind on which
two careful people agree at F1 0.7 cannot be scored at precision 0.9 and recall 0.8
against either of them except by chance.

The items were drawn as every dev item the first labeller marked with a contradiction or
a hedge plus as many unmarked dev items of the same set, so precisions here are those of
that mix, not of the sets' own mix.

``--test`` reads ``second_labels_test.json`` instead: another second labeller's reading of
the whole test halves of real_traces5 and real_traces6 (so precisions there are of the
sets' own mix). It prints the same aggregates and never an item.

``--rt11`` and ``--rt12`` read ``second_labels_rt11.json`` and ``second_labels_rt12.json``:
other second labellers' readings of both halves of real_traces11 and real_traces12 (each set's
own mix; the aggregates pool dev and test and name no item).

``--mixed`` reads ``second_labels_mixed.json``: 110 items of both halves of all the real-trace
sets, drawn from the first labeller's contradictions and hedges, the detectors' false alarms of
either kind and items nobody marked, read for contradictions and hedges only. The detectors'
column against the second reader says whether their false alarms are false to another reader too.

``--strata`` reads ``second_labels_test_strata.json``: 280 items of the test halves of all the
real-trace sets, drawn in four equal-chance groups (first labeller and detectors both marked a
contradiction or hedge; only the first labeller; only the detectors; neither), read for every
kind by two more labellers. Like ``--mixed``, its precisions are of that mix.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from flags_precision_recall import DATA, run  # noqa: E402

from scorers.io.jsonio import parse_json, read_bytes  # noqa: E402

SECOND_DIR = ROOT / "tests" / "data" / "flags_agreement"
KINDS = ("answer_contradicts_reasoning", "hedged_reasoning_certain_answer", "abstained")
# option -> (file, what it covers, the kinds its labeller read)
READINGS = {
    "dev": ("second_labels.json", "dev splits of the real-trace sets", KINDS),
    "test": ("second_labels_test.json", "test halves of real_traces5-6", KINDS),
    "rt11": ("second_labels_rt11.json", "both halves of real_traces11", KINDS),
    "rt12": ("second_labels_rt12.json", "both halves of real_traces12", KINDS),
    "mixed": (
        "second_labels_mixed.json",
        "both halves of all real-trace sets: first positives, detector false alarms, others",
        KINDS[:2],
    ),
    "strata": (
        "second_labels_test_strata.json",
        "test halves of all real-trace sets, drawn by who marked a contradiction or hedge",
        KINDS,
    ),
}


def _items() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(DATA.glob("*.json")):
        data = parse_json(read_bytes(path), str(path))
        if isinstance(data, dict) and "items" in data:
            found.update({item["id"]: item for item in data["items"] if "expected" in item})
    return found


def scores(reference: list[bool], said: list[bool]) -> tuple[float, float, int]:
    """(precision, recall, positives) of ``said`` against ``reference``."""
    tp = sum(r and s for r, s in zip(reference, said, strict=True))
    fp = sum(s and not r for r, s in zip(reference, said, strict=True))
    fn = sum(r and not s for r, s in zip(reference, said, strict=True))
    return (tp / (tp + fp) if tp + fp else 1.0, tp / (tp + fn) if tp + fn else 1.0, tp + fn)


def kappa(a: list[bool], b: list[bool]) -> float:
    """Cohen's kappa of two yes/no readings of the same items."""
    n = len(a)
    observed = sum(x == y for x, y in zip(a, b, strict=True)) / n
    pa, pb = sum(a) / n, sum(b) / n
    chance = pa * pb + (1 - pa) * (1 - pb)
    return (observed - chance) / (1 - chance) if chance < 1 else 1.0


def _cell(figures: tuple[float, float, int]) -> str:
    precision, recall, positives = figures
    return f"{precision:.2f} / {recall:.2f} ({positives})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    choice = parser.add_mutually_exclusive_group()
    for name, (_, where, _) in READINGS.items():
        if name != "dev":
            choice.add_argument(
                f"--{name}", dest="reading", action="store_const", const=name, help=where
            )
    parser.set_defaults(reading="dev")
    args = parser.parse_args(argv)
    filename, where, kinds = READINGS[args.reading]
    path = SECOND_DIR / filename
    second = parse_json(read_bytes(path), str(path))
    items = _items()
    labelled = [(items[row["id"]], set(row["kinds"])) for row in second["items"]]
    detected = {item["id"]: got for item, got, _ in run([item for item, _ in labelled])}
    print(f"{len(labelled)} items read by both labellers ({where})\n")
    print(
        "| kind | second vs first: precision / recall (first's positives) | kappa "
        "| detectors vs first | detectors vs second | detectors where both agree (items) |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for kind in kinds:
        first = [kind in item["expected"] for item, _ in labelled]
        other = [kind in kinds for _, kinds in labelled]
        machine = [kind in detected[item["id"]] for item, _ in labelled]
        agreed = [i for i, (x, y) in enumerate(zip(first, other, strict=True)) if x == y]
        both = scores([first[i] for i in agreed], [machine[i] for i in agreed])
        print(
            f"| `{kind}` | {_cell(scores(first, other))} | {kappa(first, other):.2f} "
            f"| {_cell(scores(first, machine))} | {_cell(scores(other, machine))} "
            f"| {_cell(both)} ({len(agreed)}) |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
