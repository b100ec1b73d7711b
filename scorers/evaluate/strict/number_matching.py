"""``number_matching``: the stated number against the key, within the reference's
tolerance, read in the conventions, scale and unit the answer and question use."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from scorers.errors import json_shown
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict.asked import SCALES
from scorers.evaluate.strict.asked_number import DIGIT, PAREN, answered_first, in_asked_unit
from scorers.evaluate.strict.commit import CONCLUDING, drop_excluded
from scorers.evaluate.strict.final import Located, without_supposed
from scorers.evaluate.strict.kwargs import check_kwargs, fail
from scorers.evaluate.strict.numbers import Number, canonical, find_numbers, pick_number
from scorers.evaluate.strict.reading import Reading, number_doubt, resolve_number
from scorers.evaluate.strict.scores import RIGHT, WRONG
from scorers.evaluate.strict.stated_units import key_in_other_unit, other_unit

_CONTEXT = 600  # the end of a long answer is enough to tell its language


def _target(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise fail(name, f"value_to_match must be a number, got {json_shown(value)}")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise fail(name, f"value_to_match must be finite, got {value!r}")
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip().replace(",", ""))
        except ValueError:
            number = math.nan
        if math.isfinite(number):
            return number
    raise fail(name, f"value_to_match must be a number, got {json_shown(value)}")


def _tolerance(target: Any, value: float) -> float:
    # The reference's semantics by JSON type, kept: a float target was written
    # as an estimate (10 % relative band), an int as a count (1e-3 absolute).
    # The fix is at the edges: a float 0.0 is matched exactly, bands are
    # inclusive, and a 1e-9 relative slack absorbs binary rounding so that
    # decimals decide (3.001 vs 3 passes, 3.0011 does not).
    band = 0.1 * abs(value) if isinstance(target, float) else 0.001
    return band + 1e-9 * max(1.0, abs(value))


def _read_number(reading: Reading) -> tuple[Number | None, str, Located, list[Number]]:
    """The stated number, from a correction after the final answer if it has one,
    and, for an answer without a marker, the other numbers its sentence states
    beside it (rivals when they grade differently)."""
    for loc in (reading.fixed, reading.loc):
        if loc is None:
            continue
        segment = drop_excluded(loc.segment)
        # (an answer that states its number first, then tells about it: that sentence)
        first = answered_first(segment, reading) if loc.how == "whole" else None
        number, text = first or pick_number(segment, last=loc.how == "whole")
        if number is not None:
            rivals: list[Number] = []
            if loc.how == "whole":
                number, rivals = in_asked_unit(number, text, reading)
            elif (again := _RESTATED.search(text, number.end, number.end + _RESTATED_REACH)) and (
                found := find_numbers(text[again.end() :])
            ):
                rivals = found[:1]  # "Answer: 149.6 million km, so about 150."
            return number, text, loc, rivals
    return None, "", reading.loc, []


# A stated number restated right after it: "42.195 km, i.e. 42.2", "149.6 million, so about 150".
_RESTATED = re.compile(
    r"[,;]?[ \t]+(?:i\.[ \t]?e\.|that is|or|(?:so|thus|hence)[ \t,]+(?:about|around|roughly"
    r"|approximately|nearly|≈|~))[ \t,]+(?=\D{0,16}\d)"
)
_RESTATED_REACH = 40


# (a period after a one-letter word abbreviates: "i.e.", "e.g.")
_SENTENCE_END = re.compile(r"(?<!\b[^\W\d_])[.;!?](?:\s|$)|\n")


def _later_number(reading: Reading) -> Number | None:
    """A number the text after a marker's answer concludes with, in a sentence
    that settles on it ("Final Answer: 14 ... so the real total is 12"): read
    that way, the answer was revised without a cue to say so."""
    loc = reading.loc
    if loc.how != "marker" or reading.fixed is not None:
        return None
    at = loc.tail.find(loc.segment)
    # (what it supposes after, "If you expect dropout, enrol 70", settles nothing)
    after = without_supposed(loc.tail[at + len(loc.segment) :]) if at >= 0 else ""
    if DIGIT.search(after) is None or CONCLUDING.search(after) is None:
        return None
    number, text = pick_number(drop_excluded(after), last=True)
    if number is None or PAREN.search(text[number.end : number.end + 1] + "x"):
        return None
    start = 0
    for end in _SENTENCE_END.finditer(text, 0, number.start):
        start = end.end()
    if CONCLUDING.search(text, start, number.start) is None:
        return None
    return number


def number_matching(kwargs: Mapping[str, Any], reading: Reading) -> Outcome:
    name = "number_matching"
    check_kwargs(name, kwargs)
    raw_target = kwargs["value_to_match"]
    target = _target(name, raw_target)
    number, text, _, rivals = _read_number(reading)
    if number is None:
        return Outcome(WRONG, "", note="no number found")
    if number.other is None:
        # Only a lone group's two readings need the question or the answer's
        # language; not reading them lets the memo key this outcome by the answer.
        number, doubt = resolve_number(number, text, "")
    else:
        number, doubt = resolve_number(
            number, text, reading.question, (reading.final[-_CONTEXT:], reading.question)
        )
    extracted = canonical(number.value, number.percent)
    if number_doubt(number, text):
        return Outcome(WRONG, extracted, note="two values offered")
    kind = raw_target
    if isinstance(raw_target, str):  # "2.5" is written as an estimate, "3" as a count
        kind = target if any(c in raw_target for c in ".eE") else 0
    tolerance = _tolerance(kind, target)

    percent = number.percent
    # "How many people (in millions)?": "14 Mio." or "14,000,000" is 14 of them.
    scale = 1.0
    if any(
        abs(value - target) > tolerance
        and any(abs(value / s - target) <= tolerance for s in SCALES.values())
        for value in (number.value, number.other)
        if value is not None
    ):
        scale = reading.scale_asked  # (read only when a scale would match)

    def right(value: float) -> bool:
        return (
            abs(value - target) <= tolerance
            or (percent and abs(value / 100 - target) <= tolerance)
            or (scale > 1 and abs(value / scale - target) <= tolerance)
        )

    uncertain = None
    rival = next((n for n in rivals if right(n.value) != right(number.value)), None)
    if rival is not None:
        # Read another way, the sentence states another number: only a reader can tell.
        uncertain = f"its sentence also states {canonical(rival.value, rival.percent)}"
    elif (later := _later_number(reading)) is not None and right(later.value) != right(
        number.value
    ):
        uncertain = f"the text after it settles on {canonical(later.value, later.percent)}"
    if number.other is not None and right(number.value) != right(number.other):
        if doubt is not None:
            uncertain = doubt
        elif right(number.other):
            # Only the reading of the other convention matches and nothing
            # settles which the answer uses: read it, unsure.
            written = text[number.start : number.end].strip()
            uncertain = f"'{written}' matches only as {number.other:g}, in the other convention"
            number = number._replace(value=number.other)
            extracted = canonical(number.value, number.percent)
    if abs(number.value - target) <= tolerance:
        if uncertain is None and (units := other_unit(number, text, reading)):
            uncertain = f"the number is right, but stated in {units[0]}, asked in {units[1]}"
        if (
            uncertain is None
            and _BOUND.search(text[max(0, number.start - _BOUND_REACH) : number.start])
            and not reading.asks_bound
        ):
            uncertain = "states a bound, not the value"  # "at least 12" for "How many ...?"
        if uncertain is None and isinstance(kind, float):
            uncertain = _less_precise(number, text, raw_target, reading)
        return Outcome(RIGHT, extracted, uncertain=uncertain)
    if uncertain is None and (figures := _rounds_to(number, text, target)):
        # "≈ 3.84·10⁵ km" for 384,400: exact, it is another number; read to the
        # precision it states, it is the value.
        uncertain = f"an approximation to {figures} significant figures that the value rounds to"
    if uncertain is None and not isinstance(kind, float):
        uncertain = _rounded_key(number.value, target, reading)
    if scale > 1 and abs(number.value / scale - target) <= tolerance:
        return Outcome(RIGHT, extracted, note="read in the question's unit", uncertain=uncertain)
    if number.percent and abs(number.value / 100 - target) <= tolerance:
        return Outcome(RIGHT, extracted, note="percent read as a fraction", uncertain=uncertain)
    if uncertain is None and (units := other_unit(number, text, reading)):
        stated, asked, factor = units
        if right(number.value * factor):
            # "12,000 m" for "How long is the trail, in km?": the same quantity in
            # another unit; a reader may hold the answer to the unit asked.
            return Outcome(RIGHT, extracted, uncertain=f"stated in {stated}, asked in {asked}")
    if uncertain is None and (converted := key_in_other_unit(number, text, reading, target)):
        # "about 1670 kilometers per hour" for 460 (m/s): a question that names no
        # unit leaves the key's unit unknown; only a reader knows it is m/s.
        return Outcome(RIGHT, extracted, note=converted)
    return Outcome(WRONG, extracted, uncertain=uncertain)


# "at least 12", "no more than 12": a bound right before the number; right
# when the question asks for one ("What is the least number ...?").
_BOUND = re.compile(
    r"\b(?:at[ \t]+(?:least|most)|no[ \t]+(?:more|less|fewer)[ \t]+than|(?:more|less|fewer|greater)"
    r"[ \t]+than|over|under|up[ \t]+to)[ \t]*$",
    re.IGNORECASE,
)
_BOUND_REACH = 24


# An answer that says it approximates: "≈ 3.84·10⁵", "about 384,000", "roughly 3.8 million".
_APPROXIMATE = re.compile(
    r"(?:≈|~|\\approx|\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|circa|ca\.))"
    r"[ \t]*$",
    re.IGNORECASE,
)
_MANTISSA = re.compile(r"[\d.,' \u00a0\u202f]+")
_FIGURES_MIN = 3  # fewer figures than this say too little to be read this way ("about 20")


def _rounds_to(number: Number, text: str, target: float) -> int:
    """The significant figures of an approximate number the target rounds to, else 0."""
    if not number.value or not _APPROXIMATE.search(text, max(0, number.start - 16), number.start):
        return 0
    mantissa = _MANTISSA.match(text, number.start)
    digits = re.sub(r"\D", "", mantissa.group()).lstrip("0").rstrip("0") if mantissa else ""
    figures = len(digits)
    if figures < _FIGURES_MIN:
        return 0
    unit = 10 ** (math.floor(math.log10(abs(number.value))) - figures + 1)
    return figures if abs(target - number.value) <= unit / 2 * (1 + 1e-9) else 0


_NEAR_KEY = 0.02  # a count this close to the key may be the same figure, rounded


def _rounded_key(value: float, target: float, reading: Reading) -> str | None:
    """Why a number near a whole key may be right: the key is a rounder figure
    than the answer ("1,012,327 acres" for 1,000,000: the key rounds it), or the
    question asks for an estimate ("approximate circumference": 25,000 for 24,900)."""
    if not target or target != int(target) or abs(value - target) > _NEAR_KEY * abs(target):
        return None
    zeros = len(str(int(abs(target)))) - len(str(int(abs(target))).rstrip("0"))
    if zeros and round(value, -zeros) == target:
        key = canonical(target, False)
        return f"{canonical(value, False)} rounds to the key {key}, which may itself be rounded"
    if reading.asks_approximate:
        key = canonical(target, False)
        return f"{canonical(value, False)} is near the key {key}, and the question asks an estimate"
    return None


def _decimals(written: str) -> int:
    """Decimal places of a number as written ("3.14": 2, "37": 0, "2,75": 2)."""
    digits = re.search(r"[.,](\d+)\s*$", written.strip().rstrip("%"))
    return len(digits.group(1)) if digits else 0


def _less_precise(number: Number, text: str, raw_target: Any, reading: Reading) -> str | None:
    """Why a number inside an estimate key's band may be wrong: it has fewer
    decimals than the question asks ("3.14" for "to three decimal places"), or
    it is the key cut off, not rounded ("37" for 37.5, which rounds to 38)."""
    from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

    written = text[number.start : number.end]
    if not written[:1].isdigit():
        return None  # (in words, "twenty-six point two": its places are not digits)
    places = _decimals(written)
    asked = reading.decimals_asked
    if asked is not None and places < asked:
        return f"states {places} decimal places, the question asks {asked}"
    key = Decimal(str(raw_target))
    if -key.as_tuple().exponent <= places or number.value < 0 or number.percent:  # type: ignore[operator]
        return None
    step = Decimal(1).scaleb(-places)
    value = Decimal(str(number.value))
    cut, rounded = key.quantize(step, ROUND_DOWN), key.quantize(step, ROUND_HALF_UP)
    if value == cut and cut != rounded:
        return f"{written.strip()} is the key {raw_target} cut off, which rounds to {rounded}"
    return None
