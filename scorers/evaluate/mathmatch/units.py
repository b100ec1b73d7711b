"""Units: split "15 cm^2" into value and unit, and decide whether two units agree.

MathReal's rules: a reference without a unit accepts any unit, a missing unit in
the answer is fine, a wrong unit is wrong, and unit formatting is ignored
(``180 \\text{ dm}^2`` = ``180dm^2`` = ``180平方分米``). Quantities in the same
dimension are converted (``1.5 m`` = ``150 cm``): they are the same quantity.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class Unit:
    name: str  # canonical spelling, e.g. "cm^2"
    dimension: str  # "length", "area", ...; "count" for classifiers (never conflicts)
    factor: Fraction  # size in the dimension's base unit


_LENGTH = {
    "mm": Fraction(1, 1000),
    "cm": Fraction(1, 100),
    "dm": Fraction(1, 10),
    "m": Fraction(1),
    "km": Fraction(1000),
}
_MASS = {"mg": Fraction(1, 1000), "g": Fraction(1), "kg": Fraction(1000), "t": Fraction(1000000)}
_TIME = {
    "s": Fraction(1),
    "min": Fraction(60),
    "h": Fraction(3600),
    "day": Fraction(86400),
    "week": Fraction(604800),
}

_UNITS: dict[str, Unit] = {}
for _name, _f in _LENGTH.items():
    _UNITS[_name] = Unit(_name, "length", _f)
    _UNITS[_name + "^2"] = Unit(_name + "^2", "area", _f**2)
    _UNITS[_name + "^3"] = Unit(_name + "^3", "volume", _f**3)
for _name, _f in _MASS.items():
    _UNITS[_name] = Unit(_name, "mass", _f)
for _name, _f in _TIME.items():
    _UNITS[_name] = Unit(_name, "time", _f)
for _name, _f in (
    ("in", Fraction(254, 10000)),
    ("ft", Fraction(3048, 10000)),
    ("yd", Fraction(9144, 10000)),
    ("mi", Fraction(1609344, 1000)),
):
    _UNITS[_name] = Unit(_name, "length", _f)
    _UNITS[_name + "^2"] = Unit(_name + "^2", "area", _f**2)
_UNITS["lb"] = Unit("lb", "mass", Fraction(45359237, 100000))
_UNITS["oz"] = Unit("oz", "mass", Fraction(28349523125, 10**9))
_UNITS["ha"] = Unit("ha", "area", Fraction(10000))
_UNITS["l"] = Unit("l", "volume", Fraction(1, 1000))
_UNITS["ml"] = Unit("ml", "volume", Fraction(1, 1000000))
_UNITS["deg"] = Unit("deg", "angle", Fraction(1))
_UNITS["yuan"] = Unit("yuan", "money", Fraction(1))
_UNITS["km/h"] = Unit("km/h", "speed", Fraction(1000, 3600))
_UNITS["m/s"] = Unit("m/s", "speed", Fraction(1))
_UNITS["m/min"] = Unit("m/min", "speed", Fraction(1, 60))
COUNT = Unit("count", "count", Fraction(1))
_UNITS["count"] = COUNT

_LENGTH_WORDS = {
    "mm": ("millimeter", "millimetre", "毫米"),
    "cm": ("centimeter", "centimetre", "厘米"),
    "dm": ("decimeter", "decimetre", "分米"),
    "m": ("meter", "metre", "米"),
    "km": ("kilometer", "kilometre", "千米", "公里"),
}
_ALIASES: dict[str, str] = {}
for _name, _words in _LENGTH_WORDS.items():
    for _w in _words:
        if _w.isascii():
            _ALIASES[_w] = _name
            _ALIASES[_w + "s"] = _name
            for _pre, _pow in (("square", "^2"), ("sq", "^2"), ("cubic", "^3"), ("cu", "^3")):
                _ALIASES[_pre + _w] = _name + _pow
                _ALIASES[_pre + _w + "s"] = _name + _pow
        else:
            _ALIASES[_w] = _name
            _ALIASES["平方" + _w] = _name + "^2"
            _ALIASES["立方" + _w] = _name + "^3"
    for _pre, _pow in (("sq", "^2"), ("square", "^2"), ("cu", "^3"), ("cubic", "^3")):
        _ALIASES[_pre + _name] = _name + _pow
_ALIASES.update(
    {
        "inch": "in",
        "inches": "in",
        "foot": "ft",
        "feet": "ft",
        "yard": "yd",
        "yards": "yd",
        "mile": "mi",
        "miles": "mi",
        "squarefeet": "ft^2",
        "squarefoot": "ft^2",
        "sqft": "ft^2",
        "squareinches": "in^2",
        "pound": "lb",
        "pounds": "lb",
        "lbs": "lb",
        "ounce": "oz",
        "ounces": "oz",
        "公顷": "ha",
        "hectare": "ha",
        "hectares": "ha",
        "liter": "l",
        "liters": "l",
        "litre": "l",
        "litres": "l",
        "升": "l",
        "milliliter": "ml",
        "milliliters": "ml",
        "millilitre": "ml",
        "millilitres": "ml",
        "毫升": "ml",
        "cc": "ml",
        "gram": "g",
        "grams": "g",
        "克": "g",
        "kilogram": "kg",
        "kilograms": "kg",
        "千克": "kg",
        "公斤": "kg",
        "ton": "t",
        "tons": "t",
        "tonne": "t",
        "tonnes": "t",
        "吨": "t",
        "sec": "s",
        "second": "s",
        "seconds": "s",
        "秒": "s",
        "mins": "min",
        "minute": "min",
        "minutes": "min",
        "分钟": "min",
        "hr": "h",
        "hrs": "h",
        "hour": "h",
        "hours": "h",
        "小时": "h",
        "days": "day",
        "天": "day",
        "weeks": "week",
        "周": "week",
        "星期": "week",
        "^\\circ": "deg",
        "degree": "deg",
        "degrees": "deg",
        "度": "deg",
        "元": "yuan",
        "km/hr": "km/h",
        "kilometersperhour": "km/h",
        "kilometresperhour": "km/h",
        "kmperhour": "km/h",
        "meterspersecond": "m/s",
        "metrespersecond": "m/s",
        "meterperminute": "m/min",
        "metersperminute": "m/min",
        "kmph": "km/h",
        "千米/时": "km/h",
        "千米/小时": "km/h",
        "千米每小时": "km/h",
        "米/秒": "m/s",
        "米每秒": "m/s",
        "米/分": "m/min",
        "米/分钟": "m/min",
        "米每分": "m/min",
    }
)
# Classifiers and counting nouns: they name what is counted, never a scale.
for _w in (
    "个人只条块本张辆次名位棵盒件支头种根组套箱瓶杯份颗朵页道题岁层排行列段片匹艘架台部间对双粒枚"
):  # one character each
    _ALIASES[_w] = "count"
for _w in (
    "people",
    "persons",
    "person",
    "students",
    "student",
    "pieces",
    "piece",
    "times",
    "ways",
    "items",
    "units",
    "unit",
    "points",
    "cases",
    "years old",
    "apples",
    "books",
):
    _ALIASES[_w] = "count"

_SPELLINGS = sorted(set(_ALIASES) | set(_UNITS), key=len, reverse=True)
_UNIT_TAIL = re.compile(
    r"(?:" + "|".join(re.escape(s) for s in _SPELLINGS) + r")$",
    re.IGNORECASE,
)


def _unit_key(raw: str) -> str:
    """``\\text{ dm}^{2}`` / ``dm²`` / ``square decimetres`` -> ``dm^2``-style key."""
    s = raw.replace("{", "").replace("}", "").replace(" ", "").replace("\\mathrm", "")
    s = s.replace("\\text", "").replace("^\\circ", "\x00").replace("\\", "")
    s = s.replace("\x00", "^\\circ")
    return s


# Calendar spans and coins: amounts a relation between units names ("a month as 4 weeks",
# "4 quarters make a dollar"), never read as an answer's unit (a month has no fixed length,
# and "5 dollars" against "$5" is the scorer's matter, not a unit's).
_DENOMINATIONS = {
    "month": Unit("month", "time", Fraction(2629800)),  # a mean month, 30.44 days
    "year": Unit("year", "time", Fraction(31557600)),
    "penny": Unit("cent", "money", Fraction(1, 100)),
    "pennies": Unit("cent", "money", Fraction(1, 100)),
    "cent": Unit("cent", "money", Fraction(1, 100)),
    "nickel": Unit("nickel", "money", Fraction(5, 100)),
    "dime": Unit("dime", "money", Fraction(10, 100)),
    "quarter": Unit("quarter", "money", Fraction(25, 100)),
    "dollar": Unit("dollar", "money", Fraction(1)),
}


def denomination(raw: str) -> Unit | None:
    """A unit, or a calendar span or coin ("months", "quarters", "a dollar")."""
    word = raw.strip().lower()
    return lookup(raw) or _DENOMINATIONS.get(word) or _DENOMINATIONS.get(word.removesuffix("s"))


# A unit's spelling that is also a word of prose: "12 in" is inches, "$1.37 in change" and
# "12 in total" hold a preposition. Written as that word (no period) with a word after it,
# it is the word.
_ALSO_A_WORD = frozenset({"in"})


def preposition_here(written: str, words_after: int) -> bool:
    """Whether the unit ``written`` (as in the text), followed by ``words_after`` more words,
    is a preposition rather than a unit."""
    return words_after > 0 and written.lower() in _ALSO_A_WORD


def lookup(raw: str) -> Unit | None:
    key = _unit_key(raw)
    if not key:
        return None
    lowered = key if key == "^\\circ" else key.lower()
    canonical = _ALIASES.get(key) or _ALIASES.get(lowered) or lowered
    return _UNITS.get(canonical)


def split_unit(text: str, is_value: object) -> tuple[str, Unit | None, str]:
    """Split a trailing unit off ``text``.

    Returns (value text, unit or None, unit as written). ``is_value`` is a
    predicate telling whether the remaining text is a value; a unit is only split
    off when it is, so ``2x + 3m`` keeps its ``m``.
    """
    s = text.strip()
    squeezed = _unit_key(s)
    if not squeezed:
        return s, None, ""
    m = _UNIT_TAIL.search(squeezed)
    if m is None:
        return s, None, ""
    tail = m.group(0)
    unit = lookup(tail)
    if unit is None:
        return s, None, ""
    # Where the unit starts in the original text: the widest suffix that still
    # squeezes to the matched tail (so "\\text{ dm}^2" is cut as a whole).
    target = tail.lower()
    cut = -1
    for i in range(len(s) - 1, -1, -1):
        key = _unit_key(s[i:]).lower()
        if key == target:
            cut = i
        elif len(key) > len(target):
            break
    if cut < 0:
        return s, None, ""
    # A brace closing the value ("\\sqrt{5} cm") belongs to the value.
    while cut < len(s) and s[cut] in " }" and s[:cut].count("{") > s[:cut].count("}"):
        cut += 1
    head = s[:cut].rstrip()
    for opener in ("\\text", "\\mathrm", "\\"):
        if head.endswith(opener):
            head = head[: -len(opener)].rstrip()
    value = head.rstrip()
    if not value or not callable(is_value) or not is_value(value):
        return s, None, ""
    return value, unit, s[len(head) :].strip()


def units_of(dimension: str) -> list[Unit]:
    """Every unit of ``dimension`` this table knows (for a reader converting a stated value)."""
    return [u for u in _UNITS.values() if u.dimension == dimension]
