"""General signals of strict mode's confident misses, validated leaving one batch out.

``python benchmarks/strict_uncertainty_signals.py [--first-readings]``

Reads the ``dev`` halves of the blind batches (``tests/data/strict/blind_hard_cases*.json``;
``test`` items are never loaded; a batch without a recorded first reading, or in
``HELD_OUT``, is not read at all) and prints, per
batch and pooled, overall agreement, the uncertain share, agreement without
``rule_uncertain`` and the number of sure misses. For each item it reads strict mode's
verdict, the human
label and a few general features of the answer: the reference grader (rome mode, on
the same final answer) crediting more or less than strict mode, the answer's length
and marker, a correction or an exclusion read, several candidates in its concluding
sentence, a commitment read from another sentence than the last, a key matched only
through another name, several answer markers stating different answers, an answer cut off mid-sentence, a
key in another script than the answer, a word spelled almost as a key's, a one-sentence
answer naming part of a key item of several words. Each sure miss and right verdict is
also counted by source (the repository the answer came from, or the batch's writer), and
each reason strict mode already gives is counted the same way (misses it marks, right
verdicts it marks).

For each signal (a feature that would mark a verdict ``rule_uncertain``) it prints, per
batch, how many of strict mode's confident misses and of its confident right verdicts
carry it, and then leaves each batch out in turn: the signal is kept when, on the
other batches, it marks more confident misses than right verdicts (a length
threshold, where the signal has one, is chosen there too) and keeps every one of
them within 15 % uncertain; the held-out batch's figures are then read with it. The
pooled held-out figures are the honest estimate of what the signal does on writing it
was not chosen from; they are printed beside today's code's.

The dev halves have been tuned on, so strict mode's own misses there are few.
``--first-readings`` takes each batch's verdicts instead from the code at the commit
of its first reading (``FIRST_READINGS``, before any rule was written for it, copied
with ``git archive`` into a temporary directory): misses on answers it had not seen,
the closest the dev halves come to a held-out batch. A signal worth keeping gains in
both readings.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scorers.errors import EvaluatorError
from scorers.evaluate import rome, strict
from scorers.evaluate.strict import doubt
from scorers.evaluate.strict.commit import conclusion, correction, drop_excluded, sentences
from scorers.evaluate.strict.final import locate, without_closing
from scorers.evaluate.strict.fold import fold_phrase
from scorers.evaluate.strict.numbers import find_numbers
from scorers.records import final_answer

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "strict"
BUDGET = 0.15  # the share of a batch's items that may be uncertain
# Batches held out of every decision (both halves are skipped).
HELD_OUT: frozenset[str] = frozenset()
# The commit each batch was first read at, before any rule was written for it
# (docs/strict-mode.md; the first batch was written with the rules).
FIRST_BATCH = "blind_hard_cases.json"  # written with the rules: no first reading
FIRST_READINGS = {
    "blind_hard_cases2.json": "4bb23eb",
    "blind_hard_cases3.json": "392c4ac",
    "blind_hard_cases4.json": "717065e",
    "blind_hard_cases5.json": "ac63840",
    "blind_hard_cases6.json": "ca2da64",
    "blind_hard_cases7.json": "1ce5e0a",
    "blind_hard_cases8.json": "d12142c",
    "blind_hard_cases9.json": "348953a",
    "blind_hard_cases10.json": "cbdabda",
    "blind_hard_cases11.json": "b41b73b",
    "blind_hard_cases12.json": "8a1750a",
    "blind_hard_cases13.json": "b811383",
    "blind_hard_cases14.json": "38537be",
    "blind_hard_cases15.json": "1935751",
    "blind_hard_cases16.json": "381c765",
    "blind_hard_cases17.json": "c0931ae",
    "blind_hard_cases18.json": "802e5cb",
    "blind_hard_cases19.json": "4836113",
    "blind_hard_cases20.json": "5bab283",
    "blind_hard_cases21.json": "689649f",
    "blind_hard_cases22.json": "22f91b0",
    "blind_hard_cases23.json": "e8db1b2",
    "blind_hard_cases24.json": "e8db1b2",
    "blind_hard_cases25.json": "e8db1b2",
    "blind_hard_cases26.json": "4a531fe",
    "blind_hard_cases27.json": "060d45f",
    "blind_hard_cases28.json": "060d45f",
}
LENGTHS = (0, 100, 250, 500, 1000)  # thresholds tried for the length-bound signals

Row = dict[str, Any]

_NAME = re.compile(r"(?<![\w'])[A-Z][^\W\d_]+")
_LETTER = re.compile(r"(?<![\w'])[A-J](?![\w'])")
_MARKED = re.compile(
    r"(?i)(?:final answer|the answer is|answer\s*[:：]|答案\s*[:：]?|\\boxed\{)\s*\**\s*([^\n]{0,30})"
)


def batches() -> list[Path]:
    # A batch is read once its first reading is recorded below: a new batch stays
    # held out until then.
    found = [
        p
        for p in DATA.glob("blind_hard_cases*.json")
        if p.name not in HELD_OUT and (p.name in FIRST_READINGS or p.name == FIRST_BATCH)
    ]
    return sorted(found, key=lambda p: (len(p.name), p.name))


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
        "cut_off": _cut_off(final),
        "script_differs": _script_differs(evaluator, kwargs, loc.segment or final),
        "near_spelling": _near_spelling(evaluator, kwargs, loc.segment, case.get("question")),
        "partial_key": _partial_key(evaluator, kwargs, loc.segment, final),
        "source": (case.get("source") or {}).get("repo")
        if isinstance(case.get("source"), dict)
        else None,
    }


_CLOSED = re.compile(r"[.!?。！？)\]」』\"'”’*`$}>|:：…]\s*\Z")
_WORD = re.compile(r"[^\W_]+")


def _cut_off(final: str) -> bool:
    """A long answer whose last line of three words or more ends without closing
    punctuation: the generation stopped mid-sentence."""
    body = final.rstrip()
    last = body.rpartition("\n")[2].strip()
    return len(body) > 150 and not _CLOSED.search(body) and len(last.split()) >= 3


def _script(text: str) -> str | None:
    """The script most of ``text``'s letters are written in (CJK counts Han, kana, Hangul)."""
    seen: Counter[str] = Counter()
    for ch in text:
        if ch.isalpha():
            name = unicodedata.name(ch, "")
            cjk = name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL"))
            seen["cjk" if cjk else name.split(" ", 1)[0]] += 1
    return seen.most_common(1)[0][0] if seen else None


def _script_differs(evaluator: str, kwargs: dict[str, Any], said: str) -> bool:
    if evaluator not in ("key_items_matching", "location_matching"):
        return False
    scripts = {_script(v) for g in doubt.key_groups(evaluator, kwargs) for v in g} - {None}
    answer = _script(said)
    return bool(scripts) and answer is not None and answer not in scripts


def _near_spelling(evaluator: str, kwargs: dict[str, Any], said: str, asked: Any) -> bool:
    """strict mode's own doubt (``doubt.near_spelling``), read over any verdict, as below."""
    if evaluator not in ("key_items_matching", "location_matching"):
        return False
    question = asked if isinstance(asked, str) else ""
    return doubt.near_spelling(evaluator, kwargs, said, question) is not None


def _partial_key(evaluator: str, kwargs: dict[str, Any], said: str, final: str) -> bool:
    """strict mode's own doubt (``doubt.partial_key``), read over any verdict: here it
    is weighed on the first readings too, where strict mode did not have it."""
    if evaluator not in ("key_items_matching", "location_matching"):
        return False
    return doubt.partial_key(evaluator, kwargs, said, final) is not None


Verdict = tuple[float, str | None]  # the score and why it is uncertain, if it is


def strict_verdicts(items: list[dict[str, Any]]) -> list[Verdict]:
    out: list[Verdict] = []
    for case in items:
        try:
            o = strict.evaluate(
                case["evaluator"], case["kwargs"], case["answer"], case.get("question")
            )
        except EvaluatorError:
            out.append((0, None))  # refused: a sure disagreement, as strict_agreement counts it
        else:
            out.append((o.score, o.uncertain))
    return out


_OLD_VERDICTS = """
import json, sys
from scorers.evaluate import strict
out = []
for c in json.load(sys.stdin):
    try:
        o = strict.evaluate(c["evaluator"], c["kwargs"], c["answer"], c.get("question"))
    except Exception:  # refused (an error at that commit): a sure 0
        out.append((0, None))
    else:
        out.append((o.score, getattr(o, "uncertain", None)))
print(json.dumps(out))
"""


def verdicts_at(commit: str, items: list[dict[str, Any]]) -> list[Verdict]:
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
    return [(score, why) for score, why in json.loads(done.stdout)]


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
        for case, (score, why) in zip(items, verdicts, strict=True):
            row = features(case)
            row.update(batch="b" + (path.stem.removeprefix("blind_hard_cases") or "1"))
            row.update(score=score, doubt=why is not None, why=why, label=case["label"])
            row["source"] = row["source"] or f"writer of {row['batch']}"
            out.append(row)
    return out


def _more(row: Row) -> bool:
    return row["reference"] is not None and row["reference"] > row["score"]


def _zero_free(row: Row) -> bool:
    return row["score"] == 0 and row["free_text"]


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
    "3+ candidates in a long answer": (
        lambda r, n: r["candidates"] >= 3 and r["length"] > n,
        LENGTHS,
    ),
    "commitment not the last sentence": (lambda r, n: r["not_last"], (0,)),
    "key only by another name": (lambda r, n: r["other_name"] and r["score"] > 0, (0,)),
    "correction read": (lambda r, n: r["correction"], (0,)),
    "exclusion read": (lambda r, n: r["exclusion"], (0,)),
    "3+ marked answers differ": (lambda r, n: r["marked_answers"] >= 3, (0,)),
    "0 on a short key answer": (
        lambda r, n: r["score"] == 0 and r["length"] <= 60 and r["free_text"],
        (0,),
    ),
    "cut off mid-sentence": (lambda r, n: r["cut_off"] and r["length"] > n, LENGTHS),
    "key in another script": (lambda r, n: r["script_differs"], (0,)),
    "0, a word spelled almost as a key's": (
        lambda r, n: _zero_free(r) and r["near_spelling"],
        (0,),
    ),
    "0, one sentence naming part of a key": (lambda r, n: _zero_free(r) and r["partial_key"], (0,)),
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


def by_batch(rs: list[Row]) -> dict[str, list[Row]]:
    out: dict[str, list[Row]] = defaultdict(list)
    for r in rs:
        out[r["batch"]].append(r)
    return dict(sorted(out.items(), key=lambda kv: (len(kv[0]), kv[0])))


def choose(train: list[Row], signal: str) -> tuple[int | None, str]:
    """The threshold kept on ``train``, or None and why the signal is dropped there:
    kept when it marks at least one confident miss for every three confident right
    verdicts and keeps ``train`` within the budget; of several thresholds, the one
    that marks the most misses net of a third of the right verdicts it marks."""
    test, lengths = SIGNALS[signal]
    best: tuple[float, int] | None = None
    why = "no gain"
    for n in lengths:
        mark = lambda r, n=n: test(r, n)  # noqa: E731
        caught, _, marked, _ = counts(train, mark)
        if caught == 0 or 3 * caught < marked:
            continue
        if figures(train, mark)[0] > BUDGET * len(train):
            why = "budget"
            continue
        if best is None or caught - marked / 3 >= best[0]:
            best = (caught - marked / 3, n)  # ties go to the longer threshold: fewer marks
    return (None, why) if best is None else (best[1], "")


def _line(name: str, rs: list[Row], mark: Callable[[Row], bool]) -> str:
    uncertain, right_sure, sure, n = figures(rs, mark)
    right = sum(r["score"] == r["label"] for r in rs)
    return (
        f"  {name:<8} {right:>4}/{n:<4} {100 * right / max(1, n):5.1f}%  uncertain {uncertain:>3}"
        f" ({100 * uncertain / max(1, n):4.1f}%)  sure {right_sure:>4}/{sure:<4}"
        f" {100 * right_sure / max(1, sure):5.1f}%  sure misses {sure - right_sure}"
    )


def _held_out_mark(
    test: Callable[[Row, int], bool], chosen: dict[str, int | None]
) -> Callable[[Row], bool]:
    """The signal as each batch reads it: with the threshold the other batches chose."""

    def mark(r: Row) -> bool:
        n = chosen[r["batch"]]
        return n is not None and test(r, n)

    return mark


def _template(why: str) -> str:
    """A reason with its quoted names and numbers left out, to count reasons by kind."""
    return re.sub(r"\d[\d.,]*", "N", re.sub(r"'[^']*'", "'X'", why))


def report(rs: list[Row]) -> list[str]:
    batches_ = by_batch(rs)
    none: Callable[[Row], bool] = lambda r: False  # noqa: E731
    lines = ["per batch (dev): agreement, uncertain, agreement without rule_uncertain:"]
    lines += [_line(name, b, none) for name, b in batches_.items()]
    lines.append(_line("pooled", rs, none))
    lines.append(
        "reasons given now: misses marked / right verdicts marked (sources of the misses):"
    )
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    sources: dict[str, set[str]] = defaultdict(set)
    for r in rs:
        if r["why"] is not None:
            kind = _template(r["why"])
            miss = r["score"] != r["label"]
            kinds[kind][0 if miss else 1] += 1
            if miss:
                sources[kind].add(r["source"])
    for kind, (miss, right) in sorted(kinds.items(), key=lambda kv: -sum(kv[1])):
        lines.append(f"  {miss:>3} / {right:<3} ({len(sources[kind])})  {kind[:90]}")
    lines.append(
        "signals: confident misses marked/all, right verdicts marked/all, sources of the misses:"
    )
    for signal, (test, lengths) in SIGNALS.items():
        for n in lengths:
            mark = lambda r, test=test, n=n: test(r, n)  # noqa: E731
            caught, wrong, marked, right = counts(rs, mark)
            found = {
                r["source"] for r in rs if not r["doubt"] and r["score"] != r["label"] and mark(r)
            }
            limit = f" >{n}" if len(lengths) > 1 else ""
            lines.append(f"  {signal}{limit}: {caught}/{wrong} {marked}/{right} ({len(found)})")
    lines.append(
        "leaving one batch out (threshold chosen on the others; pooled held-out figures,"
        " batches past 15% uncertain):"
    )
    lines.append(_line("now", rs, none))
    for signal, (test, _) in SIGNALS.items():
        chosen = {
            name: choose([r for r in rs if r["batch"] != name], signal)[0] for name in batches_
        }
        held = _held_out_mark(test, chosen)
        over = [name for name, b in batches_.items() if figures(b, held)[0] > BUDGET * len(b)]
        kept = sum(n is not None for n in chosen.values())
        lines.append(_line("", rs, held) + f"  kept {kept}/{len(chosen)}  over {over}  {signal}")
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
