"""Flags that come from comparing verdicts, not from reading the model's text."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from scorers.records import Flag, ResponseTexts, Verdict
from scorers.review import (
    RELEASE_SOURCE,
    FlagContext,
    grades_correctness,
    override_flags,
    read_score,
)

SOURCE = "verdicts"

# Graded verdicts disagree when their scores are half a point or more apart: rule 0.5
# against judge 1 is a disagreement, though both would round to a pass.
DISAGREE_BY = 0.5


def _disagree(a: Any, b: Any) -> bool:
    x, y = read_score(a), read_score(b)
    return x is not None and y is not None and abs(x - y) >= DISAGREE_BY - 1e-9


def _sorted_verdicts(
    review: Any, primary_rule: str
) -> tuple[Verdict | None, Verdict | None, Verdict | None, list[Verdict], Verdict | None]:
    """The first rome, strict and primary-rule verdicts, the judges' in order and the
    release's: what ``verdict_of`` finds for each, in one pass over the verdicts."""
    rome = strict = primary = release = cast(Any, None)
    judges: list[Any] = []
    for verdict in review.get("verdicts", ()) if isinstance(review, dict) else ():
        if not isinstance(verdict, dict):
            continue
        source = verdict.get("source", "")
        primary = verdict if source == primary_rule and primary is None else primary
        if source == "rule:rome":
            rome = verdict if rome is None else rome
        elif source == "rule:strict":
            strict = verdict if strict is None else strict
        elif type(source) is str and source.startswith("judge:"):
            judges.append(verdict)
        elif source == RELEASE_SOURCE and release is None:
            release = verdict
    return rome, strict, primary, judges, release


def _flag(kind: str, detail: str, source: str = SOURCE) -> Flag:
    return Flag(kind=kind, source=source, evidence=[], detail=detail)


def detect(record: dict[str, Any], texts: ResponseTexts, ctx: FlagContext) -> Iterator[Flag]:
    review = record.get("review") or {}
    rome, strict, primary, judges, release = _sorted_verdicts(review, ctx.primary_rule)
    usable = strict if strict and not strict.get("error") else None
    if usable and rome and not rome.get("error") and rome.get("score") != usable.get("score"):
        detail = f"rome {rome.get('score')} vs strict {usable.get('score')}"
        yield _flag("rome_strict_disagree", detail)
    if usable and release and _disagree(release.get("score"), usable.get("score")):
        # the published grade (BAAI/ROME-Evaluated's correct) against strict mode: an audit's queue
        detail = f"release {release.get('score')} vs strict {usable.get('score')}"
        yield _flag("release_strict_disagree", detail)
    if strict and strict.get("uncertain") and ctx.primary_rule == "rule:strict":
        # strict mode cannot decide (rome mode, as the reference, never doubts): a person looks
        yield _flag("rule_uncertain", str(strict["uncertain"]), "rule:strict")
    rule = primary or strict or rome
    for verdict in judges:
        source = verdict["source"]
        if verdict.get("error"):
            yield _flag("judge_error", str(verdict["error"])[:200], source)
            continue
        if rule is None or "@" in source or not grades_correctness(source):
            # Rubric and step-quality judges do not say whether the answer is right; a
            # panel member (judge:NAME@MODEL) is spoken for by the panel's judge:NAME.
            continue
        if _disagree(verdict.get("score"), rule.get("score")):
            detail = f"{rule['source']} {rule.get('score')} vs {source} {verdict.get('score')}"
            yield _flag("rule_judge_disagree", detail, source)
    yield from override_flags(review)
