"""A small exact evaluator for numeric LaTeX (the fast path before math-verify).

It understands numbers (with thousands separators), + - × ÷ / ^, \\frac, \\sqrt,
\\pi, parentheses, implicit multiplication and a trailing %. Anything with a
variable or an unknown command is not numeric and returns ``None``; the caller
then asks math-verify.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache

Number = Fraction | float

_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:(?:,|\{,\}|\\,| )\d{3})+)(?![\d])")
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+\.?\d*|\.\d+)|(?P<cmd>\\[a-zA-Z]+)|(?P<var>[a-zA-Z])|(?P<op>[-+*/^(){}\[\]%]))"
)
_FRAC_DIGITS = re.compile(r"\\frac\s*(\d)\s*(\d)")
_MULT_CMDS = {r"\times", r"\cdot"}
_FUNCTIONS = {
    r"\sin": math.sin,
    r"\cos": math.cos,
    r"\tan": math.tan,
    r"\cot": lambda v: 1 / math.tan(v),
    r"\sec": lambda v: 1 / math.cos(v),
    r"\csc": lambda v: 1 / math.sin(v),
    r"\arcsin": math.asin,
    r"\arccos": math.acos,
    r"\arctan": math.atan,
    r"\ln": math.log,
    r"\exp": math.exp,
}
_STARTS_FACTOR = {"(", "{", r"\frac", r"\sqrt", r"\pi", "e", *_FUNCTIONS}
_MAX_POWER = 1000
# Nested groups, signs and functions the parser follows before it gives up. Each level
# costs a few Python frames; without a bound, "(((...1" in a long answer recursed past
# the interpreter's limit. No real answer nests anywhere near this deep.
_MAX_DEPTH = 120
# Longest text read as one expression (here and by math-verify). A 200 KB run of numbers is a product by implicit
# multiplication, and exact fractions over it grow without bound (seconds of gcd work per
# answer); no real answer's value is written in anywhere near this many characters.
MAX_EXPRESSION_CHARS = 2000


class _NotNumeric(Exception):
    pass


def strip_thousands(s: str) -> str:
    """1,887,800 / 1{,}887{,}800 / 1 887 800 / 1.887.800 -> 1887800 (only groups of
    exactly three; dots only when there are two or more, as 1.250 is a decimal)."""
    s = _DOTTED_THOUSANDS.sub(lambda m: m.group(0).replace(".", ""), s)
    return _THOUSANDS.sub(lambda m: m.group(1) + re.sub(r"\D", "", m.group(2)), s)


_DOTTED_THOUSANDS = re.compile(r"(?<![\d.])\d{1,3}(?:\.\d{3}){2,}(?![\d.])")


def _tokens(s: str) -> list[str]:
    out: list[str] = []
    pos = 0
    s = s.strip()
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None or m.end() == pos:
            raise _NotNumeric
        out.append(m.group(m.lastgroup or "op"))
        pos = m.end()
        while pos < len(s) and s[pos].isspace():
            pos += 1
    return out


class _Parser:
    def __init__(self, tokens: list[str], env: dict[str, Fraction] | None = None) -> None:
        self.t = tokens
        self.i = 0
        self.env = env or {}
        self.depth = 0

    def peek(self) -> str | None:
        return self.t[self.i] if self.i < len(self.t) else None

    def take(self, expected: str | None = None) -> str:
        tok = self.peek()
        if tok is None or (expected is not None and tok != expected):
            raise _NotNumeric
        self.i += 1
        return tok

    def expr(self) -> Number:
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            rhs = self.term()
            value = value + rhs if op == "+" else value - rhs
        return value

    def term(self) -> Number:
        value = self.unary()
        while True:
            tok = self.peek()
            if tok in ("*", "/", r"\div") or tok in _MULT_CMDS:
                self.take()
                rhs = self.unary()
                if tok in ("/", r"\div"):
                    if rhs == 0:
                        raise _NotNumeric
                    value = value / rhs
                else:
                    value = value * rhs
            elif tok is not None and (
                tok[0].isdigit() or tok[0] == "." or tok in _STARTS_FACTOR or tok in self.env
            ):
                value = value * self.power()
            else:
                return value

    def _deeper(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise _NotNumeric

    def unary(self) -> Number:
        self._deeper()
        try:
            tok = self.peek()
            if tok == "-":
                self.take()
                return -self.unary()
            if tok == "+":
                self.take()
                return self.unary()
            return self.power()
        finally:
            self.depth -= 1

    def power(self) -> Number:
        base = self.postfix(self.atom())
        if self.peek() == "^":
            self.take()
            exponent = self.unary() if self.peek() in ("-", "+") else self.postfix(self.atom())
            return _pow(base, exponent)
        return base

    def postfix(self, value: Number) -> Number:
        if self.peek() == "%":
            self.take()
            return value / 100
        return value

    def function(self, fn: Callable[[float], float]) -> Number:
        """``\\sin x``, ``\\sin(2x)``, ``\\sin^2 x`` (= (sin x)^2), ``\\sin 2x`` (= sin(2x))."""
        power: Number | None = None
        if self.peek() == "^":
            self.take()
            power = self.postfix(self.atom())
        if self.peek() in ("(", "{"):
            arg = self.atom()
        else:
            arg = self.power()
            while (tok := self.peek()) is not None and (tok[0].isdigit() or tok in self.env):
                arg = arg * self.power()
        try:
            value = fn(float(arg))
        except (ValueError, ZeroDivisionError, OverflowError) as exc:
            raise _NotNumeric from exc
        return _pow(value, power) if power is not None else value

    def group(self) -> Number:
        self.take("{")
        value = self.expr()
        self.take("}")
        return value

    def atom(self) -> Number:
        self._deeper()
        try:
            return self._atom()
        finally:
            self.depth -= 1

    def _atom(self) -> Number:
        tok = self.take()
        if tok[0].isdigit() or tok[0] == ".":
            return Fraction(tok)
        if tok == r"\pi":
            return math.pi
        if tok == "e":
            return math.e
        if tok in self.env:
            return self.env[tok]
        if tok in _FUNCTIONS:
            return self.function(_FUNCTIONS[tok])
        if tok == "(":
            value = self.expr()
            self.take(")")
            return value
        if tok == "{":
            value = self.expr()
            self.take("}")
            return value
        if tok == r"\frac":
            num = self.group() if self.peek() == "{" else self.atom()
            den = self.group() if self.peek() == "{" else self.atom()
            if den == 0:
                raise _NotNumeric
            return num / den
        if tok == r"\sqrt":
            index: Number = 2
            if self.peek() == "[":
                self.take("[")
                index = self.expr()
                self.take("]")
            body = self.group() if self.peek() == "{" else self.atom()
            return _root(body, index)
        raise _NotNumeric


def _pow(base: Number, exponent: Number) -> Number:
    if isinstance(exponent, Fraction) and exponent.denominator == 1 and isinstance(base, Fraction):
        if abs(exponent) > _MAX_POWER or (base == 0 and exponent < 0):
            raise _NotNumeric
        return base**exponent.numerator
    try:
        result = float(base) ** float(exponent)
    except (OverflowError, ZeroDivisionError) as exc:
        raise _NotNumeric from exc
    if isinstance(result, complex) or math.isinf(result) or math.isnan(result):
        raise _NotNumeric
    return result


def _root(body: Number, index: Number) -> Number:
    if body < 0 or index == 0:
        raise _NotNumeric
    if isinstance(body, Fraction) and isinstance(index, Fraction) and index.denominator == 1:
        n = index.numerator
        num = round(body.numerator ** (1 / n))
        den = round(body.denominator ** (1 / n))
        if num**n == body.numerator and den**n == body.denominator:
            return Fraction(num, den)
    return float(body) ** (1 / float(index))


_PLAIN = re.compile(r"^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$")  # 1e-05 from a float


def evaluate(text: str, env: dict[str, Fraction] | None = None) -> Number | None:
    """The value of a numeric expression, or ``None`` when it is not purely numeric.

    With ``env``, single-letter variables take the given values.
    """
    if env is None:
        return _evaluate_constant(text)
    return _evaluate(text, env)


@lru_cache(maxsize=65536)
def _evaluate_constant(text: str) -> Number | None:
    s = text.strip()
    if _PLAIN.match(s):
        return Fraction(s)
    return _evaluate(s, None)


def _evaluate(text: str, env: dict[str, Fraction] | None) -> Number | None:
    if len(text) > MAX_EXPRESSION_CHARS:
        return None
    s = strip_thousands(text.strip())
    s = _FRAC_DIGITS.sub(r"\\frac{\1}{\2}", s)
    if not s:
        return None
    try:
        parser = _Parser(_tokens(s), env)
        value = parser.expr()
        if parser.peek() is not None:
            return None
    except (_NotNumeric, ValueError, ZeroDivisionError, OverflowError):
        return None
    return value


_FLOAT_NOISE_DENOMINATOR = 10**12


def same_number(a: Number, b: Number) -> bool:
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        if a == b:
            return True
        noisy = [n.denominator >= _FLOAT_NOISE_DENOMINATOR for n in (a, b)]
        if all(noisy):
            # Two decimals of twelve places or more that differ in the last are one
            # value printed through binary floats ("10.333333333333334", "...332").
            return math.isclose(a, b, rel_tol=1e-12)
        if any(noisy):
            # A long decimal against an exact value is that value printed through a
            # binary float ("0.8333333333333334" for 5/6) only when it is the float
            # nearest the value or a unit or two in the last place off; a shorter
            # rounding ("0.333333333333333" for 1/3) is an approximation.
            try:
                fa, fb = float(a), float(b)
            except OverflowError:  # beyond any float: no float noise to forgive
                return False
            return abs(fa - fb) <= 2 * math.ulp(max(abs(fa), abs(fb)))
        return False
    fa, fb = float(a), float(b)
    return math.isclose(fa, fb, rel_tol=1e-9, abs_tol=1e-12)


_VARIABLE_LETTER = re.compile(r"(?<![\\a-zA-Z])[a-zA-Z]+")
# Points at which two expressions are compared; exact rationals, unlikely roots.
# Positive, so roots and logarithms are defined.
_SAMPLES = (
    (Fraction(13, 7), Fraction(29, 11), Fraction(5, 3), Fraction(41, 13)),
    (Fraction(17, 9), Fraction(7, 5), Fraction(23, 6), Fraction(3, 11)),
    (Fraction(31, 4), Fraction(11, 13), Fraction(19, 17), Fraction(8, 3)),
)


def variables(text: str) -> set[str] | None:
    """Single-letter variables of an expression (``e`` is Euler's number); None with ``i``."""
    letters: set[str] = set()
    for word in _VARIABLE_LETTER.findall(re.sub(r"\\[a-zA-Z]+", " ", text)):
        letters.update(word)
    if "i" in letters:
        return None
    letters.discard("e")  # Euler's number
    return letters


def same_function(a: str, b: str) -> bool | None:
    """Compare two expressions in a few variables at fixed sample points.

    True when they agree at every point, False when they differ at one, None
    when either cannot be evaluated (functions, relations, e, i, ...).
    """
    va, vb = variables(a), variables(b)
    if va is None or vb is None:
        return None
    names = sorted(va | vb)
    if not names or len(names) > len(_SAMPLES[0]):
        return None
    for sample in _SAMPLES:
        env = dict(zip(names, sample, strict=False))  # samples have spare values
        x, y = evaluate(a, env), evaluate(b, env)
        if x is None or y is None:
            return None
        if not same_number(x, y):
            return False
    return True


def same_equation(a: tuple[str, str], b: tuple[str, str]) -> bool | None:
    """Are ``lhs_a = rhs_a`` and ``lhs_b = rhs_b`` the same equation up to a factor?

    Sampled like :func:`same_function`: (lhs - rhs) of one must be a constant
    non-zero multiple of the other's at every sample point.
    """
    fa = f"({a[0]})-({a[1]})"
    fb = f"({b[0]})-({b[1]})"
    va, vb = variables(fa), variables(fb)
    if va is None or vb is None or va != vb or not va or len(va) > len(_SAMPLES[0]):
        return None
    names = sorted(va)
    ratio: Number | None = None
    for sample in _SAMPLES:
        env = dict(zip(names, sample, strict=False))  # samples have spare values
        x, y = evaluate(fa, env), evaluate(fb, env)
        if x is None or y is None:
            return None
        if same_number(y, 0) or same_number(x, 0):
            if not (same_number(x, 0) and same_number(y, 0)):
                return False
            continue
        r = x / y
        if ratio is None:
            ratio = r
        elif not same_number(ratio, r):
            return False
    return True if ratio is not None else None
