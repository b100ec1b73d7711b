r"""The cue vocabulary of ``cues.json``, compiled: what the detectors match in a text.

Every cue is matched case-insensitively (on a lowercased copy), from a word start to a word
boundary where it ends with a word character (a Korean stem: before any ending; in Chinese or
Japanese script: anywhere), its ``\s`` across any run of spaces and line breaks, by a pass over
a text's word starts (:class:`_Index`); on a long text only if a gate lets it (:class:`_Gate`)."""

from __future__ import annotations

import importlib
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache, reduce
from pathlib import Path
from typing import Any

import orjson
from ahocorasick_rs import AhoCorasick, Implementation

# the regex parser (Python 3.10: sre_parse), to find each cue's literal opening
_parser: Any = getattr(re, "_parser", None) or importlib.import_module("sre_parse")

CUES: dict[str, Any] = orjson.loads((Path(__file__).parent / "cues.json").read_bytes())
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")  # kana, hanzi: unspaced script
_END = re.compile(r"^(?!.*[\uac00-\ud7a3]\)*$).*[\w)?]$", re.S)  # ends a word; not Hangul


def alternation(fragments: Iterable[str]) -> str:
    """One regex alternative per fragment, bounded by ``\\b`` where it begins or ends a word."""
    parts = []
    for fragment in fragments:
        word = re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s")
        head, tail = r"\b" if word else "", r"\b" if _END.search(fragment) else ""
        parts.append(f"(?:{fragment})" if CJK.search(fragment) else f"{head}(?:{fragment}){tail}")
    return "|".join(parts)


def _factored(fragments: list[str]) -> str:
    """``alternation`` with the word-start test out of the alternatives, "n't" starting a
    word too, behind a look-ahead for their openings: several times faster, same matches."""
    headed, free, firsts = list[str](), list[str](), set[str]()
    for fragment in fragments:
        tail = r"\b" if _END.search(fragment) and not CJK.search(fragment) else ""
        word = not CJK.search(fragment) and re.match(r"[\w(\\]", fragment) and fragment[:2] != "\\s"
        (headed if word else free).append(f"(?:{fragment}){tail}")
        if word:  # (a fragment with no literal opening, "(?:double-?)?check", opens with any \w)
            heads = _heads(fragment)
            firsts |= {"\\d" if h == "#" else h[0] for h in heads} if heads else {"\\w"}
    lead = f"(?=[{''.join(sorted(firsts))}])(?:\\b|(?=n't))(?:{'|'.join(headed)})"
    return "|".join(([lead] if headed else []) + free)


@cache
def regex(*keys: str) -> re.Pattern[str]:
    """The cue lists at ``keys`` ("hedge_strong") as one case-insensitive regex to compose."""
    return re.compile(_factored(_cue_list(keys)), re.IGNORECASE)


def _cue_list(keys: Iterable[str]) -> list[str]:
    return [*reduce(dict.__getitem__, keys, CUES)]  # (a list under its dicts)


@cache
def pattern(*keys: str, gate: bool = False) -> CueView:
    """The cues of the list at ``keys``, read from the one scan of a text (see :class:`_Read`);
    ``gate``: the list is asked of whole answers or reasonings, which a gate reads first."""
    return CueView(".".join(keys), gate)


def lowered(text: str) -> str:  # lowercased with its length kept, so offsets serve both
    if len(low := text.lower()) == len(text):
        return low
    return "".join(c.lower() if len(c.lower()) == 1 else c for c in text)


def _leaves(node: Any, path: str = "") -> Iterator[tuple[str, list[str]]]:
    for key, value in node.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{path}{key}.")
        elif isinstance(value, list) and path != "tool_names.":
            yield f"{path}{key}", value


_KEY, _FEW = 4, 32  # characters of a cue's opening it is keyed by; phrases spelt out at most
_TOKEN, _TANGLED = re.compile(r"\S+"), re.compile(r"-\S*n't")  # a word; one "-" before "n't"
_BLANKS, _ODD = bytes.maketrans(b"\t\n\v\f\r\x1c\x1d\x1e\x1f", b" " * 9), re.compile(r"[^\S ]")
_UNITS, _SPACES = re.compile(rf"(?:\s+|\S){{1,{_KEY}}}"), re.compile(r"\s+")  # scan: runs


def _fixed(items: Any, stop: bool = False) -> set[str] | None:
    r"""The few strings a parsed regex matches, if only fixed ones, every run of spaces one
    " " (as the gate reads a text); ``stop``: the openings the scan keys on, each ended
    ("\0") at its first part not a literal or a space ("i th" for ``i\s+think``)."""
    out = {""}
    for op, av in items:
        if op is _parser.LITERAL:
            part: set[str] | None = {chr(av)}
        elif _is_space(op, av) or (
            not stop and op is _parser.MAX_REPEAT and len(av[2]) == 1 and _is_space(*av[2][0])
        ):
            part = {" "} if op is _parser.IN or av[0] else {"", " "}  # \s, \s+; \s*, \s?
        elif op in (_parser.SUBPATTERN, _parser.BRANCH):
            parts = [_fixed(b, stop) for b in (av[1] if op is _parser.BRANCH else [av[-1]])]
            part = None if None in parts else set().union(*parts)  # type: ignore[arg-type]
        elif stop:
            part = {"\0"}
        elif op is _parser.IN:
            part = {chr(a) for o, a in av if o is _parser.LITERAL}
            part = part if len(part) == len(av) else None
        elif op is _parser.MAX_REPEAT and (av[0], av[1]) == (0, 1):
            part = None if (inner := _fixed(av[2])) is None else inner | {""}
        else:
            part = {""} if op is _parser.AT else None  # a word boundary is zero width
        if part is None or (len(out) * len(part) > _FEW and not stop):
            return None
        out = {s if "\0" in s else re.sub(" +", " ", s + t) for s in out for t in part}
    return out


@cache  # read for the scan's index and for composed regexes alike
def _heads(fragment: str) -> set[str] | None:
    """The literal openings (up to four characters, the shortest of those that extend one
    another) a fragment can start with, or None."""
    if fragment.startswith("\\d"):
        return {"#"}  # opens with a digit: tried at every number
    fixed = _fixed(list(_parser.parse(fragment)), True) or {""}
    heads = {h.replace("\0", "")[:_KEY] for h in fixed}
    if any(not h or not re.match(r"[a-z0-9#]|n't", h) for h in heads):
        return None
    return {h for h in heads if not any(o != h and h.startswith(o) for o in heads)}


def _is_space(op: Any, av: Any) -> bool:  # \s, or \s+
    if op is _parser.MAX_REPEAT and av[0] >= 1 and len(av[2]) == 1:
        op, av = av[2][0]
    return op is _parser.IN and list(av) == [(_parser.CATEGORY, _parser.CATEGORY_SPACE)]


class _Index:
    """Every cue keyed by its literal openings (or, with none, matched by a regex)."""

    def __init__(self) -> None:
        self.keyed: dict[str, list[tuple[re.Pattern[str], str]]] = {}
        self.free, self.narrow = dict[str, Any](), dict[str, Any]()  # no ASCII word; ASCII texts'
        self.tried: dict[str, list[tuple[re.Pattern[str], str]]] = {}
        self.keys: dict[str, AhoCorasick] = {}  # per list of no 1-character key, its keys
        for tag, fragments in _leaves(CUES):
            if free := [f for f in fragments if _heads(f) is None]:
                sets = [max(_phrases(_parser.parse(f)), key=_telling, default={""}) for f in free]
                words = {max(p.split(" "), key=len) for s in sets for p in s}
                words = {w for w in words if not any(o != w and o in w for o in words)}  # minimal
                held = re.compile("|".join(map(re.escape, sorted(words))))  # ("": any text)
                self.free[tag] = (re.compile(alternation(free)), held)
                if asc := [f for f, s in zip(free, sets, strict=True) if any(map(str.isascii, s))]:
                    self.narrow[tag] = (re.compile(alternation(asc)), held)  # those ASCII can match
            for fragment in fragments:
                tail = r"\b" if _END.search(fragment) else ""
                for h in _heads(fragment) or ():
                    self.keyed.setdefault(h, []).append((re.compile(f"(?:{fragment}){tail}"), tag))
            keys = {h for f in fragments for h in _heads(f) or ()}
            if keys and min(map(len, keys)) > 1:  # and, cut at each space, a run of spaces
                keys |= {k[:i] + "  " for k in keys for i, c in enumerate(k) if c == " "}
                self.keys[tag] = AhoCorasick(list(keys), implementation=Implementation.DFA)

    def near(self, low: str, tag: str) -> list[tuple[int, str]] | None:
        """The word starts where ``tag``'s keyed cues may open, found by their openings."""
        keys = self.keys.get(tag)
        if keys is None or "n't" in low and _TANGLED.search(low):
            return None  # 1-character openings ("i") are everywhere; "-n't" words are out of order
        out = []
        for p in sorted({p for _, p, _ in keys.find_matches_as_indexes(low, overlapping=True)}):
            a = low.rfind(" ", 0, p) + 1  # (``low`` is :func:`flat`: every space is " ")
            if p == a or p - a in word_starts(_TOKEN.match(low, a)[0]):  # type: ignore[index]
                out.append((p, low[p : p + _KEY]))
        return out

    def scan(self, low: str, starts: list[tuple[int, str]], only: str | None) -> dict[str, Any]:
        """Every list's hits (or ``only`` one's), at most one a word start: its first cue."""
        found: dict[str, list[re.Match[str]]] = {}
        for p, opening in starts:
            if (candidates := self.tried.get(opening)) is None:  # keyed by its first 1-4 chars,
                key = _SPACES.sub(" ", _UNITS.match(low, p)[0])  # type: ignore[index]
                candidates = self.keyed.get("#", []) if key[:1].isdigit() else []
                for size in range(len(key), 0, -1):  # a run of spaces one ("let\nme": "let ")
                    candidates = self.keyed.get(key[:size], []) + candidates
                if not re.search(r"\s\s", opening):  # ("i  think": what it keys on lies after)
                    self.tried[opening] = candidates
            for compiled, tag in candidates:
                if (only is None or tag == only) and (hit := compiled.match(low, p)):
                    hits = found.setdefault(tag, [])
                    if not hits or hits[-1].start() != p:  # a list's first cue here only
                        hits.append(hit)
        for tag, (compiled, held) in (self.narrow if low.isascii() else self.free).items():
            if only in (None, tag) and held.search(low):  # (a cue held by no ASCII text: none)
                hits = [*found.get(tag, []), *compiled.finditer(low)]  # after keyed ones at a start
                found[tag] = sorted(hits, key=re.Match.start)
        return found


def word_starts(low: str) -> list[int]:
    """Where the words of a lowercased text start (and the "n't" of "isn't")."""
    starts, pos = [], 0
    for token in low.split():
        pos = low.find(token, pos)
        word = token.lstrip("\"'([{*_-`<«“‘$#")
        if word and word[0].isalnum():
            starts.append(pos + len(token) - len(word))
        if "n't" in token:
            starts.append(pos + token.index("n't"))
        if "-" in word:  # "double-checked": "checked" starts a word too
            at = pos + len(token) - len(word)
            starts.extend(
                at + i + 1 for i, c in enumerate(word[:-1]) if c == "-" and word[i + 1].isalnum()
            )
        pos += len(token)
    return starts


def _phrases(items: Any) -> list[set[str]]:
    r"""Phrase sets of which every match of a parsed regex holds one each, spelt as by
    :func:`_fixed` ("no\s+(?:definitive\s+)?answer": "no answer", "no definitive answer")."""
    sets: list[set[str]] = []
    run = {""}  # the phrases the stretch read since the last break can be
    for op, av in items:
        fixed = _fixed([(op, av)])
        if fixed is not None and len(run) * len(fixed) <= _FEW:
            run = {re.sub(" +", " ", s + t) for s in run for t in fixed}
            continue
        sets.append(run)
        run = fixed or {""}
        if fixed is None and op is _parser.SUBPATTERN:
            sets.extend(_phrases(av[-1]))
        elif fixed is None and op is _parser.BRANCH:  # one of each branch's best set
            sets.append(set().union(*(max(_phrases(b), key=_telling, default={""}) for b in av[1])))
        elif fixed is None and op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT) and av[0]:
            sets.extend(_phrases(av[2]))
    return [s for s in [*sets, run] if "" not in s]


def _telling(phrases: set[str]) -> tuple[int, int]:
    """How rare a phrase set is: its shortest phrase's UTF-8 length less spaces ("/" counts 3)."""
    rarity = (len(p.replace(" ", "").encode()) + 2 * sum(c in "/=%" for c in p) for p in phrases)
    return min(rarity), min(map(len, phrases))


@cache
def _gated(tag: str) -> list[list[set[str]]] | None:
    """Per cue of a list, its two most telling phrase sets; None if a cue has none."""
    cues = [sorted(_phrases(_parser.parse(f)), key=_telling) for f in _cue_list(tag.split("."))]
    sets = [[s for s in found[-2:] if _telling(s)[0] >= 3] for found in cues]
    return sets if all(sets) else None


class _Gate:
    """Which gated lists a long text can match: where a cue's phrase of each of its most
    telling sets is in it (spaces made one " "), found in one Aho-Corasick pass. Gated are
    the lists read with ``pattern(..., gate=True)`` that have telling sets, as first asked."""

    def __init__(self, tags: frozenset[str]) -> None:
        ids: dict[str, int] = {}
        self.tags = tags
        self.cues: dict[int, dict[str, frozenset[int]]] = {}  # per phrase, per list: others
        for tag in tags:
            for found in _gated(tag) or []:
                *other, best = [frozenset(ids.setdefault(p, len(ids)) for p in s) for s in found]
                for lists in (self.cues.setdefault(phrase, {}) for phrase in best):
                    lists[tag] = lists.get(tag, frozenset()) | (other[0] if other else best)
        self.automaton = AhoCorasick(list(ids) or ["\0"], implementation=Implementation.DFA)

    def can_match(self, low: str) -> set[str]:
        words = " " + " ".join(low.split()) + " "
        found = {i for i, _, _ in self.automaton.find_matches_as_indexes(words, overlapping=True)}
        heads = self.cues.keys() & found  # (most phrases found are only others)
        return {t for p in heads for t, o in self.cues[p].items() if not found.isdisjoint(o)}


_GATE = [_Gate(frozenset())]
_LONG = 200  # characters: a shorter text (a sentence) is scanned at once, as it costs little


class _Read:
    """A text read: lowercased, word starts, gated lists it can match, hits (of all lists
    at once in a short text, where many are asked; in a long one, each as it is asked)."""

    __slots__ = ("low", "flat", "starts", "told", "hits", "whole", "done")

    def __init__(self, text: str) -> None:
        self.low, self.flat, self.whole, self.done = lowered(text), "", len(text) < _LONG, False
        self.starts: list[tuple[int, str]] | None = None  # flat, these: read once the scan asks
        self.told: tuple[_Gate | None, set[str]] = (None, set())
        self.hits: dict[str, list[re.Match[str]]] = {}  # done: every list's hits are in

    def ruled_out(self, tag: str) -> bool:  # by the gate: no cue of the list in this long text
        if self.whole or not _gated(tag):
            return False
        if tag not in _GATE[0].tags:
            _GATE[0] = _Gate(_GATE[0].tags | {tag})
        if self.told[0] is not _GATE[0]:
            self.told = (_GATE[0], _GATE[0].can_match(self.low))
        return tag not in self.told[1]

    def find(self, tag: str, gate: bool) -> list[re.Match[str]]:
        if gate and self.ruled_out(tag):
            return []  # not counted below: the lists a gate lets through are few
        if not (self.starts or self.whole or len(self.hits) >= 3):  # a long text's first lists:
            self.flat = self.flat or flat(self.low)  # scanned where their cues may start
            if (few := _index().near(self.flat, tag)) is not None:
                return self.hits.setdefault(tag, _index().scan(self.low, few, tag).get(tag, []))
        if self.starts is None:
            self.starts = [(p, self.low[p : p + _KEY]) for p in word_starts(self.low)]
        if self.whole or len(self.hits) >= 3:  # a long text many lists are scanned in: a sentence
            self.hits, self.whole = _index().scan(self.low, self.starts, None), True
            self.done = True  # last: another thread may be reading
            return self.hits.setdefault(tag, [])
        return self.hits.setdefault(tag, _index().scan(self.low, self.starts, tag).get(tag, []))


def flat(low: str) -> str:  # every whitespace character a space, as cues are keyed ("let me")
    return low.encode().translate(_BLANKS).decode() if low.isascii() else _ODD.sub(" ", low)


_read = lru_cache(maxsize=1024)(_Read)  # benchmark answers repeat ("Final Answer: C")
_Hit = re.Match[str]


class CueView:
    """One cue list's hits in a text, like a regex's over ``text[pos:endpos]``."""

    def __init__(self, tag: str, gate: bool) -> None:
        self.tag, self.gate = tag, gate

    def _hits(self, text: str, pos: int) -> list[re.Match[str]]:
        seen = _read(text)
        if (hits := seen.hits.get(self.tag)) is None:
            hits = [] if seen.done else seen.find(self.tag, self.gate)
        return hits[bisect_left(hits, pos, key=re.Match.start) :] if hits and pos else hits

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[_Hit]:
        end, last = len(text) if endpos is None else endpos, -1
        for hit in self._hits(text, pos):
            if hit.start() >= end:
                return
            if hit.end() <= end and hit.start() >= last:
                last = hit.end()
                yield hit

    def ruled_out(self, text: str) -> bool:
        return _read(text).ruled_out(self.tag)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return next(self.finditer(text, pos, endpos), None)  # the first hit finditer yields


_index = cache(_Index)  # built on the first scan, not on import
