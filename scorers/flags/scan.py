"""Fast cue finding: one Aho-Corasick pass for stems, regexes only around the hits.

Python's ``re`` tries every branch of a big alternation at every position
(and IGNORECASE disables its literal fast paths), so scanning 2-8 KB of
reasoning with a dozen case-insensitive lexicons cost milliseconds a record.
Instead every pattern family names the *stems* that any of its matches must
contain; one automaton pass over the lowercased text finds those stems, and
the family's regex (written for lowercase text, compiled without IGNORECASE)
runs only in a window around each hit. Windows per family are capped, so a
trace that repeats a cue thousands of times still costs a bounded amount.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import ahocorasick_rs

# How many windows a family verifies per text at most: enough for any honest
# trace, and a bound on adversarial ones.
_WINDOW_CAP = 24


def lc(pattern: str) -> str:
    """The pattern for lowercased text: letters lowered, escapes (``\\W``, ``\\S``) kept."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        if pattern[i] == "\\" and i + 1 < len(pattern):
            out.append(pattern[i : i + 2])
            i += 2
            continue
        out.append(pattern[i].lower())
        i += 1
    return "".join(out).replace("(?p<", "(?P<").replace("(?p=", "(?P=")


def lowered(text: str) -> str:
    """``text`` in lowercase with the same length, so offsets carry over."""
    low = text.lower()
    if len(low) == len(text):
        return low
    # A few characters (e.g. "İ") lowercase to two; keep those as they are.
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


@dataclass(frozen=True)
class Family:
    """A pattern family: its regex (lowercase) and the stems every match contains."""

    name: str
    stems: tuple[str, ...]
    pattern: str
    before: int = 120  # how far before a stem a match may start
    after: int = 200  # how far after a stem a match may end
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "regex", re.compile(lc(self.pattern)))


class Scanner:
    """Finds the matches of several families in one pass over the stems."""

    def __init__(self, families: Iterable[Family]) -> None:
        self.families = tuple(families)
        stems: dict[str, list[int]] = {}
        for i, fam in enumerate(self.families):
            for stem in fam.stems:
                stems.setdefault(stem, []).append(i)
        self._stems = list(stems)
        self._owners = [stems[s] for s in self._stems]
        self._automaton = ahocorasick_rs.AhoCorasick(self._stems)

    def windows(self, low: str, lo: int = 0, hi: int | None = None) -> dict[int, list[tuple[int, int]]]:
        """Merged windows per family index where its stems occur in ``low[lo:hi]``."""
        hi = len(low) if hi is None else hi
        hay = low[lo:hi] if lo or hi != len(low) else low
        spans: dict[int, list[tuple[int, int]]] = {}
        for idx, start, end in self._automaton.find_matches_as_indexes(hay, overlapping=True):
            for fam_idx in self._owners[idx]:
                fam = self.families[fam_idx]
                spans.setdefault(fam_idx, []).append(
                    (max(0, lo + start - fam.before), min(len(low), lo + end + fam.after))
                )
        merged: dict[int, list[tuple[int, int]]] = {}
        for fam_idx, items in spans.items():
            items.sort()
            out: list[tuple[int, int]] = []
            for s, e in items:
                if out and s <= out[-1][1]:
                    out[-1] = (out[-1][0], max(out[-1][1], e))
                else:
                    out.append((s, e))
            merged[fam_idx] = out[:_WINDOW_CAP]
        return merged

    def find(self, low: str, lo: int = 0, hi: int | None = None) -> dict[str, list[re.Match[str]]]:
        """Matches per family name, in text order, found only near their stems.

        A match must start at or after ``lo``; windows may look a little past
        ``hi`` so that a match straddling it is whole.
        """
        found: dict[str, list[re.Match[str]]] = {}
        for fam_idx, wins in self.windows(low, lo, hi).items():
            fam = self.families[fam_idx]
            seen: set[int] = set()
            out = found.setdefault(fam.name, [])
            for s, e in wins:
                for m in fam.regex.finditer(low, max(s, lo), e):
                    if m.start() not in seen:
                        seen.add(m.start())
                        out.append(m)
        return found


def matches(found: dict[str, list[re.Match[str]]], *names: str) -> Iterator[tuple[str, re.Match[str]]]:
    for name in names:
        for m in found.get(name, ()):
            yield name, m
