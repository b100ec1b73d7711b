"""Precision and recall of the no-LLM behaviour flags on a labelled set.

Usage: .venv/bin/python benchmarks/flags_precision_recall.py [--data PATH] [--errors] [--batches A-B]

The labelled set (default tests/data/flags/labelled.json) is a JSON object
with ``items``: ROME-style records (``reason``, ``answer``, ``evaluator``,
``evaluator_kwargs``, ``reference``, optional ``tools_available``) plus
``expected``, the set of flag kinds a careful reader would raise. A held-out
set in the same shape can be passed with ``--data``. Prints, per flag kind,
TP/FP/FN, precision and recall, and with ``--errors`` every miss and false
alarm with the evidence. ``--batches 18-25`` keeps only the items of those blind
batches (their notes open "blind batch N ").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorers.flags import behaviour as flags  # noqa: E402
from scorers.flags.flagging import FlagContext  # noqa: E402
from scorers.io.jsonio import parse_json, read_bytes  # noqa: E402
from scorers.records import HEURISTIC_FLAG_KINDS, response_texts  # noqa: E402


def as_record(item: dict[str, Any]) -> dict[str, Any]:
    record = {k: v for k, v in item.items() if k not in ("expected", "note", "id")}
    record["question_id"] = item.get("id", item.get("question_id"))
    return record


def run(items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], set[str], list[Any]]]:
    out = []
    for item in items:
        record = as_record(item)
        found = list(flags.detect(record, response_texts(record), FlagContext()))
        out.append((item, {f["kind"] for f in found}, found))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--data", type=Path, default=ROOT / "tests" / "data" / "flags" / "labelled.json"
    )
    parser.add_argument("--errors", action="store_true", help="list false alarms and misses")
    parser.add_argument("--batches", help="only these blind batches, e.g. 18-25")
    args = parser.parse_args(argv)
    data = parse_json(read_bytes(args.data), args.data)
    items = data["items"] if isinstance(data, dict) else data
    if args.batches:
        first, _, last = args.batches.partition("-")
        try:
            wanted = range(int(first), int(last or first) + 1)
        except ValueError:
            parser.error(f"--batches wants N or A-B, got {args.batches!r}")
        notes = tuple(f"blind batch {n} " for n in wanted)
        items = [i for i in items if str(i.get("note", "")).startswith(notes)]
    results = run(items)
    print(f"{len(items)} labelled items from {args.data}")
    print(f"{'flag':38} {'pos':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}")
    worst = 1.0
    for kind in HEURISTIC_FLAG_KINDS:
        tp = sum(1 for item, got, _ in results if kind in got and kind in item["expected"])
        fp = sum(1 for item, got, _ in results if kind in got and kind not in item["expected"])
        fn = sum(1 for item, got, _ in results if kind not in got and kind in item["expected"])
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        worst = min(worst, precision, recall)
        print(f"{kind:38} {tp + fn:4d} {tp:4d} {fp:4d} {fn:4d} {precision:9.3f} {recall:7.3f}")
    exact = sum(1 for item, got, _ in results if got == set(item["expected"]))
    print(
        f"items with exactly the expected flags: {exact}/{len(items)}; lowest precision or recall: {worst:.3f}"
    )
    if args.errors:
        for item, got, found in results:
            expected = set(item["expected"])
            if got == expected:
                continue
            print(f"\n{item.get('id')}: expected {sorted(expected)} got {sorted(got)}")
            for f in found:
                if f["kind"] not in expected:
                    print(f"  FP {f['kind']}: {f.get('detail')!s:.160}")
                    for ev in f["evidence"]:
                        print(f"     {ev['field']}[{ev['start']}:{ev['end']}] {ev['text']!r:.200}")
            for kind in sorted(expected - got):
                print(f"  FN {kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
