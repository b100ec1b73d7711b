"""Ordered lists: the stated list must be the expected list, item for item.

Items may be separated by commas (ASCII, full-width or Arabic ``،``), ``、``, semicolons,
arrows (``→``, ``->``, ``=>``, ``\\rightarrow``), ``>``, spaced dashes, "then",
newlines or numbered lines, or by spaces when nothing else separates them.
Letter items are read with the option-letter reader (``Panel B`` is B,
``(C) the sunset`` is C); ``CDAB`` written as one word is four letters. Other
items compare folded (case, accents, whitespace) with a leading "the" and a
trailing parenthetical remark dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from scorers.evaluate.strict.choices import read_letters
from scorers.evaluate.strict.fold import fold_phrase, fold_width
from scorers.evaluate.strict.phrases import Answer, find_phrase
from scorers.evaluate.strict.question import end_word, map_item, named

_SEPARATOR = re.compile(
    r"[ \t]*(?:,|，|、|،|;|；|؛|[ \t][·•][ \t]|→|⟶|⇒|⟹|➔|➜|➝|➞|➡|⇨|↦|->|-->|=>|>|<|\\rightarrow\b|\\to\b|\\Rightarrow\b"
    r"|[ \t][-–—/|][ \t]|\||\n|\b(?:and[ \t]+)?then\b|\bfollowed by\b|\bfinally\b"
    r"|\b(?:(?:comes|is|goes)[ \t]+)?(?:before|ahead of)\b"
    # inline numbering: "1. C 2. A", "(1) Paris (2) Rome"
    r"|(?<!\S)\(?\d{1,2}[.)](?=[ \t]))[ \t]*"
)
# "C-A-D-B": single letters joined by hyphens without spaces.
# "C-A-D-B", "C/A/D/B", "C.A.D.B": single letters joined without spaces.
_HYPHENED_LETTERS = re.compile(r"(?<![A-Za-z])[A-Za-z](?:[-–/.][A-Za-z])+(?![A-Za-z])")
_NUMBERING = re.compile(
    r"^(?:\(?\d{1,2}[.):][ \t]+|[-*•·][ \t]+|(?:step|position)[ \t]*\d+[ \t]*[:.)-]?[ \t]*"
    r"|(?:first|second|third|fourth|fifth|next|finally|last|lastly|and|plus|as well as|along with)\b,?[ \t]*"
    r"|&[ \t]*)",
    re.IGNORECASE,
)
_LEADING_RANGE = re.compile(
    r"^from (?:the )?[a-z]+ to (?:the )?[a-z]+[ \t]*[,:][ \t]*", re.IGNORECASE
)
# A heading that is only an end ("Longest:", "The smallest:"), not a direction
# ("Newest first:").
_END_HEADING = re.compile(r"(?:the[ \t]+)?[^\W\d_]+", re.I)
_LEADING_ENDS = re.compile(
    r"^(?:the )?[a-z]+(?:est|st) to (?:the )?[a-z]+(?:est|st)[ \t]*:[ \t]*", re.I
)
_AND = re.compile(r"[ \t]+(?:and|&|plus|as well as|along with|together with)[ \t]+")
_ASIDE = re.compile(r"(?<=\S)[ \t]*\([^()]*\)[ \t]*$")  # a remark after the item
_SENTENCE_END = re.compile(r"(?<=[a-z]{3})\.[ \t]+[A-Z].*$", re.DOTALL)
_TRAILING = " \t.;:!?'\"*_"
_MAX_SEGMENT = 4000
# "C, D, A, B", "C→D→A→B": one letter per item, one separator between (the
# common case, read without the general splitter). Each repetition must take a
# separator and a letter, so the match is linear.
_SIMPLE_LETTERS = re.compile(r"[A-Za-z](?:[ \t]*[,，;；>→、|][ \t]*[A-Za-z])*[ \t.]*")
_LETTER = re.compile(r"[A-Za-z]")


def read_order(order: list[str]) -> list[str]:
    """The expected items in comparable form."""
    joined = "".join(order)
    if len(joined) == len(order) and joined.isascii() and joined.isalpha():
        return list(joined.upper())
    return [_fold_item(item) for item in order]


def _fold_item(item: str) -> str:
    item = fold_phrase(item).replace("-", " ")  # "printing-press" is "printing press"
    return item[4:] if item.startswith("the ") else item


def _strip_item(item: str, names: tuple[str, ...] = ()) -> str:
    """``item`` without its numbering, leading joiner, trailing sentence and
    aside; an ordinal that begins one of the expected ``names`` ("first
    quarter") stays."""
    item = item.strip()
    while True:
        m = _NUMBERING.match(item)
        if m is None or not m.end() or (names and item.lower().startswith(names)):
            break
        item = item[m.end() :]
    # Each regex opens with a look-behind, tried at every position: run it
    # only where the "." or "(" it needs is present.
    if "." in item:
        item = _SENTENCE_END.sub("", item)
    if "(" in item and not _RANK_AFTER.search(item):  # "Mars (4th)" keeps its rank
        item = _ASIDE.sub("", item)
    return item.strip(_TRAILING).strip("()[]").strip()


# An item's rank, written before it ("second: red", "Winner: white", "1st:
# gold") or after it ("A first", "red 1st", "C last", "A = 3", "B (2nd)").
_ORDINALS = {
    "first": 1, "winner": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": 99,
    "top": 1, "bottom": 99, "gold": 1, "silver": 2, "bronze": 3,
}  # fmt: skip

_RANK = r"(?:#?(?P<n>\d{1,2})(?P<suffix>st|nd|rd|th)?|(?P<word>[a-z]+))"
_RANK_BEFORE = re.compile(r"^" + _RANK + r"(?:[ \t]+place)?[ \t]*[:=.)-][ \t]*", re.IGNORECASE)
# Without a mark after it, only an ordinal ranks ("2nd C", "second C"; "3 C" is no rank).
_RANK_PREFIX = re.compile(
    r"^(?:#?(?P<n>\d{1,2})(?P<suffix>st|nd|rd|th)|(?P<word>first|second|third|fourth|fifth|sixth"
    r"|seventh|eighth|ninth|tenth|last))[ \t]+(?=\S)",
    re.IGNORECASE,
)
_RANK_AFTER = re.compile(
    r"(?:[ \t]*[=:(][ \t]*|[ \t]+(?:(?:is|in|comes|came|finished|ranks|ranked|placed|is ranked|is placed)"
    r"[ \t]+)?(?:the[ \t]+|no\.?[ \t]*|number[ \t]+)?)" + _RANK + r"(?:[ \t]+place)?\)?$",
    re.IGNORECASE,
)


def _rank_of(m: re.Match[str], *, bare_number: bool) -> int | None:
    if m.group("word") is not None:
        return _ORDINALS.get(m.group("word").lower())
    if m.group("suffix") is None and not bare_number:
        return None
    return int(m.group("n"))


def _one_rank(item: str) -> tuple[int, str] | None:
    before = _RANK_BEFORE.match(item)
    if before is not None:
        rank = _rank_of(before, bare_number=False)
        if rank is not None and item[before.end() :].strip():
            return rank, item[before.end() :]
    after = _RANK_AFTER.search(item)
    if after is not None and after.start() > 0:
        # A bare number ranks only after "=", ":" or "(": "A = 3", not "Building 3".
        bare = item[after.start() : after.start() + 3].strip()[:1] in "=:("
        rank = _rank_of(after, bare_number=bare)
        if rank is not None:
            return rank, item[: after.start()]
    return None


_BARE_RANK = re.compile(r"(?<=[^\W\d])[ \t]+#?(\d{1,2})[ \t]*$")
_MIDDLE = 50
_LAST = 99


def _by_ends(item: str, ends: tuple[str, str]) -> tuple[int, str] | None:
    """A rank from the question's two ends ("smallest ... largest") or "middle"."""
    words = [end_word(w.strip(".,;:!?")) for w in item.lower().split()]
    for rank, end in ((1, ends[0]), (_LAST, ends[1]), (_MIDDLE, "middle"), (_MIDDLE, "between")):
        for at, word in enumerate(words):
            if word == end:
                return rank, " ".join(w for k, w in enumerate(item.split()) if k != at)
    return None


def _ranked(
    items: list[str], ends: tuple[str, str] | None = None, names: tuple[str, ...] = ()
) -> list[str] | None:
    """The items sorted by the rank each carries, when every item carries one.

    A heading before a colon ("Positions: red 1st") is not part of an item. With
    the question's ``ends`` ("from smallest to largest"), an item may be ranked
    by them ("the bucket is largest") and one without a rank keeps its place."""
    bare = [_BARE_RANK.search(item) for item in items]
    if all(bare) and sorted(int(m.group(1)) for m in bare if m) == list(range(1, len(items) + 1)):
        # "cat 3, elephant 1, mouse 4, horse 2": a bare number after every
        # item, together the ranks 1 to n, ranks them ("Building 3" alone does not).
        pairs = sorted(
            (int(m.group(1)), item[: m.start()]) for m, item in zip(bare, items, strict=True) if m
        )
        return [item for _, item in pairs]
    prefixed = [_RANK_PREFIX.match(item.strip()) for item in items]
    if all(prefixed) and not any(item.strip().lower().startswith(names) for item in items if names):
        # "4th D, 3rd A, 2nd C, 1st B": an ordinal before every item, each its own.
        ranks = [_rank_of(m, bare_number=False) for m in prefixed if m]
        if None not in ranks and len(set(ranks)) == len(ranks):
            pairs = sorted(
                (r, item.strip()[m.end() :])
                for r, m, item in zip(ranks, prefixed, items, strict=True)
                if m and r is not None
            )
            return [item for _, item in pairs]
    ranked: list[tuple[int, str]] = []
    loose: list[bool] = []  # no rank, or only "in the middle"
    unranked = 0
    in_place = True  # every rank given is the item's own place ("X first, then Y")
    for position, item in enumerate(items, 1):
        found = _one_rank(item)
        heading = ""
        if ":" in item:  # a heading before the colon is not part of the item
            heading, _, item = item.partition(":")
            item = item.strip()
            found = found or _one_rank(item)
        if found is None and ends is not None:
            found = _by_ends(item, ends)
            if found is None and heading and _END_HEADING.fullmatch(heading.strip()):
                end = _by_ends(heading.strip(), ends)  # "Longest: Volga": the heading names its end
                found = None if end is None else (end[0], item)
        if found is None:
            unranked += 1
            found = (position, item)
            loose.append(True)
        else:
            loose.append(found[0] == _MIDDLE)
            if found[0] not in (position, _LAST if position == len(items) else position):
                in_place = False
        ranked.append(found)
    if unranked == len(items):
        return None
    if ends is not None and any(r == _MIDDLE for r, _ in ranked):
        # "Longest: Volga. Shortest: Thames. In between: Danube, then Rhine":
        # the ranked take their places, the rest fill those left in order.
        from scorers.evaluate.strict.mentions import fill

        ranks = [None if free else r for free, (r, _) in zip(loose, ranked, strict=True)]
        return fill(ranks, [item for _, item in ranked])
    firsts = [k for k, (r, _) in enumerate(ranked) if r == 1]
    lasts = [k for k, (r, _) in enumerate(ranked) if r == _LAST]
    if unranked and firsts and lasts and lasts[0] < firsts[0]:
        # Written from the last end ("the biggest is ..., then ..."): an item
        # without a rank keeps its place counted from that end.
        n = len(items)
        ranked = [
            (n + 1 - k if (r == k + 1 and item is items[k]) else r, item)
            for k, (r, item) in enumerate(ranked)
        ]
    if len({r for r, _ in ranked}) != len(ranked):
        return None
    if unranked and ends is None and not in_place:
        return None  # some ranked out of place, some not at all: no order to read
    return [item for _, item in sorted(ranked)]


# A clause that goes on about the item before it ("lunch, which happens
# before dinner"), not an item of its own: English's relative words.
_CONTINUATION = re.compile(r"(?:which|that|who|whose|where|when)\b", re.IGNORECASE)


def _label_items(items: list[str], options: dict[str, str]) -> list[str] | None:
    """Each item mapped through the question's options to its label, when every
    item names exactly one option ("elephant" is B when B is the elephant). A
    relative clause that names no option is no item."""
    out: list[str] = []
    for item in items:
        found = read_letters(item)
        if len(found) == 1 and found[0] in options:
            out.append(found[0])
            continue
        label = map_item(item, options)
        if label is None:
            if out and _CONTINUATION.match(item) and not named(fold_phrase(item), options):
                continue
            return None
        out.append(label)
    return out


def unmapped(got: list[str], expected: list[str], options: dict[str, str]) -> str | None:
    """An item of a list read from names that names no option, or several, where
    the items that do map sit where ``expected`` has them: the verdict then
    rests on what that item names ("Mercurio" may be Mercury), which only a
    reader who knows it can say. Returns the item, else None."""
    if len(got) != len(expected):
        return None
    if set(expected) <= set(options):
        mapped = [g if g in options else map_item(g, options) for g in got]
    else:  # word items: the expected ones are themselves
        mapped = [g if g in expected else None for g in got]
    doubtful = [g for g, m in zip(got, mapped, strict=True) if m is None]
    if not doubtful or any(_HEDGING.search(g) or _DECLINING.search(g) for g in doubtful):
        return None  # all named, a hedge ("c or possibly b first") or a refusal: no guess
    for g, m, want in zip(got, mapped, expected, strict=True):
        if m is not None and m != want:
            return None  # a mapped item is out of place: wrong whatever the rest names
        if m is None and want in mapped:
            return None  # the option this place needs is already elsewhere
        if m is None and _other_place(g, options.get(want, want)):
            return None  # "Uranus" where Earth belongs is another place, surely
    return doubtful[0]


def _other_place(item: str, wanted: str) -> bool:
    """``item`` is a place the data knows, and ``wanted`` one too, under another
    name that is not the item's (so the item names something else)."""
    from scorers.evaluate.strict import names

    folded = fold_phrase(item)
    if not names.is_place(folded) or not names.is_place(fold_phrase(wanted)):
        return False
    return names.place_of(folded) != names.place_of(wanted)


# "more", "bigger than", "south of", "above": a comparison between two items.
_COMPARISON = re.compile(
    r"\b(?:(?:[a-z]+er|more|less)[ \t]+than|(?:north|south|east|west|left|right|ahead"
    r"|in front)[ \t]+of|above|below|behind|outside|inside)\b",
    re.IGNORECASE,
)


def relation(segment: str, options: dict[str, str]) -> str | None:
    """A clause of the answer that compares two options ("the horse is bigger
    than the cat"), if it has one."""
    if _COMPARISON.search(segment) is None:
        return None
    for part in _SEPARATOR.split(segment):
        if _COMPARISON.search(part) and len(named(fold_phrase(part), options)) >= 2:
            return part.strip()
    return None


# Words that make no item of a list on their own ("which", "was").
_FUNCTION_WORDS = frozenset(
    [
        "which", "that", "who", "whose", "where", "when", "is", "are", "was", "were", "be",
        "comes", "came", "then", "and", "the", "a", "an", "it", "its", "this", "one",
        "finally", "lastly", "next", "first", "second", "third", "fourth", "fifth", "last",
        "place", "position", "rank", "ranked", "number", "no", "them", "they", "these", "those",
        "both", "each", "between", "in",
    ]
)  # fmt: skip


def sloppy(got: list[str], expected: list[str], options: dict[str, str]) -> bool:
    """The list read is no clean list of the items: too few, or some items carry
    words beside an item's name ("farthest is mars", "carol was") or only words
    that make no item ("which"). An extra item of its own ("C, A, B, D, E",
    "Paris, Rome, Berlin" for two cities) makes the list clean and wrong."""
    if len(got) == len(expected) and set(got) == set(expected):
        return False
    labels = set(expected) <= set(options)
    names = [options[e] for e in expected] if labels else [e.lower() for e in expected]
    by_number: dict[str, str] | None = None
    for item in got:
        if item in expected:
            continue
        words = fold_phrase(item).split()
        if not words or set(words) <= _FUNCTION_WORDS:
            continue
        folded = " ".join(words)
        if any(find_phrase(folded, n) for n in names):
            continue
        by_number = by_number or {str(k): n for k, n in enumerate(names)}
        if map_item(folded, by_number) is not None:
            continue  # a word of one item's name alone ("the elephant" for "African elephant")
        return False  # an item of its own, not one expected
    return True


def unread(segment: str, got: list[str], expected: list[str], options: dict[str, str]) -> bool:
    """The answer names every option of the order but was not read as a list of
    them (too few items, or items that name no option): its order is told in
    prose that a reader must assemble ("Mars is the farthest and Mercury the
    closest, with Earth just outside Venus")."""
    labelled = set(expected) <= set(options)
    known = options if labelled else expected
    if len(got) == len(expected) and all(g in known for g in got):
        return False
    if _HEDGING.search(segment):
        return False  # an order offered beside another is no commitment: wrong
    folded = fold_phrase(segment)
    return all(find_phrase(folded, options[e] if labelled else e) for e in expected)


def _and_in_names(expected: list[str]) -> bool:
    """An expected item is itself a name with "and" in it (Trinidad and Tobago)."""
    return any(_AND.search(f" {e} ") for e in expected)


# An aside that ranks its item ("Mars (4th)", "(first)"); a bare number in
# brackets is a value as often as a rank ("Earth (1)").
_ORDINAL_ASIDE = re.compile(
    r"\(\s*(?:#?\d{1,2}(?:st|nd|rd|th)|#\d{1,2}|first|second|third|fourth|fifth|last)\b",
    re.IGNORECASE,
)
_IN_THAT_ORDER = re.compile(
    r",?[ \t]*(?:in (?:that|this) order|respectively)[ \t]*\.?[ \t]*$", re.IGNORECASE
)


def _hyphen_joined(text: str, expected: list[str]) -> str:
    """Hyphens between two expected items become separators ("Earth-Mars")."""
    lowered = text.lower()
    cuts = [
        i
        for i, ch in enumerate(lowered)
        if ch == "-"
        and any(lowered[max(0, i - 80) : i].rstrip().endswith(e) for e in expected)
        and any(lowered[i + 1 : i + 81].lstrip().startswith(e) for e in expected)
    ]
    for i in reversed(cuts):
        text = text[:i] + ", " + text[i + 1 :]
    return text


_GROUPED = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_INNER_ASIDE = re.compile(r"(?<=[^\W\d_])[ \t]*\([^()\n]{1,60}\)")
# A remark after a whole list: in brackets or after a spaced dash.
_DECLINING = re.compile(
    r"\b(?:skip|skipping|pass|cannot|can't|unable|don't know|no idea|none)\b", re.IGNORECASE
)
_HEDGING = re.compile(
    r"\b(?:or|maybe|perhaps|possibly|might|could|though|although|unsure|not sure)\b", re.IGNORECASE
)
_TRAILING_REMARK = re.compile(
    r"(?<=\S)(?:[ \t]*\([^()]{0,200}\)[ \t.]*$|[ \t]+[—–-][ \t]+[^—–\n]{0,200}$)"
)


_CONCLUDING_REMARK = re.compile(r"(?:so|thus|hence|therefore|which|that|meaning|i\.?e\.?)\b")
_OFFERS = re.compile(r"\b(?:or|maybe|perhaps|possibly)\b", re.IGNORECASE)


def _hedges(
    remark: str,
    expected: list[str],
    options: dict[str, str] | Callable[[], dict[str, str]] | None,
    ends: tuple[str, str] | None,
) -> bool:
    """A remark after a list hedges it when it offers another ("— or maybe B, A,
    C") or doubts it with another whole order ("though it could be B, A, C");
    "— though A and C are close" comments on the list it follows."""
    if _HEDGING.search(remark) is None:
        return False
    if _OFFERS.search(remark):
        return True
    return len(_read_list(remark, expected, options, ends)) >= len(expected)


# A Markdown table's rule row ("|---|:--:|") and its rows ("| 1 | Everest |").
_TABLE_RULE = re.compile(r"[ \t]*\|?(?:[ \t]*:?-{3,}:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*$")
_TABLE_ROW = re.compile(r"[ \t]*\|(.*)\|[ \t]*$")


def untable(text: str) -> str:
    """A Markdown table as one line per row, its cells joined by spaces and its
    header dropped: a ranking written as a table ("| 1 | Everest |" or
    "| Everest | 8,849 m |") is read as the numbered lines it stands for (the
    cell bars would otherwise be list joiners)."""
    if "---" not in text or "|" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    for i, line in enumerate(lines):
        if _TABLE_RULE.match(line):
            if i and out and _TABLE_ROW.match(lines[i - 1]):
                out.pop()  # the header row above the rule
            continue
        row = _TABLE_ROW.match(line)
        out.append(" ".join(c.strip() for c in row.group(1).split("|")) if row else line)
    return "\n".join(out)


def read_list(
    segment: str,
    expected: list[str],
    options: dict[str, str] | Callable[[], dict[str, str]] | None = None,
    ends: tuple[str, str] | None = None,
) -> list[str]:
    """The items the answer lists, in order, comparable with :func:`read_order`.

    With the question's ``options`` (label -> text), items written as the
    options' names or carrying ranks are mapped to labels through them. A
    remark in brackets after the list ("B, C, A (Oslo, Berlin, Rome)") is not
    part of it."""
    got = _read_list(segment, expected, options, ends)
    if (
        len(got) > len(expected)
        and got[-1] not in expected
        and _CONCLUDING_REMARK.match(got[-1])
        and not any(find_phrase(got[-1], e) for e in expected)
    ):
        got = got[:-1]  # "..., so shortest first it's the reverse": a remark on the list
    if got != expected:
        m = _TRAILING_REMARK.search(segment)
        if m is not None and not _hedges(m.group(), expected, options, ends):
            shorter = _read_list(segment[: m.start()], expected, options, ends)
            if len(shorter) == len(expected) and (
                len(got) != len(expected) or set(shorter) == set(expected) != set(got)
            ):
                return shorter
    return got


def _read_list(
    segment: str,
    expected: list[str],
    options: dict[str, str] | Callable[[], dict[str, str]] | None = None,
    ends: tuple[str, str] | None = None,
) -> list[str]:
    """The items the answer lists, in order, comparable with :func:`read_order`.

    With the question's ``options`` (label -> text), items written as the
    options' names or carrying ranks are mapped to labels through them."""
    joined = "".join(expected)
    letters = len(joined) == len(expected) and joined.isalpha()
    text = fold_width(segment[:_MAX_SEGMENT])
    if text[:5].lower() == "from ":
        text = _LEADING_RANGE.sub("", text, count=1)  # "From smallest to largest, ..."
    elif " to " in text[:40]:
        text = _LEADING_ENDS.sub("", text, count=1)  # "Densest to lightest: ..."
    if "»" in segment or "›" in segment:  # guillemets between items, not quotes
        text = fold_width(segment[:_MAX_SEGMENT].replace("»", ">").replace("›", ">"))
    if letters and ("-" in text or "–" in text or "/" in text or "." in text):
        text = _HYPHENED_LETTERS.sub(lambda m: re.sub("[-–/.]", ", ", m.group()), text)
    if letters and _SIMPLE_LETTERS.fullmatch(text):
        return _LETTER.findall(text.upper())
    if "," in text and _GROUPED.search(text):
        text = _GROUPED.sub("", text)  # "8,849 m": a digit group, not a separator
    if "(" in text:
        # An aside after an item ("Everest (8849 m)", "press (c. 1440)") may hold
        # separators of its own; a rank in brackets ("Mars (4th)") stays.
        text = _INNER_ASIDE.sub(
            lambda m: m.group() if _ORDINAL_ASIDE.search(m.group()) else "", text
        )
    if not letters and "-" in text:
        text = _hyphen_joined(text, expected)  # "Jupiter-Saturn-Earth-Mars"
    text = _IN_THAT_ORDER.sub("", text)
    # Expected items that open with a word _NUMBERING strips ("first quarter").
    kept = () if letters else _numbered_names(tuple(expected))
    parts = [_strip_item(p, kept) for p in _SEPARATOR.split(text)]
    and_named = _and_in_names(expected)
    if len(parts) > 1 and not and_named:
        # "Paris, London and Rome": "and" joins the last item unless an item
        # is itself a name with "and" in it (Trinidad and Tobago).
        parts = [q for p in parts for q in _AND.split(p)]
    items = [p for p in parts if p]
    if len(items) == 1 and len(expected) > 1 and not and_named:
        items = [
            q for q in (_strip_item(p, kept) for p in _AND.split(items[0])) if q
        ]  # "B and C and A"
    if len(items) == 1 and len(expected) > 1:
        words = items[0].split()
        if len(words) > 1:
            items = words
        elif letters and items[0].isupper() and items[0].isalpha():
            items = list(items[0])
    plain = _plain(items, letters)
    if plain == expected:
        return plain  # the usual answer: no ranks to sort, no names to map
    ranked = _ranked(items, ends, kept) if len(items) > 1 else None
    if ranked is not None:
        items = [_strip_item(i, kept) for i in ranked]
        plain = _plain(items, letters)
    opts = options() if callable(options) else options
    if opts and set(expected) <= set(opts):
        mapped = _label_items(items, opts)
        if mapped is not None:
            return mapped
    if letters:
        return plain
    out = plain
    if out != expected and len(out) == len(expected):
        out = _by_other_names(out, expected)
    return out


@lru_cache(maxsize=1024)
def _numbered_names(expected: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(e for e in expected if _NUMBERING.match(e))


def _plain(items: list[str], letters: bool) -> list[str]:
    """The items as written: letters read as options, words folded."""
    if letters:
        out: list[str] = []
        for item in items:
            found = read_letters(item)
            out.append(found[0] if len(found) == 1 else fold_phrase(item))
        return out
    return [_fold_item(item) for item in items]


# An item with a rank or a relation in it ("ann took first", "cy behind ben")
# is read from its mentions, not mapped whole.
_RANK_WORDS = re.compile(
    r"\b(?:first|second|third|fourth|fifth|last|won|winner|runner|top|bottom|middle|between"
    r"|\d{1,2}(?:st|nd|rd|th)|after|before|behind|ahead|than)\b"
)


def _by_other_names(items: list[str], expected: list[str]) -> list[str]:
    """Word items that name one expected item by another name or spelling
    ("Russland" for Russia, "Mount Everest" for Everest), as that item."""
    out = []
    pseudo = {e: e for e in expected}
    own = {w for e in expected for w in e.split()}  # "first" in "first iphone" is a name
    for item in items:
        if item not in expected and not {m.group() for m in _RANK_WORDS.finditer(item)} - own:
            answer = Answer(item)
            hits = [e for e in expected if answer.contains(e)]
            # Else the words it shares with one item only ("iphone" for "first
            # iphone", "berlin wall falls" for "fall of the berlin wall").
            item = hits[0] if len(hits) == 1 else map_item(item, pseudo) or item
        out.append(item)
    return out
