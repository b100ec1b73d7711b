"""``interval_matching`` and ``multi_interval_matching`` as the production harness defines them.

The standalone reference allows these names but never defines them (spec Q24);
FlagEvalMM's ``tasks/rome/rome_evaluator.py`` does (spec §8.5): the *first*
time ("h:mm[:ss]") or number in the answer must fall in a closed interval, and
when units are given one of them must occur (case-sensitive substring). The
harness also marks the prediction with ``number_correct`` / ``unit_correct``;
those marks are returned as a dict for the pipeline to copy.
"""

from __future__ import annotations

import re
from typing import Any

from scorers.evaluate.rome.evaluators import BadKwarg

_TIME = re.compile(r"\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b")
_FIRST_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_SCALE = (3600, 60, 1)


def _seconds(parts: tuple[str, ...] | list[str], kwarg: str) -> int:
    if len(parts) > len(_SCALE):
        raise BadKwarg(kwarg, f"time {':'.join(parts)!r} has more than h:mm:ss")
    total = 0
    for scale, part in zip(_SCALE, parts, strict=False):
        if part != "":
            try:
                total += scale * int(part)
            except ValueError:
                raise BadKwarg(kwarg, f"time part {part!r} is not a number") from None
    return total


def _one(answer: str, interval: Any, units: Any, marks: dict[str, int], kwarg: str) -> int:
    if not isinstance(interval, list) or len(interval) < 2:
        raise BadKwarg(kwarg, "must be a [low, high] pair")
    low_raw, high_raw = interval[0], interval[1]
    pred: float
    if isinstance(low_raw, str):
        if not isinstance(high_raw, str):
            raise BadKwarg(kwarg, "a time interval needs two 'h:mm[:ss]' strings")
        low: float = _seconds(low_raw.split(":"), kwarg)
        high: float = _seconds(high_raw.split(":"), kwarg)
        match = _TIME.search(answer)
        if match is None:
            return 0
        pred = _seconds(tuple(g or "" for g in match.groups()), kwarg)
    else:
        if not isinstance(low_raw, (int, float)) or not isinstance(high_raw, (int, float)):
            raise BadKwarg(kwarg, "bounds must be numbers or 'h:mm[:ss]' strings")
        low, high = low_raw, high_raw
        found = _FIRST_NUMBER.search(answer)
        if found is None:
            return 0
        pred = float(found.group())
    if pred < low or pred > high:
        return 0
    marks["number_correct"] = 1
    if not isinstance(units, (list, str)):
        raise BadKwarg("units", "must be a list of strings")
    if len(units) == 0:
        return 1
    for unit in units:
        if not isinstance(unit, str):
            raise BadKwarg("units", f"unit {unit!r} is not a string")
        if unit in answer:
            marks["unit_correct"] = 1
            return 1
    return 0


def interval_matching(answer: str, interval: Any, units: Any) -> tuple[int, str, dict[str, int]]:
    marks: dict[str, int] = {}
    return _one(answer, interval, units, marks, "interval"), answer, marks


def multi_interval_matching(
    answer: str, intervals: Any, units: Any
) -> tuple[int, str, dict[str, int]]:
    marks: dict[str, int] = {}
    if not isinstance(intervals, list) or not isinstance(units, list):
        raise BadKwarg(
            "intervals" if not isinstance(intervals, list) else "units", "must be a list"
        )
    for interval, unit in zip(
        intervals, units, strict=False
    ):  # zip: extra intervals without units are ignored
        if _one(answer, interval, unit, marks, "intervals") == 1:
            return 1, answer, marks
    return 0, answer, marks
