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
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import ahocorasick_rs

# How many windows a family verifies, and how many stem hits a scan looks at,
# per text at most: enough for any honest trace, and a bound on adversarial
# ones (a 100,000-character "I searched I searched ..." costs no more than a
# few hundred hits). Hits are kept from both ends, where conclusions and the
# openings of summaries are.
_WINDOW_CAP = 24
_HIT_CAP = 512


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
    # Curly apostrophes ("can’t") read as straight ones; same length.
    low = text.lower().replace("\u2019", "'")
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
    # Every alternative of the pattern starts with one of the stems: the regex is
    # then only tried *at* each hit (re.match), the cheapest possible check.
    anchored: bool = False
    # Only hits within this many characters of the text's end count (None: all).
    near_end: int | None = None
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

    def hits(self, low: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int, int]]:
        """(stem index, start, end) of every stem in ``low[lo:hi]``, offsets into ``low``."""
        hi = len(low) if hi is None else hi
        hay = low[lo:hi] if lo or hi != len(low) else low
        # Stems are word beginnings: "ran" inside "orange" is no hit.
        found = [
            (i, lo + s, lo + e)
            for i, s, e in self._automaton.find_matches_as_indexes(hay, overlapping=True)
            if lo + s == 0 or not low[lo + s].isalnum() or not low[lo + s - 1].isalnum()
        ]
        if len(found) > _HIT_CAP:
            found = found[: _HIT_CAP // 2] + found[-_HIT_CAP // 2 :]
        return found

    def find(
        self,
        low: str,
        lo: int = 0,
        hi: int | None = None,
        keep: Callable[[str, int], bool] | None = None,
    ) -> dict[str, list[re.Match[str]]]:
        """Matches per family name, in text order, found only at or near their stems.

        ``keep(low, stem_start)`` may drop hits before any regex runs. A match
        starts at or after ``lo``; windows may look a little past ``hi`` so that
        a match straddling it is whole.
        """
        found: dict[str, list[re.Match[str]]] = {}
        tried: set[int] = set()
        windows: dict[int, list[tuple[int, int]]] = {}
        size = len(low) + 1
        families, owners = self.families, self._owners
        for idx, start, end in self.hits(low, lo, hi):
            if keep is not None and not keep(low, start):
                continue
            for fam_idx in owners[idx]:
                fam = families[fam_idx]
                if fam.near_end is not None and start < len(low) - fam.near_end:
                    continue
                if fam.anchored:
                    key = fam_idx * size + start
                    if key in tried:
                        continue
                    tried.add(key)
                    m = fam.regex.match(low, start)
                    if m is not None:
                        found.setdefault(fam.name, []).append(m)
                else:
                    windows.setdefault(fam_idx, []).append(
                        (max(lo, start - fam.before), min(len(low), end + fam.after))
                    )
        for fam_idx, items in windows.items():
            items.sort()
            merged: list[tuple[int, int]] = []
            for s, e in items:
                if merged and s <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(merged[-1][1], e))
                else:
                    merged.append((s, e))
            fam = families[fam_idx]
            seen: set[int] = set()
            out = found.setdefault(fam.name, [])
            for s, e in merged[:_WINDOW_CAP]:
                for m in fam.regex.finditer(low, s, e):
                    if m.start() not in seen:
                        seen.add(m.start())
                        out.append(m)
        for ms in found.values():
            ms.sort(key=_start)
        return found


def _start(m: re.Match[str]) -> int:
    return m.start()
