"""``hedged_reasoning_certain_answer``: the reasoning ends unsure, the answer states no doubt.

LRM-Eval rubric Q4 ("Is the final answer stated with absolute certainty while
the reasoning expresses uncertainty about its answer (e.g., 'it might be,' 'I'm
not sure')?"). The cues are the epistemic hedge cues of the CoNLL-2010 shared
task / BioScope (``hedge_strong`` in cues.json), read only in what the
reasoning says last: the paragraph of its conclusion and what follows. A cue
under negation ("no doubt", "not ambiguous") or in a question is none, and a
later settling sentence ("that confirms it", "definitely C") resolves the doubts
before it. Weak epistemic verbs ("seems", "I think") are how reasoning states a
choice, as are leans ("probably", "likely"): they never flag.
"""

from __future__ import annotations

import re

from scorers.flags.behaviour.text import Sentence, evidence, flag, pattern
from scorers.records import Flag

_STRONG = pattern("hedge_strong")
_SETTLED = pattern("settled")
_PRESENTATION = pattern("presentation")
_NEGATED = re.compile(
    r"(?:" + pattern("hedge_negators").pattern + r")\s+(?:\w+\s+)?$", re.IGNORECASE
)
# In a supposition the cue is about the supposed case ("if it were 5, it might be B").
_SUPPOSED = re.compile(r"^\W*(?:if|unless|suppose|assuming|even\s+if)\b", re.IGNORECASE)


def cues(text: str) -> list[re.Match[str]]:
    """The non-negated hedge cues of ``text``."""
    return [
        m
        for m in _STRONG.finditer(text)
        if not _NEGATED.search(text, max(0, m.start() - 20), m.start())
    ]


def answer_hedges(answer: str) -> bool:
    return bool(cues(answer))


def doubts(stretch: list[Sentence]) -> list[tuple[Sentence, re.Match[str]]]:
    """The hedge cues of ``stretch`` still standing at its end."""
    found: list[tuple[Sentence, re.Match[str]]] = []
    for sentence in stretch:
        text = sentence.text
        if text.endswith("?") or _SUPPOSED.match(text) or _PRESENTATION.search(text):
            continue  # questions, suppositions and doubts about how to write the answer
        strong = cues(text)
        if not strong and _SETTLED.search(text):
            found = []
            continue
        found.extend((sentence, m) for m in strong)
    return found


def detect(
    reasoning: str, answer: str, stretch: list[Sentence], conclusion_at: int | None
) -> Flag | None:
    found = doubts(stretch)
    if not found or answer_hedges(answer):
        return None  # no doubt left, or the answer says so too
    # A lone doubt before a conclusion is the argument weighing options, not the end
    # unsure; a lone doubt where no conclusion was read is a low-confidence hedge.
    after = conclusion_at is not None and any(s.start >= conclusion_at for s, _ in found)
    if len(found) == 1 and conclusion_at is not None and not after:
        return None
    confidence = "high" if len(found) > 1 or after else "low"
    spans = [
        evidence("reasoning", reasoning, s.start + m.start(), s.start + m.end())
        for s, m in found[:3]
    ]
    words = ", ".join(repr(m.group(0)) for _, m in found[:3])
    return flag(
        "hedged_reasoning_certain_answer", spans, f"reasoning ends unsure ({words})", confidence
    )
