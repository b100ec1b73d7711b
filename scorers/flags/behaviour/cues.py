r"""The cue vocabulary of ``cues.json``, compiled: what the detectors match in a text.

Every cue is matched case-insensitively (on a lowercased copy of the text), from the
start of a word, and to a word boundary where it ends with a word character. Each list
is one compiled alternation, so finding its cues is one pass of the regex engine (C
speed), never a Python loop over words; the detectors run them only over the bounded
texts they read (the closing part of a reasoning, the answer).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import orjson

try:  # the regex parser, to find each cue's literal openings
    _parser: Any = importlib.import_module("re._parser")
except ImportError:  # Python 3.10
    _parser = importlib.import_module("sre_parse")

CUES: dict[str, Any] = orjson.loads((Path(__file__).parent / "cues.json").read_bytes())


def alternation(fragments: Iterable[str]) -> str:
    """One regex alternative per fragment, bounded by ``\\b`` where it begins or ends a word."""
    parts = []
    for fragment in fragments:
        word = re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s")
        head = r"(?:\b|(?=n't))" if word else ""  # the "n't" of "isn't" starts a word too
        tail = r"\b" if re.search(r"[\w)?]$", fragment) else ""
        parts.append(f"{head}(?:{fragment}){tail}")
    return "|".join(parts)


@cache
def regex(*keys: str) -> re.Pattern[str]:
    """The cue lists at ``keys`` (``"hedge_strong"`` or ``"not_assertions", "plan"``) as one
    case-insensitive regex, for composing into other patterns."""
    return re.compile(_factored(_cue_list(keys)), re.IGNORECASE)


def _cue_list(keys: tuple[str, ...]) -> list[str]:
    node: Any = CUES
    for key in keys:
        node = node[key]
    return list(node)


@cache
def pattern(*keys: str) -> CueView:
    """The cues of the list at ``keys``, matched on the lowercased text."""
    return CueView(".".join(keys))


@lru_cache(maxsize=16)  # the detectors read the same few texts of a record many times
def lowered(text: str) -> str:
    """``text`` lowercased with its length kept, so offsets serve both."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


class CueView:
    """One cue list as one compiled alternation over the lowercased text, with
    ``finditer`` and ``search`` over ``text[pos:endpos]`` (non-overlapping, in order).

    An alternation whose alternatives begin at a word boundary is tried at every position
    of the text, at about 100 ns a character; a plain alternation of literals is scanned
    for in C at a few. So each list has a gate: for each cue, the literal words any match
    of it must contain ("possib" for ``remains?\s+(?:a\s+)?possib\w+``, one of "python",
    "numpy", ... for a report of a script), as one literal alternation. Where the gate
    finds none of them, which is in most texts, the cue list is not run at all.
    """

    def __init__(self, tag: str) -> None:
        self.tag = tag
        fragments = _cue_list(tuple(tag.split(".")))
        self.compiled = re.compile(_factored(fragments))
        needs: set[str] = set()
        for fragment in fragments:
            needed = _needs(fragment)
            if needed is None:
                needs = set()  # a cue with no literal it must contain: no gate
                break
            needs |= needed
        self.gate = re.compile(_trie(needs))
        self.gated = bool(needs)
        # How far a match can reach on either side of the word its gate found.
        self.reach = min(_REACH, max(_width(f) for f in fragments))

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        low = lowered(text)
        end = len(text) if endpos is None else endpos
        if not self.gated:
            yield from self.compiled.finditer(low, pos, end)
            return
        # Run the full alternation only around the gate's hits: every match holds one.
        gate, compiled, reach = self.gate.search, self.compiled, self.reach
        done, at = pos, pos
        while at < end and (word := gate(low, at, end)) is not None:
            stop = min(end, word.end() + reach)
            for hit in compiled.finditer(low, max(done, word.start() - reach), stop):
                if hit.end() == stop < end:  # may run on past the window: read it whole
                    hit = compiled.match(low, hit.start(), end) or hit
                yield hit
                done = hit.end()
            at = max(stop, done)

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return next(self.finditer(text, pos, endpos), None)


_REACH = 400  # characters: the longest a cue's match is read around its gate word


def _width(fragment: str) -> int:
    try:
        return int(_parser.parse(fragment).getwidth()[1])
    except (re.error, OverflowError):
        return _REACH


def _factored(fragments: list[str]) -> str:
    """``alternation`` with the word-start test taken out of the alternatives, so that the
    engine tests it once per position instead of once per alternative."""
    headed: list[str] = []
    free: list[str] = []
    for fragment in fragments:
        tail = r"\b" if re.search(r"[\w)?]$", fragment) else ""
        word = re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s")
        (headed if word else free).append(f"(?:{fragment}){tail}")
    parts = [r"(?:\b|(?=n't))(?:" + "|".join(headed) + ")"] if headed else []
    return "|".join(parts + free)


def _trie(words: Iterable[str]) -> str:
    """An alternation of literal ``words`` nested by common openings ("ma(?:ybe|y)"): the
    engine tests a few characters at each position instead of every word."""
    tree: dict[str, Any] = {}
    for word in words:
        node = tree
        for c in word:
            node = node.setdefault(c, {})
        node[""] = {}
    return _branch(tree)


def _branch(node: dict[str, Any]) -> str:
    alts = [re.escape(c) + _branch(node[c]) for c in sorted(node) if c]
    if not alts:
        return ""
    body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
    return f"(?:{body})?" if "" in node else body


def _needs(fragment: str) -> set[str] | None:
    """Literal strings one of which every match of ``fragment`` contains (the most telling
    such set: its shortest string longest), or None when the parse shows none."""
    try:
        return _required(list(_parser.parse(fragment)))
    except re.error:
        return None


def _required(items: list[Any]) -> set[str] | None:
    candidates: list[set[str]] = []
    run = ""
    for op, av in items + [(None, None)]:
        if op is _parser.LITERAL:
            run += chr(av)
            continue
        if run:
            candidates.append({run})
            run = ""
        inner: set[str] | None = None
        if op is _parser.SUBPATTERN:
            inner = _required(list(av[-1]))
        elif op is _parser.BRANCH:
            options = [_required(list(branch)) for branch in av[1]]
            if all(o is not None for o in options):
                inner = set().union(*(o for o in options if o is not None))
        elif op in (_parser.MAX_REPEAT, _parser.MIN_REPEAT) and av[0] >= 1:
            inner = _required(list(av[2]))
        if inner:
            candidates.append(inner)
    if not candidates:
        return None
    return max(candidates, key=lambda c: (min(map(len, c)), -len(c)))
