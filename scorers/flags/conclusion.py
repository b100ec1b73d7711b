"""The answer a text commits to: its last committed conclusion, after revisions.

Following "Beyond the Last Answer" (Hammoud et al. 2025), every phrase that
commits to an answer ("the answer is", "Final Answer:", ``\\boxed{}``, "I'll go
with", "so there are 42") is a candidate; the last one wins, so "wait,
actually it's 24" replaces an earlier 42. A candidate followed by a retraction
("wait", "that's wrong", "let me recount") with no newer candidate means the
reasoning never committed again, and nothing is returned.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from scorers.flags.scan import Family, Scanner, lc, lowered
from scorers.flags.spans import sentence_end, sentence_start



def _c(pattern: str) -> re.Pattern[str]:
    # Patterns run on lowercased text (scan.lc).
    return re.compile(lc(pattern))

_VAL = r"(?P<val>[^\n]{1,160})"

# Phrases that commit to an answer; the value runs to the end of the sentence.
# Strong phrases name the answer as such ("the answer is", "I'll go with");
# generic ones ("so the distance is", "this gives") commit only when the value
# has the shape the evaluator expects (a number, an option letter), so they are
# not used for free-text answers.
_SUBJECT = (
    r"(?:final\s+answer|(?:my|our|the)\s+(?:final\s+|best\s+|correct\s+|right\s+|only\s+|chronological\s+)?"
    r"(?:answer|option|choice|order|ordering|sequence|ranking|count|total|number|location|place|estimate"
    r"|identification|guess|pick|selection|match|conclusion)|answer)"
)
_STRONG_PATTERNS: tuple[str, ...] = tuple(
    p
    for p in (
        r"\b" + _SUBJECT + r"\s*(?:\*\*)?\s*(?:is|should\s+be|must\s+be|will\s+be|=|:|→|remains|stays)\s*(?:\*\*)?\s*"
        r"(?:therefore\s+|then\s+|thus\s+|clearly\s+|definitely\s+|indeed\s+|still\s+|actually\s+|now\s+)?" + _VAL,
        r"\b(?:I(?:'ll|\s+will)|I'm\s+going\s+to|let's|I've\s+decided\s+to|I\s+decided\s+to)\s+(?:go|stick|settle)"
        r"\s+with\s+" + _VAL,
        r"\b(?:I\s+(?:choose|pick|select)|I'm\s+(?:choosing|picking|selecting|going\s+with)|I\s+(?:can\s+)?"
        r"(?:definitively\s+|confidently\s+|now\s+|safely\s+)?conclude\s+that|I've\s+(?:concluded|determined"
        r"|confirmed)\s+that|(?:my|the)\s+conclusion\s+is(?:\s+that)?|I\s+(?:can\s+)?(?:now\s+)?confirm\s+that)\s+"
        + _VAL,
        r"\b(?:option|choice)\s+\(?(?P<val>[A-Z])\)?\s+(?:is|must\s+be|seems)\s+(?:the\s+)?(?:correct|right|answer"
        r"|best|one)\b",
    )
)
_GENERIC_PATTERNS: tuple[str, ...] = (
    (
        r"\b(?:so|therefore|thus|hence|that\s+means|which\s+means|in\s+total|overall|altogether|this\s+means"
        r"|in\s+conclusion)\s*,?\s+"
        r"(?:the\s+(?:\w+\s+){0,3}?(?:is|are|=|comes\s+to|equals|must\s+be)|there\s+(?:are|is|were|must\s+be)"
        r"|we\s+(?:have|get)|I\s+(?:count|get|have)|it's|it\s+is|that's|it\s+must\s+be|option|choice)\s+" + _VAL
    ),
    # "The reading is 33 °C." as the closing sentence.
    r"(?:^|\n|[.!]\s+)(?:the|my|our)\s+(?:\w+\s+){0,3}?(?:is|are|=|equals|comes\s+to)\s+" + _VAL,
    r"\b(?:that|this|which)\s+(?:gives|yields|makes)\s+(?:a\s+total\s+of\s+|us\s+|me\s+)?"
    r"(?P<val>-?\d[\d,]*(?:\.\d+)?)",
    # "So C has the largest area.": an option letter as the subject of the closing sentence.
    # (run on lowercased text: the letter's case is checked on the original)
    r"\b(?:so|therefore|thus|hence|then|yeah|yes|ok(?:ay)?)\s*,?\s+(?:option\s+|choice\s+)?\(?(?P<val>[a-h])\)?"
    r"(?=\s+(?:is|has|must|should|gives|matches|fits|wins|it\s+is)\b|\s*[.!](?:\s|$))",
)
_STRONG_STEMS = (
    "answer", "option", "choice", "order", "sequence", "ranking", "count", "total", "number", "location", "place",
    "estimate", "identification", "guess", "pick", "selection", "match", "conclusion", "go with", "stick with",
    "settle with", "choose", "select", "choosing", "picking", "going with", "conclude", "determined that",
    "confirmed that", "confirm that",
)
_GENERIC_STEMS = (
    "so", "therefore", "thus", "hence", "that means", "which means", "in total", "overall", "altogether",
    "this means", "in conclusion", "gives", "yields", "makes", "yeah", "yes", "ok", "then", " is ", " are ",
    " = ", "equals", "comes to",
)
_STRONG = Scanner(Family(f"strong{i}", _STRONG_STEMS, p, before=60, after=170) for i, p in enumerate(_STRONG_PATTERNS))
_GENERIC = Scanner(
    Family(f"generic{i}", _GENERIC_STEMS, p, before=60, after=170) for i, p in enumerate(_GENERIC_PATTERNS)
)
# Generic commits only count at the very end of the text, so only that much is scanned.
_GENERIC_REACH = 400
_RETRACT = _c(
    r"\b(?:wait|hold\s+on|on\s+second\s+thought|let\s+me\s+re-?(?:consider|count|calculate|examine|think"
    r"|evaluate|do)|recount|reconsider|re-?examin\w+|I\s+made\s+(?:a|an)\s+(?:mistake|error)"
    r"|that's\s+(?:wrong|incorrect|not\s+right)|that\s+(?:is|was)\s+(?:wrong|incorrect)|scratch\s+that"
    r"|mistake|miscount\w*|mis-?read|not\s+quite\s+right|doesn't\s+(?:add\s+up|work|fit|match))\b"
)
_CONDITIONAL = _c(r"\b(?:if|whether|suppose|supposing|assuming|unless|when|asks?|asking|question)\b")
_VAGUE = _c(
    r"^(?:not|either|one\s+of|unclear|unknown|uncertain|ambiguous|somewhere|something|that|this|these|those|which"
    r"|what|to\s|in\s+the\s+format|as\s+follows|below|based|a\s+(?:letter|number|string|comma))\b"
)
_MORE_WORK = re.compile(r"\d")
_MORE_WORK_CHARS = 200
_BOXED = re.compile(r"\\boxed\s*\{")


class Conclusion(NamedTuple):
    start: int  # span of the committing phrase and its value
    end: int
    value: str  # the committed answer as written
    strong: bool = True  # named as the answer, not just a closing "so ... is"


def _boxed(text: str, lo: int) -> list[Conclusion]:
    found: list[Conclusion] = []
    for m in _BOXED.finditer(text, lo):
        depth, i = 1, m.end()
        limit = min(len(text), m.end() + 400)
        while i < limit and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth == 0 and i - 1 > m.end():
            found.append(Conclusion(m.start(), i, text[m.end() : i - 1].strip()))
    return found


def _clean(value: str) -> str:
    value = value.strip().strip("*_`\"' ").strip()
    return value.rstrip(".!;: ").strip("*_` ").strip()


def candidates(text: str, lo: int = 0, low: str | None = None) -> list[Conclusion]:
    """Every committing phrase in ``text[lo:]``, in order of position.

    ``low`` is ``lowered(text)`` when the caller already has it.
    """
    low = lowered(text) if low is None else low
    found = _boxed(text, lo)
    matches = [(True, m) for ms in _STRONG.find(low, lo).values() for m in ms]
    tail = max(lo, len(text) - _GENERIC_REACH)
    matches += [(False, m) for ms in _GENERIC.find(low, tail).values() for m in ms]
    for strong, m in matches:
        if m.re.groupindex.get("val") and m.group("val")[:1].isalpha() and len(m.group("val")) == 1:
            # a lone option letter ("So C has ...") must be a capital in the original
            if not text[m.start("val")].isupper():
                continue
        vstart = m.start("val")
        vend = min(sentence_end(text, vstart), m.end("val"))
        while vend > vstart and text[vend - 1].isspace():
            vend -= 1
        sentence_close = sentence_end(text, m.start())
        if text[max(m.start(), sentence_close - 1) : sentence_close].strip() == "?":
            continue
        head = low[sentence_start(text, m.start()) : m.start()]
        if _CONDITIONAL.search(head):
            continue
        value = _clean(text[vstart:vend])
        if not value or _VAGUE.match(value.lower()) or len(value) > 140:
            continue
        # A generic "so the legs are 6 and 8" is an intermediate result unless
        # the text ends right after it.
        if not strong and (
            len(text) - vend > _MORE_WORK_CHARS or _MORE_WORK.search(text, vend, len(text)) is not None
        ):
            continue
        found.append(Conclusion(m.start(), vend, value, strong))
    found.sort(key=lambda c: (c.start, -c.end))
    return found


def last_committed(
    text: str, lo: int = 0, *, strong_only: bool = False, low: str | None = None
) -> Conclusion | None:
    """The last committed answer in ``text[lo:]``, or None if it was retracted or never given."""
    low = lowered(text) if low is None else low
    found = [c for c in candidates(text, lo, low) if c.strong or not strong_only]
    if not found:
        return None
    last = found[-1]
    if _RETRACT.search(low, last.end):
        return None
    return last
