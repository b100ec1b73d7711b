"""Behaviour flags that need no LLM (source ``"heuristic"``): ``detect(record, texts, ctx)``,
called by ``scorers.flags.flagging`` on every record, with evidence spans into ``texts`` and
a ``confidence``. The mechanisms (docs/flags.md): ``contradiction``, ``hedging``, ``claims``,
``abstention``, ``injection``; ``cues`` compiles cues.json, ``text`` holds what they share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from scorers.flags.behaviour import abstention, claims, contradiction, hedging, injection
from scorers.flags.behaviour.text import SOURCE, closing_part, final_stretch, flag
from scorers.records import Evidence, Flag, ResponseTexts, decode_kwargs
from scorers.review import FlagContext

__all__ = ["SOURCE", "detect"]


def detect(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    reasoning, answer = texts
    if (declined := abstention.answer_declines(record, answer)) is not None:
        spans: list[Evidence] = [declined] if answer.strip() else []
        yield flag("abstained", spans, "the answer declines to answer")
    yield from filter(None, [injection.detect(record, answer)])
    if not reasoning.strip():
        return
    yield from claims.detect(record, reasoning, ctx.tools_available)
    evaluator, kwargs = record.get("evaluator"), decode_kwargs(record.get("evaluator_kwargs"))
    closing = closing_part(reasoning)
    found = None
    if isinstance(evaluator, str) and isinstance(kwargs, dict):
        found = contradiction.conclusion(record, closing, evaluator, kwargs)
    stretch = final_stretch(closing, None if found is None else found.position)
    conclusion_at = found.sentence.start if found is not None else None
    marked_at = conclusion_at if found is not None and found.marked else None
    declining = abstention.reasoning_declines(record, texts, closing, stretch, marked_at)
    declining = None if declined is not None else declining  # the answer's decline is the flag
    doubt = declining[0] if declining is not None and declining[1] else None
    gave_up = declining is not None and bool(answer.strip())  # a doubt that offers no candidate
    gave_up = gave_up and (doubt is None or abstention.unoffered(record, *texts))  # gives up too
    contradicted = None  # a guess after giving up that the answer contradicts: no give-up
    if found is not None and declined is None and isinstance(evaluator, str):
        contradicted = contradiction.detect(record, *texts, closing, found, evaluator, kwargs)
    if gave_up and declining and (not contradicted or (conclusion_at or 0) < declining[0]["start"]):
        yield abstention.gave_up(reasoning, answer, declining[0])
        contradicted = None
    # A pick restated ("So likely D.\n\nThus final answer: D.") is made where first stated.
    at = len(closing) if found is None else found.position
    while 0 < at < len(closing) and hedging.restates(closing[at - 1].text, closing[at].text):
        at -= 1
    doubted = closing[min(at, len(closing) - len(stretch)) :]
    # Giving up, deferring ("the hint says D") or a bare pick ("So I'll pick A") ends unsure: read before.
    told = [s for s in closing[-len(stretch) - 1 :] if hedging.DEFERS.search(s.text)]
    bare = closing and hedging.BARE_PICK.match(closing[min(at, len(closing) - 1)].text)
    if (gave_up or told or bare) and closing:
        doubted = [s for s in closing if s.paragraph >= min([doubted[0], *told]).paragraph - 1]
    asked = q.lower() if isinstance(q := record.get("question"), str) else ""
    hedged = hedging.detect(reasoning, doubted, conclusion_at, gave_up, doubt, asked)
    if hedged and not (declined or contradicted or hedging.answer_hedges(answer, asked)):
        yield hedged
    yield from filter(None, [contradicted])
