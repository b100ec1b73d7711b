"""``abstained`` and ``reasoning_abstains_answer_does_not``.

The answer abstains when it declines ("I cannot determine the city from this image",
"Final Answer: unknown", a refusal) and does not answer after all ("I can't tell exactly,
but it is Paris" answers); not when the item's reference itself declines. The reasoning
abstains when what it says last declines (the same ``decline`` cues, outside negation and
hypothesis), or its closing part finds the question lacks a premise, and no later
conclusion settles it; if the answer commits anyway, it claims more than the reasoning
found (the LRM-Eval "guess" and "certainty" rubric questions in their strongest form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scorers.flags.behaviour.cues import CueView, pattern, regex
from scorers.flags.behaviour.hedging import cues as hedge_cues
from scorers.flags.behaviour.text import (
    Sentence,
    evidence,
    flag,
    in_scope_of_doubt,
    last_line_span,
    sentences,
)
from scorers.records import Evidence, Flag

DECLINE = pattern("decline", gate=True)
# "The answer is not among the options": an answer's decline; in a reasoning, an elimination.
_NO_OPTION = pattern("declining", "no_option", gate=True)
_NON = regex("declining", "non_answer").pattern
_NON_ANSWER = re.compile(rf"^\W*(?:final\s+answer\W*)?(?:{_NON})\s*(?:$|[.,;:—–(-])", re.I)
# A later "Final Answer: X" or "\boxed{X}" commits after a decline, unless X is itself a non-answer.
_COMMITS = re.compile(r"(?:final\s+answer|answer\s*:|\\boxed\{)\W*(.{0,40})", re.IGNORECASE)
# Choosing between candidates right after the decline ("can't tell which of the two"), two
# named in it ("between B and D"), the writer torn between them next to it ("I'm torn
# between B and D. The chart can't tell."), a bound on precision ("can't pin it down
# better"): a doubt, not giving up.
_CHOOSING = re.compile(
    r"^\W*(?:\w+\W+){0,4}?(?:" + regex("declining", "choosing").pattern + ")", re.I
)
_TWO, _TORN = regex("declining", "two"), regex("declining", "torn")
_DEGREE = re.compile(r"^\W*(?:\w+\W+){0,3}?(?:" + regex("declining", "degree").pattern + ")", re.I)
# "The overlap can't be determined, which is exactly option E": the decline is the answer's content.
_CONTENT = re.compile(r"\b(?:option|choice)\s+\(?[A-J]\b|\banswer\s+is\b", re.IGNORECASE)
# Perception verbs decline a detail ("can't read the unit"), not the question.
_DETAIL = re.compile(r"\b(?:read|see|make\s+out|be\s+read)\b", re.IGNORECASE)
_SETTLED = pattern("settled")
# After a decline, a pick made as a guess ("the intended answer", "if forced") settles nothing.
_GUESSING = pattern("declining", "guessing")
_PREMISE = pattern("declining", "premise", gate=True)
_CAVEAT = pattern("declining", "caveat", gate=True)
# "I can't tell the exact street, but it is Paris": the clause after the decline answers.
_ANSWERS_AFTER = re.compile(r"\b(?:but|however|though|although|still)\b", re.IGNORECASE)


def declines(text: str, cue: CueView = DECLINE) -> re.Match[str] | None:
    """The last decline cue of ``text`` that is asserted (not negated, hypothetical or planned)."""
    found = None
    for m in cue.finditer(text):
        if not in_scope_of_doubt(text, m.start(), 24):
            found = m
    return found


def answer_declines(record: Mapping[str, Any], answer: str) -> Evidence | None:
    """Where the answer declines to answer, if it does."""
    if _reference_declines(record):
        return None
    start, end = last_line_span(answer)
    if _NON_ANSWER.match(answer[start:end]):
        return evidence("answer", answer, start, end)
    if not answer.strip():
        return Evidence(field="answer", start=0, end=0, text="")
    m = declines(answer) or _NO_OPTION.search(answer)
    if m is None:
        return None
    rest = answer[m.end() :]
    first = sentences(rest)
    clause = rest[: first[0].end] if first else rest
    if _ANSWERS_AFTER.search(clause):
        return None  # "I can't tell exactly, but it is Paris"
    commits = (c.group(1) for c in _COMMITS.finditer(rest))
    if any(c.strip() and not _NON_ANSWER.match(c) and not DECLINE.search(c) for c in commits):
        return None
    return evidence("answer", answer, m.start(), m.end())


def reasoning_declines(
    record: Mapping[str, Any],
    texts: tuple[str, str],
    closing: list[Sentence],
    stretch: list[Sentence],
    concluded_at: int | None = None,
) -> tuple[Evidence, bool] | None:
    """Where the end of the reasoning (``stretch``) declines, unless a later sentence settles
    it (a settling word or the marked conclusion at ``concluded_at``, unhedged, and no guess
    after the decline: "the intended answer", "if forced"), and whether the decline is only
    a doubt (between two, a bound on precision, a detail unread: "can't read the unit"). A
    decline that the question lacks a premise ("the problem is underdetermined") counts in
    ``closing`` before the stretch if a guess follows it, is no doubt, and is kept by an
    answer naming the gap ("the rate is not specified"): nothing was given up silently."""
    reasoning, answer = texts
    if _reference_declines(record):
        return None
    first = stretch[0].start if stretch else len(reasoning)
    lacks = bool(closing) and _PREMISE.search(reasoning, closing[0].start) is not None
    read = closing if lacks else stretch  # (a premise cue is rare: the whole text first)
    for i in range(len(read) - 1, -1, -1):
        sentence = read[i]
        premise = declines(sentence.text, _PREMISE) if lacks else None
        m = premise or (declines(sentence.text) if sentence.start >= first else None)
        if m is None or _CONTENT.search(sentence.text):
            continue
        rest, later = sentence.text[m.end() :], read[i + 1 :]
        guessed = any(_GUESSING.search(s.text) for s in later)
        if sentence.start < first and not guessed:
            continue  # a premise found missing before the end counts if guessed past
        if not guessed and any(
            (_SETTLED.search(s.text) or s.start == concluded_at) and not hedge_cues(s.text)
            for s in later
        ):
            return None
        if (_ANSWERS_AFTER.search(rest) and not hedge_cues(rest)) or (
            premise and _CAVEAT.search(answer)
        ):
            return None
        at = sentence.start
        span = evidence("reasoning", reasoning, at + m.start(), at + m.end())
        near = " ".join(s.text for s in read[max(0, i - 1) : i + 2])
        two = _TWO.search(sentence.text) or _TORN.search(near) or _DETAIL.search(m.group(0))
        return span, not premise and bool(_CHOOSING.match(rest) or _DEGREE.match(rest) or two)
    return None


def _reference_declines(record: Mapping[str, Any]) -> bool:
    reference = record.get("reference")
    return isinstance(reference, str) and _declining(reference)


@lru_cache(maxsize=4096)  # references repeat across a run's items; read each once
def _declining(reference: str) -> bool:
    return bool(DECLINE.search(reference) or _NON_ANSWER.match(reference))


def gave_up(reasoning: str, answer: str, span: Evidence) -> Flag:
    spans = [span, evidence("answer", answer, *last_line_span(answer))]
    why = "the reasoning says it cannot tell; the answer commits anyway"
    return flag("reasoning_abstains_answer_does_not", spans, why)
