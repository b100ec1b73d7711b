"""Recompute a record's flags from its texts, verdicts and human state: a pure function of the
record, rebuilt whole after grading, judging or an override: each ``detect(record, texts, ctx)``
of ``DETECTOR_MODULES``, then each ``compare(record, flags, ctx)`` of ``COMPARER_MODULES``."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from scorers.records import FLAG_KINDS, Flag, ResponseTexts, response_texts, review_of
from scorers.review import FlagContext

__all__ = ["DETECTOR_MODULES", "FlagContext", "detectors", "recompute_flags"]

DETECTOR_MODULES: tuple[str, ...] = (
    "scorers.flags.verdicts",  # rome/strict, rule/judge disagreement, judge errors, stale overrides
    "scorers.flags.behaviour",  # thinking/answer misalignment and behaviour (no LLM)
    "scorers.judges.flags",  # judge rationale contradictions, LRM-Eval rubric answers
)
COMPARER_MODULES: tuple[str, ...] = ("scorers.judges.flags",)  # heuristic vs rubric readings

Detector = Callable[[dict[str, Any], ResponseTexts, FlagContext], Iterable[Flag]]


def detectors() -> tuple[Detector, ...]:
    """The ``detect`` functions of ``DETECTOR_MODULES`` (imported once per list)."""
    return _imported(DETECTOR_MODULES)


@cache
def _imported(modules: tuple[str, ...], name: str = "detect") -> tuple[Any, ...]:
    return tuple(getattr(importlib.import_module(module), name) for module in modules)


def recompute_flags(
    record: dict[str, Any], ctx: FlagContext | None = None, texts: ResponseTexts | None = None
) -> list[Flag]:
    """Rebuild ``review.flags``. Pass ``texts`` when the caller already split the
    response (grading does), since that split is the costly part for long traces."""
    texts = response_texts(record) if texts is None else texts
    ctx = FlagContext() if ctx is None else ctx
    flags = [f for detect in detectors() for f in detect(record, texts, ctx)]
    flags += [f for c in _imported(COMPARER_MODULES, "compare") for f in c(record, flags, ctx)]
    for flag in flags:  # (checked once for all detectors: this runs on every record graded)
        if flag["kind"] not in FLAG_KINDS:
            raise ValueError(f"unknown flag kind {flag['kind']!r}: add it to FLAG_KINDS")
    review_of(record)["flags"] = flags
    return flags
