"""General signals of strict mode's confident misses, validated leaving one batch out.

``python benchmarks/strict_uncertainty_signals.py [--first-readings]``

Reads the ``dev`` halves of the blind batches (``tests/data/strict/blind_hard_cases*.json``;
``test`` items are never loaded) and, for each item, strict mode's verdict, the human
label and a few general features of the answer: the reference grader (rome mode, on
the same final answer) crediting more or less than strict mode, the answer's length
and marker, a correction or an exclusion read, several candidates in its concluding
sentence, a commitment read from another sentence than the last, a key matched only
through another name, several answer markers stating different answers.

For each signal (a feature that would mark a verdict ``rule_uncertain``) it prints, per
batch, how many of strict mode's confident misses and of its confident right verdicts
carry it, and then leaves each batch out in turn: the signal is kept when, on the
other batches, it marks more confident misses than right verdicts (a length
threshold, where the signal has one, is chosen there too) and keeps every one of
them within 15 % uncertain; the held-out batch's figures are then read with it.

The dev halves have been tuned on, so strict mode's own misses there are few.
``--first-readings`` takes each batch's verdicts instead from the code at the commit
of its first reading (``FIRST_READINGS``, before any rule was written for it, copied
with ``git archive`` into a temporary directory): misses on answers it had not seen.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorers.errors import EvaluatorError
from scorers.evaluate import rome, strict
from scorers.evaluate.strict.commit import conclusion, correction, drop_excluded, sentences
from scorers.evaluate.strict.final import locate, without_closing
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import find_numbers
from scorers.records import final_answer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "strict"
BUDGET = 0.15  # the share of a batch's items that may be uncertain
# The commit each batch was first read at, before any rule was written for it
# (docs/strict-mode.md; the first batch was written with the rules).
FIRST_READINGS = {
    "blind_hard_cases2.json": "4bb23eb",
    "blind_hard_cases3.json": "392c4ac",
    "blind_hard_cases4.json": "717065e",
    "blind_hard_cases5.json": "ac63840",
    "blind_hard_cases6.json": "ca2da64",
    "blind_hard_cases7.json": "1ce5e0a",
}
LENGTHS = (0, 100, 250, 500, 1000)  # thresholds tried for the length-bound signals

Row = dict[str, Any]

_NAME = re.compile(r"(?<![\w'])[A-Z][^\W\d_]+")
_LETTER = re.compile(r"(?<![\w'])[A-J](?![\w'])")
_MARKED = re.compile(
    r"(?i)(?:final answer|the answer is|answer\s*[:：]|答案\s*[:：]?|\\boxed\{)\s*\**\s*([^\n]{0,30})"
)


def batches() -> list[Path]:
    return sorted(DATA.glob("blind_hard_cases*.json"), key=lambda p: (len(p.name), p.name))


def dev_items(path: Path) -> list[dict[str, Any]]:
    return [c for c in json.loads(path.read_text(encoding="utf-8")) if c["split"] == "dev"]


def _credit(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def features(case: dict[str, Any]) -> Row:
    """What a signal may read of one item, besides strict mode's verdict."""
    evaluator, kwargs = case["evaluator"], case["kwargs"]
    final = final_answer(case["answer"])
    loc = locate(final)
    last = conclusion(without_closing(final)) if loc.how != "marker" else loc.segment
    said = sentences(final.strip())
    try:
        reference = _credit(rome.evaluate(evaluator, kwargs, final).score)
    except EvaluatorError:
        reference = None
    if evaluator in ("number_matching", "interval_matching", "multi_interval_matching"):
        candidates = len({n.value for n in find_numbers(last)})
    elif evaluator == "choices_matching":
        candidates = len(set(_LETTER.findall(last)))
    else:
        candidates = len(set(_NAME.findall(last)))
    keys: list[str] = []
    for group in kwargs.get("key_items") or [kwargs.get("location_fine_grained") or []]:
        keys += [k for k in (group if isinstance(group, list) else [group]) if isinstance(k, str)]
    folded = fold_phrase(final)
    marked = {re.sub(r"\W", "", m.group(1).lower())[:12] for m in _MARKED.finditer(final)}
    return {
        "reference": reference,
        "length": len(final),
        "marker": loc.how == "marker",
        "correction": correction(loc) is not None,
        "exclusion": drop_excluded(loc.segment) != loc.segment,
        "candidates": candidates,
        "not_last": bool(said)
        and said[-1].strip() not in loc.segment
        and loc.segment.strip() not in said[-1],
        "other_name": bool(keys) and not any(fold_phrase(k) in folded for k in keys),
        "marked_answers": len(marked - {""}),
        "free_text": evaluator in ("key_items_matching", "location_matching"),
    }


def strict_verdicts(items: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    out = []
    for case in items:
        o = strict.evaluate(case["evaluator"], case["kwargs"], case["answer"], case.get("question"))
        out.append((o.score, o.uncertain is not None))
    return out


_OLD_VERDICTS = """
import json, sys
from scorers.evaluate import strict
out = []
for c in json.load(sys.stdin):
    o = strict.evaluate(c["evaluator"], c["kwargs"], c["answer"], c.get("question"))
    out.append((o.score, getattr(o, "uncertain", None) is not None))
print(json.dumps(out))
"""


def verdicts_at(commit: str, items: list[dict[str, Any]]) -> list[tuple[float, bool]]:
    """strict mode's verdicts on ``items`` by the code of ``commit`` (its scorers/ only)."""
    with tempfile.TemporaryDirectory() as tree:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "scorers"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tree], input=archive.stdout, check=True)
        done = subprocess.run(
            [sys.executable, "-c", _OLD_VERDICTS],
            input=json.dumps(items).encode(),
            capture_output=True,
            check=True,
            cwd=tree,
            env={"PYTHONPATH": tree, "PATH": "/usr/bin:/bin"},
        )
    return [(score, doubt) for score, doubt in json.loads(done.stdout)]


def rows(first_readings: bool) -> list[Row]:
    out = []
    for path in batches():
        items = dev_items(path)
        if first_readings:
            if path.name not in FIRST_READINGS:
                continue
            verdicts = verdicts_at(FIRST_READINGS[path.name], items)
        else:
            verdicts = strict_verdicts(items)
        for case, (score, doubt) in zip(items, verdicts, strict=True):
            row = features(case)
            row.update(batch="b" + (path.stem.removeprefix("blind_hard_cases") or "1"))
            row.update(score=score, doubt=doubt, label=case["label"])
            out.append(row)
    return out


def _more(row: Row) -> bool:
    return row["reference"] is not None and row["reference"] > row["score"]


SIGNALS: dict[str, tuple[Callable[[Row, int], bool], tuple[int, ...]]] = {
    # name: (marks the row, given a length threshold; the thresholds tried)
    "reference credits more, long": (lambda r, n: _more(r) and r["length"] > n, LENGTHS),
    "reference disagrees, long": (
        lambda r, n: (
            r["reference"] is not None and r["reference"] != r["score"] and r["length"] > n
        ),
        LENGTHS,
    ),
    "no marker, long": (lambda r, n: not r["marker"] and r["length"] > n, LENGTHS),
    "3+ candidates in conclusion": (lambda r, n: r["candidates"] >= 3, (0,)),
    "commitment not the last sentence": (lambda r, n: r["not_last"], (0,)),
    "key only by another name": (lambda r, n: r["other_name"] and r["score"] > 0, (0,)),
    "correction read": (lambda r, n: r["correction"], (0,)),
    "exclusion read": (lambda r, n: r["exclusion"], (0,)),
    "3+ marked answers differ": (lambda r, n: r["marked_answers"] >= 3, (0,)),
    "0 on a short key answer": (
        lambda r, n: r["score"] == 0 and r["length"] <= 60 and r["free_text"],
        (0,),
    ),
}


def figures(rs: list[Row], mark: Callable[[Row], bool]) -> tuple[int, int, int, int]:
    """(uncertain, right among sure, sure, items) with ``mark`` added to strict's doubts."""
    sure = [r for r in rs if not (r["doubt"] or mark(r))]
    return len(rs) - len(sure), sum(r["score"] == r["label"] for r in sure), len(sure), len(rs)


def counts(rs: list[Row], mark: Callable[[Row], bool]) -> tuple[int, int, int, int]:
    """(misses marked, confident misses, right verdicts marked, confident right verdicts)."""
    sure = [r for r in rs if not r["doubt"]]
    wrong = [r for r in sure if r["score"] != r["label"]]
    right = [r for r in sure if r["score"] == r["label"]]
    return sum(map(mark, wrong)), len(wrong), sum(map(mark, right)), len(right)


def choose(train: list[Row], signal: str) -> tuple[int | None, str]:
    """The threshold kept on ``train``, or None and why the signal is dropped there."""
    test, lengths = SIGNALS[signal]
    best: tuple[int, int] | None = None
    why = "no gain"
    for n in lengths:
        mark = lambda r, n=n: test(r, n)  # noqa: E731
        caught, _, marked, _ = counts(train, mark)
        if caught <= marked:
            continue
        names = {r["batch"] for r in train}
        if not all(
            figures(b, mark)[0] <= BUDGET * len(b)
            for b in ([r for r in train if r["batch"] == name] for name in names)
        ):
            why = "budget"
            continue
        if best is None or caught - marked >= best[0]:
            best = (caught - marked, n)  # ties go to the longer threshold: fewer marks
    return (None, why) if best is None else (best[1], "")


def report(rs: list[Row]) -> list[str]:
    names = sorted({r["batch"] for r in rs}, key=lambda b: (len(b), b))
    lines = ["per batch, confident misses marked/all, confident right verdicts marked/all:"]
    for signal, (test, lengths) in SIGNALS.items():
        cells = []
        for name in names:
            caught, wrong, marked, right = counts(
                [r for r in rs if r["batch"] == name], lambda r, test=test, n=lengths[0]: test(r, n)
            )
            cells.append(f"{name} {caught}/{wrong} {marked}/{right}")
        lines.append(f"  {signal} (>{lengths[0]}): " + " | ".join(cells))
    lines.append("leaving one batch out (held-out sure agreement before -> after, uncertain):")
    for signal, (test, _) in SIGNALS.items():
        cells, helped = [], 0
        for name in names:
            held = [r for r in rs if r["batch"] == name]
            n, why = choose([r for r in rs if r["batch"] != name], signal)
            u0, s0, k0, size = figures(held, lambda r: False)
            if n is None:
                cells.append(f"{name} drop ({why})")
                continue
            u1, s1, k1, _ = figures(held, lambda r, test=test, n=n: test(r, n))
            before, after = s0 / max(1, k0), s1 / max(1, k1)
            helped += after > before and u1 <= BUDGET * size
            cells.append(f"{name} >{n}: {100 * before:.0f}->{100 * after:.0f}% u{u1}/{size}")
        lines.append(f"  {signal}: " + " | ".join(cells) + f"  [helps {helped}/{len(names)}]")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--first-readings", action="store_true", help="verdicts of each batch's first reading"
    )
    args = parser.parse_args(argv)
    for line in report(rows(args.first_readings)):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
