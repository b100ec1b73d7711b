"""Precision and recall of the no-LLM behaviour flags on the labelled sets.

Usage: .venv/bin/python benchmarks/flags_precision_recall.py [--data PATH ...] [--split test]
                                                             [--errors] [--markdown]

Every labelled set (default: each ``tests/data/flags/*.json``) is a JSON object with
``items``: ROME-style records (``reason``, ``answer``, ``evaluator``,
``evaluator_kwargs``, ``reference``, optional ``tools_available``) plus ``expected``,
the set of flag kinds a careful reader would raise, and ``split``: ``dev`` (rules may
be written from it) or ``test`` (frozen: only scored). Prints, per set and split, each
flag kind's positives, TP/FP/FN, precision and recall. ``--errors`` lists the misses and
false alarms of the ``dev`` split only: the test items are never read to write rules.
``--markdown`` prints one table instead: per kind and set, precision / recall (positives),
or the count of false alarms on a set with no positives, and a last column pooling every
``real_traces*`` set given. ``--by-confidence`` pools the sets given (default: the
``real_traces*`` sets) and prints, per kind and ``confidence``, how many raised flags the
labels hold.
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
from scorers.records import HEURISTIC_FLAG_KINDS, Flag, response_texts  # noqa: E402

DATA = ROOT / "tests" / "data" / "flags"
_NOT_RECORD = ("expected", "note", "id", "split", "label_note", "source", "style")


def as_record(item: dict[str, Any]) -> dict[str, Any]:
    record = {k: v for k, v in item.items() if k not in _NOT_RECORD}
    record["question_id"] = item.get("id", item.get("question_id"))
    return record


def run(items: list[dict[str, Any]]) -> list[tuple[dict[str, Any], set[str], list[Flag]]]:
    out = []
    for item in items:
        record = as_record(item)
        found = list(flags.detect(record, response_texts(record), FlagContext()))
        out.append((item, {f["kind"] for f in found}, found))
    return out


def table(results: list[tuple[dict[str, Any], set[str], list[Flag]]]) -> dict[str, tuple[int, ...]]:
    """Per kind: positives, TP, FP, FN."""
    rows = {}
    for kind in HEURISTIC_FLAG_KINDS:
        tp = sum(1 for item, got, _ in results if kind in got and kind in item["expected"])
        fp = sum(1 for item, got, _ in results if kind in got and kind not in item["expected"])
        fn = sum(1 for item, got, _ in results if kind not in got and kind in item["expected"])
        rows[kind] = (tp + fn, tp, fp, fn)
    return rows


def ratio(a: int, b: int) -> float:
    return a / b if b else 1.0


def print_table(title: str, results: list[tuple[dict[str, Any], set[str], list[Flag]]]) -> None:
    print(f"\n{title}: {len(results)} items")
    print(f"{'flag':38} {'pos':>4} {'TP':>4} {'FP':>4} {'FN':>4} {'precision':>9} {'recall':>7}")
    for kind, (pos, tp, fp, fn) in table(results).items():
        precision, recall = ratio(tp, tp + fp), ratio(tp, tp + fn)
        print(f"{kind:38} {pos:4d} {tp:4d} {fp:4d} {fn:4d} {precision:9.2f} {recall:7.2f}")


def print_errors(results: list[tuple[dict[str, Any], set[str], list[Flag]]]) -> None:
    for item, got, found in results:
        expected = set(item["expected"])
        if got == expected:
            continue
        print(f"\n{item.get('id')}: expected {sorted(expected)} got {sorted(got)}")
        for f in found:
            if f["kind"] not in expected:
                print(f"  FP {f['kind']} ({f.get('confidence')}): {f.get('detail')!s:.160}")
                for ev in f["evidence"]:
                    print(f"     {ev['field']}[{ev['start']}:{ev['end']}] {ev['text']!r:.200}")
        for kind in sorted(expected - got):
            print(f"  FN {kind}")


def print_markdown(paths: list[Path], split: str, *, by_set: bool = False) -> None:
    """Kinds down, sets across ("precision / recall (positives)", or the false alarms of a
    kind a set has no positives of); ``by_set``: sets down, kinds across."""
    columns = []
    # The real-trace sets hold 1 to 26 positives of a kind each: pooled, a figure rests on more.
    pooled: dict[str, list[list[dict[str, Any]]]] = {}
    for path in paths:
        data = parse_json(read_bytes(path), path)
        items = data["items"] if isinstance(data, dict) else data
        for part in ("dev", "test") if split == "all" else (split,):
            chosen = [i for i in items if i.get("split", "test") == part]
            if chosen:
                columns.append((f"{path.stem} {part} ({len(chosen)})", table(run(chosen))))
                if path.stem.startswith("real_traces"):
                    pooled.setdefault(part, []).append(chosen)
    for part, sets in pooled.items():
        if len(sets) > 1:
            chosen = [item for one in sets for item in one]
            columns.append((f"all real traces {part} ({len(chosen)})", table(run(chosen))))
    cells: dict[str, list[str]] = {}
    for kind in HEURISTIC_FLAG_KINDS:
        for _, rows in columns:
            pos, tp, fp, fn = rows[kind]
            precision = f"{ratio(tp, tp + fp):.2f}" if tp + fp else "-"
            cells.setdefault(kind, []).append(
                f"{precision} / {ratio(tp, pos):.2f} ({pos})" if pos else f"{fp} FP (0)"
            )
    if by_set:
        print("| set | " + " | ".join(f"`{kind}`" for kind in HEURISTIC_FLAG_KINDS) + " |")
        print("| --- |" + " --- |" * len(HEURISTIC_FLAG_KINDS))
        for i, (name, _) in enumerate(columns):
            print(f"| {name} | " + " | ".join(cells[k][i] for k in HEURISTIC_FLAG_KINDS) + " |")
        return
    print("| flag | " + " | ".join(name for name, _ in columns) + " |")
    print("| --- |" + " --- |" * len(columns))
    for kind in HEURISTIC_FLAG_KINDS:
        print(f"| `{kind}` | " + " | ".join(cells[kind]) + " |")


def print_by_confidence(paths: list[Path], split: str) -> None:
    """Per kind and confidence, the flags raised that the labels hold, pooled over ``paths``."""
    chosen = []
    for path in paths:
        data = parse_json(read_bytes(path), path)
        items = data["items"] if isinstance(data, dict) else data
        chosen += [i for i in items if split == "all" or i.get("split", "test") == split]
    right: dict[tuple[str, str], list[bool]] = {}
    for item, _, found in run(chosen):
        for flag in found:
            key = (flag["kind"], str(flag.get("confidence")))
            right.setdefault(key, []).append(flag["kind"] in item["expected"])
    print(f"{len(chosen)} items of {len(paths)} set(s), {split} split(s)")
    print("| flag | confidence | right / raised |")
    print("| --- | --- | --- |")
    for (kind, confidence), hits in sorted(right.items()):
        print(
            f"| `{kind}` | {confidence} | {sum(hits)} / {len(hits)} ({sum(hits) / len(hits):.2f}) |"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, nargs="*", help="labelled sets (default: all)")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="all")
    parser.add_argument("--errors", action="store_true", help="list the dev split's errors")
    parser.add_argument(
        "--markdown", action="store_true", help="one table: precision / recall (positives)"
    )
    parser.add_argument(
        "--by-set", action="store_true", help="with --markdown: one row per set, kinds across"
    )
    parser.add_argument(
        "--by-confidence",
        action="store_true",
        help="pooled over the sets: how many flags of each kind and confidence are right",
    )
    args = parser.parse_args(argv)
    if args.by_confidence:
        print_by_confidence(args.data or sorted(DATA.glob("real_traces*.json")), args.split)
        return 0
    if args.markdown:
        print_markdown(args.data or sorted(DATA.glob("*.json")), args.split, by_set=args.by_set)
        return 0
    for path in args.data or sorted(DATA.glob("*.json")):
        data = parse_json(read_bytes(path), path)
        items = data["items"] if isinstance(data, dict) else data
        splits = ("dev", "test") if args.split == "all" else (args.split,)
        for split in splits:
            chosen = [i for i in items if i.get("split", "test") == split]
            if not chosen:
                continue
            results = run(chosen)
            print_table(f"{path.name} [{split}]", results)
            if args.errors and split == "dev":
                print_errors(results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
