"""``abstained`` and ``reasoning_abstains_answer_does_not``.

The answer abstains when it declines ("I cannot determine the city from this
image", "Final Answer: unknown", a refusal) and does not answer after all:
"I can't tell exactly, but it is Paris" answers. An abstention is not flagged
when the item's reference itself says the answer cannot be determined.

The reasoning abstains when what it says last declines (the same ``decline``
cues, outside negation and hypothesis) and no later conclusion settles it; if
the answer commits anyway, the answer claims more than the reasoning found
(the LRM-Eval "guess" and "certainty" rubric questions in their strongest form).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scorers.flags.behaviour.hedging import cues as hedge_cues
from scorers.flags.behaviour.text import (
    Sentence,
    evidence,
    flag,
    in_scope_of_doubt,
    last_line_span,
    pattern,
    sentences,
)
from scorers.records import Evidence, Flag

DECLINE = pattern("decline")
_NON_ANSWER = re.compile(
    r"^\W*(?:final\s+answer\W*)?(?:" + pattern("non_answer").pattern + r")\W*$", re.IGNORECASE
)
# "I can't tell the exact street, but it is Paris": the clause after the decline answers.
_ANSWERS_AFTER = re.compile(r"\b(?:but|however|though|although|still)\b", re.IGNORECASE)


def declines(text: str) -> re.Match[str] | None:
    """The last decline cue of ``text`` that is asserted (not negated, hypothetical or planned)."""
    found = None
    for m in DECLINE.finditer(text):
        if not in_scope_of_doubt(text, m.start(), 24):
            found = m
    return found


def answer_declines(record: Mapping[str, Any], answer: str) -> Evidence | None:
    """Where the answer declines to answer, if it does."""
    reference = record.get("reference")
    if isinstance(reference, str) and (DECLINE.search(reference) or _NON_ANSWER.match(reference)):
        return None
    start, end = last_line_span(answer)
    if _NON_ANSWER.match(answer[start:end]):
        return evidence("answer", answer, start, end)
    if not answer.strip():
        return Evidence(field="answer", start=0, end=0, text="")
    m = declines(answer)
    if m is None:
        return None
    rest = answer[m.end() :]
    tail = sentences(rest)
    # It declines if nothing but the decline's own sentence (and at most one more) follows,
    # and that sentence does not go on to answer.
    first = tail[0].text if tail else ""
    if len(tail) > 2 or (
        first and not rest[: tail[0].start].strip() and _ANSWERS_AFTER.search(first)
    ):
        return None
    return evidence("answer", answer, m.start(), m.end())


def reasoning_gives_up(
    reasoning: str, stretch: list[Sentence], conclusion_at: int | None
) -> Evidence | None:
    """Where the end of the reasoning declines, when no unhedged conclusion follows it."""
    for sentence in reversed(stretch):
        m = declines(sentence.text)
        if m is None:
            continue
        rest = sentence.text[m.end() :]
        if _ANSWERS_AFTER.search(rest) and not hedge_cues(rest):
            return None
        if conclusion_at is not None and conclusion_at > sentence.start:
            later = reasoning[conclusion_at : stretch[-1].end]
            if not hedge_cues(later):
                return None  # settled by a later, unhedged conclusion
        return evidence(
            "reasoning", reasoning, sentence.start + m.start(), sentence.start + m.end()
        )
    return None


def detect_reasoning(
    reasoning: str,
    answer: str,
    stretch: list[Sentence],
    conclusion_at: int | None,
    answer_reads: bool,
) -> Flag | None:
    if not answer_reads:
        return None
    span = reasoning_gives_up(reasoning, stretch, conclusion_at)
    if span is None:
        return None
    start, end = last_line_span(answer)
    return flag(
        "reasoning_abstains_answer_does_not",
        [span, evidence("answer", answer, start, end)],
        "the reasoning says it cannot tell; the answer commits anyway",
    )
