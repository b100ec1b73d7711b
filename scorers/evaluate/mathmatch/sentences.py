"""The value a math answer written as prose commits to.

A reader does not cut a sentence after its last "is" or "=": they find the
sentence that states the result and, in it, the value it states. This module
does that for the text the extractor hands it (the paragraph after a
final-answer marker, or the closing line of an answer without one):

1. Number words become digits when the text has no digits ("three hours"),
   with text2num's ``alpha2digit``.
2. The stating sentence: the first after a marker, else the last one that is
   not a side remark (a sentence in parentheses, or one opened by "Note",
   "Remark", "Check", ...).
3. In it, what is not the statement goes: an excluded alternative (", not 6",
   "rather than 6"), an aside in parentheses that holds words or an "="
   ("2 (x = 1 and x = -1)"), and what follows a restatement marker replaces what
   precedes it ("4 : 6, i.e. 2 : 3").
4. The value: "V is the answer"; a list after a colon only when the reference
   has several values (else the count before it: "3 roots: ..."); alternatives
   that each give the same unknown ("x = 5 or x = -75" -> ``5 or -75``); the
   text after the last "is" / "=" that holds a value; and in a sentence with
   neither, its only value with its unit ("needs 3 hours to ...").

What comes back is text for :mod:`scoring`, which decides what several values
mean (a hedge between candidates for one value earns nothing).
"""

from __future__ import annotations

import re

from scorers.evaluate.mathmatch.units import lookup

try:  # text2num: number words in the languages of MathReal-style answers
    from text_to_num import alpha2digit as _alpha2digit
except ImportError:  # pragma: no cover - a declared dependency
    _alpha2digit = None

_DIGIT = re.compile(r"\d")
_ORDINAL = re.compile(r"\d(?:st|nd|rd|th)s?\b")
# A sentence ends at . ! ? after a lowercase word, digit or bracket and before a
# capital or an opening bracket; "B. f'(x) > 0" (an option letter with its text) is one.
_SENTENCE_END = re.compile(r"(?<=[a-z0-9)\]}%²³°][.!?])\s+(?=[A-Z(\[])|(?<=[。！？])\s*")
# A side remark, not a statement of the result: in brackets, opened by a remark
# or check word, a supposition ("If the side were 7", "Had we counted"), a
# comparison or a check of the result ("Substituting back", "which checks out").
_REMARK = re.compile(
    r"^\s*(?:[(\[]|(?:note|remark|check|checking|verification|verify|n\.?b\.?|p\.?s\.?|"
    r"explanation|hint|if|had|were|suppose|substituting|plugging|by\s+comparison|"
    r"for\s+comparison|for\s+reference|compare|a\s+common\s+mistake)\b)"
    r"|\b(?:would|for\s+reference|by\s+comparison|checks\s+out|as\s+a\s+check)\b",
    re.IGNORECASE,
)
_LEAD = re.compile(
    r"^(?:so|thus|therefore|hence|then|finally|overall|in conclusion|in total|altogether|"
    r"after checking|after all)\b[\s,:]*",
    re.IGNORECASE,
)
# ", not 6", "(not 6)", "rather than 6", "instead of 6", "but not 6": an alternative excluded.
_EXCLUDED = re.compile(
    r"(?:,\s*|\s+\(\s*|\s+)(?:and\s+|but\s+)?not\s+(?=[-−+\d(\\$])|"
    r"\s+(?:rather\s+than|instead\s+of)\s+",
    re.IGNORECASE,
)
# What follows restates what precedes, in its final form.
_RESTATED = re.compile(
    r"(?:,\s*|\s+)(?:i\.\s?e\.|that\s+is|which\s+simplifies\s+to|simplified|simplifying|"
    r"(?:or\s+)?equivalently|in\s+lowest\s+terms)\s*,?\s*",
    re.IGNORECASE,
)
_CLAUSE_GOES_ON = re.compile(r",\s+(?=[a-z])")
_ASIDE = re.compile(r"\s+\(([^()]*)\)")
_WORD = re.compile(r"[A-Za-z]{2,}")
_VALUE_IS_ANSWER = re.compile(
    r"^(?P<value>.*?)\s+(?:is|was|would\s+be|must\s+be|should\s+be)\s+"
    r"(?:the|our|my)\s+(?:final\s+|correct\s+|required\s+|requested\s+)?"
    r"(?:answer|result|solution|value)\b",
    re.IGNORECASE,
)
_COLON = re.compile(r"(?<=[A-Za-z)])\s*:\s+")
# A colon between two numbers is a ratio ("4 : 6"), not a label.
_CUT = re.compile(
    r"\b(?:is|are|equals|was|be|gives|becomes|get|gets|got|obtain|obtains|yields?|"
    r"(?:simplif(?:y|ies)|reduces?|comes?|works?\s+out|equal)\s+to)\b|"
    r"=|(?<![\d\s])\s*[：:]|[：:](?!\s*\d)|为|是",
    re.IGNORECASE,
)
# A clause that compares another quantity or gives a reason: ", while the median
# is 7", ", since half the cards are red". ("although" and "but" stay: they
# often carry a second candidate, and a hedge is no answer.)
_SIDE_CLAUSE = re.compile(
    r",?\s+(?:while|whereas|since|because|as\s+(?:we|it|the|this))\b|,\s*as\b", re.I
)
# "is at (2, -1)", "is about 12": the words between the verb and the value.
_PREPOSITION = re.compile(
    r"^(?:(?:at|of|to|about|around|exactly|equal\s+to|actually|therefore|thus|hence|then|just|"
    r"simply|indeed|now|really|clearly|finally|in\s+fact|in\s+total|in\s+all)\s+)+(?=[-−+\d(\\$a-zA-Zπ√])",
    re.I,
)
_SHORT_VERB = re.compile(r"\s+(?:equals|is)\s+(?=[-−+\d(\\$])", re.I)
# "I think it's 12, but it could be 14", "Probably 9, maybe 10": a second
# candidate offered with doubt; the sentence commits to neither.
_HEDGED_OTHER = re.compile(
    r"(?:[,;]\s*|\s+)\(?(?:(?:but|although|though|yet|or)\b(?=[^.;]*?\b(?:could|might|may|possibly|"
    r"perhaps|maybe|also\s+(?:possible|plausible|likely)|cannot\s+be\s+ruled\s+out|not\s+sure)\b)"
    r"|(?:maybe|perhaps|possibly)\b)",
    re.I,
)
# "2.5 metres long", "14 years old": a word after the value that says what it measures.
_TRAILING_WORDS = re.compile(
    r"(?<=\w)\s+(?:long|wide|tall|high|deep|thick|old|away|apart|in\s+total|in\s+all|"
    r"altogether|overall)\s*[.!]?$",
    re.I,
)
# ", so 24 sweets are shared": what follows a consequence connective concludes.
_CONSEQUENCE = re.compile(r"(?:,|;)\s*(?:so|thus|hence|therefore|which\s+means)\b,?\s*", re.I)
# ", which we can check by ...": a remark after the value.
_TRAILING_REMARK = re.compile(
    r",\s+(?:which|where|so\s+that|and\s+(?:this|that|it|we)|though|although|but)\b.*$", re.I
)
# "the perimeter, 28": a name for the value, then the value.
_APPOSITION = re.compile(r"^(?P<name>[^,\d]*[A-Za-z][^,\d]*),\s*(?P<value>.+)$")
# A value: digits, LaTeX, circled labels, an option letter, CJK, or algebra
# ("(a + b)²", "2x" has digits; "a + b", "n²", "π").
_HAS_VALUE = re.compile(
    r"[0-9\\①-⑳²³√π∞]|(?<![A-Za-z])[A-H](?![A-Za-z])|[\u4e00-\u9fff]"
    r"|(?<![A-Za-z])[a-z]\s*[-+*/^=]\s*[\w(]"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_INLINE_MATH = re.compile(r"\$([^$]+)\$|\\\((.+?)\\\)")


def _unwrapped(m: re.Match[str]) -> str:
    return m.group(1) if m.group(1) is not None else m.group(2)


_ASSIGNED = re.compile(r"(?:^|\s|\()([A-Za-z](?:_\{?\w+\}?)?)\s*=\s*([^=]+?)\s*\)?$")
_MATH_SPAN = re.compile(r"(\$\$?|\\\(|\\\[)[^$]*?(\$\$?|\\\)|\\\])[^$]*$")
_NUMBER = re.compile(r"(?<![\w.])[-−+]?\d+(?:[.,]\d+)*(?:\s*/\s*\d+)?%?")
_POINT = re.compile(r"\([^()]*\d[^()]*,[^()]*\)")


def number_words_to_digits(text: str) -> str:
    """``text`` with its number words written as digits, when it has no digits."""
    if _alpha2digit is None or _DIGIT.search(text) or _CJK.search(text):
        return text
    try:
        # threshold 0: "one" and "two" are answers too ("The answer is two.").
        converted = str(_alpha2digit(text, "en", 0))
    except (ValueError, TypeError):  # pragma: no cover - unexpected input to the parser
        return text
    # "two thirds" is no "two 3rds": a text with fractions or ordinals stays as written.
    return text if _ORDINAL.search(converted) else converted


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


def stating_sentence(text: str, *, first: bool) -> str:
    """The sentence that states the result: the first (after a marker) or the
    last that is not a side remark."""
    found = sentences(text)
    if not found:
        return text.strip()
    if first:
        return found[0]
    kept = [s for s in found if not _REMARK.search(s)]
    return (kept or found)[-1]


def committed_value(text: str, items: int = 1, *, first: bool = False) -> str:
    """The value ``text`` commits to, as text; ``items``: how many values the
    reference has (it decides between a count and the list that follows it)."""
    text = number_words_to_digits(text)
    sentence = stating_sentence(text, first=first)
    return _value_of(sentence, items)


def _value_of(sentence: str, items: int) -> str:
    s = _LEAD.sub("", sentence.strip()).strip()
    consequence = None
    for consequence in _CONSEQUENCE.finditer(s):  # noqa: B007 - the last one concludes
        pass
    if consequence is not None:
        if _HAS_VALUE.search(s[consequence.end() :]):
            s = s[consequence.end() :]
        elif _HAS_VALUE.search(s[: consequence.start()]):
            s = s[: consequence.start()]  # ", so two solutions": a remark on the values
    excluded = _EXCLUDED.search(s)
    if excluded is not None and _HAS_VALUE.search(s[: excluded.start()]):
        s = s[: excluded.start()]
    hedged = _HEDGED_OTHER.search(s)
    if hedged is not None:
        first, other = s[: hedged.start()], s[hedged.end() :]
        values = [_only_value(first) or "", _only_value(other) or ""]
        if all(values) and values[0] != values[1]:
            return " or ".join(values)
    restated = None
    for restated in _RESTATED.finditer(s):  # noqa: B007 - the last restatement counts
        pass
    if restated is not None and _HAS_VALUE.search(s[restated.end() :]):
        s = _CLAUSE_GOES_ON.split(s[restated.end() :], maxsplit=1)[0]
    s = _drop_asides(s)
    side = _SIDE_CLAUSE.search(s)
    if side is not None and _HAS_VALUE.search(s[: side.start()]):
        s = s[: side.start()]
    short = len(s.split()) <= 3  # "x = 5", "15 cm": the value already, as the rules read it
    named = _VALUE_IS_ANSWER.match(s)
    if named is not None and _HAS_VALUE.search(named.group("value")):
        return _LEAD.sub("", named.group("value").rsplit(",", 1)[-1].strip())
    apposition = _APPOSITION.match(s)
    if apposition is not None and _HAS_VALUE.search(apposition.group("value")):
        s = apposition.group("value")
    colon = _COLON.search(s)
    if colon is not None:
        head, tail = s[: colon.start()], s[colon.end() :]
        if items == 1 and _HAS_VALUE.search(head):
            s = head
        elif _HAS_VALUE.search(tail):
            s = tail
    alternatives = same_unknown(s)
    if alternatives is not None:
        return alternatives
    solved = system(s)
    if solved is not None:
        return solved
    math = _MATH_SPAN.search(s)
    if math and math.start() > 0:
        # "The equation of the line is $y = 3 - x$." -> the formula (and any unit after it).
        return s[math.start() :].strip()
    if short:
        # "x equals 4", "It is 9": the value as an equation the rules read.
        return _SHORT_VERB.sub(" = ", s)
    cuts = list(_CUT.finditer(s))
    for cut in reversed(cuts):
        tail = s[cut.end() :].strip()
        if tail and _HAS_VALUE.search(tail):
            remark = _TRAILING_REMARK.search(tail)
            if remark is not None and _HAS_VALUE.search(tail[: remark.start()]):
                tail = tail[: remark.start()]
            return _TRAILING_WORDS.sub("", _PREPOSITION.sub("", tail))
    # "24 sweets are shared in all", "3 roots": the value stands before the verb.
    only = _only_value(s)
    return s if only is None else only


def system(s: str) -> str | None:
    """``... is x = 2 and y = 3``: the values of several unknowns, kept whole."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    s = _INLINE_MATH.sub(_unwrapped, s)
    for cut in _CUT.finditer(s):
        if cut.group(0) == "=":
            tail = s[cut.start() :]
            start = max(s.rfind(" ", 0, cut.start() - 1), 0)
            tail = s[start:].strip()
        else:
            tail = s[cut.end() :].strip()
        parts = top_level_split(tail.rstrip(". "), (", ", " and ", "; "))
        if len(parts) > 1 and all(_ASSIGNED.fullmatch(" " + p.strip()) for p in parts):
            return tail.rstrip(". ")
    return None


def _drop_asides(s: str) -> str:
    """Parentheses that hold words or an "=" are asides, unless nothing else holds a value."""

    def aside(m: re.Match[str]) -> str:
        inner = m.group(1)
        words = _WORD.search(_LATEX.sub(" ", inner))
        return "" if ("=" in inner or words) else m.group(0)

    dropped = _ASIDE.sub(aside, s)
    return dropped if _HAS_VALUE.search(dropped) else s


def same_unknown(s: str) -> str | None:
    """``x = -3 or x = 2`` -> ``-3 or 2``: alternatives each giving the same unknown."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    s = _INLINE_MATH.sub(_unwrapped, s)  # "$x = 5$ or $x = -75$": the math is the text
    joiner = " or " if re.search(r"\bor\b", s) else " and "
    parts = top_level_split(s, (" or ", " and ", ", "))
    if len(parts) < 2:
        return None
    names: set[str] = set()
    values: list[str] = []
    for i, part in enumerate(parts):
        m = _ASSIGNED.search(part)
        if m is None:
            return None
        names.add(m.group(1).split("_", 1)[0])
        values.append(m.group(2).strip())
        if i == 0 and len(names) != 1:
            return None
    if len(names) != 1:
        return None
    return joiner.join(values)


def _only_value(s: str) -> str | None:
    """The one value of a sentence that states it without "is" or "=", with its unit."""
    points = _POINT.findall(s)
    numbers = [m for m in _NUMBER.finditer(s) if not any(m.group(0) in p for p in points)]
    if len(points) == 1 and not numbers:
        return points[0]
    if len(numbers) != 1 or points:
        return None
    number = numbers[0]
    words = s[number.end() :].split()
    for size in (3, 2, 1):
        unit = " ".join(words[:size]).rstrip(".,;")
        if len(words) >= size and lookup(unit) is not None:
            return f"{number.group(0)} {unit}"
    return number.group(0)


_LATEX = re.compile(r"\$[^$]*\$|\\[A-Za-z]+")
_LONG_WORD = re.compile(r"[A-Za-z]{3,}")


def reads_as_prose(text: str) -> bool:
    """Whether ``text`` holds a word that is not a unit: "x = 2, y = 3" and
    "15 metres" are answers already, "the perimeter, 28" is a sentence."""
    bare = _LATEX.sub(" ", text)
    return any(lookup(w) is None for w in _LONG_WORD.findall(bare)) or bool(_CJK.search(bare))


# "(1) ... (2) ...", "(a) ... (b) ...", "Part 2: ...": labelled parts inside one line.
_INLINE_LABEL = re.compile(
    r"(?<=\S)\s+(?=\(\s*(?:\d{1,2}|[a-h])\s*\)\s|[a-h]\)\s|(?:part|question)\s+\d{1,2}\s*[:.)])",
    re.IGNORECASE,
)
_LABEL = re.compile(r"^(?:\(\s*[a-h]\s*\)|[a-h]\))\s*", re.IGNORECASE)


def parts_of_line(line: str, count: int) -> list[str] | None:
    """``line`` cut into ``count`` answers (one per blank of the reference): at
    labels, else at sentence ends, else at "and" / ";" between clauses that each
    hold a value; None when no cut gives ``count`` pieces."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    for pieces in (
        _INLINE_LABEL.split(line),
        sentences(line),
        top_level_split(line, (" and ", "; ")),
    ):
        pieces = [_LABEL.sub("", p.strip()) for p in pieces if p.strip()]
        if len(pieces) == count and all(_HAS_VALUE.search(p) for p in pieces):
            return pieces
    return None
