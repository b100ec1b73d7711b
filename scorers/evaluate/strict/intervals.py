"""Interval answers: a stated number or clock time inside a closed interval.

The number is read as for ``number_matching`` (the stated answer's value, not
the first digits of the text); a time is ``h:mm`` or ``h:mm:ss``. When units
are required, one of them must be written next to the number (``12 km``,
``12km``, ``$12``), not merely somewhere in the text: ``m`` occurs in almost
every sentence. Units of three or more letters compare without case
(``Meters``); shorter symbols keep it (``m`` is not ``M``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from scorers.evaluate.strict.numbers import Number, canonical, pick_number

_TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::(\d{2}))?(?![\d:])")
_UNIT_LEAD = re.compile(r"[ \t*_$]*(?:\\(?:text|mathrm|,|;|!|\s)[ \t]*)*\{?[ \t]*")
_EPS = 1e-9
# A unit symbol also counts when spelled out: "12 meters" states metres.
_SPELLED: dict[str, tuple[str, ...]] = {
    "m": ("meters", "meter", "metres", "metre"),
    "km": ("kilometers", "kilometer", "kilometres", "kilometre"),
    "cm": ("centimeters", "centimeter", "centimetres", "centimetre"),
    "mm": ("millimeters", "millimeter", "millimetres", "millimetre"),
    "s": ("seconds", "second", "sec", "secs"),
    "min": ("minutes", "minute", "mins"),
    "h": ("hours", "hour", "hr", "hrs"),
    "kg": ("kilograms", "kilogram", "kilos"),
    "g": ("grams", "gram"),
    "%": ("percent", "per cent"),
    "°C": ("degrees celsius", "degrees c", "celsius", "° C"),
    "°F": ("degrees fahrenheit", "degrees f", "fahrenheit", "° F"),
    "°": ("degrees", "degree"),
}


class Interval(NamedTuple):
    time: bool
    low: float
    high: float


def time_seconds(text: str) -> float | None:
    parts = text.strip().split(":")
    if not 2 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        return None
    seconds = 0
    for part, scale in zip(parts, (3600, 60, 1), strict=False):
        seconds += int(part) * scale
    return float(seconds)


@lru_cache(maxsize=1024)
def _spellings(units: tuple[str, ...]) -> tuple[tuple[str, bool], ...]:
    """Every accepted spelling, longest first, with whether case is folded."""
    spellings = {u for unit in units if unit for u in (unit, *_SPELLED.get(unit, ()))}
    return tuple(
        (u, len(u) >= 3 and u.replace(" ", "").isalpha())
        for u in sorted(spellings, key=lambda u: (-len(u), u))
    )


def _unit_near(text: str, number: Number, units: list[str]) -> str | None:
    lead = _UNIT_LEAD.match(text, number.end)
    after = text[lead.end() if lead else number.end :]
    before = text[max(0, number.start - 16) : number.start].rstrip(" \t\\{")
    for unit, fold in _spellings(tuple(units)):
        a = after[: len(unit)]
        if (a.lower() == unit.lower() if fold else a == unit) and not (
            after[len(unit) : len(unit) + 1].isalpha() and unit[-1:].isalpha()
        ):
            return unit
        b = before[-len(unit) :]
        if (b.lower() == unit.lower() if fold else b == unit) and not (
            before[-len(unit) - 1 : -len(unit)].isalpha() and unit[:1].isalpha()
        ):
            return unit
    return None


def read_time(segment: str, *, last: bool) -> float | None:
    found = list(_TIME.finditer(segment[:4000]))
    if not found:
        return None
    m = found[-1] if last else found[0]
    return time_seconds(m.group())


def check(
    segment: str, interval: Interval, units: list[str], *, last: bool
) -> tuple[bool, str, str | None]:
    """(inside with a required unit, what was read, why not)."""
    if interval.time:
        seconds = read_time(segment, last=last)
        if seconds is None:
            return False, "", "no h:mm time found"
        s = int(seconds)
        read = f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
        inside = interval.low <= seconds <= interval.high
        return inside, read, None if inside else "outside the interval"
    number, text = pick_number(segment, last=last)
    if number is None:
        return False, "", "no number found"
    read = canonical(number.value)
    slack = _EPS * max(1.0, abs(interval.low), abs(interval.high))
    if not interval.low - slack <= number.value <= interval.high + slack:
        return False, read, "outside the interval"
    if not any(units):
        return True, read, None
    unit = _unit_near(text, number, units)
    if unit is None:
        return False, read, "no required unit next to the number"
    return True, f"{read} {unit}", None
