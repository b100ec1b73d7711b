"""Behaviour flags that need no LLM: thinking/answer misalignment, hedging, tool claims.

``detect(record, texts, ctx)`` is the entry point ``scorers.flagging`` calls on
every record. Each flag carries evidence spans into ``texts.reasoning`` or
``texts.answer`` and the source ``"heuristic"``; the LRM-Eval rubric judge
emits the same kinds with source ``"judge:rubric"``.

Modules: ``conclusion`` (the answer a text commits to), ``contradiction``
(answer_contradicts_reasoning), ``lexicon`` and ``hedging``
(hedged_reasoning_certain_answer), ``tool_claims`` (claims_web_search,
claims_tool_use), ``abstention`` (abstained, reasoning_abstains_answer_does_not),
``injection`` (judge_prompt_injection).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from scorers.flags import abstention, contradiction, hedging, injection, tool_claims
from scorers.flags.lexicon import Cues
from scorers.flags.scan import lowered
from scorers.flags.spans import SOURCE, tail_start
from scorers.records import Flag, ResponseTexts

if TYPE_CHECKING:
    from scorers.flagging import FlagContext

__all__ = ["SOURCE", "detect"]

_TAIL = (0.3, 700, 2200)  # fraction, floor, ceiling in characters


def detect(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    reasoning, answer = texts
    abstained_span, abstained_flags = abstention.detect_abstained(record, answer)
    abstained = abstained_span is not None
    yield from abstained_flags
    yield from injection.detect(answer)
    if not reasoning.strip():
        return
    yield from tool_claims.detect(record, reasoning, ctx.tools_available)
    # The closing part of the reasoning: LRM-Eval and the hedging literature
    # find the decisive doubt near the end, and scanning less keeps it cheap.
    lo = tail_start(reasoning, *_TAIL)
    cues = Cues(lowered(reasoning), lo)
    yield from abstention.detect_reasoning_abstains(reasoning, answer, abstained, cues, lo)
    yield from hedging.detect(reasoning, answer, abstained, cues)
    yield from contradiction.detect(record, reasoning, answer, abstained)
