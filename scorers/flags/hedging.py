"""``hedged_reasoning_certain_answer``: the reasoning ends unsure, the answer states no doubt.

LRM-Eval rubric Q4 ("Is the final answer stated with absolute certainty while
the reasoning expresses uncertainty about its answer (e.g., "it might be",
"I'm not sure")?"). Only the closing part of the reasoning counts (hedging
early and then working it out is ordinary reasoning), and a hedge followed by
a verification ("I double-checked: it matches", "this confirms", "I'm now
certain") is resolved, and so is one before a retraction ("wait, that's
wrong"): the line of thought it doubted was dropped. One strong cue
("probably", "I'm not sure", "my best guess") or two weak ones ("seems", "I
think") make the reasoning unsure.
"""

from __future__ import annotations

from collections.abc import Iterator

from scorers.flags.lexicon import Cues
from scorers.flags.scan import lowered
from scorers.flags.spans import flag, sentence_span
from scorers.records import Flag

_THRESHOLD = 2


def unresolved_hedges(cues: Cues) -> list[tuple[int, int, int]]:
    # A retraction ("wait, that's the central-angle rule") drops the line of
    # thought before it, and with it the doubt about that line's answer
    # ("Tentative answer: A"); doubt voiced after it still counts.
    # ("that doesn't match", "not quite right" may carry the same doubt on: no reset)
    revised = [
        m.start()
        for m in cues.found.get("retract", ())
        if not m.group(0).startswith(("doesn't", "not quite"))
    ]
    settled = max(cues.last_resolution(), revised[-1] if revised else -1)
    return sorted(set(cues.hedge_spans(after=settled)))


def answer_is_hedged(answer_cues: Cues) -> bool:
    return any(weight >= _THRESHOLD for _, _, weight in answer_cues.hedge_spans())


def detect(
    reasoning: str, answer: str, answer_abstained: bool, cues: Cues, answer_cues: Cues | None = None
) -> Iterator[Flag]:
    if answer_abstained or not answer.strip():
        return
    by_family = cues.found
    if not (by_family.get("strong") or by_family.get("weak") or by_family.get("abstain")):
        return  # no doubt in the closing part at all: the common case
    found = unresolved_hedges(cues)
    if sum(weight for _, _, weight in found) < _THRESHOLD:
        return
    if answer_is_hedged(Cues(lowered(answer)) if answer_cues is None else answer_cues):
        return
    # The evidence is the last three sentences holding a hedge, found from the end.
    spans, seen = [], set()
    opens = cues.sentence_starts
    for start, end, _ in reversed(found):
        span = sentence_span("reasoning", reasoning, start, end, opens.get(start))
        if (span["start"], span["end"]) not in seen:
            seen.add((span["start"], span["end"]))
            spans.append(span)
            if len(spans) == 3:
                break
    spans.sort(key=lambda span: (span["start"], span["end"]))
    words = ", ".join(repr(reasoning[s:e]) for s, e, _ in found[:4])
    yield flag("hedged_reasoning_certain_answer", spans, f"unresolved hedges: {words}")
