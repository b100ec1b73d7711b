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

from scorers.flags.behaviour.conclusion import last_candidate, last_committed
from scorers.flags.behaviour.lexicon import Cues
from scorers.flags.behaviour.scan import lc, lowered
from scorers.flags.behaviour.spans import evidence, flag, sentence_end, sentence_span
from scorers.records import Evidence, Flag


def _c(pattern: str) -> re.Pattern[str]:
    # Patterns run on lowercased text.
    return re.compile(lc(pattern))


# Words before a hedge that make it hypothetical: "any name I gave would be a guess".
_HYPOTHETICAL = re.compile(r"\b(?:would|could|any|anything|whatever)\b")
# An answer this short may be a non-answer on its own ("Pass.", "N/A").
_BARE = 40
# Hedges that state doubt without offering a candidate (unlike "probably", "looks like").
_DOUBT_ONLY = re.compile(
    r"(?:not\s|unsure|uncertain|unclear|ambigu|hesita|doubt|inconclusive|specul|hard|difficult|tough|tricky"
    r"|can't|cannot|can\s+not|couldn't|unable|no\s+way|low[- ]confidence|my\s+confidence|wouldn't|would\s+not)"
)
_REJECT_PREFIXES = ("Can not answer because of", "Input data may contain inappropriate content")
# Declining on principle ("I can't identify people from their faces, so I won't name
# her"): a description offered afterwards does not answer the question.
_ON_PRINCIPLE = _c(
    r"\bI(?:\s+(?:won't|will\s+not|can't|cannot|don't|do\s+not)|'m\s+(?:not\s+able|unable)\s+to|\s+am\s+(?:not\s+able"
    r"|unable)\s+to)\s+(?:identify|name|recogni[sz]e)\s+(?:real\s+)?"
    r"(?:people|persons|individuals|faces|him|her|them|anyone|the\s+(?:person|man|woman|people|individual|child))\b"
)
_REFUSAL = _c(
    r"\bI(?:'m|\s+am)\s+(?:sorry|afraid)\b[^.\n]{0,80}?\b(?:can't|cannot|can\s+not|unable|not\s+able|won't)\b"
    r"|\bI\s+(?:can't|cannot|can\s+not|won't|will\s+not|am\s+unable\s+to|'m\s+unable\s+to|am\s+not\s+able\s+to)\s+"
    r"(?:help|assist|provide\s+an?\s+answer|answer|comply|view|see|access|open|process|load)\b"
    r"|\bno\s+image\s+(?:was|is|has\s+been|appears\s+to\s+have\s+been)\s+(?:provided|attached|uploaded|included|shared)\b"
)
# Cheap substring gates before the regexes above run.
_REFUSAL_HINTS = ("sorry", "afraid", "i can", "i won", "i will not", "i am", "i'm", "no image")
_NON_ANSWER_HINTS = (
    "unknown",
    "n/a",
    "determin",
    "undecidable",
    "unanswerable",
    "no answer",
    "unclear",
    "impossible",
    "?",
    "insufficient",
    "enough",
    "don't know",
    "do not know",
    "unable",
)
# Each hint list as one search (a substring test per hint is a Python loop).
_REFUSAL_HINT = re.compile("|".join(map(re.escape, _REFUSAL_HINTS)))
_NON_ANSWER_HINT = re.compile("|".join(map(re.escape, _NON_ANSWER_HINTS)))
_NON_ANSWER = _c(
    r"^\W*(?:unknown|n/?a|cannot\s+be\s+determined|can't\s+be\s+determined|indeterminate|undetermined"
    r"|not\s+determinable|undeterminable|insufficient\s+(?:information|data)|not\s+enough\s+(?:information|data)"
    r"|unanswerable|no\s+answer|I\s+(?:don't|do\s+not)\s+know|unable\s+to\s+(?:determine|answer|tell)|unclear"
    r"|impossible\s+to\s+(?:determine|tell|say)|pass|skip|no\s+comment|declined?|\?+)\W*$"
)
# A committed value that is itself an abstention ("the answer is: it cannot be determined").
_ABSTAIN_ANYWHERE = _c(
    r"\b(?:cannot|can't|can\s+not|unable\s+to|impossible\s+to|not\s+possible\s+to)\s+(?:be\s+)?"
    r"(?:determine|determined|tell|told|identify|identified|answer|answered|know|known|say"
    r"|give\s+(?:a|an|any|the)\s+(?:\w+\s+)?(?:answer|amount|total|number|count|value|figure))\b"
    r"|\b(?:not\s+enough|insufficient)\s+(?:information|data|detail|details|context)\b"
    r"|\b(?:undeterminable|indeterminable|indeterminate|unanswerable|undecidable|unknown)\b"
    # "Final Answer: I can't help identify the location of this private home."
    r"|\bI\s+(?:can't|cannot|won't|will\s+not)\s+(?:help|assist)\b"
    r"|\bnot\s+going\s+to\s+(?:try\s+to\s+)?(?:pinpoint|identify|name|guess|answer|say|determine|locate)\b"
    # "the plate is too small and blurry to read": a value that is no value
    r"|\btoo\s+(?:[\w-]+\s+){0,3}?(?:small|blurry|blurred|low[- ]resolution|pixelated|dark|grainy|faint|obscured"
    r"|far|distant)\s+to\s+(?:read|tell|make\s+out|identify|determine|see)\b"
)
_MARKED = _c(r"answer\b\s*(?:\*\*)?\s*[:：]\s*(?:\*\*)?\s*(?P<val>[^\n]*)")


def _last_marker(low: str) -> re.Match[str] | None:
    """The last "answer:" marker (e.g. "Final Answer: unknown"), found from the end with rfind."""
    pos = low.rfind("answer")
    while pos != -1:
        m = _MARKED.match(low, pos)
        if m is not None:
            return m
        pos = low.rfind("answer", 0, pos)
    return None


def _is_non_answer(value: str) -> bool:
    low = lowered(value)
    return bool(_NON_ANSWER.match(low)) or _ABSTAIN_ANYWHERE.search(low) is not None


def answer_abstains(
    record: Mapping[str, Any], answer: str, cues: Cues | None = None
) -> Evidence | None:
    """Evidence that the answer declines to answer, or None if it answers.

    ``cues`` are the answer's cues (``Cues(lowered(answer))``) when the caller has them.
    """
    return _unless_undeterminable(record, declining_span(answer, cues))


def _unless_undeterminable(record: Mapping[str, Any], span: Evidence | None) -> Evidence | None:
    if span is None:
        return None
    # Declining is right when the reference itself says the answer cannot be
    # determined; checked last, as most answers do not decline at all.
    reference = record.get("reference")
    if isinstance(reference, str) and len(reference) < 400 and _is_non_answer(reference.strip()):
        return None
    return span


def declining_span(answer: str, cues: Cues | None = None) -> Evidence | None:
    """Evidence that ``answer`` declines, whatever the item's reference says."""
    text = answer.strip()
    if not text:
        return None
    offset = answer.find(text)
    if text.startswith(_REJECT_PREFIXES):
        return sentence_span("answer", answer, offset, offset + 1)
    cues = Cues(lowered(answer)) if cues is None else cues
    low = cues.low
    marked = _last_marker(low)
    if marked is not None and _is_non_answer(marked.group("val")):
        return evidence("answer", answer, marked.start(), marked.end())
    if len(text) <= _BARE and _NON_ANSWER.match(low.strip()):
        return evidence("answer", answer, offset, offset + len(text))  # "Pass.", "Unknown"
    found = [(c.start, c.end) for c in cues.abstentions()]
    principled = None
    if _REFUSAL_HINT.search(low):
        found += [(m.start(), m.end()) for m in _REFUSAL.finditer(low)]
        principled = _ON_PRINCIPLE.search(low)
        if principled is not None:
            found.append(principled.span())
    if not found and not _NON_ANSWER_HINT.search(low):
        return None  # nothing declines: the common case, decided without reading the answer's commitment
    # cues.found holds the lexicon's families only: the committing phrases are found here.
    committed = last_committed(answer, low=low)
    if committed is not None and not _is_non_answer(committed.value):
        return None
    if committed is not None:
        return evidence("answer", answer, committed.start, committed.end)
    if not found:
        return None
    start, end = max(found)
    if principled is not None:
        return sentence_span("answer", answer, principled.start(), principled.end())
    # "I can't identify the species. It looks like a heron." still answers.
    after = sentence_end(low, end)
    # ("any name I gave would be a guess" restates the decline, it offers nothing;
    # so does a doubt that names no candidate: "the question is ambiguous")
    if any(
        c.start >= after
        and _HYPOTHETICAL.search(low, max(after, c.start - 40), c.start) is None
        and _DOUBT_ONLY.match(low, c.start) is None
        for c in cues.hedges()
    ):
        return None
    return sentence_span("answer", answer, start, end)


def detect_abstained(
    record: Mapping[str, Any], answer: str, cues: Cues | None = None
) -> tuple[Evidence | None, list[Flag]]:
    return flag_abstained(record, declining_span(answer, cues))


def flag_abstained(
    record: Mapping[str, Any], declining: Evidence | None
) -> tuple[Evidence | None, list[Flag]]:
    """``detect_abstained`` given ``declining_span(answer)`` (which this does not change)."""
    span = _unless_undeterminable(record, declining)
    if span is None:
        return None, []
    span = span.copy()  # the flag's own: ``declining`` may be another record's too
    return span, [flag("abstained", [span], "the answer declines to answer")]


# A lean named after giving up ("C feels the most likely", "I'd put 70% on Lyon"):
# the reasoning reached a tentative answer, which is a hedge, not an abstention.
_PICK = _c(
    r"\b(?:(?:most|more)\s+likely|(?:my\s+)?best\s+guess|i(?:'d|\s+would)\s+put|going\s+with|i(?:'ll|'d)\s+go\s+with"
    r"|i\s+went\s+with"
    r"|fits\s+best|best\s+fit|my\s+lean|leaning\s+towards?|i\s+lean\s+towards?)\b"
)


def reasoning_abstention(reasoning: str, cues: Cues, lo: int) -> list[Evidence]:
    """Unresolved abstentions in the reasoning's closing part.

    Not being able to read or see a clue ("I can't make out the sign") is
    settled by a later committed answer ("my best guess is Dubrovnik"); not
    being able to determine the answer is not.
    """
    if not cues.found.get("abstain"):
        return []
    settled = cues.last_resolution()
    found_cues = list(cues.abstentions(after=settled))
    if not found_cues:
        return []
    last = last_candidate(reasoning, lo, low=cues.low, found_by=cues.found)
    committed = last.start if last else -1
    low = cues.low
    return [
        sentence_span("reasoning", reasoning, c.start, c.end)
        for c in found_cues
        if c.start > settled
        and not (c.perceptual and committed > c.end)
        and _PICK.search(low, c.end) is None
    ]


def detect_reasoning_abstains(
    reasoning: str,
    answer: str,
    answer_abstained: bool,
    cues: Cues,
    lo: int,
    answer_cues: Cues | None = None,
) -> Iterator[Flag]:
    # An answer that itself says the question cannot be settled (e.g. picks the
    # option "cannot be determined") agrees with the reasoning.
    if answer_abstained or not answer.strip() or not cues.found.get("abstain"):
        return
    answer_cues = Cues(lowered(answer)) if answer_cues is None else answer_cues
    if any(answer_cues.abstentions()):
        return
    spans = reasoning_abstention(reasoning, cues, lo)
    if spans:
        yield flag(
            "reasoning_abstains_answer_does_not",
            spans[-3:],
            "the reasoning concludes it cannot tell; the answer commits",
        )
