"""``answer_contradicts_reasoning``: the reasoning's conclusion, read with the item's evaluator, differs from the answer.

LRM-Eval rubric Q2 ("Does the reasoning process imply or conclude with a
determined answer that contradicts the final answer it provides?"). The
conclusion is found without a list of committing phrases: every sentence of the
reasoning's closing part that asserts something is a candidate, read from the
end, and the last one the item's own evaluator can read is the conclusion.
What takes care is what is *not* an assertion: questions, suppositions, plans
and checks, alternatives and comparisons ("41 or 47", "between B and C"),
modal guesses ("it might be C"), negated or ruled-out values ("not 55", "rather
than B", whose words are removed before reading), and sentences quoted from
the question. A closing sentence marked as a result ("so", "the answer",
"total", "=", ...) is preferred to a plain statement earlier in the text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from scorers.errors import EvaluatorError
from scorers.evaluate.evaluators import evaluate
from scorers.evaluate.outcome import Outcome
from scorers.flags.behaviour.text import Sentence, evidence, flag, last_line_span, pattern
from scorers.records import Flag, verdict_of

# Evaluators whose answer has a shape (a number, letters, an order): their
# extracted values are compared. The others (key items, locations) grade free text.
SHAPED = frozenset(
    {
        "number_matching",
        "choices_matching",
        "ordered_list_matching",
        "interval_matching",
        "multi_interval_matching",
        "math_matching",
    }
)
_NUMERIC = frozenset(
    {"number_matching", "interval_matching", "multi_interval_matching", "math_matching"}
)

_MARKED = pattern("conclusion_markers")
_SUPPOSITION = pattern("not_assertions", "supposition")
_PLAN = pattern("not_assertions", "plan")
_COMMITMENT = pattern("not_assertions", "commitment")
_ALTERNATIVE = pattern("not_assertions", "alternative")
_MODAL = pattern("not_assertions", "modal")
_REJECTION = pattern("not_assertions", "rejection")
_STRONG_COMMITMENT = pattern("not_assertions", "commitment_strong")
_DOUBT = pattern("hedge_strong")
_LEANS = frozenset({"probably", "likely", "most likely"})
# Values quoted or read off the picture ("the '9' has an open tail") are not asserted.
_QUOTED = re.compile(r"'[^'\n]{1,20}'(?!\w)|\"[^\"\n]{1,40}\"|“[^”\n]{1,40}”")
# Several values side by side ("the sides labelled 7 and 8"): a list, not a result.
_VALUE_LIST = re.compile(r"\d\s*(?:,|and|&)\s*\d")
# A contrast cue and the words it rules out, up to the next punctuation: "not 55", "rather than B".
_CONTRAST = re.compile(
    "(?:" + pattern("not_assertions", "contrast").pattern + r")[^,;:.()\n]*", re.IGNORECASE
)
_NUMBER_WORD = re.compile(
    r"\d|\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|dozen|twenty|thirty|forty|fifty|hundred)\b",
    re.IGNORECASE,
)
_LETTER = re.compile(r"(?<![\w'])[A-HJ](?![\w'])|\b(?:option|choice)\s+\w", re.IGNORECASE)
_LETTER_CAPS = re.compile(r"(?<![\w'])[A-HJ](?![\w'])")
# A name: a capitalised word that does not open the sentence ("I" and its forms are not names).
_NAME = re.compile(r"(?<=[\s(\"'*])(?!I\b|I'[a-z]+\b)[A-ZÀ-Ý][\w'’-]+|\*\*[^*]+\*\*")
# "statement 8", "step 3": a number that labels something is no value; nor is a list item's number.
_LABELLED = re.compile(
    "(?:" + pattern("not_assertions", "label").pattern + r")\s*#?\d+\b", re.IGNORECASE
)
_ENUMERATION = re.compile(
    r"^(?:[-*•]\s|\**step\s+\d+|\d+[.)]\s|\(?[A-Ja-j][.)]\s|\**(?:option|choice)\s+\(?[A-J]\)?\s*[:.-])",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:\s*/\s*\d+)?")
_LIST_SEPARATOR = re.compile(r",|→|->|\bthen\b", re.IGNORECASE)
_WORDS = re.compile(r"[^\W\d_]{3,}")


class Conclusion(NamedTuple):
    position: int  # index into the closing sentences
    sentence: Sentence
    value: str  # the sentence without the values it rules out: what was read
    outcome: Outcome
    marked: bool  # marked as a result; an unmarked conclusion makes a low-confidence flag
    earlier: Conclusion | None  # for an unmarked one: the last marked conclusion before it


def asserted(text: str, question: str) -> str | None:
    """The part of a sentence that asserts something, or None if it asserts nothing."""
    if text.endswith("?") or _SUPPOSITION.search(text) or _ENUMERATION.match(text):
        return None
    if _PLAN.search(text, 0, 24) and not _COMMITMENT.search(text):
        return None
    if _MODAL.search(text) or _REJECTION.search(text):
        return None  # "it might be C", "so D fails": an option offered or ruled out, not taken
    if any(m.group(0).lower() not in _LEANS for m in _DOUBT.finditer(text)):
        return None  # "18 is just as plausible": doubts offer alternatives; "probably C" leans
    value = _LABELLED.sub(" ", _CONTRAST.sub(" ", _QUOTED.sub(" ", text)))
    if _ALTERNATIVE.search(value) or _VALUE_LIST.search(value):
        return None
    if question and len(text) >= 20 and _squash(text) in question:
        return None  # read out from the question
    return value


def _squash(text: str) -> str:
    return re.sub(r"\W+", "", text).lower()


def _readable_shape(evaluator: str, value: str) -> bool:
    """A cheap test that the evaluator could find a value here, before calling it."""
    if evaluator in _NUMERIC:
        return _NUMBER_WORD.search(value) is not None
    if evaluator == "choices_matching":
        return _LETTER.search(value) is not None
    if evaluator == "ordered_list_matching":
        return len(_LIST_SEPARATOR.findall(value)) >= 2
    return _NAME.search(value) is not None


def grade(evaluator: str, kwargs: Mapping[str, Any], text: str) -> Outcome | None:
    try:
        return evaluate(evaluator, kwargs, text, "strict")
    except (
        EvaluatorError,
        LookupError,
        ValueError,
        TypeError,
    ):  # a reader bug must not stop flagging
        return None


def _read(evaluator: str, kwargs: Mapping[str, Any], value: str) -> Outcome | None:
    if not _readable_shape(evaluator, value):
        return None
    if evaluator == "choices_matching" and len(set(_LETTER_CAPS.findall(value))) > 1:
        return None  # names several options: compares them
    outcome = grade(evaluator, kwargs, value)
    if outcome is None or not outcome.extracted.strip() or (outcome.note or "").startswith("names"):
        return None
    return outcome


def conclusion(
    record: Mapping[str, Any], closing: list[Sentence], evaluator: str, kwargs: Mapping[str, Any]
) -> Conclusion | None:
    """The reasoning's conclusion among ``closing``: the last assertion the evaluator reads
    that is marked as a result or is among the last two sentences (then with the last
    marked one before it as ``earlier``)."""
    question = record.get("question")
    question = _squash(question) if isinstance(question, str) else ""
    plain: Conclusion | None = None
    for index in range(len(closing) - 1, -1, -1):
        sentence = closing[index]
        value = asserted(sentence.text, question)
        if value is None:
            continue
        outcome = _read(evaluator, kwargs, value)
        if outcome is None:
            continue
        marked = _MARKED.search(sentence.text) is not None
        if marked:
            found = Conclusion(index, sentence, value, outcome, True, None)
            return found if plain is None else plain._replace(earlier=found)
        if index >= len(closing) - 2 and plain is None:
            plain = Conclusion(index, sentence, value, outcome, False, None)
    return plain


def answer_outcome(
    record: Mapping[str, Any], evaluator: str, kwargs: Mapping[str, Any], answer: str
) -> Outcome | None:
    """The answer as the evaluator read it when grading (``rule:strict``), else read now."""
    verdict = verdict_of(record, "rule:strict")
    if verdict and not verdict.get("error") and isinstance(verdict.get("extracted"), str):
        score = verdict.get("score")
        if isinstance(score, (int, float)):
            return Outcome(score=score, extracted=verdict["extracted"] or "")
    return grade(evaluator, kwargs, answer)


def _number(text: str) -> tuple[float, int] | None:
    """The first number of ``text`` and its count of decimals."""
    m = _NUMBER.search(text)
    if m is None:
        return None
    raw = m.group(0).replace(",", "")
    try:
        if "/" in raw:
            num, den = raw.split("/")
            return float(num) / float(den), 9
        return float(raw), len(raw.partition(".")[2])
    except (ValueError, ZeroDivisionError):
        return None


# One quantity in two units ("2.4 km" and 2400 m, "90 minutes" and 1.5 hours).
_UNIT_FACTORS = (10.0, 100.0, 1000.0, 1e6, 1e9, 60.0, 3600.0, 24.0)


def _same_number(x: tuple[float, int], y: tuple[float, int]) -> bool:
    (a, da), (b, db) = x, y
    places = min(da, db)
    tolerance = max(1e-9 * max(1.0, abs(a), abs(b)), 0.5 * 10.0**-places if places else 0.0)
    if abs(a - b) <= tolerance:
        return True
    if a and b:
        ratio = max(abs(a), abs(b)) / min(abs(a), abs(b))
        return any(abs(ratio - f) <= 1e-9 * f for f in _UNIT_FACTORS)
    return False


def _holds(text: str, value: tuple[float, int]) -> bool:
    return any(
        n is not None and _same_number(n, value)
        for n in map(_number, (m.group(0) for m in _NUMBER.finditer(text)))
    )


def _differ(
    evaluator: str, found: Conclusion, theirs: Outcome, answer: str, kwargs: Mapping[str, Any]
) -> bool:
    mine = found.outcome
    a, b = mine.extracted.strip(), theirs.extracted.strip()
    if not a or not b:
        return False
    if evaluator in _NUMERIC:
        x, y = _number(a), _number(b)
        if x is None or y is None:
            return _squash(a) != _squash(b)
        # Either value written in the other's text ("9 + 12 + 21 = 42", "1 7/8 = 1.875 cups") agrees.
        return not (_same_number(x, y) or _holds(found.value, y) or _holds(answer, x))
    if evaluator == "choices_matching":
        return set(_LETTER_CAPS.findall(a.upper())) != set(_LETTER_CAPS.findall(b.upper()))
    if evaluator == "ordered_list_matching":
        mine_letters, their_letters = _LETTER_CAPS.findall(a), _LETTER_CAPS.findall(b)
        if bool(mine_letters) != bool(their_letters):
            return False  # "Stephansplatz, Opernring" and "C, A": two kinds of items
        if mine_letters:
            return mine_letters != their_letters
    if evaluator in SHAPED:
        return _squash(a) != _squash(b)
    # Free text: the two sides score differently, and the conclusion names nothing
    # the answer's closing line names (the coarse location aside). A conclusion
    # scoring lower than the answer must commit in so many words.
    if mine.score == theirs.score:
        return False
    if mine.score < theirs.score and not _STRONG_COMMITMENT.search(found.sentence.text):
        return False
    start, end = last_line_span(answer)
    said = {w.lower()[:5] for w in _WORDS.findall(answer[start:end])}
    coarse = kwargs.get("location_coarse_grained")
    broad = (
        {w.lower()[:5] for c in coarse if isinstance(c, str) for w in _WORDS.findall(c)}
        if isinstance(coarse, list)
        else set()
    )
    names = {
        w.lower()[:5] for m in _NAME.finditer(found.value) for w in _WORDS.findall(m.group(0))
    } - broad
    return bool(names) and not names & said


def detect(
    record: Mapping[str, Any],
    reasoning: str,
    answer: str,
    found: Conclusion,
    evaluator: str,
    kwargs: Mapping[str, Any],
) -> Flag | None:
    theirs = answer_outcome(record, evaluator, kwargs, answer)
    if theirs is None or not _differ(evaluator, found, theirs, answer, kwargs):
        return None
    if found.earlier is not None and not _differ(evaluator, found.earlier, theirs, answer, kwargs):
        return None  # a plain closing remark, after a marked result the answer gives
    at = answer.rfind(theirs.extracted.strip()) if theirs.extracted.strip() else -1
    a_start, a_end = (at, at + len(theirs.extracted.strip())) if at >= 0 else last_line_span(answer)
    sentence = found.sentence
    confident = found.marked and (evaluator in SHAPED or found.outcome.score > 0)
    return flag(
        "answer_contradicts_reasoning",
        [
            evidence("reasoning", reasoning, sentence.start, sentence.end),
            evidence("answer", answer, a_start, a_end),
        ],
        f"reasoning concludes {found.outcome.extracted!r}, answer gives {theirs.extracted!r}",
        "high" if confident else "low",
    )
