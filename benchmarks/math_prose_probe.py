"""Where the prose reading is brittle: ``python benchmarks/math_prose_probe.py [-v] [FAMILY ...]``.

Rewrites the ``dev`` answers of every ``tests/data/math/math_prose*.json`` in ways
that do not change what a careful reader grades (a closing remark after the answer,
a clause after the value, another lead-in word, the value in LaTeX, the closing
sentence reworded, a retracted or doubted other value) and counts, per family of
rewrites, the items whose score stops agreeing with the label (or with the label the
rewrite implies: a doubted second value makes a hedge, worth 0). Only items read
right before the rewrite count. ``-v`` lists each such item with both readings.
``test`` items are never read.

A rule written for one wording shows up here as a family that still fails; a
mechanism that reads the sentence's structure should bring a whole family to 0.
The families above were read while the rules were written. ``--unseen`` rewrites
with closing remarks that were never used to write a rule (keep it so: they measure
how far the remark reading generalises); the third batch was written after the rules
it checks, the first two before.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from scorers.evaluate.mathmatch import math_matching

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "math"

REMARKS = {
    "remark_fact": "This uses the fact that a week has 7 days.",
    "remark_note": "Note that the 2 steps above can be done in either order.",
    "remark_paren": "(We rounded nothing along the way; all 3 steps were exact.)",
    "remark_check": "Double-checking the arithmetic with 2 + 2 = 4 style steps, everything is consistent.",
    "remark_recall": "Recall that 1 hour has 60 minutes.",
    "remark_assumed": "Here we assumed a 5-day work week.",
    "remark_since": "Since a year has 365 days, the figures line up.",
    "remark_because": "That is because each of the 4 sides is equal.",
    "remark_appraisal": "That seems right given the 3 steps.",
    "remark_confidence": "I'm about 90% confident in this answer.",
    "close_hope": "I hope this helps!",
    "close_question": "Would you like me to explain any step in more detail?",
    # Written for the reading of a remark by its structure (a number in a definite noun
    # phrase, a reason clause, a unit conversion, an adverb after a demonstrative subject).
    "remark_both_of": "Both of the 2 methods give the same result.",
    "remark_given_all": "The 3 given facts are all used.",
    "remark_still_agrees": "This still agrees with the 4 cases checked above.",
    "remark_counted_as": "I counted a year as 52 weeks here.",
    "remark_there_are": "There are 100 centimetres in a metre, which is why I divided.",
    "remark_because_mid": "The result makes sense because each of the 3 boxes weighs the same.",
    "remark_important": "It is important to remember that 12 inches make a foot.",
    "remark_clearly": "This clearly satisfies all 3 constraints.",
    "remark_each_of": "Each of the 4 steps is reversible.",
    "remark_these": "These 2 numbers were given in the problem.",
    "remark_equals_unit": "One kilogram equals 1000 grams, as used above.",
    "remark_its_sides": "Its 4 sides are all the same length, as expected.",
}
# Written before the remark rules and never used to write one.
UNSEEN = [
    "This works because the price is fixed at 3 dollars.",
    "Keep this in mind: 4 quarters make a dollar.",
    "Because every row has 8 seats, the count is consistent.",
    "This also matches a quick estimate of 50.",
    "I took 1 mile as 1.6 km throughout.",
    "Assuming 30 days per month, the totals above hold.",
    "As expected, both of the 2 approaches agree.",
    "The problem's 2 conditions are both satisfied.",
    "Double-checking with 3 × 4 = 12, everything is consistent.",
    "That follows from the 2 equations above.",
    "Note that we never needed the 5 extra pencils.",
    "It's worth noting that 60 seconds make a minute.",
]
# Written likewise before the structural reading of remarks (definite noun phrases, reason
# clauses, unit conversions), and never read while writing it.
UNSEEN2 = [
    "All 4 answer choices were considered before settling on this.",
    "The 2 trains are assumed to leave at the same time.",
    "Since each of the 6 bags is identical, the order does not matter.",
    "This is consistent with the 3 clues in the puzzle.",
    "A quick sanity check: 10 times 5 is 50, close to our figure.",
    "We treat a month as 4 weeks for simplicity.",
    "The rate of 15 km per hour was kept constant.",
    "Everything above uses the 2 formulas from the question.",
    "In other words, none of the 3 coins is counterfeit.",
    "There are 1000 metres in a kilometre, which explains the conversion.",
    "I double-checked the 5 multiplications.",
    "That answer also respects the limit of 40 passengers.",
]
# Written after the readings of labels, roles and relations between units that the second
# batch's failures led to (to check that they carry to other wordings), never tuned on.
UNSEEN3 = [
    "One more check: 7 × 6 = 42, as expected.",
    "Quick verification: 120 ÷ 4 = 30.",
    "We count a year as 360 days here.",
    "Recall that 10 dimes make a dollar.",
    "A fortnight is taken as 2 weeks.",
    "The speed of 60 km/h stays the same throughout.",
    "This result stays within the budget of $200.",
    "The price of 3 dollars per kilo never changes.",
    "Final sanity check: 25 + 17 = 42.",
    "Here 100 pennies are worth one dollar.",
    "Our figure is below the cap of 500 tickets.",
    "The ratio of 3 to 1 was used in every step.",
]
TAILS = {
    "tail_which": ", which answers the question.",
    "tail_check": ", and this checks out.",
    "tail_assuming": ", assuming 2 weeks of holiday.",
    "tail_rounded": " (rounded to 2 decimal places).",
    "tail_as_in": ", as in step 3.",
}
LEADS = {"lead_so": "So, ", "lead_thus": "Thus, ", "lead_conclusion": "In conclusion, "}
_LEAD = re.compile(r"^(?:so|thus|hence|therefore|in conclusion|finally)\b,?\s*", re.I)
_LAST_NUMBER = re.compile(r"(?<![\w.{$\\])\d[\d,]*(?:\.\d+)?(?![\d}])")
_STATES = re.compile(
    r"^(?P<lead>(?:So|Therefore|Thus|Hence|In conclusion),?\s+)?(?P<subject>[A-Za-z][^,=:]*?)\s+is\s+"
    r"(?P<value>\$?[-−]?\d(?:[\d,./]*\d)?(?:\s*%)?)(?P<rest>(?:\s+[a-z]+){0,3})\.?$"
)
_SENTENCE_END = re.compile(r"(?<=[a-z0-9%)][.!?])\s+(?=[A-Z])")


def _dev_items() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(DATA.glob("math_prose*.json")):
        for item in json.loads(path.read_text(encoding="utf-8")):
            if item["split"] == "dev":
                yield path.stem, item


def unseen(text: str) -> dict[str, str]:
    """``text`` with each unseen closing remark, on a line of its own and inline."""
    body = text.rstrip()
    out: dict[str, str] = {}
    for batch, remarks in (("unseen", UNSEEN), ("unseen2", UNSEEN2), ("unseen3", UNSEEN3)):
        out.update({f"{batch}_{i:02d}_line": body + "\n\n" + r for i, r in enumerate(remarks)})
        if body[-1:] in ".!?":
            out.update({f"{batch}_{i:02d}_inline": body + " " + r for i, r in enumerate(remarks)})
    return out


def rewrites(text: str) -> dict[str, str]:
    """Rewrites of ``text`` that keep its answer."""
    out: dict[str, str] = {}
    body = text.rstrip()
    head, _, last = body.rpartition("\n")
    head = head + "\n" if _ else ""
    ends_sentence = body[-1:] in ".!?"
    for family, remark in REMARKS.items():
        out[family + "_line"] = body + "\n\n" + remark
        if ends_sentence:
            out[family + "_inline"] = body + " " + remark
    if last.endswith("."):
        for family, tail in TAILS.items():
            out[family] = head + last[:-1] + tail
    for family, lead in LEADS.items():
        bare = _LEAD.sub("", last, count=1)
        out[family] = head + lead + (bare[:1].lower() + bare[1:] if bare[1:2].islower() else bare)
    numbers = list(_LAST_NUMBER.finditer(last))
    if numbers:
        n = numbers[-1]
        for family, form in (("latex_dollar", "${}$"), ("latex_paren", "\\({}\\)")):
            out[family] = head + last[: n.start()] + form.format(n.group(0)) + last[n.end() :]
    *before, closing = _SENTENCE_END.split(last.strip())
    stated = _STATES.match(closing)
    if stated is not None:
        lead, subject, value, rest = stated.group("lead", "subject", "value", "rest")
        lead = lead or ""
        low = subject[:1].lower() + subject[1:] if not subject[:2].isupper() else subject
        prefix = head + " ".join(before) + (" " if before else "")
        for family, sentence in (
            ("reword_value_first", f"{lead}{value}{rest} is {low}."),
            ("reword_find_that", f"{lead}we find that {low} is {value}{rest}."),
            ("reword_comes_out", f"{lead}{low} comes out to {value}{rest}."),
            ("reword_colon", f"{subject}: {value}{rest}."),
            ("reword_equal_to", f"{lead}{low} is equal to {value}{rest}."),
        ):
            out[family] = prefix + sentence[:1].upper() + sentence[1:]
    return out


def around_value(text: str, value: str) -> dict[str, tuple[str, float]]:
    """Rewrites that add another value, with the label a careful reader gives them."""
    body = text.rstrip()
    other = str(int(value) + 1)
    return {
        "other_retracted": (body + f"\n\nI first got {other}, but that was a slip.", 1.0),
        "other_dismissed": (body + f"\n\nSome might say {other}, but that is wrong.", 1.0),
        "other_doubted": (body + f"\n\nBut it could also be {other}.", 0.0),
        "other_plausible": (body + f"\n\nHowever, {other} is also plausible.", 0.0),
        "other_corrected_to": (body + f"\n\nWait, I made an error: the answer is {other}.", 0.0),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list each item that flips")
    parser.add_argument("--unseen", action="store_true", help="only the unseen closing remarks")
    parser.add_argument("family", nargs="*", help="only these families")
    args = parser.parse_args(argv)
    tried: dict[str, int] = defaultdict(int)
    flipped: dict[str, list[str]] = defaultdict(list)
    for name, item in _dev_items():
        reference, label = item["reference"], item["label"]
        before = math_matching(item["answer"], answer=reference)
        if abs(before.score - label) >= 0.01:
            continue  # only items read right before the rewrite
        made = unseen(item["answer"]) if args.unseen else rewrites(item["answer"])
        cases = {family: (text, label) for family, text in made.items()}
        if not args.unseen and label == 1 and re.fullmatch(r"-?\d+", reference.strip()):
            cases.update(around_value(item["answer"], reference.strip()))
        for family, (text, expected) in cases.items():
            if args.family and family not in args.family:
                continue
            after = math_matching(text, answer=reference)
            tried[family] += 1
            if abs(after.score - expected) >= 0.01:
                flipped[family].append(
                    f"{name} {item['id']}: {before.extracted!r} -> {after.extracted!r}"
                )
    for family in sorted(tried):
        print(f"{family:28s} {len(flipped[family]):3d} of {tried[family]:3d} read wrong")
        if args.verbose:
            for line in flipped[family]:
                print("    " + line)
    for batch in ("unseen", "unseen2", "unseen3") if args.unseen else ():
        mine = [f for f in tried if f.rsplit("_", 2)[0] == batch]
        wrong = sum(len(flipped[f]) for f in mine)
        print(f"{batch}: {wrong} of {sum(tried[f] for f in mine)} rewrites read wrong")
    total = sum(len(v) for v in flipped.values())
    print(f"total: {total} of {sum(tried.values())} rewrites read wrong")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
