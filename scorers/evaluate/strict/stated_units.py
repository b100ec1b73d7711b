"""The unit written after a stated number, against the unit the question asks in
or, when it names none, the key's figures."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from scorers.evaluate.strict.numbers import Number
from scorers.evaluate.strict.reading import Reading

if TYPE_CHECKING:
    from scorers.evaluate.mathmatch.units import Unit


_UNIT_AFTER = re.compile(r"[ \t\u00a0]*([^\W\d_]+(?:/[^\W\d_]+)?)")
_UNIT_PER = re.compile(r"[ \t\u00a0]*([^\W\d_]+[ \t]+per[ \t]+[^\W\d_]+)")


def _figures(value: int) -> int:
    """Significant figures of a whole number as written (460: 2)."""
    digits = str(abs(value)).rstrip("0")
    return max(1, len(digits))


def key_in_other_unit(number: Number, text: str, reading: Reading, target: float) -> str | None:
    """Why the number is the key read in another unit of its dimension, when it
    is stated with a unit, the question names none, and the key is a whole
    number that the converted value rounds to at the key's own figures
    ("1670 kilometers per hour" is 463.9 m/s, 460 to two figures)."""
    if not target or target != int(target) or not isinstance(target, (int, float)):
        return None
    found = _stated_unit(number, text, per=True)
    if found is None or reading.unit_asked is not None:
        return None  # (a unit asked for is read by other_unit)
    written, stated = found
    from scorers.evaluate.mathmatch.units import units_of

    figures = _figures(int(target))
    for unit in units_of(stated.dimension):
        if unit.factor == stated.factor:
            continue
        value = number.value * float(stated.factor / unit.factor)
        if value and round(value, figures - 1 - math.floor(math.log10(abs(value)))) == target:
            return f"{written} read in {unit.name} is {value:.4g}, the key to its figures"
    return None


def other_unit(number: Number, text: str, reading: Reading) -> tuple[str, str, float] | None:
    """(the unit written after the number, the unit the question asks in, the
    factor from the first to the second) when both are units of one dimension
    and differ ("12,000 m" for "..., in km?"). The question is read only when a
    unit follows the number."""
    found = _stated_unit(number, text)
    if found is None:
        return None
    asked = reading.unit_asked
    if asked is None:
        return None
    from scorers.evaluate.mathmatch.units import lookup

    written, stated = found
    wanted = lookup(asked)
    if wanted is None or stated.dimension != wanted.dimension or stated.factor == wanted.factor:
        return None
    return written, asked, float(stated.factor / wanted.factor)


def _stated_unit(number: Number, text: str, *, per: bool = False) -> tuple[str, Unit] | None:
    """The unit written right after the number (``per``: "kilometers per hour"
    read whole) and what it is, unless it only counts things."""
    after = (per and _UNIT_PER.match(text, number.end)) or _UNIT_AFTER.match(text, number.end)
    if after is None:
        return None
    from scorers.evaluate.mathmatch.units import lookup

    stated = lookup(after.group(1))
    if stated is None or stated.dimension == "count":
        return None
    return after.group(1), stated
