"""The answer a text commits to: its last committed conclusion, after revisions.

Following "Beyond the Last Answer" (Hammoud et al. 2025), every phrase that
commits to an answer ("the answer is", "Final Answer:", ``\\boxed{}``, "I'll go
with", "so there are 42") is a candidate; the last one wins, so "wait,
actually it's 24" replaces an earlier 42. A candidate followed by a retraction
("wait", "that's wrong", "let me recount") with no newer candidate means the
reasoning never committed again, and nothing is returned.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from typing import NamedTuple

from scorers.flags.behaviour.scan import Family, Scanner, lc, lowered
from scorers.flags.behaviour.spans import sentence_end, sentence_end_from, sentence_start


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
    r"(?:final\s+answer|(?:my|our)\s+(?:final\s+)?(?:figure|tally)"
    r"|(?:revised|updated|corrected|amended)\s+(?:answer|order|ordering|sequence|ranking|count|total|number"
    r"|estimate|pick|choice|option|figure|tally)"
    r"|(?:the|my|our)\s+final\s+(?:figure|tally|reading|result|value|verdict)|(?:my|our|the)\s+(?:final\s+|best\s+|correct\s+|right\s+|only\s+|chronological\s+)?"
    r"(?:answer|option|choice|order|ordering|sequence|ranking|count|total|number|location|place|estimate"
    r"|identification|guess|pick|selection|conclusion)"
    # ("the match: same composition, ..." is evidence; "the best match is Lyon" an answer)
    r"|(?:my|our|the)\s+(?:best|closest|only|likeliest)\s+match|answer)"
)
_STRONG_PATTERNS: tuple[str, ...] = tuple(
    p
    for p in (
        r"\b"
        + _SUBJECT
        + r"\s*(?:\*\*)?\s*(?:is|should\s+be|must\s+be|will\s+be|=|:|→|remains|stays)\s*(?:\*\*)?\s*"
        r"(?:therefore\s+|then\s+|thus\s+|clearly\s+|definitely\s+|indeed\s+|still\s+|actually\s+|now\s+)?"
        + _VAL,
        r"\b(?:I(?:'ll|\s+will|'d|\s+would)|I'm\s+going\s+to|let's|I've\s+decided\s+to|I\s+decided\s+to)\s+(?:go|stick|settle)"
        r"\s+with\s+" + _VAL,
        r"\b(?:I\s+(?:choose|pick|select)|I'm\s+(?:choosing|picking|selecting|going\s+with)|I\s+(?:can\s+)?"
        r"(?:definitively\s+|confidently\s+|now\s+|safely\s+)?conclude\s+that|I've\s+(?:concluded|determined"
        r"|confirmed)\s+that|(?:my|the)\s+conclusion\s+is(?:\s+that)?|I\s+(?:can\s+)?(?:now\s+)?confirm\s+that"
        # "I've settled the order as B, D, A, C", "I've landed on Lyon"
        r"|I've\s+(?:concluded|determined)(?=\s+(?:this|that|it)\s+is\b)"
        r"|I'm\s+(?:settling|landing)\s+on"
        r"|I(?:'ve|\s+have)\s+(?:settled|fixed|landed|arrived)\s+(?:on\s+|at\s+)?(?:(?:the|my)\s+(?:order|answer"
        r"|sequence|ranking|count|total|location|city|choice)\s+(?:as|at|of|on)\b)?)\s+" + _VAL,
        r"\b(?:option|choice)\s+\(?(?P<val>[A-Z])\)?\s+(?:is|must\s+be|seems)\s+(?:the\s+)?(?:correct|right|answer"
        r"|best|one)\b",
        # a "**Final Order**" header with the value alone on the next line
        r"\*\*\s*final\s+(?:answer|order|ordering|sequence|ranking|count|total|tally|value|pick|choice)\s*:?\s*\*\*"
        r"[ \t]*\n\s*(?P<val>[^\n]{1,60})[ \t]*(?:\n|$)",
        # terse "Answer 22." closing a line
        r"\b(?:final\s+)?answer\s+(?P<val>-?\d[\d,]*(?:\.\d+)?|[a-h])\s*[.!]?[ \t]*(?:\n|$)",
    )
)
_GENERIC_PATTERNS: tuple[str, ...] = (
    (
        r"\b(?:so|therefore|thus|hence|that\s+means|which\s+means|in\s+total|overall|altogether|this\s+means"
        # ("So: D → B → A → C")
        r"|in\s+conclusion)(?:\s*[:：]|\s*,?\s+"
        r"(?:the\s+(?:[^\s.!?]+\s+){0,4}?(?:is|are|=|comes\s+to|equals|must\s+be)|there\s+(?:are|is|were|must\s+be)"
        # "So Q3 total revenue = 1,240"
        r"|(?:[^\s.!?=]+\s+){1,4}?(?:=|comes\s+to|equals)"
        # "so 2021 exceeded 2018 by 145 mm"
        r"|(?:[^\s.!?=]+\s+){1,4}?(?:exceeded|exceeds|outnumbered|outnumbers|beat|beats|led|leads|(?:is|was|are|were)"
        r"\s+(?:higher|lower|larger|smaller|bigger|taller|shorter|longer|more|less|greater|ahead|behind))"
        r"\s+(?:[^\s.!?=]+\s+){0,3}?by"
        # "so July has 42 mm more rain than March"
        r"|(?:[^\s.!?=]+\s+){1,4}?(?:has|had|have|gets|got|received|receives|holds|weighs|costs|measures)(?=\s+[$€£~≈]?\d)"
        r"|we\s+(?:have|get)|I\s+(?:count|get|have)|it's|it\s+is|that's|it\s+must\s+be|option|choice))\s+"
        + _VAL
    ),
    # "The reading is 33 °C." as the closing sentence.
    # ...opening its sentence ("The reading is 33 °C.")
    r"(?:[.!]\s+|\n)(?:the|my|our)\s+(?:\w+\s+){0,3}?(?:is|are|=|equals|comes\s+to)\s+" + _VAL,
    r"\b(?:that|this|which)\s+(?:gives|yields|makes)\s+(?:a\s+total\s+of\s+|us\s+|me\s+)?"
    r"(?P<val>-?\d[\d,]*(?:\.\d+)?)",
    # "So C has the largest area.": an option letter as the subject of the closing sentence.
    # (run on lowercased text: the letter's case is checked on the original)
    r"\b(?:so|therefore|thus|hence|then|yeah|yes|ok(?:ay)?)\s*,?\s+(?:option\s+|choice\s+)?\(?(?P<val>[a-h])\)?"
    r"(?=\s+(?:is|has|must|should|gives|matches|fits|wins|it\s+is)\b|\s*[.!](?:\s|$))",
    # "In letters: C, A, D, B." or "Order: C → A → D → B." on a closing line
    r"(?:^|\n|[.!]\s)\s*(?:in\s+letters|as\s+letters|order|ordering|sequence|final\s+order|count|total|verdict|pick"
    r"|my\s+pick|choice|selection)\s*[:：]\s*" + _VAL,
    # "∴ x = 7", "∠ABC → 42" closing the text
    r"(?:∴|→|=>)\s*(?:[a-z]\w{0,3}\s*=\s*)?(?P<val>-?\d[\d,]*(?:\.\d+)?)\s*(?:°|%|degrees)?\s*[.!]?[ \t]*(?:\n|$)",
    # "→ D" closing the text, not the last step of "B → D → A → C"
    r"(?<![\w)]\s)(?<![\w)])(?:∴|→|=>)\s*(?:option\s+|choice\s+)?\(?(?P<val>[a-h])\)?\s*[.!]?[ \t]*(?:\n|$)",
    # "Tallest to shortest, then: C, A, B, D."
    r"\bthen\s*[:：]\s*" + _VAL,
    # "Sticking with 36." opening its sentence ("I'm going with" is a strong phrase)
    r"(?:(?<=[.!?]\s)|(?<=\n)|^)(?:sticking|going|staying)\s+with\s+" + _VAL,
    # "That leaves 146.", "which leaves us with C"
    r"\b(?:that|which|this)\s+leaves\s+(?:us\s+with\s+|me\s+with\s+|just\s+|only\s+)?" + _VAL,
    # "...is the one labelled (B)."
    r"\b(?:labell?ed|marked)\s+\(?(?P<val>[a-h])\)?(?=\s*[.!](?:\s|$))",
    # "..., which is option B." closing the text
    r"\bwhich\s+(?:is|would\s+be|corresponds\s+to|means|makes\s+it)\s+(?:option|choice|answer)\s+\(?(?P<val>[a-h])\)?"
    r"(?=\s*[.!,;)](?:\s|$)|\s*$)",
)
_NOUNS = (
    "answer",
    "option",
    "choice",
    "order",
    "ordering",
    "sequence",
    "ranking",
    "count",
    "total",
    "number",
    "location",
    "place",
    "estimate",
    "identification",
    "guess",
    "pick",
    "selection",
    "match",
    "conclusion",
    "final",
    "best",
    "correct",
    "right",
    "only",
    "chronological",
)
_STRONG_STEMS: tuple[tuple[str, ...], ...] = (
    (
        *(f"{det} {noun}" for det in ("my", "our", "the") for noun in _NOUNS),
        *(f"{det} {noun}" for det in ("my", "our") for noun in ("figure", "tally")),
        "revised",
        "updated",
        "corrected",
        "amended",
        "final answer",
        "answer",
    ),
    ("i'll", "i will", "i'd", "i would", "i'm going", "let's", "i've decided", "i decided"),
    (
        "i choose",
        "i pick",
        "i select",
        "i'm choosing",
        "i'm picking",
        "i'm selecting",
        "i'm going with",
        "i can conclude",
        "i can confirm",
        "i can definitively",
        "i can confidently",
        "i can now",
        "i can safely",
        "i conclude",
        "i definitively",
        "i confidently",
        "i now",
        "i safely",
        "i've concluded",
        "i've determined",
        "i've confirmed",
        "i confirm",
        "my conclusion",
        "the conclusion",
        "i'm settling",
        "i'm landing",
        "i've settled",
        "i have settled",
        "i've fixed",
        "i have fixed",
        "i've landed",
        "i have landed",
        "i've arrived",
        "i have arrived",
    ),
    ("option", "choice"),
    ("**final", "** final"),
    ("answer", "final answer"),
)
_GENERIC_STEMS: tuple[tuple[str, ...], ...] = (
    (
        "so",
        "therefore",
        "thus",
        "hence",
        "that means",
        "which means",
        "in total",
        "overall",
        "altogether",
        "this means",
        "in conclusion",
    ),
    (". the", ". my", ". our", "\nthe", "\nmy", "\nour", "! the", ".  the"),
    (
        "that gives",
        "that yields",
        "that makes",
        "this gives",
        "this yields",
        "this makes",
        "which gives",
        "which yields",
        "which makes",
    ),
    ("so", "therefore", "thus", "hence", "then", "yeah", "yes", "ok"),
    (
        *(
            f"{lead}{label}"
            for lead in ("\n", ". ", "! ")
            for label in (
                "in letters",
                "as letters",
                "order",
                "ordering",
                "sequence",
                "final order",
            )
        ),
        *(
            f"{lead}{label}"
            for lead in ("\n", ". ", "! ")
            for label in ("count", "total", "verdict", "pick", "my pick", "choice", "selection")
        ),
    ),
    ("∴", "→", "=>"),
    ("∴", "→", "=>"),
    ("then:", "then :"),
    ("sticking with", "going with", "staying with"),
    ("that leaves", "which leaves", "this leaves"),
    ("labelled", "labeled", "marked"),
    ("which is", "which would", "which corresponds", "which means", "which makes"),
)
# Generic commits only count at the very end of the text, so only that much is scanned.
_GENERIC_REACH = 400
_RETRACT_PATTERN = (
    r"\b(?:wait|hold\s+on|on\s+second\s+thought|let\s+me\s+re-?(?:consider|count|calculate|examine|think"
    r"|evaluate|do)|recount|reconsider|re-?examin\w+|I\s+made\s+(?:a|an)\s+(?:mistake|error)"
    r"|that's\s+(?:wrong|incorrect|not\s+right)|that\s+(?:is|was)\s+(?:wrong|incorrect)|scratch\s+that"
    r"|mistake|miscount\w*|mis-?read|not\s+quite\s+right|doesn't\s+(?:add\s+up|work|fit|match))\b"
)
_RETRACT_STEMS = (
    "wait",
    "hold on",
    "on second thought",
    "let me re",
    "recount",
    "reconsider",
    "re-examin",
    "reexamin",
    "i made",
    "that's",
    "that is",
    "that was",
    "scratch that",
    "mistake",
    "miscount",
    "misread",
    "mis-read",
    "not quite",
    "doesn't",
)

# "Lisbon it is." names the answer as strongly as "the answer is" does; its value
# comes before its stem, so it is searched in a window around the stem.
# "Eleven windows in total.": the value before its stem, as with "Lisbon it is".
_IN_TOTAL = Family(
    "closing_in_total",
    (" in total.", " in total!", " in all.", " altogether."),
    r"(?:(?<=[.!?]\s)|(?<=\n))(?P<val>[^\s.!?\n*][^.!?\n]{0,40}?)\s+(?:in\s+total|in\s+all|altogether)\s*[.!]",
    before=60,
    after=10,
    near_end=_GENERIC_REACH,
)
# "Result: Porto — Ponte Luís I." or "**Final:** D" opening one of the last lines.
_LABELS = ("final", "result", "conclusion", "bottom line", "final result", "verdict")
# "B, D, A, C is what I'll go with.": the value before its stem, as with "Lisbon it is".
_WHAT_ILL = Family(
    "commit_what_ill",
    (" is what i'll", " is what i will", " is what i'm going", " is what i am going"),
    r"(?:(?<=[.!?]\s)|(?<=\n)|(?<=\*\*))(?P<val>[^\s.!?\n*][^.!?\n]{0,40}?)\s+is\s+what\s+i(?:'ll|\s+will"
    r"|'m\s+going\s+to|\s+am\s+going\s+to)\s+(?:go\s+with|pick|choose|answer|say|submit|put)\b",
    before=60,
    after=30,
)
# (Found across the closing part, as free-text answers are read there, but only
# counted near the end: see _raw.)
_LABELLED = Family(
    "commit_label",
    tuple(f"\n{lead}{label}" for lead in ("", "- ", "* ", "• ", "**") for label in _LABELS),
    r"\n[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?(?:final\s+result|final|result|conclusion|bottom\s+line|verdict)"
    r"\s*(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*" + _VAL,
    anchored=True,
)
_IT_IS = Family(
    "commit_it_is",
    (" it is.", " it is!", " it is ."),
    r"(?:(?<=[.!?]\s)|(?<=\n)|(?<=\*\*))(?P<val>[^\s.!?\n*][^.!?\n]{0,40}?)\s+it\s+is\s*[.!]",
    before=60,
    after=10,
)

FAMILIES: tuple[Family, ...] = (
    *(
        Family(f"commit{i}", stems, p, anchored=True)
        for i, (stems, p) in enumerate(zip(_STRONG_STEMS, _STRONG_PATTERNS, strict=True))
    ),
    *(
        Family(f"closing{i}", stems, p, anchored=True, near_end=_GENERIC_REACH)
        for i, (stems, p) in enumerate(zip(_GENERIC_STEMS, _GENERIC_PATTERNS, strict=True))
    ),
    _IT_IS,
    _WHAT_ILL,
    _IN_TOTAL,
    _LABELLED,
    Family("retract", _RETRACT_STEMS, _RETRACT_PATTERN, anchored=True),
)
_SCANNER = Scanner(FAMILIES)
# The families whose matches commit to an answer, and whether each names it as such.
_COMMITTING = tuple((f.name, f.name.startswith("commit")) for f in FAMILIES if f.name != "retract")
_STRONG_ONLY = tuple((name, strong) for name, strong in _COMMITTING if strong)
_CONDITIONAL = _c(
    r"\b(?:if|whether|suppose|supposing|assuming|unless|when|asks?|asking|question)\b"
)
# ("this photo was taken in Ljubljana" names a place; "that one" does not)
_POINTED = (
    r"\b(?!\s+(?:photo|image|picture|photograph|place|city|location|building|bridge|scene|street|landmark"
    r"|structure|shot|view|person|man|woman|figure|chart|graph|meme|is|was|must|shows)\b)"
)
# "the match is exact, and ...": a verdict on the evidence, not an answer
_VERDICT = r"(?=\s*(?:[,.;]|and\b|$))"
_VAGUE = _c(
    r"^(?:not|either|one\s+of|unclear|unknown|uncertain|ambiguous|somewhere|something|which"
    + "".join(f"|{word}{_POINTED}" for word in ("that", "this", "these", "those"))
    + r"|what|to\s|in\s+the\s+format|as\s+follows|below|based|a\s+(?:letter|number|string|comma)"
    + "".join(
        f"|{word}{_VERDICT}"
        for word in (
            "exact",
            "perfect",
            "strong",
            "clear",
            "obvious",
            "solid",
            "close",
            "good",
            "consistent",
            "convincing",
            "unmistakable",
            "settled",
            "confirmed",
            "decided",
            "fine",
            "done",
            "correct",
            "right",
            "certain",
        )
    )
    + r")\b"
)
# The letters a _VAGUE match can open with: a value opening with any other
# character (a digit, a capital's lowercase outside these) skips the regex.
_VAGUE_FIRST = frozenset("neouastwibpcgldfr")
_MORE_WORK = re.compile(r"\d")
_MORE_WORK_CHARS = 200
_BOXED = re.compile(r"\\boxed\s*\{")
_BOX_CAP = 8
_BOX_REACH = 400


class NotRead(enum.Enum):
    """A conclusion nobody has looked for yet (None: looked for, none found)."""

    TOKEN = enum.auto()


NOT_READ = NotRead.TOKEN


class Conclusion(NamedTuple):
    start: int  # span of the committing phrase and its value
    end: int
    value: str  # the committed answer as written
    strong: bool = True  # named as the answer, not just a closing "so ... is"


def _boxed(text: str, lo: int) -> list[Conclusion]:
    # Only the last few boxes can be the conclusion; scanning each one's braces
    # in Python is bounded by _BOX_REACH, so a text of 10,000 boxes stays cheap.
    if text.find("\\boxed", lo) == -1:
        return []  # most texts box nothing: one search in C decides it
    starts = list(_BOXED.finditer(text, lo))[-_BOX_CAP:]
    found: list[Conclusion] = []
    for m in starts:
        depth, i = 1, m.end()
        limit = min(len(text), m.end() + _BOX_REACH)
        while i < limit and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        if depth == 0 and i - 1 > m.end():
            found.append(Conclusion(m.start(), i, text[m.end() : i - 1].strip()))
    return found


# "Amount due: $71.91." as the text's last line: a labelled figure closing the work.
_CLOSING_LINE = re.compile(
    r"[ \t]*(?:[-*•][ \t]*)?(?:\*\*)?[A-Za-z][\w '/()-]{0,40}?(?:\*\*)?[ \t]*[:=][ \t]*(?:\*\*)?[ \t]*"
    r"(?P<val>[$€£~≈]?[ \t]*-?\d[\d,]*(?:\.\d+)?[^\n\d=]{0,24})[ \t]*$"
)
_CLOSING_REACH = 120


def _closing_line(text: str, lo: int) -> list[Conclusion]:
    end = len(text.rstrip())
    line = max(lo, end - _CLOSING_REACH, text.rfind("\n", 0, end) + 1)
    if text.find(":", line, end) == -1 and text.find("=", line, end) == -1:
        return []  # most closing lines label nothing: two searches in C decide it
    m = _CLOSING_LINE.match(text, line, end)
    if m is None:
        return []
    label = line + len(text[line:end]) - len(text[line:end].lstrip())
    return [Conclusion(label, end, _clean(text[m.start("val") : end]), False)]


def _clean(value: str) -> str:
    value = value.strip().strip("*_`\"' ").strip()
    return value.rstrip(".!;: ").strip("*_` ").strip()


def _raw(
    text: str,
    lo: int,
    low: str,
    found_by: Mapping[str, list[re.Match[str]]] | None,
    strong_only: bool = False,
) -> list[tuple[bool, re.Match[str]]]:
    if found_by is None:
        found_by = _SCANNER.find(low, lo)
    tail = max(lo, len(text) - _GENERIC_REACH)
    # Sorted by (start, -end), ties in family order: the running count makes
    # each key unique, so the sort compares plain integers in C.
    keyed: list[tuple[int, int, int, bool, re.Match[str]]] = []
    for name, strong in _STRONG_ONLY if strong_only else _COMMITTING:
        floor = lo if strong and name != _LABELLED.name else tail
        for m in found_by.get(name, ()):
            start = m.start()
            if start >= floor:
                keyed.append((start, -m.end(), len(keyed), strong, m))
    keyed.sort()
    return [(strong, m) for _, _, _, strong, m in keyed]


def _valid(text: str, low: str, strong: bool, m: re.Match[str]) -> Conclusion | None:
    """The conclusion a committing phrase states, or None if it states none."""
    start = m.start()
    vstart, vmax = m.span("val")
    if vmax - vstart == 1 and low[vstart].isalpha() and not text[vstart].isupper():
        return None  # a lone option letter ("So C has ...") must be a capital in the original
    sentence_close = sentence_end(text, start)
    vend = min(sentence_end_from(text, vstart, start, sentence_close), vmax)
    while vend > vstart and text[vend - 1].isspace():
        vend -= 1
    if text[max(start, sentence_close - 1) : sentence_close].strip() == "?":
        return None
    if _CONDITIONAL.search(low, sentence_start(text, start), start):
        return None
    value = _clean(text[vstart:vend])
    if not value or len(value) > 140:
        return None
    vague = value.lower()
    if vague[:1] in _VAGUE_FIRST and _VAGUE.match(vague):
        return None
    # A generic "so the legs are 6 and 8" is an intermediate result unless
    # the text ends right after it.
    if not strong and (
        len(text) - vend > _MORE_WORK_CHARS or _MORE_WORK.search(text, vend, len(text)) is not None
    ):
        return None
    while start < vstart and text[start].isspace():
        start += 1  # (a label opening a line: the evidence starts at the label)
    return Conclusion(start, vend, value, strong)


def candidates(
    text: str,
    lo: int = 0,
    low: str | None = None,
    found_by: Mapping[str, list[re.Match[str]]] | None = None,
) -> list[Conclusion]:
    """Every committing phrase in ``text[lo:]``, in order of position.

    ``low`` is ``lowered(text)`` and ``found_by`` a combined scanner's matches
    over ``text[lo:]`` (see FAMILIES) when the caller already has them.
    """
    low = lowered(text) if low is None else low
    found = _boxed(text, lo) + _closing_line(text, lo)
    for strong, m in _raw(text, lo, low, found_by):
        c = _valid(text, low, strong, m)
        if c is not None:
            found.append(c)
    found.sort(key=lambda c: (c.start, -c.end))
    return found


def last_candidate(
    text: str,
    lo: int = 0,
    *,
    strong_only: bool = False,
    low: str | None = None,
    found_by: Mapping[str, list[re.Match[str]]] | None = None,
) -> Conclusion | None:
    """The last committing phrase in ``text[lo:]`` (retracted or not), checked from the end."""
    low = lowered(text) if low is None else low
    boxed = _boxed(text, lo)
    if not strong_only:
        boxed += _closing_line(text, lo)
        boxed.sort(key=lambda c: (c.start, -c.end))
    best = boxed[-1] if boxed else None
    # Without the generic phrases when strong_only: skipping them here would
    # only ever continue (or stop where a strong one before them stops too).
    for strong, m in reversed(_raw(text, lo, low, found_by, strong_only)):
        if best is not None and m.start() < best.start:
            break
        c = _valid(text, low, strong, m)
        if c is not None:
            if best is None or (c.start, -c.end) > (best.start, -best.end):
                best = c
            break
    return best


# "...if I've misread the bridge": a retraction only supposed, not made.
_SUPPOSED = _c(r"\b(?:if|unless|whether|in\s+case)\b[^,.;:!?\n]*$")


def retractions(low: str, found_by: Mapping[str, list[re.Match[str]]]) -> list[re.Match[str]]:
    """The retraction cues ("wait", "I misread") that are not only supposed."""
    return [
        m
        for m in found_by.get("retract", ())
        if not _SUPPOSED.search(low, max(0, m.start() - 60), m.start())
    ]


def last_committed(
    text: str,
    lo: int = 0,
    *,
    strong_only: bool = False,
    low: str | None = None,
    found_by: Mapping[str, list[re.Match[str]]] | None = None,
) -> Conclusion | None:
    """The last committed answer in ``text[lo:]``, or None if it was retracted or never given."""
    low = lowered(text) if low is None else low
    if found_by is None:
        found_by = _SCANNER.find(low, lo)
    last = last_candidate(text, lo, strong_only=strong_only, low=low, found_by=found_by)
    if last is None or any(m.start() >= last.end for m in retractions(low, found_by)):
        return None
    return last
