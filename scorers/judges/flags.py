"""Flags derived from judge verdicts (a detector module of ``scorers.flags.flagging``).

- ``judge_parse_fallback``: a judge verdict whose score needed a fallback parse
  the protocol allows, or whose reply contradicts itself (``verdict.fallback``,
  set by the parsers in ``scorers.judges.parsing``).
- ``judge_rationale_contradicts``: the ROME judge's reasoning ends by arguing
  the opposite of its ``Judgement:`` line, or the reply gives several
  different judgements. A reviewer should read it before trusting it.
- The LRM-Eval rubric's YES answers to the behaviour questions become the
  matching behaviour flags with source ``judge:rubric``; quoted phrases of the
  justification found in the reasoning or answer become evidence spans. A
  claimed web search or tool is not flagged when the run had that tool.
- ``heuristic_rubric_disagree`` (``compare``, run after every detector): the heuristic
  flags and the rubric's answers read a behaviour differently, one flagging it and the
  other not. The kinds are in ``disagree_on``; the readings in the detail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scorers.judges.rubric import COLUMNS, FLAG_OF_COLUMN
from scorers.records import Evidence, Flag, ResponseTexts, verdict_of
from scorers.review import FlagContext

RUBRIC_SOURCE = "judge:rubric"
HEURISTIC_SOURCE = "heuristic"
DISAGREE_KIND = "heuristic_rubric_disagree"
_TOOL_OF_KIND = {
    "claims_web_search": ("search", "web_search", "browsing"),
    "claims_tool_use": ("code", "tools", "python", "image_tools"),
}

_NEGATIVE = re.compile(
    r"\b(?:is|are|was|were|does|do)\s+not\s+(?:\w+\s+)?(?:consistent|correct|equivalent|equal|match)"
    r"|\b(?:inconsistent|incorrect|not\s+equivalent|not\s+the\s+same|does\s+not\s+match|doesn't\s+match|"
    r"contradicts|differs?\s+from|mismatch)\b",
    re.IGNORECASE,
)
_POSITIVE = re.compile(
    r"\b(?:is|are)\s+(?:consistent|correct|equivalent|(?:mathematically\s+)?equal|the\s+same)\b"
    r"|\b(?:matches|semantically\s+equivalent)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def rationale_polarity(rationale: str) -> float | None:
    """1.0 if the rationale's last sentence argues "consistent", 0.0 if "inconsistent", else None."""
    sentences = [s for s in _SENTENCE_END.split(rationale.strip()) if s.strip()]
    if not sentences:
        return None
    last = sentences[-1]
    negative, positive = bool(_NEGATIVE.search(last)), bool(_POSITIVE.search(last))
    if negative == positive:
        return None
    return 0.0 if negative else 1.0


def _rationale_flag(record: dict[str, Any]) -> Flag | None:
    verdict = verdict_of(record, "judge:rome")
    if verdict is None or verdict.get("error") is not None or verdict.get("score") is None:
        return None
    if verdict.get("parse") == "judgement-line-last-of-several":
        return Flag(
            kind="judge_rationale_contradicts",
            source="judge:rome",
            evidence=[],
            detail="the judge's reply gives more than one different Judgement",
        )
    polarity = rationale_polarity(verdict.get("explanation") or "")
    score = verdict["score"]
    if polarity is None or score is None or polarity == (1.0 if score > 0.5 else 0.0):
        return None
    sentence = [
        s for s in _SENTENCE_END.split((verdict.get("explanation") or "").strip()) if s.strip()
    ][-1]
    return Flag(
        kind="judge_rationale_contradicts",
        source="judge:rome",
        evidence=[],
        detail=f"judgement {score:g} but the rationale ends: {sentence[:200]}",
    )


# A quotation in a judge's justification: straight or curly double quotes, or single
# quotes that open and close outside a word, so the apostrophe of "I'm" is no quote mark.
_QUOTED = re.compile(
    r'"([^"\n]{6,200})"'
    r"|“([^”\n]{6,200})”"
    r"|(?<!\w)['‘]([^\n]{6,200}?)['’](?!\w)"
)
# A word of the original text; apostrophes inside it ("can't", "I’ll") are part of it.
_WORD = re.compile(r"\w+(?:['’]\w+)*")


def _quotes(justification: str) -> list[str]:
    return [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(justification)]


def _word_span(text: str, start: int, end: int) -> tuple[int, int]:
    """``start:end`` widened to the words it cuts, so evidence never starts or ends mid-word."""
    for word in _WORD.finditer(text, max(0, start - 200), min(len(text), end + 200)):
        if word.start() < start < word.end():
            start = word.start()
        if word.start() < end < word.end():
            end = word.end()
    return start, end


def _evidence(justification: str, texts: ResponseTexts) -> list[Evidence]:
    """Spans of the reasoning or answer that the justification quotes."""
    found: list[Evidence] = []
    for quote in _quotes(justification):
        quote = quote.strip()
        for name, text in (("reasoning", texts.reasoning), ("answer", texts.answer)):
            at = text.find(quote) if quote else -1
            if at != -1:
                start, end = _word_span(text, at, at + len(quote))
                found.append(Evidence(field=name, start=start, end=end, text=text[start:end]))  # type: ignore[typeddict-item]
                break
    return found


def _rubric_flags(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    verdict = verdict_of(record, RUBRIC_SOURCE)
    if verdict is None or verdict.get("error") is not None:
        return
    metrics = verdict.get("metrics")
    metrics = metrics if isinstance(metrics, dict) else {}  # a hand-edited file: no answers
    answers = metrics.get("answers")
    answers = answers if isinstance(answers, dict) else {}
    columns = COLUMNS.get(str(metrics.get("variant", "default")), COLUMNS["default"])
    tools = {t.lower() for t in ctx.tools_available}
    seen: set[str] = set()
    for number, column in sorted(columns.items()):
        kind = FLAG_OF_COLUMN.get(column)
        entry = answers.get(str(number))
        if kind is None or not isinstance(entry, dict) or entry.get("answer") != "YES":
            continue
        if tools & set(_TOOL_OF_KIND.get(kind, ())):
            continue  # the run had the tool: using it is not a hallucination
        if kind in seen:
            continue
        seen.add(kind)
        justification = str(entry.get("justification") or "")
        yield Flag(
            kind=kind,
            source=RUBRIC_SOURCE,
            evidence=_evidence(justification, texts),
            detail=f"rubric Q{number} ({column}): YES. {justification}"[:300],
        )


def _judge_verdicts(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The record's judge verdicts (sources ``judge:...``), in order."""
    review = record.get("review")
    if not isinstance(review, dict):
        return []
    return [
        verdict
        for verdict in review.get("verdicts") or ()
        if isinstance(verdict, dict)
        and type(verdict.get("source")) is str
        and verdict["source"].startswith("judge:")
    ]


_JUDGED_BY = frozenset({"judge:rome", RUBRIC_SOURCE})


def detect(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    verdicts = _judge_verdicts(record)
    if not verdicts:
        return iter(())  # rule grading alone: one look at the verdicts, no generator made
    return _judge_flags(record, texts, ctx, verdicts)


def _judge_flags(
    record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext, verdicts: list[dict[str, Any]]
) -> Iterator[Flag]:
    for verdict in verdicts:
        fallback = verdict.get("fallback")
        if fallback and verdict.get("error") is None:
            yield Flag(
                kind="judge_parse_fallback",
                source=verdict["source"],
                evidence=[],
                detail=f"{verdict.get('parse', 'fallback')}: {fallback}"[:300],
            )
    if not any(v["source"] in _JUDGED_BY for v in verdicts):
        return
    flag = _rationale_flag(record)
    if flag is not None:
        yield flag
    yield from _rubric_flags(record, texts, ctx)


@dataclass(frozen=True)
class RubricAnswer:
    """The rubric's answer to one question about a behaviour kind."""

    number: int
    column: str
    answer: str  # YES, NO or N/A; "" where the reply did not answer it
    justification: str


def rubric_answers(verdict: Any) -> dict[str, list[RubricAnswer]]:
    """Per behaviour kind the rubric asks about, its answers to that kind's questions
    (two for ``claims_tool_use`` in the visual rubric). Nothing for a failed verdict."""
    if not isinstance(verdict, dict) or verdict.get("error") is not None:
        return {}
    metrics = verdict.get("metrics")
    metrics = metrics if isinstance(metrics, dict) else {}  # a hand-edited file: no answers
    answers = metrics.get("answers") or {}
    columns = COLUMNS.get(str(metrics.get("variant", "default")), COLUMNS["default"])
    out: dict[str, list[RubricAnswer]] = {}
    for number, column in sorted(columns.items()):
        kind = FLAG_OF_COLUMN.get(column)
        if kind is None:
            continue
        entry = answers.get(str(number)) if isinstance(answers, dict) else None
        entry = entry if isinstance(entry, dict) else {}
        answer = str(entry.get("answer") or "")
        answer = answer if answer in ("YES", "NO", "N/A") else ""
        justification = str(entry.get("justification") or "")
        out.setdefault(kind, []).append(RubricAnswer(number, column, answer, justification))
    return out


def compare(record: dict[str, Any], flags: list[Flag], ctx: FlagContext) -> list[Flag]:
    """``heuristic_rubric_disagree`` where the heuristic flags and the rubric's flags of a
    kind differ. The rubric reads a kind only where it answered every question about it:
    a failed call, no rubric verdict or an unanswered question compares nothing (YES flags
    it; NO and N/A do not, as LRM-Eval counts them). A low-confidence heuristic flag counts
    like a high one; the detail says which it was."""
    verdict = verdict_of(record, RUBRIC_SOURCE)
    readings = rubric_answers(verdict) if verdict is not None else {}
    if not readings:
        return []  # (on every record graded: no generator made)
    heuristic: dict[str, Flag] = {}
    rubric: set[str] = set()
    for flag in flags:
        if flag.get("source") == HEURISTIC_SOURCE:
            heuristic.setdefault(flag["kind"], flag)
        elif flag.get("source") == RUBRIC_SOURCE:
            rubric.add(flag["kind"])
    kinds: list[str] = []
    parts: list[str] = []
    for kind, answers in readings.items():
        raised = heuristic.get(kind)
        if (kind in rubric) == (raised is not None):
            continue
        if kind not in rubric and not all(a.answer for a in answers):
            continue  # the rubric left a question about it unanswered: no reading to compare
        said = ", ".join(f"Q{a.number} {a.answer or 'no answer'}" for a in answers)
        if raised is not None:
            mine = f"heuristic yes ({raised.get('confidence', 'high')} confidence)"
        else:
            mine = "heuristic no"
        kinds.append(kind)
        parts.append(f"{kind}: {mine}, rubric {said}")
    if not kinds:
        return []
    detail = "; ".join(parts)
    return [
        Flag(
            kind=DISAGREE_KIND, source=RUBRIC_SOURCE, evidence=[], detail=detail, disagree_on=kinds
        )
    ]
