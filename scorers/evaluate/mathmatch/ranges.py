"""Ranges: ``x \\in [0, 1]`` = ``0 \\le x \\le 1`` = ``[0,1]``; unions with ``\\cup`` or "or".

math-verify only matches a gold inequality against a predicted interval, not the
other way round; here both sides become the same list of intervals first.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from scorers.evaluate.mathmatch.normalize import top_level_split

INF = "\\infty"
NEG_INF = "-\\infty"


@dataclass(frozen=True, slots=True)
class Interval:
    lo: str
    lo_closed: bool
    hi: str
    hi_closed: bool


_IN_PREFIX = re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?\s*\\in\s*")
_SET_BUILDER = re.compile(r"^\\?\{\s*[A-Za-z]\s*(?:\\mid|\||:)\s*(.*?)\s*\\?\}$")
_RELATION = re.compile(r"(\\le|\\ge|<|>)")
_VARIABLE = re.compile(r"^[A-Za-z](?:_\{?\w+\}?)?$")
_RANGE_HINT = re.compile(r"\\in|\\le|\\ge|<|>|\\infty|\\cup|^\[|\]$")


def looks_like_range(s: str) -> bool:
    return bool(_RANGE_HINT.search(s))


def _norm_inf(s: str) -> str:
    t = s.replace(" ", "")
    if t in ("\\infty", "+\\infty", "inf", "+inf", "infinity"):
        return INF
    if t in ("-\\infty", "-inf", "-infinity"):
        return NEG_INF
    return s.strip()


def _bracket(piece: str) -> Interval | None:
    p = piece.strip()
    if len(p) < 5 or p[0] not in "([" or p[-1] not in ")]":
        return None
    inner = top_level_split(p[1:-1], (",",))
    if len(inner) != 2:
        return None
    return Interval(_norm_inf(inner[0]), p[0] == "[", _norm_inf(inner[1]), p[-1] == "]")


def _inequality(piece: str) -> Interval | None:
    tokens = [t.strip() for t in _RELATION.split(piece)]
    if len(tokens) == 3:
        left, rel, right = tokens
        if _VARIABLE.match(left) or not left:  # "\\ge 12": "at least 12", the unknown unnamed
            var_left = True
            bound = right
        elif _VARIABLE.match(right):
            var_left = False
            bound = left
        else:
            return None
        closed = rel in ("\\le", "\\ge")
        # Normalise to "x < bound" or "x > bound".
        upper = (rel in ("<", "\\le")) == var_left
        if upper:
            return Interval(NEG_INF, False, _norm_inf(bound), closed)
        return Interval(_norm_inf(bound), closed, INF, False)
    if len(tokens) == 5 and _VARIABLE.match(tokens[2]):
        a, r1, _, r2, b = tokens
        ascending = r1 in ("<", "\\le") and r2 in ("<", "\\le")
        descending = r1 in (">", "\\ge") and r2 in (">", "\\ge")
        if ascending:
            return Interval(_norm_inf(a), r1 == "\\le", _norm_inf(b), r2 == "\\le")
        if descending:
            return Interval(_norm_inf(b), r2 == "\\ge", _norm_inf(a), r1 == "\\ge")
    return None


def parse_range(text: str, *, allow_open_pair: bool) -> list[Interval] | None:
    """Intervals described by ``text``, or None when it is not a range.

    ``(a, b)`` alone is a point as often as an interval; it is read as an
    interval only with ``allow_open_pair`` (the other side is clearly a range).
    """
    s = text.strip()
    m = _SET_BUILDER.match(s)
    if m:
        s = m.group(1)
    s = _IN_PREFIX.sub("", s)
    pieces = top_level_split(s, ("\\cup", " or ", " u "))
    out: list[Interval] = []
    for piece in pieces:
        interval = _inequality(piece) if _RELATION.search(piece) else _bracket(piece)
        if interval is None:
            return None
        out.append(interval)
    if not out:
        return None
    if len(out) == 1 and not allow_open_pair and not looks_like_range(text):
        return None
    return out


def same_ranges(a: list[Interval], b: list[Interval], equal: Callable[[str, str], bool]) -> bool:
    if len(a) != len(b):
        return False

    def same(x: Interval, y: Interval) -> bool:
        return (
            x.lo_closed == y.lo_closed
            and x.hi_closed == y.hi_closed
            and _same_end(x.lo, y.lo, equal)
            and _same_end(x.hi, y.hi, equal)
        )

    remaining = list(b)
    for x in a:
        hit = next((y for y in remaining if same(x, y)), None)
        if hit is None:
            return False
        remaining.remove(hit)
    return True


def _same_end(x: str, y: str, equal: Callable[[str, str], bool]) -> bool:
    if x in (INF, NEG_INF) or y in (INF, NEG_INF):
        return x == y
    return equal(x, y)
