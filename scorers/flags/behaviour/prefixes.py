"""Per-stem regexes for anchored families: only the alternatives a stem can start.

An anchored family's regex is tried with ``re.match`` at every hit of one of
its stems, and ``re`` tries its top-level alternatives one by one. At a hit
of "cannot" the alternatives that open with "not", "might" or "probably"
cannot match, yet each costs a try; dense traces make ~30 such matches a
record. ``for_stem`` compiles the family's regex with only the alternatives
whose literal opening agrees with the stem, in their original order, so the
first alternative that matches (``re.match``'s answer) is the same.

Only the plain syntax the lexicons use is read (literals, ``(?:...|...)``
groups, ``\\b``); anything else ends an opening, which keeps the alternative.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache

# Escapes that stand for one literal character.
_LITERAL_ESCAPES = frozenset(".()[]{}|*+?^$\\/-'\"%&#<>!:,;=@~` ")
_QUANTIFIERS = ("?", "*", "+", "{")
# Openings longer than this are cut (an opening only needs to tell stems apart).
_MAX = 24
_MANY = 256

# An opening: its text, and whether the alternative may go on after it with
# anything (an escape such as ``\\s``, a class, a quantifier...).
_Opening = tuple[str, bool]


@cache  # (every scanner that holds a family asks again: read each alternative once)
def openings(pattern: str) -> frozenset[_Opening] | None:
    """The literal openings of every match of ``pattern``, or None when unknown.

    Every string the pattern matches starts with the text of one opening; an
    opening that is not open is the whole match.
    """
    found: set[_Opening] = set()
    for alt in alternatives(pattern):
        got = _sequence(alt)
        if got is None:
            return None
        found |= got
    return frozenset(found)


def _sequence(pattern: str) -> set[_Opening] | None:
    """Openings of a pattern with no top-level ``|``."""
    if not pattern:
        return {("", False)}
    if len(pattern) > 1 and pattern.startswith("\\b"):
        return _sequence(pattern[2:])  # zero-width: it only narrows the matches
    c = pattern[0]
    if c == "(":
        if not pattern.startswith("(?:"):
            return {("", True)}
        close = _closing(pattern)
        if close is None:
            return None
        rest = pattern[close + 1 :]
        if rest[:1] in _QUANTIFIERS:
            return {("", True)}
        inner = openings(pattern[3:close])
        return None if inner is None else _then(set(inner), rest)
    if c == "\\":
        if len(pattern) < 2 or pattern[1] not in _LITERAL_ESCAPES:
            return {("", True)}
        char, rest = pattern[1], pattern[2:]
    elif c in "[.^$)" or c in _QUANTIFIERS:
        return {("", True)}
    else:
        char, rest = c, pattern[1:]
    if rest[:1] in _QUANTIFIERS:
        return {("", True)}  # the character may be absent or repeated
    return _then({(char, False)}, rest)


def _then(heads: set[_Opening], rest: str) -> set[_Opening] | None:
    """Openings of ``heads`` followed by ``rest``."""
    out: set[_Opening] = set()
    tails: set[_Opening] | None = None
    for text, is_open in heads:
        if is_open or len(text) >= _MAX:
            out.add((text, True))
            continue
        if tails is None:
            tails = _sequence(rest)
            if tails is None:
                return None
        out |= {(text + tail, tail_open) for tail, tail_open in tails}
    # Openings only ever narrow: past a few hundred, knowing none is as correct.
    return out if len(out) <= _MANY else {("", True)}


def _structure(pattern: str) -> Iterator[tuple[int, str, int]]:
    """``(index, character, depth)`` of each character outside escapes and classes.

    ``depth`` counts the groups open before the character (a ``(`` is
    reported at the depth it opens from, a ``)`` at the depth it closes to).
    """
    depth, i, in_class = 0, 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
            if pattern[i + 1 : i + 2] == "]":
                i += 1
        else:
            if c == ")":
                depth -= 1
            yield i, c, depth
            if c == "(":
                depth += 1
        i += 1


def _closing(pattern: str) -> int | None:
    """Index of the parenthesis closing the group that opens ``pattern``."""
    for i, c, depth in _structure(pattern):
        if c == ")" and depth == 0:
            return i
    return None


@cache
def alternatives(pattern: str) -> tuple[str, ...]:
    """The top-level ``|`` alternatives of a regex (escapes, groups and classes respected)."""
    out, start = [], 0
    for i, c, depth in _structure(pattern):
        if c == "|" and depth == 0:
            out.append(pattern[start:i])
            start = i + 1
    out.append(pattern[start:])
    return tuple(out)


def could_open(found: frozenset[_Opening] | None, stem: str) -> bool:
    """Whether a match with these openings may start where ``stem`` starts."""
    if found is None:
        return True
    return any(text.startswith(stem) or stem.startswith(text) for text, _ in found)


def for_stem(regex: re.Pattern[str], stem: str) -> re.Pattern[str]:
    """``regex`` keeping only the top-level alternatives that may match at ``stem``.

    Falls back to ``regex`` itself when nothing is dropped, or when dropping
    would lose a named group that callers read.
    """
    if regex.flags & re.IGNORECASE:
        return regex  # openings compare letters as written
    alts = alternatives(regex.pattern)
    kept = [alt for alt in alts if could_open(openings(alt), stem)]
    if len(kept) == len(alts) or not kept:
        return regex
    return _narrowed("|".join(kept), regex)


# Many stems keep the same alternatives, and one family sits in several scanners:
# each narrowed regex is compiled once (re's own cache is too small to rely on).
_NARROWED: dict[tuple[str, int], re.Pattern[str]] = {}


def _narrowed(pattern: str, regex: re.Pattern[str]) -> re.Pattern[str]:
    key = (pattern, regex.flags)
    narrow = _NARROWED.get(key)
    if narrow is None:
        narrow = re.compile(pattern, regex.flags)
        if narrow.groupindex.keys() != regex.groupindex.keys():
            narrow = regex
        _NARROWED[key] = narrow
    return narrow
