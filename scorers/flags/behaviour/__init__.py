"""Behaviour flags that need no LLM: thinking/answer misalignment, hedging, tool claims.

``detect(record, texts, ctx)`` is the entry point ``scorers.flags.flagging`` calls on
every record. Each flag carries evidence spans into ``texts.reasoning`` or
``texts.answer`` and the source ``"heuristic"``; the LRM-Eval rubric judge
emits the same kinds with source ``"judge:rubric"``.

Modules: ``conclusion`` (the answer a text commits to), ``contradiction``
(answer_contradicts_reasoning), ``lexicon`` and ``hedging``
(hedged_reasoning_certain_answer), ``tool_claims`` (claims_web_search,
claims_tool_use), ``abstention`` (abstained, reasoning_abstains_answer_does_not),
``injection`` (judge_prompt_injection); ``scan`` (one Aho-Corasick pass, regexes only
at the stems it finds; ``prefixes`` narrows each stem's regex to the
alternatives it can open), ``cues`` (negation and hypotheticals) and ``spans``
(evidence) serve them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from scorers.flags.behaviour import (
    abstention,
    conclusion,
    contradiction,
    hedging,
    injection,
    lexicon,
    tool_claims,
)
from scorers.flags.behaviour.lexicon import Cues
from scorers.flags.behaviour.scan import Scanner, lowered
from scorers.flags.behaviour.spans import SHORT_ANSWER, SHORT_ANSWER_MEMO, SOURCE, tail_start
from scorers.records import Evidence, Flag, ResponseTexts

if TYPE_CHECKING:
    from scorers.flags.flagging import FlagContext

__all__ = ["SOURCE", "detect"]


# One automaton pass per text region: the answer, and the closing part of the reasoning.
# The answer's committing phrases are only needed when its abstention or a
# contradiction is in question, so conclusion.last_committed finds them then.
_ANSWER_SCAN = Scanner((*lexicon.FAMILIES, *injection.FAMILIES))
_TAIL_SCAN = Scanner((*lexicon.FAMILIES, *conclusion.FAMILIES))


def _read_answer(
    answer: str,
) -> tuple[Mapping[str, list[re.Match[str]]], Cues, Evidence | None]:
    """The answer's scan, its cues and ``abstention.declining_span``: all read-only."""
    answer_low = lowered(answer)
    answer_found = _ANSWER_SCAN.find(answer_low)
    answer_cues = Cues(answer_low, found=answer_found)
    return answer_found, answer_cues, abstention.declining_span(answer, answer_cues)


_read_short_answer = lru_cache(maxsize=SHORT_ANSWER_MEMO)(_read_answer)


def detect(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    reasoning, answer = texts
    read = _read_short_answer if len(answer) <= SHORT_ANSWER else _read_answer
    answer_found, answer_cues, declining = read(answer)
    abstained_span, abstained_flags = abstention.flag_abstained(record, declining)
    abstained = abstained_span is not None
    yield from abstained_flags
    yield from injection.detect(answer, answer_found, record)
    if not reasoning.strip():
        return
    low = lowered(reasoning)
    yield from tool_claims.detect(record, reasoning, ctx.tools_available, low)
    # The closing part of the reasoning: LRM-Eval and the hedging literature
    # find the decisive doubt near the end, and scanning less keeps it cheap.
    lo = tail_start(reasoning, *contradiction.TAIL)
    tail_found = _TAIL_SCAN.find(low, lo, near=False)
    # The generic closing phrases ("so the total is 12") are read only by a
    # shaped evaluator's contradiction check and by an abstaining reasoning's
    # last candidate: their own scan of the last characters runs only then.
    if tail_found.get("abstain") or contradiction.reads_closing(record):
        tail_found.update(_TAIL_SCAN.find_near(low, lo))
    cues = Cues(low, lo, found=tail_found)
    gave_up = list(
        abstention.detect_reasoning_abstains(reasoning, answer, abstained, cues, lo, answer_cues)
    )
    yield from gave_up
    # The reasoning's conclusion serves both the hedges (is a doubt about the
    # answer's value?) and the contradiction check: read it once.
    evaluator = record.get("evaluator")
    concluded = (
        contradiction.conclusion_of(reasoning, evaluator, low, lo, tail_found)
        if isinstance(evaluator, str)
        else conclusion.NOT_READ
    )
    # Giving up is reported once, as giving up; other doubts still make a hedge.
    yield from hedging.detect(
        reasoning,
        answer,
        abstained,
        cues,
        answer_cues,
        lo,
        concluded,
        reasoning_abstains=bool(gave_up),
    )
    yield from contradiction.detect(
        record, reasoning, answer, abstained, low, lo, tail_found, concluded=concluded
    )
