"""Fast cue finding: one Aho-Corasick pass for stems, regexes only around the hits.

Python's ``re`` tries every branch of a big alternation at every position
(and IGNORECASE disables its literal fast paths), so scanning 2-8 KB of
reasoning with a dozen case-insensitive lexicons cost milliseconds a record.
Instead every pattern family names the *stems* that any of its matches must
contain; one automaton pass over the lowercased text finds those stems, and
the family's regex (written for lowercase text, compiled without IGNORECASE)
runs only in a window around each hit. Windows per family are capped, so a
trace that repeats a cue thousands of times still costs a bounded amount.

What keeps a 5 KB trace cheap: the automaton is a DFA searched over bytes;
a family whose regex may start before its stem runs in a window only if the
window holds one of its ``requires`` words, and without its leading ``\\b``
when that lets ``re`` skip ahead in C (``Family.fast``); anchored families
are tried only at their stems, each with a regex holding only the
alternatives its stem can open (``prefixes.for_stem``); families that only
count near the end (``near_end``) get their own pass over just that stretch.
``lowered`` keeps the bytes of the text it lowered last, so the scans of one
text (the whole reasoning, its closing part) search them without encoding it
again, and the word-start test runs in the loop that reads the hits anyway.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from operator import itemgetter

import ahocorasick_rs

from scorers.flags.behaviour.prefixes import alternatives as _alternatives
from scorers.flags.behaviour.prefixes import for_stem

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


# Every Latin-1 character lowercases to one Latin-1 character: a byte table.
_LATIN1_LOWER = bytes(ord(chr(i).lower()) for i in range(256))

# The last text lowered, its bytes (one per character: Latin-1 ones as
# themselves, the others as "?"; none of those match an ASCII stem) and
# whether it holds characters beyond Latin-1, kept so that the scans of the
# same text (Scanner.find) need not encode it again.
_last: tuple[str, bytes, bool] = ("", b"", False)
# Above this many "?" (characters beyond Latin-1, or its own), lowering them
# one by one costs more than str.lower (a text in Chinese gives up early).
_FEW = 64


def lowered(text: str) -> str:
    """``text`` in lowercase with the same length, so offsets carry over."""
    global _last
    if text.isascii():
        low = text.lower()
        _last = (low, low.encode(), False)
        return low
    # str.lower is slow on any non-ASCII text (a "×" is enough): the Latin-1
    # part is lowered as bytes and the few other characters one by one. "İ"
    # lowercases to two characters and "Σ" by its neighbours (final sigma):
    # only those need str.lower on the whole text.
    if "\u0130" not in text and "\u03a3" not in text:
        fast = _lowered_by_character(text)
        if fast is not None:
            return fast
    # Curly apostrophes ("can’t") read as straight ones; same length.
    low = text.lower().replace("\u2019", "'")
    if len(low) == len(text):
        return low
    # A few characters (e.g. "İ") lowercase to two; keep those as they are.
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _lowered_by_character(text: str) -> str | None:
    """``text.lower()`` (curly apostrophes straightened): the Latin-1 characters
    lowered as bytes, the others one by one.

    None when the text has more than ``_FEW`` "?" (its own or characters
    beyond Latin-1): then str.lower is the cheaper way.
    """
    global _last
    raw = text.encode("latin-1", "replace")
    if raw.count(b"?", 0, _FEW * 32) > _FEW:
        return None  # (a text in Chinese says so in its first lines)
    wide: list[int] = []
    i = raw.find(b"?")
    while i != -1:
        if text[i] != "?":
            if len(wide) == _FEW:
                return None
            wide.append(i)
        i = raw.find(b"?", i + 1)
    data = raw.translate(_LATIN1_LOWER)
    latin = data.decode("latin-1")
    if not wide:
        _last = (latin, data, False)
        return latin
    pieces: list[str] = []
    now_ascii: list[tuple[int, int]] = []  # "’" -> "'", "K" (Kelvin) -> "k"
    prev = 0
    for i in wide:
        c = text[i]
        lc = "'" if c == "\u2019" else c.lower()
        pieces += (latin[prev:i], lc)
        prev = i + 1
        if lc.isascii():
            now_ascii.append((i, ord(lc)))
    pieces.append(latin[prev:])
    low = "".join(pieces)
    if now_ascii:
        buf = bytearray(data)
        for at, byte in now_ascii:
            buf[at] = byte
        data = bytes(buf)
    _last = (low, data, True)
    return low


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
    # Words of which every match contains at least one: a window holding none
    # of them is skipped without running the regex (str ``in`` runs in C).
    requires: tuple[str, ...] = ()
    regex: re.Pattern[str] = field(init=False, repr=False, compare=False)

    # The same regex without its leading ``\\b`` (None when it has none): see _word_start.
    fast: re.Pattern[str] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        pattern = lc(self.pattern)
        object.__setattr__(self, "regex", re.compile(pattern))
        bare = _word_start(pattern)
        object.__setattr__(self, "fast", None if bare is None else re.compile(bare))


def _word_start(pattern: str) -> str | None:
    """``pattern`` with the ``\\b`` that opens each alternative removed, or None.

    Python's ``re`` skips ahead in C to the positions where a pattern's first
    literal or first-character set occurs, but only when the pattern starts
    with that literal: a leading ``\\b`` makes it try every position of a
    window. When every alternative starts with ``\\b`` and a letter or a group
    of words, the bare pattern finds the same candidates fast and the
    boundary is checked on the few matches instead (see Scanner.find).
    """
    bare: list[str] = []
    firsts: set[str] = set()
    for alt in _alternatives(pattern):
        if not alt.startswith("\\b"):
            return None
        rest = alt[2:]
        letters = _first_letters(rest)
        if letters is None:
            return None
        firsts |= letters
        bare.append(rest)
    # With many possible first letters the engine tries nearly every position
    # anyway, and without the boundary test each try costs more: keep ``\\b``.
    if len(firsts) > _FAST_LETTERS:
        return None
    return bare[0] if len(bare) == 1 else "(?:" + "|".join(bare) + ")"


_FAST_LETTERS = 4


def _first_letters(pattern: str) -> set[str] | None:
    """The letters a match of ``pattern`` can start with, or None if not only letters."""
    if pattern[:1].isalpha():
        return {pattern[0]}
    if not pattern.startswith("(?:"):
        return None
    depth, i = 0, 0
    while i < len(pattern):  # find the group's closing parenthesis
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        depth += (c == "(") - (c == ")")
        if depth == 0:
            break
        i += 1
    out: set[str] = set()
    for alt in _alternatives(pattern[3:i]):
        letters = _first_letters(alt)
        if letters is None:
            return None
        out |= letters
    return out


# What a stem hit means to one family: (family, name, regex.match if the family
# is anchored, near_end, before, after), unpacked in Scanner.find's inner loop.
_Action = tuple["Family", str, "Callable[..., re.Match[str] | None] | None", "int | None", int, int]


def _action(fam: Family, stem: str) -> _Action:
    match = for_stem(fam.regex, stem).match if fam.anchored else None
    return (fam, fam.name, match, fam.near_end, fam.before, fam.after)


class Scanner:
    """Finds the matches of several families in one pass over the stems."""

    def __init__(self, families: Iterable[Family]) -> None:
        given = tuple(families)
        # Families that only count near the end get their own automaton over
        # just that stretch: their stems ("so", ". the") are everywhere.
        reaches = sorted({f.near_end for f in given if f.near_end is not None})
        if reaches and any(f.near_end != reaches[0] for f in given):
            self.families = tuple(f for f in given if f.near_end is None)
            self._near: tuple[tuple[int, Scanner], ...] = tuple(
                (r, Scanner(f for f in given if f.near_end == r)) for r in reaches
            )
        else:
            self.families = given
            self._near = ()
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
        # ASCII stems first (see the byte search below)
        self._stems = sorted(stems, key=lambda s: not (s.isascii() and "?" not in s))
        # Per stem, what each owning family does with a hit, resolved once here.
        self._actions: list[tuple[_Action, ...]] = [
            tuple(_action(self.families[i], s) for i in stems[s]) for s in self._stems
        ]
        # The DFA is the fastest overlapping search. Text is searched as bytes,
        # where offsets need no conversion: ASCII text (nearly all reasoning) as
        # it is, other text with each non-ASCII character replaced by one "?"
        # (offsets unchanged). The few stems that are not ASCII ("✓") are
        # searched in the text itself, and only when their first character occurs.
        dfa = ahocorasick_rs.Implementation.DFA
        self._automaton = ahocorasick_rs.AhoCorasick(self._stems, implementation=dfa)
        narrow = [stem for stem in self._stems if stem.isascii() and "?" not in stem]
        self._bytes: ahocorasick_rs.BytesAhoCorasick | None = None
        self._wide: ahocorasick_rs.AhoCorasick | None = None
        self._wide_firsts: tuple[str, ...] = ()
        if all(not stem.isascii() for stem in self._stems[len(narrow) :]):
            # (stems are ordered narrow first, so the byte search's indices are the stems')
            self._bytes = ahocorasick_rs.BytesAhoCorasick(
                [stem.encode() for stem in narrow], implementation=dfa
            )
            wide = self._stems[len(narrow) :]
            if wide:
                self._wide = ahocorasick_rs.AhoCorasick(wide)
                self._wide_firsts = tuple({stem[0] for stem in wide})
        self._narrow = len(narrow)
        # Whether a hit of each stem needs the word-start test (see hits).
        self._opens_word = tuple(stem[0].isalnum() for stem in self._stems)

    def _raw(self, low: str, lo: int, hi: int) -> list[tuple[int, int, int]]:
        """Every stem in ``low[lo:hi]``, word start or not, offsets into the slice."""
        hay = low[lo:hi] if lo or hi != len(low) else low
        if self._bytes is None:
            return self._automaton.find_matches_as_indexes(hay, overlapping=True)
        last = _last  # (one read: another thread may lower another text meanwhile)
        if low is last[0]:
            # The text just lowered: its bytes are at hand.
            data = last[1]
            if lo or hi != len(data):
                data = data[lo:hi]
            raw = self._bytes.find_matches_as_indexes(data, overlapping=True)
            if not last[2]:
                return raw  # no character beyond Latin-1: no "✓" to look for
        elif hay.isascii():
            return self._bytes.find_matches_as_indexes(hay.encode(), overlapping=True)
        else:
            raw = self._bytes.find_matches_as_indexes(
                hay.encode("ascii", "replace"), overlapping=True
            )
        if self._wide is not None and any(c in hay for c in self._wide_firsts):
            k = self._narrow
            raw += [
                (k + i, s, e)
                for i, s, e in self._wide.find_matches_as_indexes(hay, overlapping=True)
            ]
            raw.sort(key=_hit_order)
        return raw

    def hits(self, low: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int, int]]:
        """(stem index, start, end) of every stem in ``low[lo:hi]``, offsets into ``low``."""
        return self._word_starts(self._raw(low, lo, len(low) if hi is None else hi), low, lo)

    def _word_starts(
        self, raw: list[tuple[int, int, int]], low: str, lo: int
    ) -> list[tuple[int, int, int]]:
        """The raw hits that begin words, offsets into ``low``, capped (see _HIT_CAP)."""
        # Stems are word beginnings: "ran" inside "orange" is no hit.
        opens = self._opens_word
        found = [
            (i, lo + s, lo + e)
            for i, s, e in raw
            if not (lo + s and opens[i] and low[lo + s - 1].isalnum())
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
        *,
        near: bool = True,
    ) -> dict[str, list[re.Match[str]]]:
        """Matches per family name, in text order, found only at or near their stems.

        ``keep(low, stem_start)`` may drop hits before any regex runs. A match
        starts at or after ``lo``; windows may look a little past ``hi`` so that
        a match straddling it is whole. ``near=False`` leaves out the families
        that only count near the end (``find_near`` adds them when needed).
        """
        found: dict[str, list[re.Match[str]]] = {}
        windows: dict[str, tuple[Family, list[tuple[int, int]]]] = {}
        n = len(low)
        actions = self._actions
        opens = self._opens_word
        # The raw hits are filtered here, in the loop that reads them anyway;
        # only a text with more hits than the cap takes the two-step way.
        items = self._raw(low, lo, n if hi is None else hi)
        base, check = lo, True
        if len(items) > _HIT_CAP:
            items, base, check = self._word_starts(items, low, lo), 0, False
        # In order of start (stable, so hits at one start keep the automaton's
        # order): an anchored family's matches start at its hits, so they come
        # out in text order with no sort of their own.
        items.sort(key=_hit_start)
        for idx, s, e in items:
            start = s + base
            # Stems are word beginnings: "ran" inside "orange" is no hit.
            if check and start and opens[idx] and low[start - 1].isalnum():
                continue
            if keep is not None and not keep(low, start):
                continue
            for fam, name, match, near_end, before, after in actions[idx]:
                if near_end is not None and start < n - near_end:
                    continue
                if match is not None:
                    m = match(low, start)
                    if m is not None:
                        if name in found:
                            found[name].append(m)
                        else:
                            found[name] = [m]
                    continue
                window = (max(lo, start - before), min(n, e + base + after))
                if name in windows:
                    windows[name][1].append(window)
                else:
                    windows[name] = (fam, [window])
        for name, (fam, spans) in windows.items():
            found[name] = _windowed(fam, low, spans)
        if near and self._near:
            found.update(self.find_near(low, lo, hi, keep))
        return found

    def find_near(
        self,
        low: str,
        lo: int = 0,
        hi: int | None = None,
        keep: Callable[[str, int], bool] | None = None,
    ) -> dict[str, list[re.Match[str]]]:
        """The matches of the families that only count near the end (see ``find``)."""
        found: dict[str, list[re.Match[str]]] = {}
        end = len(low) if hi is None else hi
        for reach, scanner in self._near:
            start = max(lo, len(low) - reach)
            if start < end:
                found.update(scanner.find(low, start, end, keep))
        return found


def _windowed(fam: Family, low: str, items: list[tuple[int, int]]) -> list[re.Match[str]]:
    items.sort()
    merged: list[tuple[int, int]] = []
    for s, e in items:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    seen: set[int] = set()
    out: list[re.Match[str]] = []
    fast, requires = fam.fast, fam.requires
    for s, e in merged[:_WINDOW_CAP]:
        if requires:
            chunk = low[s:e]
            if not any(word in chunk for word in requires):
                continue
        if fast is None:
            for m in fam.regex.finditer(low, s, e):
                if m.start() not in seen:
                    seen.add(m.start())
                    out.append(m)
            continue
        # finditer's walk, with the word boundary checked on each candidate
        pos = s
        while pos <= e:
            hit = fast.search(low, pos, e)
            if hit is None:
                break
            at = hit.start()
            if at and (low[at - 1].isalnum() or low[at - 1] == "_"):
                pos = at + 1
                continue
            if at not in seen:
                seen.add(at)
                out.append(hit)
            pos = hit.end() if hit.end() > at else at + 1
    if len(out) > 1:
        out.sort(key=_start)
    return out


_hit_start = itemgetter(1)


def _hit_order(hit: tuple[int, int, int]) -> tuple[int, int]:
    return hit[1], hit[2]


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
