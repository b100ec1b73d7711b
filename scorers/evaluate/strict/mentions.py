"""An order read as the sequence in which the answer mentions the items.

When an ordered answer is prose rather than a list ("Alice finished first, Bob
came second, Carol was third", "Closest is Mercury, then Venus, ...", "#1
Mercury, #2 Venus"), a reader finds each expected item where the answer names it
and reads the order from those mentions: by the rank written in the item's
clause (an ordinal, ``1st``, ``#1``, "number 1", "won", the question's ends such
as "closest"), else by where each is mentioned. The reading holds only when
every item is mentioned exactly once; a relation that reverses the written order
("B comes after A", "behind") leaves it to a reader.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from scorers.evaluate.strict.fold import fold_phrase, fold_width
from scorers.evaluate.strict.phrases import plurals
from scorers.evaluate.strict.question import end_word

_LAST = 99
_MIDDLE = 50
_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6,
    "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": _LAST, "lastly": _LAST,
    "won": 1, "winner": 1, "wins": 1, "champion": 1, "runner up": 2, "top": 1,
    "bottom": _LAST, "gold": 1, "silver": 2, "bronze": 3, "middle": _MIDDLE,
}  # fmt: skip
_RANK = re.compile(
    r"\b(?:(?:number|no\.?|rank(?:ed)?|place|position|#)[ \t]*(\d{1,2})\b|(\d{1,2})(?:st|nd|rd|th)\b"
    r"|#(\d{1,2})\b|(" + "|".join(sorted(_ORDINALS, key=len, reverse=True)) + r")\b)"
)
# The clause an item's rank is written in: bounded by punctuation, "and", "then".
_CLAUSE = re.compile(r"[,;:.!?\n()·•|→>]|\b(?:and|then|while|whereas|with|followed by)\b")
# Words by which the item written first may come later ("B comes after A",
# "predates both"; "after that" only goes on), and numbers beside the items
# (values that order them).
_REVERSING = re.compile(
    r"\b(?:after(?![ \t]+(?:that|this|which|those)\b)|behind|follows|following|preceded by|lost to|trails?|trailing|beaten by"
    r"|predates?|postdates?|precedes?|earlier|later|older|newer|younger|both|all"
    r"|outside|inside|beyond|above|below|beneath|under|over|near|nearer|closer|farther|further)\b"
)
_COMPARATIVE = re.compile(r"\b(?:[a-z]+er|more|less) than\b")


_SMALL = frozenset(("the", "and", "for", "with", "from"))


class Mention(NamedTuple):
    start: int
    end: int
    item: str


def _find(text: str, variants: list[str]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for v in variants:
        if not v:
            continue
        pattern = r"(?<![\w])" + re.escape(v) + r"(?:s|es)?(?![\w])"
        spans += [m.span() for m in re.finditer(pattern, text)]
    # Overlapping variants of one item ("car", "red car") are one mention.
    spans.sort()
    merged: list[tuple[int, int]] = []
    for s, e in spans:
        if merged and s < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def _variants(item: str) -> list[str]:
    folded = fold_phrase(item)
    out = [folded]
    if folded.startswith("the "):
        out.append(folded[4:])
    out += list(plurals(folded))
    return out


def _mentions(
    segment: str, expected: list[str], options: dict[str, str], letters: bool
) -> tuple[str, list[Mention]] | None:
    """Each expected item's one mention, in text order, with the text the spans
    index; None when an item is not mentioned exactly once."""
    if letters and not (options and set(expected) <= set(options)):
        text = fold_width(segment)
        found = {
            e: [m.span() for m in re.finditer(rf"(?<![\w']){e}(?![\w'])", text)] for e in expected
        }
        text = text.lower()
    else:
        text = fold_phrase(segment)
        found = {}
        names = {e: options[e] if letters else e for e in expected}
        for e, name in names.items():
            found[e] = _find(text, _variants(name))
            if not found[e]:
                # "the elephant" for "African elephant": a word no other item has.
                others = {w for o, n in names.items() if o != e for w in n.split()}
                own = [
                    w for w in name.split() if len(w) > 2 and w not in _SMALL and w not in others
                ]
                # Its last such word first: English names end with their head
                # ("war" in "First World War"), and "first" may be a rank.
                for word in reversed(own):
                    found[e] = _find(text, _variants(word))
                    if len(found[e]) == 1:
                        break
    mentions = []
    for e, spans in found.items():
        if len(spans) != 1:
            return None
        mentions.append(Mention(spans[0][0], spans[0][1], e))
    mentions.sort()
    return text, mentions


def _clause(text: str, mentions: list[Mention], k: int) -> str:
    """The text around mention ``k`` up to the neighbouring mentions and clause bounds."""
    lo = mentions[k - 1].end if k else 0
    hi = mentions[k + 1].start if k + 1 < len(mentions) else len(text)
    m = mentions[k]
    before = text[lo : m.start]
    after = text[m.end : hi]
    cut = list(_CLAUSE.finditer(before))
    if cut:
        start = cut[-1].end()
        if cut[-1].group() == ":" and not before[start:].strip():
            # "Earliest: the printing press": a heading of a word or two ranks what follows.
            head = before[cut[-2].end() if len(cut) > 1 else 0 : cut[-1].start()]
            if len([w for w in head.split() if w not in ("in", "the", "most")]) == 1:
                start = cut[-2].end() if len(cut) > 1 else 0
        before = before[start:]
    stop = _CLAUSE.search(after)
    if stop is not None:
        after = after[: stop.start()]
    return f"{before} {after}"


# "second lightest", "3rd largest": a place counted from one of the question's ends.
_NTH_END = re.compile(
    r"\b(second|third|fourth|fifth|2nd|3rd|4th|5th)[ \t-]+(?:most[ \t]+)?([a-z]+)\b"
)
_NTH = {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5}


def _rank(clause: str, ends: tuple[str, str] | None) -> int | None:
    if ends is not None and (nth := _NTH_END.search(clause)) is not None:
        end, k = end_word(nth.group(2)), _NTH[nth.group(1)]
        if end in ends:  # from the last end, counted down from _LAST
            return k if end == ends[0] else _LAST - (k - 1)
    ranks = set()
    for m in _RANK.finditer(clause.replace("runner-up", "runner up")):
        number = m.group(1) or m.group(2) or m.group(3)
        ranks.add(int(number) if number else _ORDINALS[m.group(4)])
    if ends is not None:
        words = {end_word(w) for w in re.findall(r"[a-z]+", clause)}
        if ends[0] in words:
            ranks.add(1)
        if ends[1] in words:
            ranks.add(_LAST)
    return ranks.pop() if len(ranks) == 1 else (None if not ranks else -1)


class Reading(NamedTuple):
    order: list[str]
    doubt: str | None


def read(
    segment: str,
    expected: list[str],
    options: dict[str, str],
    ends: tuple[str, str] | None,
) -> Reading | None:
    """The order the answer's mentions of the expected items give, or None when
    not every item is mentioned exactly once."""
    joined = "".join(expected)
    letters = len(joined) == len(expected) and joined.isalpha()
    found = _mentions(segment, expected, options, letters)
    if found is None or len(found[1]) < 2:
        return None
    text, mentions = found
    n = len(mentions)
    ranks = [_rank(_clause(text, mentions, k), ends) for k in range(n)]
    if any(r == -1 for r in ranks):
        return Reading([m.item for m in mentions], "an item's clause carries two ranks")
    in_mention_order = [m.item for m in mentions]
    if all(r is not None for r in ranks):
        if len(set(ranks)) == n:
            return Reading([m.item for _, m in sorted(zip(ranks, mentions, strict=True))], None)
        return Reading(in_mention_order, "two items carry the same rank")
    # Some ranked, some not: each ranked item takes its place and the others
    # fill the places left in the order they are mentioned ("Mercury first,
    # then Venus, Earth, and lastly Mars"; "B first and C last, D and A between").
    order = fill(ranks, in_mention_order)
    if order is None:
        return Reading(in_mention_order, "some items carry ranks that do not fit")
    if _REVERSING.search(text) or _COMPARATIVE.search(text):
        return Reading(order, "the items are related in words that may reverse them")
    return Reading(order, None)


def fill(ranks: list[int | None], items: list[str]) -> list[str] | None:
    """The items with the ranked ones at their places and the rest in the
    places left, in mention order; None when two ranks clash or one is out of range."""
    n = len(items)
    places: list[str | None] = [None] * n
    for r, item in zip(ranks, items, strict=True):
        if r is None or r == _MIDDLE:
            continue
        at = n - 1 - (_LAST - r) if r > _MIDDLE else r - 1
        if not 0 <= at < n or places[at] is not None:
            return None
        places[at] = item
    rest = iter(item for r, item in zip(ranks, items, strict=True) if r is None or r == _MIDDLE)
    return [p if p is not None else next(rest) for p in places]
