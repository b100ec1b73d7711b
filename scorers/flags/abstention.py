"""``abstained`` and ``reasoning_abstains_answer_does_not``.

The answer abstains when it declines to answer ("I cannot determine the city
from this image", "Final Answer: unknown", a refusal) and gives no answer
after all. Saying "I can't be sure, but it is probably Paris" answers. An
abstention is not flagged when the item's reference itself says the answer
cannot be determined.

The reasoning abstains when its closing part concludes it cannot tell ("there
is not enough information to decide") and nothing later settles it; if the
answer still commits to something, the answer claims more than the reasoning
found (the LRM-Eval "Guess" and "Incons Cert" rubric questions, in their
strongest form).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from scorers.flags.conclusion import candidates, last_committed
from scorers.flags.lexicon import Cues
from scorers.flags.scan import lc, lowered
from scorers.flags.spans import evidence, flag, sentence_end, sentence_span
from scorers.records import Evidence, Flag

_F = 0


def _c(pattern: str, _flags: int = 0) -> re.Pattern[str]:
    # Patterns run on lowercased text.
    return re.compile(lc(pattern))

_REJECT_PREFIXES = ("Can not answer because of", "Input data may contain inappropriate content")
_REFUSAL = _c(
    r"\bI(?:'m|\s+am)\s+(?:sorry|afraid)\b[^.\n]{0,80}?\b(?:can't|cannot|can\s+not|unable|not\s+able|won't)\b"
    r"|\bI\s+(?:can't|cannot|can\s+not|won't|will\s+not|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to)\s+"
    r"(?:help|assist|provide\s+an?\s+answer|answer|comply|view|see|access|open|process|load)\b"
    r"|\bno\s+image\s+(?:was|is|has\s+been|appears\s+to\s+have\s+been)\s+(?:provided|attached|uploaded|included|shared)\b",
    _F,
)
_NON_ANSWER = _c(
    r"^\W*(?:unknown|n/?a|cannot\s+be\s+determined|can't\s+be\s+determined|indeterminate|undetermined"
    r"|not\s+determinable|undeterminable|insufficient\s+(?:information|data)|not\s+enough\s+(?:information|data)"
    r"|unanswerable|no\s+answer|I\s+(?:don't|do\s+not)\s+know|unable\s+to\s+(?:determine|answer|tell)|unclear"
    r"|impossible\s+to\s+(?:determine|tell|say)|\?+)\W*$",
    _F,
)
_MARKED = _c(r"\b(?:final\s+answer|answer)\s*(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(?P<val>[^\n]*)", _F)


def _is_non_answer(value: str) -> bool:
    low = lowered(value)
    return bool(_NON_ANSWER.match(low)) or any(Cues(low).abstentions())


def answer_abstains(record: Mapping[str, Any], answer: str) -> Evidence | None:
    """Evidence that the answer declines to answer, or None if it answers."""
    text = answer.strip()
    if not text:
        return None
    reference = record.get("reference")
    if isinstance(reference, str) and len(reference) < 400 and _is_non_answer(reference.strip()):
        return None
    offset = answer.find(text)
    if text.startswith(_REJECT_PREFIXES):
        return sentence_span("answer", answer, offset, offset + 1)
    low = lowered(answer)
    marked = None
    for marked in _MARKED.finditer(low):
        pass
    if marked is not None and _is_non_answer(marked.group("val")):
        return evidence("answer", answer, marked.start(), marked.end())
    committed = last_committed(answer)
    if committed is not None and not _is_non_answer(committed.value):
        return None
    if committed is not None:
        return evidence("answer", answer, committed.start, committed.end)
    cues = [(m.start(), m.end()) for m in _REFUSAL.finditer(low)]
    cues += [(c.start, c.end) for c in Cues(low).abstentions()]
    if not cues:
        return None
    start, end = max(cues)
    # "I can't identify the species. It looks like a heron." still answers.
    if any(Cues(low, sentence_end(low, end)).hedges()):
        return None
    return sentence_span("answer", answer, start, end)


def detect_abstained(record: Mapping[str, Any], answer: str) -> tuple[Evidence | None, list[Flag]]:
    span = answer_abstains(record, answer)
    if span is None:
        return None, []
    return span, [flag("abstained", [span], "the answer declines to answer")]


def reasoning_abstention(reasoning: str, cues: Cues, lo: int) -> list[Evidence]:
    """Unresolved abstentions in the reasoning's closing part.

    Not being able to read or see a clue ("I can't make out the sign") is
    settled by a later committed answer ("my best guess is Dubrovnik"); not
    being able to determine the answer is not.
    """
    found_cues = list(cues.abstentions())
    if not found_cues:
        return []
    settled = max(cues.resolutions(), default=-1)
    found = candidates(reasoning, lo)
    committed = found[-1].start if found else -1
    return [
        sentence_span("reasoning", reasoning, c.start, c.end)
        for c in found_cues
        if c.start > settled and not (c.perceptual and committed > c.end)
    ]


def detect_reasoning_abstains(
    reasoning: str, answer: str, answer_abstained: bool, cues: Cues, lo: int
) -> Iterator[Flag]:
    # An answer that itself says the question cannot be settled (e.g. picks the
    # option "cannot be determined") agrees with the reasoning.
    if answer_abstained or not answer.strip() or any(Cues(lowered(answer)).abstentions()):
        return
    spans = reasoning_abstention(reasoning, cues, lo)
    if spans:
        yield flag(
            "reasoning_abstains_answer_does_not",
            spans[-3:],
            "the reasoning concludes it cannot tell; the answer commits",
        )
