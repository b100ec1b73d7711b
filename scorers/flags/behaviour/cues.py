r"""The cue vocabulary of ``cues.json``, compiled: what the detectors match in a text.

Every cue is matched case-insensitively (on a lowercased copy of the text), from the
start of a word, and to a word boundary where it ends with a word character. Each
fragment is keyed by the literal opening its regex parse allows (up to four
characters, "i th" for ``i\s+think``), so one pass over a text's word starts, with a
dictionary look-up at each, finds the cues of a whole group of lists at once.
"""

from __future__ import annotations

import importlib
import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import orjson

try:  # the regex parser, to find each cue's literal opening
    _parser: Any = importlib.import_module("re._parser")
except ImportError:  # Python 3.10
    _parser = importlib.import_module("sre_parse")

CUES: dict[str, Any] = orjson.loads((Path(__file__).parent / "cues.json").read_bytes())


def alternation(fragments: Iterable[str]) -> str:
    """One regex alternative per fragment, bounded by ``\\b`` where it begins or ends a word."""
    parts = []
    for fragment in fragments:
        head = r"\b" if re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s") else ""
        tail = r"\b" if re.search(r"[\w)?]$", fragment) else ""
        parts.append(f"{head}(?:{fragment}){tail}")
    return "|".join(parts)


def _factored(fragments: list[str]) -> str:
    """``alternation`` with the word-start test taken out of the alternatives, so the
    engine tests it once a position instead of once an alternative (several times
    faster), and with the "n't" of "isn't" starting a word, as in :func:`word_starts`."""
    headed: list[str] = []
    free: list[str] = []
    for fragment in fragments:
        tail = r"\b" if re.search(r"[\w)?]$", fragment) else ""
        word = re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s")
        (headed if word else free).append(f"(?:{fragment}){tail}")
    parts = [r"(?:\b|(?=n't))(?:" + "|".join(headed) + ")"] if headed else []
    return "|".join(parts + free)


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
    """The cues of the list at ``keys``, read from the one scan of a text (see :func:`_hits`)."""
    return CueView(".".join(keys))


def lowered(text: str) -> str:
    """``text`` lowercased with its length kept, so offsets serve both."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _leaves(node: Any, path: str = "") -> Iterator[tuple[str, list[str]]]:
    for key, value in node.items():
        if isinstance(value, dict):
            yield from _leaves(value, f"{path}{key}.")
        elif isinstance(value, list) and path != "tool_names.":
            yield f"{path}{key}", value


_KEY = 4  # characters of a cue's literal opening it is keyed by


class _Index:
    """Every cue list of ``cues.json``, each fragment keyed by the literal opening its parse
    allows (up to three characters), so that one pass over a text's word starts, with a
    dictionary look-up at each, finds the cues of every list at once."""

    def __init__(self, group: str) -> None:
        self.keyed: dict[str, list[tuple[re.Pattern[str], str]]] = {}
        free: dict[str, list[str]] = {}
        for tag, fragments in _leaves(CUES):
            if _group(tag) != group:
                continue
            for fragment in fragments:
                tail = r"\b" if re.search(r"[\w)?]$", fragment) else ""
                heads = _heads(fragment)
                if heads is None:
                    head = (
                        r"\b"
                        if re.match(r"[\w(\\]", fragment) and not fragment.startswith("\\s")
                        else ""
                    )
                    free.setdefault(tag, []).append(f"{head}(?:{fragment}){tail}")
                    continue
                compiled = re.compile(f"(?:{fragment}){tail}")
                for h in heads:
                    self.keyed.setdefault(h[:_KEY], []).append((compiled, tag))
        self.free = [(re.compile("|".join(f)), tag) for tag, f in free.items()]
        self._tried: dict[str, list[tuple[re.Pattern[str], str]]] = {}

    def scan(self, low: str) -> list[tuple[re.Match[str], str]]:
        found: list[tuple[re.Match[str], str]] = []
        tried = self._tried
        for p in word_starts(low):
            opening = low[p : p + _KEY]
            candidates = tried.get(opening)
            if candidates is None:
                candidates = tried[opening] = self._candidates(opening)
            if not candidates:
                continue
            seen: set[str] = set()
            for compiled, tag in candidates:
                if tag not in seen:
                    hit = compiled.match(low, p)
                    if hit is not None:
                        seen.add(tag)
                        found.append((hit, tag))
        for compiled, tag in self.free:
            found.extend((hit, tag) for hit in compiled.finditer(low))
        found.sort(key=lambda item: item[0].start())
        return found

    def _candidates(self, opening: str) -> list[tuple[re.Pattern[str], str]]:
        """The fragments a word opening so can start (keyed by up to four characters)."""
        keyed = self.keyed
        found = keyed.get("#", []) if opening[:1].isdigit() else []
        for size in range(len(opening), 0, -1):
            found = keyed.get(opening[:size], []) + found
        return found


_LEADING = "\"'([{*_-`<«“‘$#"


def word_starts(low: str) -> list[int]:
    """Where the words of a lowercased text start (and the "n't" of "isn't"), found with
    ``str.split`` and ``str.find``, several times faster than a regex's matches."""
    starts = []
    pos = 0
    for token in low.split():
        pos = low.find(token, pos)
        word = token.lstrip(_LEADING)
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


# Cue lists read together, each group in one pass over a text: the tools a trace
# claims (read over the whole reasoning); what an answer declines, doubts or tells the
# grader (read over the answer, and with the rest over closing sentences); the rest.
_TOOLS = ("web_", "tool_", "image_", "hypothetical", "mental")
_ANSWER = frozenset(
    {"decline", "no_option", "injection", "non_answer", "hedge_strong", "hedge_leans"}
)


def _group(tag: str) -> str:
    if tag.startswith(_TOOLS):
        return "tools"
    return "answer" if tag in _ANSWER else "text"


@cache
def _index(group: str) -> _Index:
    return _Index(group)


@lru_cache(maxsize=1024)  # benchmark answers repeat ("Final Answer: C")
def _hits(text: str, group: str) -> tuple[list[int], list[tuple[re.Match[str], str]]]:
    """Every cue of a group in ``text``, found in one pass, and where each starts."""
    found = _index(group).scan(lowered(text))
    return [hit.start() for hit, _ in found], found


class CueView:
    """One cue list's hits in a text, read from the text's one scan; like a regex, with
    ``finditer`` and ``search`` over ``text[pos:endpos]`` (non-overlapping, in order)."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.group = _group(tag)

    def finditer(
        self, text: str, pos: int = 0, endpos: int | None = None
    ) -> Iterator[re.Match[str]]:
        starts, found = _hits(text, self.group)
        end = len(text) if endpos is None else endpos
        last = -1
        for i in range(bisect_left(starts, pos), len(starts)):
            hit, tag = found[i]
            if hit.start() >= end:
                return
            if tag == self.tag and hit.end() <= end and hit.start() >= last:
                last = hit.end()
                yield hit

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match[str] | None:
        return next(self.finditer(text, pos, endpos), None)


def _heads(fragment: str) -> set[str] | None:
    """The literal openings (up to four characters) a fragment can start with; None when
    it can open with something else (a class, an optional part, a non-word character)."""
    if fragment.startswith("\\d"):
        return {"#"}  # opens with a digit: tried at every number
    try:
        parsed = _parser.parse(fragment)
    except re.error:
        return None
    heads = {p for p, _ in _walk(list(parsed), {("", False)})}
    if any(not h or not re.match(r"[a-z0-9#]|n't", h) for h in heads):
        return None
    # a head that extends another one is found by the shorter: keep the shorter only
    return {h for h in heads if not any(o != h and h.startswith(o) for o in heads)}


def _is_space(op: Any, av: Any) -> bool:
    if op is _parser.MAX_REPEAT and av[0] >= 1 and len(av[2]) == 1:
        op, av = av[2][0]
    return op is _parser.IN and list(av) == [(_parser.CATEGORY, _parser.CATEGORY_SPACE)]


def _walk(items: list[Any], prefixes: set[tuple[str, bool]]) -> set[tuple[str, bool]]:
    for op, av in items:
        if all(done or len(p) >= _KEY for p, done in prefixes):
            break
        if op is _parser.LITERAL:
            prefixes = {
                (p + chr(av), done) if not done and len(p) < _KEY else (p, done)
                for p, done in prefixes
            }
        elif op is _parser.BRANCH:
            prefixes = set().union(*(_walk(list(branch), prefixes) for branch in av[1]))
        elif op is _parser.SUBPATTERN:
            prefixes = _walk(list(av[-1]), prefixes)
        elif _is_space(op, av):
            # "i\s+think": key on "i th", not on every word that starts with i
            prefixes = {
                (p + " ", done) if not done and len(p) < _KEY else (p, done) for p, done in prefixes
            }
        else:
            prefixes = {(p, True) for p, _ in prefixes}
    return prefixes
