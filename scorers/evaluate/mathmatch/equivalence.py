"""Is one answer value the same as another? Fast rules first, math-verify last.

A value here is a single thing: a number, an expression, an equation, a range,
maybe with a unit. Lists, alternatives and points are taken apart by
:mod:`scorers.evaluate.mathmatch.scoring` before they get here.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from scorers.evaluate.mathmatch import mvpool, numeric
from scorers.evaluate.mathmatch.normalize import compact
from scorers.evaluate.mathmatch.numeric import (
    Number,
    evaluate,
    same_equation,
    same_function,
    same_number,
)
from scorers.evaluate.mathmatch.ranges import looks_like_range, parse_range, same_ranges
from scorers.evaluate.mathmatch.units import COUNT, Unit, split_unit

_SIMPLE_LHS = re.compile(
    r"^(?:[A-Za-z]{1,3}(?:_\{?[\w]+\}?)?'?|\\angle\s*[A-Za-z]{1,3}|\\?[A-Za-z]+\([A-Za-z0-9]\)|S_\{?[^{}=]+\}?)$"
)
_APPROX = re.compile(r"\\approx|≈")
_WORDS = re.compile(r"^[A-Za-z][A-Za-z\s-]*$")
# A digit, operator or command: the answer is a formula ("p - q + 1"), not words.
_FORMULA_SIGN = re.compile(r"[\d+*/^=<>\\]")


def _words(s: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", s.lower()) if w not in ("a", "an", "the")]


@dataclass
class Budget:
    """One item's time allowance for math-verify calls."""

    limit: float
    start: float = field(default_factory=time.monotonic)
    timed_out: int = 0
    mv_calls: int = 0

    def remaining(self) -> float:
        return self.limit - (time.monotonic() - self.start)


@dataclass(frozen=True, slots=True)
class Verdict:
    equal: bool
    how: str


def _is_value(text: str) -> bool:
    return evaluate(text) is not None


def _split_equation(s: str) -> tuple[str, str] | None:
    if "=" not in s or any(op in s for op in ("\\le", "\\ge", "<", ">", "\\ne")):
        return None
    lhs, _, rhs = s.partition("=")
    return lhs.strip(), rhs.strip()


def _chain(ref: str, pred: str, budget: Budget) -> Verdict:
    """``x = 2\\sqrt{2} \\approx 2.83`` against a value: any exact link, else the last."""
    links = [p.strip() for p in re.split(r"=|\\approx|≈", pred)]
    before_approx = re.split(r"\\approx|≈", pred)[0].split("=")
    exact = [
        p for p in (before_approx[1:] if len(before_approx) > 1 else before_approx) if p.strip()
    ]
    for link in reversed(exact):
        verdict = equivalent(ref, link.strip(), budget)
        if verdict.equal:
            return verdict
    last = links[-1]
    if not last:
        return Verdict(False, "missing")
    return equivalent(ref, last, budget) if last not in exact else Verdict(False, "number differs")


def _last_rhs(s: str) -> str:
    """``a = b = 101`` -> ``101``; ``x \\approx 3.14`` -> ``3.14``."""
    s = _APPROX.split(s)[-1]
    return s.rsplit("=", 1)[-1].strip()


def _base_name(lhs: str) -> str:
    """``x_1`` and ``x_{2}`` name the same unknown as ``x`` (two roots of one equation)."""
    return compact(lhs).split("_", 1)[0].rstrip("'")


# "1:3", "4 : 6", "3 in 10", "3 out of 10", "2 to 5": a ratio is the fraction of its terms.
_RATIO = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*(?::|\s(?:in|out\s+of|to)\s)\s*(\d+(?:\.\d+)?)\s*$", re.I
)


def _ratio_as_fraction(s: str) -> str:
    m = _RATIO.match(s)
    return s if m is None else f"\\frac{{{m.group(1)}}}{{{m.group(2)}}}"


# "7 out of 10" against a whole number: a count (or a mark) of so many, 7.
_COUNT_OUT_OF = re.compile(r"^\s*(\d+)\s+out\s+of\s+\d+\s*$", re.I)
_WHOLE = re.compile(r"[-−]?\d+")


def equivalent(ref: str, pred: str, budget: Budget) -> Verdict:
    count = _COUNT_OUT_OF.match(pred)
    if count is not None and _WHOLE.fullmatch(ref.strip()):
        pred = count.group(1)
    ref, pred = _ratio_as_fraction(ref.strip()), _ratio_as_fraction(pred.strip())
    if not pred:
        return Verdict(False, "missing")
    if compact(ref) == compact(pred):
        return Verdict(True, "same text")
    if _WORDS.match(ref) and not _FORMULA_SIGN.search(pred) and _words(ref) == _words(pred):
        # "no real roots" for "No real roots."; "p - q" is a formula once the answer has signs
        return Verdict(True, "same words")
    if _NO_SOLUTION.search(ref) and _NO_SOLUTION.search(pred):
        return Verdict(True, "no solution")  # "无解" and "There are no real solutions"
    ref_yes, pred_yes = _YES_NO.get(compact(ref).lower()), _YES_NO.get(compact(pred).lower())
    if ref_yes is not None and pred_yes is not None:
        return Verdict(ref_yes == pred_yes, "yes/no" if ref_yes == pred_yes else "yes/no differs")
    ref_eq = _split_equation(ref)
    pred_eq = _split_equation(pred)
    if ref_eq is None and (pred_eq is not None or _APPROX.search(pred)):
        return _chain(ref, pred, budget)
    if ref_eq is not None and _SIMPLE_LHS.match(ref_eq[0]):
        if pred_eq is None:
            return equivalent(ref_eq[1], pred, budget)
        # Different names on the left may still be the same equation (y = 2x vs
        # x = y/2): those are judged below as whole equations.
        if _SIMPLE_LHS.match(pred_eq[0]) and _base_name(ref_eq[0]) == _base_name(pred_eq[0]):
            return equivalent(ref_eq[1], _last_rhs(pred), budget)
    if ref_eq is not None and pred_eq is not None:
        same = same_equation(ref_eq, pred_eq)
        if same is not None:
            return Verdict(same, "equation (sampled)" if same else "equation differs (sampled)")
        return _math_verify(ref, pred, budget)
    return _value(ref, pred, budget)


def _unit_scale(ref_unit: Unit | None, pred_unit: Unit | None) -> tuple[Fraction, Fraction] | None:
    """(ref factor, pred factor), or None when the units cannot both be right."""
    if ref_unit is None or pred_unit is None:
        return Fraction(1), Fraction(1)
    if "count" in (ref_unit.dimension, pred_unit.dimension):
        return Fraction(1), Fraction(1)
    if ref_unit.dimension != pred_unit.dimension:
        return None
    return ref_unit.factor, pred_unit.factor


def _value(ref: str, pred: str, budget: Budget) -> Verdict:
    ref_v, ref_unit, _ = split_unit(ref, _is_value)
    pred_v, pred_unit, _ = split_unit(pred, _is_value)
    if pred_unit is None:
        counted = _COUNTED.match(pred_v)
        if counted and _is_value(counted.group(1)):
            # "8 triangles in total": a number naming what it counts.
            pred_v, pred_unit = counted.group(1), COUNT
    if (ref_unit is None) != (pred_unit is None):
        # 60° against \\frac{\\pi}{3}: a degree measure and a radian measure.
        unit = ref_unit or pred_unit
        bare = ref_v if ref_unit is None else pred_v
        if unit is not None and unit.name == "deg" and "\\pi" in bare:
            deg = pred_v if ref_unit is None else ref_v
            rad_value, deg_value = evaluate(bare), evaluate(deg)
            if rad_value is not None and deg_value is not None:
                same = same_number(float(rad_value), float(deg_value) * math.pi / 180)
                return Verdict(same, "angle, degrees = radians" if same else "angle differs")
    scale = _unit_scale(ref_unit, pred_unit)
    if scale is None:
        assert ref_unit is not None and pred_unit is not None
        return Verdict(False, f"wrong unit ({pred_unit.name} for {ref_unit.name})")
    ref_num = evaluate(ref_v)
    pred_num = evaluate(pred_v)
    if ref_num is not None and pred_num is not None:
        return _numbers(ref_v, ref_num, pred_v, pred_num, scale)
    if looks_like_range(ref) or looks_like_range(pred):
        verdict = _ranges(ref, pred, budget)
        if verdict is not None:
            return verdict
    if scale[0] == scale[1]:
        sampled = same_function(ref_v, pred_v)
        if sampled is not None:
            return Verdict(sampled, "algebra (sampled)" if sampled else "algebra differs (sampled)")
    if scale[0] != scale[1]:
        ref_v = f"({ref_v})\\cdot {float(scale[0])!r}"
        pred_v = f"({pred_v})\\cdot {float(scale[1])!r}"
    return _math_verify(ref_v, pred_v, budget)


def _numbers(
    ref_v: str, ref_num: Number, pred_v: str, pred_num: Number, scale: tuple[Fraction, Fraction]
) -> Verdict:
    r = ref_num * scale[0] if isinstance(ref_num, Fraction) else ref_num * float(scale[0])
    p = pred_num * scale[1] if isinstance(pred_num, Fraction) else pred_num * float(scale[1])
    if same_number(r, p):
        return Verdict(True, "number" if scale[0] == scale[1] else "number, unit converted")
    # A percentage on one side only: 50% = 0.5 and, leniently, a sign missing or
    # added to a percentage: 50% = 50. Not for a reference below 1 (a fraction or
    # a probability): "0.25%" is not 1/4.
    if ref_v.rstrip().endswith("%") != pred_v.rstrip().endswith("%"):
        r_bare = evaluate(ref_v.rstrip().rstrip("%"))
        p_bare = evaluate(pred_v.rstrip().rstrip("%"))
        if (
            r_bare is not None
            and p_bare is not None
            and same_number(r_bare, p_bare)
            and (ref_v.rstrip().endswith("%") or abs(float(r_bare)) >= 1)
        ):
            return Verdict(True, "number, percent sign")
    if scale[0] != scale[1] and same_number(ref_num, pred_num):
        return Verdict(False, "wrong unit")
    if scale[0] == scale[1] and _rounded_alike(ref_v, pred_v):
        return Verdict(True, "number, rounded")
    exact = None if isinstance(pred_num, Fraction) else format(Decimal(repr(pred_num)), "f")
    if scale[0] == scale[1] and exact is not None and _rounded_alike(ref_v, exact):
        # "64 + 16√65" against 192.9961: the exact value (its digits, in the reference's unit),
        # of which the reference is a rounding
        return Verdict(True, "exact value, the reference rounded")
    return Verdict(False, "number differs")


_DECIMAL = re.compile(r"[-+]?\d*\.(\d+)")


def _rounded_alike(ref_v: str, pred_v: str) -> bool:
    """Two decimals, one the other rounded to its places: 2.09 for 2.0944, 3.6667 against
    a reference of 3.67 (each a decimal written to some precision, neither an exact
    value). The shorter keeps three significant digits: 0.49 is no 0.5."""
    ref_m, pred_m = _DECIMAL.fullmatch(ref_v.strip()), _DECIMAL.fullmatch(pred_v.strip())
    if ref_m is None or pred_m is None or len(ref_m.group(1)) == len(pred_m.group(1)):
        return False
    short, long = sorted((ref_m, pred_m), key=lambda m: len(m.group(1)))
    if len(short.group(0).lstrip("-+0.").replace(".", "")) < 3:
        return False
    step = Decimal(1).scaleb(-len(short.group(1)))
    return Decimal(long.group(0)).quantize(step, rounding=ROUND_HALF_UP) == Decimal(short.group(0))


def _ranges(ref: str, pred: str, budget: Budget) -> Verdict | None:
    ref_r = parse_range(ref, allow_open_pair=True)
    pred_r = parse_range(pred, allow_open_pair=True)
    if (ref_r is None) != (pred_r is None) and evaluate(ref if ref_r is None else pred) is not None:
        return Verdict(False, "a bound, not a value")  # "at least 12" against 12, or back
    if ref_r is None or pred_r is None:
        return None
    same = same_ranges(ref_r, pred_r, lambda a, b: equivalent(a, b, budget).equal)
    return Verdict(same, "range" if same else "range differs")


# "no solution", "There are no real roots", "none", "∅", "无解": the answer that nothing fits.
_NO_SOLUTION = re.compile(
    r"\bno\s+(?:real\s+|such\s+|integer\s+|valid\s+|possible\s+)?(?:solutions?|roots?|values?)\b|"
    r"^\s*(?:none|∅|\\(?:emptyset|varnothing)|\\\{\s*\\\}|无解|无实数?根|不存在(?:实数?根|解))\s*\.?\s*$",
    re.I,
)


# Verdict words of "does it exist / is it true" blanks, Chinese and English.
_YES_NO: dict[str, bool] = {
    **dict.fromkeys(
        (
            "yes",
            "true",
            "exists",
            "itexists",
            "correct",
            "存在",
            "是",
            "能",
            "对",
            "正确",
            "成立",
            "可以",
            "会",
        ),
        True,
    ),
    **dict.fromkeys(
        (
            "no",
            "false",
            "doesnotexist",
            "notexist",
            "incorrect",
            "不存在",
            "否",
            "不是",
            "不能",
            "不对",
            "错误",
            "不成立",
            "不可以",
            "不会",
        ),
        False,
    ),
}
# "8 triangles", "12 قدمًا", "19 м": a value, then words of any alphabet (with their marks).
# (Korean glues a counter, a particle or the copula to the number: "12개입니다")
_COUNTED = re.compile(
    r"^(.+?)(?:\s+|(?<=[\d%])(?=[\uac00-\ud7af]))[^\W\d_](?:[^\W\d_]|[ .\u0300-\u036f\u0610-\u061a\u064b-\u065f\u0670])*$"
)
_NON_MATH = re.compile(r"[^\x00-\x7f]")


def _math_verify(ref: str, pred: str, budget: Budget) -> Verdict:
    if _NON_MATH.search(ref) or _NON_MATH.search(pred):
        # math-verify would read just the leading number of "5元" or "③": a
        # false match waiting to happen. Unknown words are compared as text.
        return Verdict(False, "text differs")
    if len(pred) > numeric.MAX_EXPRESSION_CHARS:
        # Parsing it would only run math-verify into its timeout.
        return Verdict(False, "too long to be one value")
    budget.mv_calls += 1
    result = mvpool.pool().equal(ref, pred, budget.remaining())
    if result is None:
        budget.timed_out += 1
        return Verdict(False, "math-verify timed out")
    return Verdict(result, "math-verify")
