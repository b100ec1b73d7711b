"""``interval_matching`` and ``multi_interval_matching``: the stated number or
time inside an interval of the key, in one of its units."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import intervals
from scorers.evaluate.strict.kwargs import check_kwargs, fail, strings
from scorers.evaluate.strict.reading import Reading
from scorers.evaluate.strict.scores import RIGHT, WRONG


def _interval(name: str, value: Any) -> intervals.Interval:
    if not isinstance(value, list) or len(value) != 2:
        raise fail(name, f"an interval must be [low, high], got {json_shown(value, 60)}")
    low, high = value
    if isinstance(low, str) and isinstance(high, str):
        lo, hi = intervals.time_seconds(low), intervals.time_seconds(high)
        if lo is None or hi is None:
            raise fail(
                name, f"a time interval must be 'h:mm[:ss]' strings, got {json_shown(value, 60)}"
            )
        time = True
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        lo, hi, time = float(low), float(high), False
    else:
        raise fail(
            name, f"an interval must be two numbers or two times, got {json_shown(value, 60)}"
        )
    if lo > hi:
        raise fail(name, f"interval low end is above its high end: {value!r:.60}")
    return intervals.Interval(time, lo, hi)


def interval_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "interval_matching"
    loc = reading.loc
    check_kwargs(name, kwargs)
    interval = _interval(name, kwargs["interval"])
    units = strings(name, "units", kwargs.get("units", []), allow_str=False)
    ok, read, why = intervals.check(loc.segment, interval, units, last=loc.how == "whole")
    return Outcome(RIGHT if ok else WRONG, read, note=why)


def multi_interval_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "multi_interval_matching"
    loc = reading.loc
    check_kwargs(name, kwargs)
    raw = kwargs["intervals"]
    if not isinstance(raw, list) or not raw:
        raise fail(name, "intervals must be a non-empty list of [low, high]")
    ivs = [_interval(name, v) for v in raw]
    raw_units = kwargs.get("units", [[] for _ in ivs])
    if not isinstance(raw_units, list) or len(raw_units) != len(ivs):
        raise fail(name, "units must be a list with one list of units per interval")
    unit_lists = [strings(name, "units", u, allow_str=False) for u in raw_units]
    last = loc.how == "whole"
    first_read, first_why = "", None
    for iv, units in zip(ivs, unit_lists, strict=False):
        ok, read, why = intervals.check(loc.segment, iv, units, last=last)
        if ok:
            return Outcome(RIGHT, read)
        if not first_read:
            first_read, first_why = read, why
    return Outcome(WRONG, first_read, note=first_why)
