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
            own = sorted(set(fam.stems))
            for stem in own:
                # An anchored family tries its regex at the stem's start, so a stem
                # that extends another of the same family ("probable" after
                # "probabl") finds nothing new: dropping it saves a hit and a match.
                if fam.anchored and any(o != stem and stem.startswith(o) for o in own):
                    continue
                owners = stems.setdefault(stem, [])
                if i not in owners:
                    owners.append(i)
        self._stems = list(stems)
        # Per stem, what each owning family does with a hit, resolved once here.
        self._actions: list[tuple[tuple[int, Family], ...]] = [
            tuple((i, self.families[i]) for i in stems[s]) for s in self._stems
        ]
        # The DFA is the fastest overlapping search; ASCII text (nearly all
        # reasoning) is searched as bytes, where offsets need no conversion.
        dfa = ahocorasick_rs.Implementation.DFA
        self._automaton = ahocorasick_rs.AhoCorasick(self._stems, implementation=dfa)
        self._bytes: ahocorasick_rs.BytesAhoCorasick | None = None
        if all(stem.isascii() for stem in self._stems):
            self._bytes = ahocorasick_rs.BytesAhoCorasick(
                [stem.encode() for stem in self._stems], implementation=dfa
            )

    def hits(self, low: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int, int]]:
        """(stem index, start, end) of every stem in ``low[lo:hi]``, offsets into ``low``."""
        hi = len(low) if hi is None else hi
        hay = low[lo:hi] if lo or hi != len(low) else low
        if self._bytes is not None and hay.isascii():
            raw = self._bytes.find_matches_as_indexes(hay.encode(), overlapping=True)
        else:
            raw = self._automaton.find_matches_as_indexes(hay, overlapping=True)
        # Stems are word beginnings: "ran" inside "orange" is no hit.
        if lo:
            found = [
                (i, lo + s, lo + e)
                for i, s, e in raw
                if not low[lo + s].isalnum() or not low[lo + s - 1].isalnum()
            ]
        else:
            found = [
                (i, s, e)
                for i, s, e in raw
                if s == 0 or not low[s].isalnum() or not low[s - 1].isalnum()
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
        windows: dict[int, list[tuple[int, int]]] = {}
        n = len(low)
        actions = self._actions
        for idx, start, end in self.hits(low, lo, hi):
            if keep is not None and not keep(low, start):
                continue
            for fam_idx, fam in actions[idx]:
                if fam.near_end is not None and start < n - fam.near_end:
                    continue
                if fam.anchored:
                    m = fam.regex.match(low, start)
                    if m is not None:
                        if fam.name in found:
                            found[fam.name].append(m)
                        else:
                            found[fam.name] = [m]
                elif fam_idx in windows:
                    windows[fam_idx].append((max(lo, start - fam.before), min(n, end + fam.after)))
                else:
                    windows[fam_idx] = [(max(lo, start - fam.before), min(n, end + fam.after))]
        for fam_idx, items in windows.items():
            items.sort()
            merged: list[tuple[int, int]] = []
            for s, e in items:
                if merged and s <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(merged[-1][1], e))
                else:
                    merged.append((s, e))
            fam = self.families[fam_idx]
            seen: set[int] = set()
            out = found.setdefault(fam.name, [])
            for s, e in merged[:_WINDOW_CAP]:
                for m in fam.regex.finditer(low, s, e):
                    if m.start() not in seen:
                        seen.add(m.start())
                        out.append(m)
        for ms in found.values():
            if len(ms) > 1:
                ms.sort(key=_start)
        return found


def _start(m: re.Match[str]) -> int:
    return m.start()


class Gate:
    """Where any of a few anchor words occur: a cheap first look at a long text.

    A detector whose every match contains one of its anchors runs its full
    scan only in windows around the anchors. With a few dozen anchors the
    automaton uses a SIMD literal search (leftmost semantics, which is all a
    gate needs), a small fraction of an overlapping stem scan's cost.
    """

    def __init__(self, anchors: Iterable[str], reach: int) -> None:
        self.anchors = tuple(sorted(set(anchors)))
        self.reach = reach  # window half-width around each anchor
        leftmost = ahocorasick_rs.MATCHKIND_LEFTMOST_FIRST
        self._str = ahocorasick_rs.AhoCorasick(list(self.anchors), matchkind=leftmost)
        self._bytes = ahocorasick_rs.BytesAhoCorasick(
            [a.encode() for a in self.anchors], matchkind=leftmost
        )

    def windows(self, low: str) -> list[tuple[int, int]]:
        """Merged ``(start, end)`` windows of ``low`` around every anchor, in order."""
        if low.isascii():
            found = self._bytes.find_matches_as_indexes(low.encode())
        else:
            found = self._str.find_matches_as_indexes(low)
        if not found:
            return []
        reach, n = self.reach, len(low)
        merged: list[tuple[int, int]] = []
        for _, s, e in found:
            s, e = max(0, s - reach), min(n, e + reach)
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], e)
            else:
                merged.append((s, e))
        return merged
