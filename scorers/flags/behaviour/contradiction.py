"""``answer_contradicts_reasoning``: the reasoning concluded one answer, the response gave another.

LRM-Eval rubric Q2 ("Does the reasoning process imply or conclude with a
determined answer that contradicts the final answer it provides?"). Both
sides are read with the item's own evaluator in strict mode, so "concluded B,
answered (B)" agrees and "concluded 42, answered 24" does not. When the
reasoning never commits (or retracts its last answer without a new one), or
either side cannot be read, nothing is flagged: a human would not know either.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from typing import Any

from scorers.errors import EvaluatorError
from scorers.evaluate.evaluators import Mode, evaluate
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict.numbers import UNIT_WORDS
from scorers.flags.behaviour.conclusion import NOT_READ, Conclusion, NotRead, last_committed
from scorers.flags.behaviour.spans import (
    SHORT_ANSWER,
    SHORT_ANSWER_MEMO,
    evidence,
    flag,
    tail_start,
)
from scorers.records import Flag, decode_kwargs, verdict_of

# Number words a conclusion may use instead of digits, zero to twenty.
_NUMBER_WORDS = {w: str(i) for i, w in enumerate((*UNIT_WORDS, "twenty"))}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70}
_TENS.update({"eighty": 80, "ninety": 90})
_NUMBER_WORDS.update({word: str(n) for word, n in _TENS.items()})
_NUMBER_WORDS.update({"hundred": "100", "a dozen": "12"})
_UNITS = {w: i for i, w in enumerate(UNIT_WORDS) if 0 < i < 10}
# "twenty-three", "forty five": read before the single words, or "twenty" would win.
_COMPOUND_RE = re.compile(
    r"\b(" + "|".join(_TENS) + r")[-\s](" + "|".join(_UNITS) + r")\b", re.IGNORECASE
)
_WORD_RE = re.compile(
    r"\b(" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE
)
_NUMBER_RE = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:\s*/\s*\d+)?")
_LEADING_NUMBER = re.compile(
    r"(?:(?:there\s+(?:are|is|were|must\s+be)|we\s+have|I\s+count|it's|it\s+is|a\s+total\s+of|in\s+total)\s+)?"
    r"(?:(?:about|approximately|around|roughly|exactly|only|just)\s+|[~≈$£€]\s*)*"
    r"(-?\d[\d,]*(?:\.\d+)?(?:\s*/\s*\d+)?)(?!\d|[.,/]\d|\s*[×*^+\-−÷=]\s*\d|\s*[πe√]|[a-zA-Z]\w*\()",
    re.IGNORECASE,
)
_LETTERS_RE = re.compile(
    r"^\W*(?:(?:option|choice|answer)\s+)?\(?([A-Z])\)?(?![a-z])((?:\s*(?:,|and|&|/|\+)\s*\(?[A-Z]\)?(?![a-z]))*)"
)
_WORDS_RE = re.compile(r"[^\W_]{3,}")
_STOP = frozenset(
    [
        "the",
        "and",
        "with",
        "from",
        "that",
        "this",
        "which",
        "final",
        "answer",
        "located",
        "location",
        "city",
        "country",
        "area",
        "near",
        "image",
        "photo",
        "picture",
        "shows",
        "team",
        "teams",
        "are",
        "was",
        "were",
        "is",
    ]
)
_EXACT = frozenset(
    {
        "choices_matching",
        "number_matching",
        "ordered_list_matching",
        "interval_matching",
        "multi_interval_matching",
    }
)
# The reasoning's conclusion is looked for in its closing part only: a trace of
# 8 KB commits near its end, and scanning less keeps the detector cheap.
TAIL = (0.25, 600, 1500)  # fraction, floor, ceiling in characters


_NAMED_OPTION = re.compile(r"\b(?:option|choice)\s+\(?([A-H])\)?(?![A-Za-z])", re.IGNORECASE)
# An ordered list's items: "C, A, D, B", "C → A → D → B", "C then A".
_LIST_SEPARATORS = re.compile(r"\s*(?:[,;→>]|->|\band\b|\bthen\b|\bfinally\b)\s*", re.IGNORECASE)
# ("B, D, A, C, though I'm not certain about the middle pair": the order is before "though")
_GLOSS = re.compile(r"[:—–]|\s-\s|,?\s+(?:though|although|but|since|because|which|unless|if)\b")
_ITEM_NOUNS = re.compile(
    r"^(?:photo|image|picture|panel|option|frame|step|stop|figure|item)\s+", re.IGNORECASE
)


def _list_in_kind(value: str, kwargs: Mapping[str, Any]) -> bool:
    """Whether a concluded order (as ``_prepare`` gives it: gloss and parentheses
    gone) is written with the kind of items the key uses: "Stephansplatz,
    Opernring" cannot be compared with a key of letters."""
    order = kwargs.get("order")
    if isinstance(order, str):
        order = order.split(",")  # the reference grader takes a string as it is
    if not isinstance(order, list) or not order or not all(isinstance(o, str) for o in order):
        return True
    if max(len(o.strip()) for o in order) > 2:
        return True  # the key names things: the evaluator reads names
    items = [_ITEM_NOUNS.sub("", piece.strip(" .()*")) for piece in _LIST_SEPARATORS.split(value)]
    items = [item for item in items if item]
    # ("…, then A, then C, then B." closes on "B": one item is no order)
    return len(items) > 1 and all(len(item) <= 2 for item in items)


# "41 or 47", "B or C": two candidates, not a commitment ("42 or so" is one).
_ALTERNATIVES = re.compile(r"\b(?:or\b(?!\s+so\b)|either\b)", re.IGNORECASE)


_NUMBERS = frozenset({"number_matching", "interval_matching", "multi_interval_matching"})
# "\tfrac{1}{6}", "$\frac{5}{36}$": a LaTeX fraction, read as "1/6" (math_matching
# reads LaTeX itself).
_LATEX_FRACTION = re.compile(r"\\[dt]?frac\s*\{\s*(-?\d+)\s*\}\s*\{\s*(\d+)\s*\}")


def _prepare(evaluator: str, value: str) -> str | None:
    """The committed value in the shape the evaluator reads, or None if it has none."""
    if "frac" in value and evaluator in _NUMBERS:
        value = _LATEX_FRACTION.sub(r"\1/\2", value).replace("$", "")
    if evaluator in _EXACT and _ALTERNATIVES.search(value, 0, 60):
        return None
    if evaluator == "choices_matching":
        m = _LETTERS_RE.match(value)
        if not m:
            # "the Green party, option C, recorded the largest gain": one option named
            named = set(_NAMED_OPTION.findall(value))
            return named.pop() if len(named) == 1 else None
        return ", ".join([m.group(1), *re.findall(r"[A-Z]", m.group(2))])
    if evaluator == "interval_matching":
        # "1:30" is a time, which the evaluator reads as one: keep it whole.
        time = _LEADING_TIME.match(value)
        if time is not None:
            return time.group(1)
    if evaluator in _NUMBERS:
        # Only a value that *is* a number ("42", "seven sailboats", "about 33 °C");
        # "e − 2" or "2π" are expressions the number reader would misread.
        m = _LEADING_NUMBER.match(_digits(value))
        if m is None:
            # "467 − 84 = 383": a worked line ends in its result
            m = _WORKED.match(value)
        return m.group(1).replace(",", "") if m else None
    if evaluator == "ordered_list_matching":
        # "C, A, D, B (foundation, steel frame, ...)": the order without its gloss
        return _GLOSS.split(_PARENTHESES.sub("", value), 1)[0].strip() or None
    return value


_PARENTHESES = re.compile(r"\([^)]*\)")
_LEADING_TIME = re.compile(
    r"^\W*(?:about\s+|around\s+|roughly\s+)?(\d{1,2}:\d{2}(?::\d{2})?)(?![\d:])"
)
_TIME = re.compile(r"^\d{1,2}:\d{2}:\d{2}$")
# A line of arithmetic and its result, nothing else: "467 − 84 = 383."
_WORKED = re.compile(
    r"^[\d\s.,+\-−×*/÷()]+=\s*(-?\d[\d,]*(?:\.\d+)?)\s*(?:[a-zA-Z%°²³]{1,8}\.?)?\s*[.!]?$"
)
# A number with a unit: a conclusion in kilometres may be the answer's metres.
_WITH_UNIT = re.compile(
    r"\d\s*(?:km|m|cm|mm|kg|g|mg|l|ml|s|ms|min|h|hrs?|hours?|minutes?|seconds?|days?|kilomet(?:re|er)s?"
    r"|met(?:re|er)s?|centimet(?:re|er)s?|millimet(?:re|er)s?|grams?|kilograms?|lit(?:re|er)s?|%|percent"
    r"|thousand|million|billion|bn|k)\b",
    re.IGNORECASE,
)
_UNIT_FACTORS = (10.0, 100.0, 1000.0, 1e6, 1e9, 60.0, 3600.0, 24.0)


def _rescaled(concluded: str, x: float | None, y: float | None) -> bool:
    """Whether two numbers may be one quantity in two units ("2.4 km" and 2400 m)."""
    if not x or not y or _WITH_UNIT.search(concluded) is None:
        return False
    ratio = max(abs(x), abs(y)) / min(abs(x), abs(y))
    return any(abs(ratio - f) <= 1e-9 * f for f in _UNIT_FACTORS)


def _digits(value: str) -> str:
    """``value`` with its number words ("twenty-three", "seven") written as digits."""
    value = _COMPOUND_RE.sub(
        lambda w: str(_TENS[w.group(1).lower()] + _UNITS[w.group(2).lower()]), value
    )
    # IGNORECASE matches "FİVE", whose lowercase ("fi̇ve") is no key: keep such a word as it is.
    return _WORD_RE.sub(lambda w: _NUMBER_WORDS.get(w.group(1).lower(), w.group(0)), value)


# A number standing alone: not part of "3rd", "A4", "1/2" or a decimal.
_LONE_NUMBER = re.compile(r"(?<![\w/.])-?\d[\d,]*(?:\.\d+)?(?![\w/]|\.\d)")
_OPERATORS = re.compile(
    r"[=+×*÷^<>≈~−√π]|\s-\s|\d\s*-\s*\d|\b(?:or|to|between|minus|plus|times|over)\b"
)


def _only_number(value: str) -> str | None:
    """The one number a stated conclusion holds ("the figure contains 13 triangles"),
    or None when it holds none, several, or an expression."""
    text = _digits(value)
    if _OPERATORS.search(text):
        return None
    found = _LONE_NUMBER.findall(text)
    return found[0].replace(",", "") if len(found) == 1 else None


@cache
def _mode() -> Mode:
    # strict mode is the intended reader; the reference reader stands in only
    # while a checkout has no strict engine.
    try:
        return (
            "strict"
            if hasattr(importlib.import_module("scorers.evaluate.strict"), "evaluate")
            else "rome"
        )
    except ImportError:
        return "rome"


def _grade(evaluator: str, kwargs: Mapping[str, Any], text: str) -> Outcome | None:
    try:
        return evaluate(evaluator, kwargs, text, _mode())
    except EvaluatorError:
        return None


def _as_number(text: str) -> float | None:
    m = _NUMBER_RE.search(text)
    if not m:
        return None
    raw = m.group(0).replace(",", "")
    try:
        if "/" in raw:
            num, den = raw.split("/")
            return float(num) / float(den)
        return float(raw)
    except (ValueError, ZeroDivisionError):
        return None


_DECIMALS = re.compile(r"\d\.(\d+)")


def _rounding(a: str, b: str) -> float:
    """Half a unit in the last place of the less precise of two written decimals
    (0 when neither has decimals: whole numbers must agree exactly)."""
    places = [len(m.group(1)) for m in map(_DECIMALS.search, (a, b)) if m is not None]
    return 0.5 * 10.0 ** -min(places) if places else 0.0


def _letters(text: str) -> str:
    return "".join(sorted(set(re.findall(r"[A-Z]", text.upper()))))


def _canon(text: str) -> str:
    return re.sub(r"[\s*`$()\[\]{}.]+", "", text).lower()


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in _WORDS_RE.findall(text)} - _STOP


def _coarse_words(kwargs: Mapping[str, Any]) -> set[str]:
    coarse = kwargs.get("location_coarse_grained") or []
    return (
        _content_words(" ".join(c for c in coarse if isinstance(c, str)))
        if isinstance(coarse, list)
        else set()
    )


def _differ(
    evaluator: str,
    mine: Outcome,
    theirs: Outcome,
    value: str,
    answer: str,
    kwargs: Mapping[str, Any],
) -> bool:
    a, b = mine.extracted.strip(), theirs.extracted.strip()
    if not a or not b:
        return False
    if evaluator in _EXACT or evaluator == "math_matching":
        if _TIME.match(a) and _TIME.match(b):
            return a != b  # times as the evaluator wrote them: h:mm:ss
        if evaluator != "choices_matching" and evaluator != "ordered_list_matching":
            x, y = _as_number(a), _as_number(b)
            if x is not None and y is not None:
                # "5/14" answered as 0.357: the same number rounded as written
                return abs(x - y) > max(1e-9 * max(1.0, abs(x), abs(y)), _rounding(a, b))
        if evaluator == "choices_matching":
            return _letters(a) != _letters(b)
        return _canon(a) != _canon(b)
    # Free text (key items, locations): different verdicts mean different answers,
    # unless the lower one only drops detail ("Paris" vs "France" when France is
    # the coarse location); equal failing verdicts differ only when the two share
    # no content word.
    if (mine.score > 0) != (theirs.score > 0):
        return True
    if mine.score != theirs.score:
        low_side, high_side = (answer, value) if mine.score > theirs.score else (value, answer)
        extra = _content_words(low_side) - _content_words(high_side) - _coarse_words(kwargs)
        return bool(extra)
    if mine.score == 0 and theirs.score == 0:
        words = {w.lower() for w in _WORDS_RE.findall(value)} - _STOP
        other = {w.lower() for w in _WORDS_RE.findall(answer)} - _STOP
        return bool(words) and bool(other) and not (words & other)
    return False


def _answer_span(
    answer: str, found_by: Mapping[str, list[re.Match[str]]] | None
) -> tuple[int, int]:
    if found_by is None and len(answer) <= SHORT_ANSWER:
        return _short_answer_span(answer)
    return _committed_span(answer, found_by)


def _committed_span(
    answer: str, found_by: Mapping[str, list[re.Match[str]]] | None = None
) -> tuple[int, int]:
    found = last_committed(answer, found_by=found_by)
    if found:
        return found.start, found.end
    end = len(answer.rstrip())
    start = answer.rfind("\n", 0, end) + 1
    return start, end


def reads_closing(record: Mapping[str, Any]) -> bool:
    """Whether ``detect`` may read the reasoning's generic closing phrases for ``record``
    (only evaluators of a shaped answer take them; see ``conclusion_of``)."""
    evaluator = record.get("evaluator")
    return isinstance(evaluator, str) and (evaluator in _EXACT or evaluator == "math_matching")


# The span of a short answer is memoised (see spans.SHORT_ANSWER).
_short_answer_span = lru_cache(maxsize=SHORT_ANSWER_MEMO)(_committed_span)


def conclusion_of(
    reasoning: str,
    evaluator: str,
    low: str | None = None,
    lo: int | None = None,
    found_by: Mapping[str, list[re.Match[str]]] | None = None,
) -> Conclusion | None:
    """The reasoning's last committed answer in its closing part (from ``lo``)."""
    shaped = evaluator in _EXACT or evaluator == "math_matching"
    lo = tail_start(reasoning, *TAIL) if lo is None else lo
    return last_committed(reasoning, lo, strong_only=not shaped, low=low, found_by=found_by)


def _answer_outcome(
    record: Mapping[str, Any], evaluator: str, kwargs: Mapping[str, Any], answer: str
) -> Outcome | None:
    # Grading already read the answer with this evaluator: reuse its verdict.
    verdict = verdict_of(record, f"rule:{_mode()}")
    if verdict and not verdict.get("error") and isinstance(verdict.get("extracted"), str):
        score = verdict.get("score")
        if isinstance(score, (int, float)):
            return Outcome(score=score, extracted=verdict["extracted"] or "")
    return _grade(evaluator, kwargs, answer)


def _concluded_outcome(evaluator: str, kwargs: Mapping[str, Any], value: str) -> Outcome | None:
    # A prepared letter or number is already canonical; only free text needs its verdict.
    if evaluator in ("choices_matching", "number_matching"):
        return Outcome(score=0, extracted=value)
    return _grade(evaluator, kwargs, f"Final Answer: {value}")


def _restated(evaluator: str, value: str, answer: str) -> bool:
    """A free-text conclusion that the answer repeats word for word agrees with it."""
    if evaluator in _EXACT or evaluator == "math_matching":
        return False
    words = _content_words(value)
    return bool(words) and words <= _content_words(answer)


def detect(
    record: Mapping[str, Any],
    reasoning: str,
    answer: str,
    answer_abstains: bool,
    low: str | None = None,
    lo: int | None = None,
    found_by: Mapping[str, list[re.Match[str]]] | None = None,
    answer_found_by: Mapping[str, list[re.Match[str]]] | None = None,
    concluded: Conclusion | None | NotRead = NOT_READ,
) -> Iterator[Flag]:
    """``low``/``lo``/``found_by``: the lowercased reasoning, where its closing part
    starts and a combined scan of that part; ``answer_found_by`` the same for the answer;
    ``concluded``: ``conclusion_of`` the reasoning, if the caller has read it."""
    evaluator = record.get("evaluator")
    kwargs = decode_kwargs(record.get("evaluator_kwargs"))
    if (
        not isinstance(evaluator, str)
        or not isinstance(kwargs, dict)
        or answer_abstains
        or not answer.strip()
    ):
        return
    if concluded is NOT_READ:
        concluded = conclusion_of(reasoning, evaluator, low, lo, found_by)
    if not isinstance(concluded, Conclusion):
        return
    value = _prepare(evaluator, concluded.value)
    if value is None and concluded.strong and evaluator == "number_matching":
        # Named as the conclusion ("I've determined that the figure contains 13
        # triangles"): its one number is the answer even when it does not open it.
        value = _only_number(concluded.value)
    if value is None:
        return
    if _restated(evaluator, value, answer):
        return
    if evaluator == "ordered_list_matching" and not _list_in_kind(value, kwargs):
        return
    mine = _concluded_outcome(evaluator, kwargs, value)
    theirs = _answer_outcome(record, evaluator, kwargs, answer)
    if mine is None or theirs is None:
        return
    shaped = evaluator in _EXACT or evaluator == "math_matching"
    # Only free-text comparisons read the answer's committed phrase; for the
    # others it is found just for the evidence, when there is a flag.
    span = None if shaped else _answer_span(answer, answer_found_by)
    answer_tail = "" if span is None else answer[span[0] : span[1]]
    if evaluator == "number_matching" and _rescaled(
        concluded.value, _as_number(mine.extracted), _as_number(theirs.extracted)
    ):
        return
    if _differ(evaluator, mine, theirs, value, answer_tail, kwargs):
        a_start, a_end = _answer_span(answer, answer_found_by) if span is None else span
        yield flag(
            "answer_contradicts_reasoning",
            [
                evidence("reasoning", reasoning, concluded.start, concluded.end),
                evidence("answer", answer, a_start, a_end),
            ],
            f"reasoning concludes {mine.extracted!r}, answer gives {theirs.extracted!r}",
        )
