"""``choices_matching`` for a question whose options are numbered (``1: ...`` to
``4: ...``, ``(1)``, ``①``) and whose label is one such number ("3").

Korean and Japanese exams, and many others, number their options instead of
lettering them; a reader takes "정답은 3입니다", "③", "option 3" or the third
option's text as the choice of option 3. The reference grader reads only
letters (rome mode scores such an answer 0); strict mode reads the number.
A digit label for a question that numbers no options stays an annotation error.
"""

from __future__ import annotations

import re

from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict.commit import conclusion, drop_excluded
from scorers.evaluate.strict.final import Located
from scorers.evaluate.strict.fold import fold_phrase, fold_width
from scorers.evaluate.strict.numbers import pick_number
from scorers.evaluate.strict.question import CIRCLED, named_one, number_options, plain_maths
from scorers.evaluate.strict.reading import Reading, number_doubt
from scorers.evaluate.strict.scores import RIGHT, WRONG

_LABEL = re.compile(r"[(\[]?(\d{1,2})[)\]]?")


def read_label(label: str) -> str | None:
    """The option number a label names: ``"3"``, ``"(3)"``, ``"③"``; else None."""
    label = fold_width(label.strip())
    if label in CIRCLED:
        return CIRCLED[label]
    m = _LABEL.fullmatch(label)
    return str(int(m.group(1))) if m else None


def numbered(options: dict[str, str]) -> bool:
    """The options are labelled 1, 2, ..., n in order (n >= 2)."""
    return len(options) >= 2 and list(options) == [str(k) for k in range(1, len(options) + 1)]


def _blanked(text: str, options: dict[str, str]) -> tuple[str, list[str]]:
    """``text`` (folded) with each option's whole text it copies blanked out, and
    the labels of those copied: a copied option's own digits ("제43조 제3항")
    state no choice. Options that are numbers are left: their text is the choice."""
    if number_options(options) is not None:
        return text, []
    text, options = plain_maths(text, options)  # ("9 \cdot \sqrt{2}" copies "9*sqrt(2)")
    copied = []
    for label, option in options.items():
        if len(option) >= _MIN_COPY and option in text:
            copied.append(label)
            text = text.replace(option, " ")
    return text, copied


_MIN_COPY = 3
_TWO = "two values offered"


def _stated(segment: str, options: dict[str, str], whole: bool) -> tuple[str | None, list[str]]:
    """The option number ``segment`` states (after blanking copied option texts),
    and the options it copies."""
    text, copied = _blanked(fold_phrase(segment), options)
    number, text = pick_number(text, last=whole)
    if number is None or number.value != int(number.value):
        return None, copied
    if number_doubt(number, text):
        return _TWO, copied  # "2 or 3": no choice
    label = str(int(number.value))
    return (label if label in options else None), copied


def _choice(loc: Located, reading: Reading) -> tuple[str | None, str | None]:
    """The option ``loc`` chooses, and why that reading is unsure."""
    options = reading.options
    whole = loc.how == "whole"
    segment = drop_excluded(loc.segment)
    label, copied = _stated(segment, options, whole)
    if label == _TWO:
        return None, None
    values = number_options(options)
    if label is not None:
        if values is not None and (
            others := [k for k, v in values.items() if v == int(label) and k != label]
        ):
            # "1) 2  2) 3  3) 4" and "3": the option whose text is 3 (options that
            # are numbers answer a question of numbers), or option 3
            return others[0], f"{label} is option {others[0]}'s text and option {label}'s number"
        if len(copied) == 1 and copied[0] != label and "\n" not in segment.strip():
            return label, f"names option {label} by its number but {copied[0]} by its text"
        return label, None
    text = fold_phrase(drop_excluded(conclusion(loc.segment)) if whole else segment)
    found, doubt = named_one(text, options, reading.question)
    return (found[0], doubt) if len(found) == 1 else (None, None)


def numbered_choice(expected: str, reading: Reading) -> Outcome:
    """The verdict for an answer to numbered options, ``expected`` the label's number."""
    for loc in (reading.fixed, reading.loc):
        if loc is None:
            continue
        chosen, doubt = _choice(loc, reading)
        if chosen is not None:
            return Outcome(RIGHT if chosen == expected else WRONG, chosen, uncertain=doubt)
    return Outcome(WRONG, "", note="no option number found")
