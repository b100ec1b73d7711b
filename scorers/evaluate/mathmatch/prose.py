"""What every reader of a math answer written as prose shares.

Where a sentence ends, the words that open a conclusion ("So", "Hence"), what
counts as a value (digits, algebra, a value in words), numbers, and a number
with the unit written after it as a quantity of one dimension.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import NamedTuple

from scorers.evaluate.mathmatch.numberwords import number_words_to_digits
from scorers.evaluate.mathmatch.units import Unit, lookup, preposition_here

# A sentence ends at . ! ? after a lowercase word (of any alphabet: "12.81 وحدة."), digit,
# bracket or closing quote ("in the word 'LOLLAPALOOZA'.") and before a capital or an opening
# bracket; "B. f'(x) > 0" (an option letter with its text) is one.
_SENTENCE_END = re.compile(
    r"(?:(?<=[^\W_A-Z][.!?])|(?<=[)\]}%²³°$'\"’”][.!?])|(?<=[A-Za-z][A-Z][.!?])|(?<=[.!?][)\]]))"
    # (not after a title: "Mrs. Hilt read 68 chapters.")
    r"(?<!\bMr\.)(?<!\bMrs\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bProf\.)\s+(?=[A-Z(\[])"
    r"|(?<=[。！？])\s*"
)
FIRST_CLAUSE = re.compile(r"[,;]\s+|\s+[—–]\s+")


# "So", "Hence", "In conclusion,", "所以": words that open a conclusion, not part of it.
LEAD = re.compile(
    r"^(?:so|thus|therefore|hence|then|finally|overall|in conclusion|in total|altogether|"
    r"after checking|after all|所以|因此|故|则|即)\b[\s,，:]*"
    r"|^(?:sure|okay|ok|alright|certainly|of\s+course)\b[!.,]?\s*",  # "Sure! 9"
    re.IGNORECASE,
)
# A value: digits, LaTeX, circled labels, an option letter, CJK, or algebra
# ("(a + b)²", "2x" has digits; "a + b", "n²", "π").
HAS_VALUE = re.compile(
    r"[0-9\\①-⑳²³√π∞]|(?<![A-Za-z])[A-H](?![A-Za-z])|[\u4e00-\u9fff]"
    r"|(?<![A-Za-z])[a-z]\s*(?:[+*/^=]|-(?![a-z]{2}))\s*[\w(]"  # not "x-axis", "y-intercept"
)
NUMBER = re.compile(r"(?<![\w.])[-−+]?\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?%?")
# Numbers joined by operators are one value written unevaluated: "52 * 1000 * 7",
# "$21 - $24". "-" and "x" only between spaces ("2-3 hours" is a range, "2x" an unknown);
# a computation with its result ("4 + 5 = 9") is no such value: its result is.
_TERM = r"\$?\d+(?:[.,]\d+)*%?"
_JOINED = r"(?:\s*[+×*/÷]\s*|\s+[-−x]\s+)"
EXPRESSION = re.compile(
    r"(?<![\w.$])[-−]?" + _TERM + "(?:" + _JOINED + _TERM + r")+"
    r"(?!\d|[.,]\d|\s*=|" + _JOINED + r"\$?\d"
    r"|,?\s+(?:which\s+|that\s+)?(?:is|are|equals|makes|gives)\s+[-−$]?\d)"
)
# A word that names a function is mathematics, not prose: "1 - sin(1)", "log 2".
FUNCTION = r"(?:arcsin|arccos|arctan|sin|cos|tan|cot|sec|csc|log|ln|exp|sqrt)\b"


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def last_match(pattern: re.Pattern[str], s: str) -> re.Match[str] | None:
    match = None
    for match in pattern.finditer(s):  # noqa: B007 - the last one counts
        pass
    return match


_UNIT_WORDS = re.compile(r"\s*([^\s\d,;:()]+)(?:\s+([^\s\d,;:()]+))?(?:\s+([^\s\d,;:()]+))?")


class _Quantity(NamedTuple):
    size: Fraction  # in the dimension's base unit
    dimension: str
    unit: str
    start: int
    end: int  # after the unit


def quantity(
    s: str, number: re.Match[str], unit_of: Callable[[str], Unit | None] = lookup
) -> _Quantity | None:
    """The number with the unit written after it, if it has one (a unit ``unit_of`` reads)."""
    words = _UNIT_WORDS.match(s, number.end())
    if words is None:
        return None
    try:
        size = Fraction(number.group(0).replace(",", "").replace("−", "-").replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return None
    for count in (3, 2, 1):
        parts = words.groups()[:count]
        if None in parts:
            continue
        written = " ".join(p for p in parts if p is not None)
        unit = unit_of(written.rstrip(".!?"))
        more = words.groups()[count:]
        if unit is not None and not preposition_here(parts[-1], sum(w is not None for w in more)):
            end = words.end(count) - (len(written) - len(written.rstrip(".!?")))
            return _Quantity(size * unit.factor, unit.dimension, unit.name, number.start(), end)
    return None


def holds_value(text: str) -> bool:
    """Whether ``text`` holds a value, in digits or in words ("Seven")."""
    return bool(HAS_VALUE.search(text) or HAS_VALUE.search(number_words_to_digits(text)))
