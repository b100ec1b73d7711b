"""Split an answer into blanks, and a blank into the things it lists.

Blanks (ordered): newlines, ``;``, labels ``(1)`` ``(2)`` and circled labels
``①`` when followed by content. Inside a blank (order-free): alternatives joined
by "or", points and values separated by commas or "and". A point ``(5, 0)`` is
one item with two coordinates.
"""

from __future__ import annotations

import re

from scorers.evaluate.mathmatch.normalize import clean, strip_end_punctuation, top_level_split

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
_SEP = "\x1f"
_PAREN_LABEL = re.compile(r"(?:(?<=^)|(?<=[\s;,.:" + _SEP + r"]))\(\s*\d{1,2}\s*\)(?=\s*\S)")
_CIRCLED_LABEL = re.compile(
    "[" + CIRCLED + r"](?=\s*(?!(?:and|or)\b)[^\s;,." + CIRCLED + _SEP + "])"
)
_LINE_LABEL = re.compile(
    r"^(?:\d{1,2}\)|\d{1,2}\.(?=\s+\D)|(?:part|question|q)\s*\d{1,2}\s*[:.)])\s*", re.I
)
_THOUSANDS_BLANK = re.compile(r"^-?\d{1,3}(?:(?:,|\{,\}|\\,| )\d{3})+(?:\.\d+)?(?:[^\d,]*)$")
_POINT_NAME = re.compile(r"^[A-Z][A-Za-z0-9_']{0,3}\s*(?:[:=]\s*)?(?=\()")
_SET_BRACES = re.compile(r"^\\?\{(.*?)\\?\}$")


def split_blanks(text: str) -> list[str]:
    s = clean(text) if "\n" not in text else "\n".join(clean(line) for line in text.splitlines())
    s = s.replace("\n", _SEP)
    s = _PAREN_LABEL.sub(_SEP, s)
    s = _CIRCLED_LABEL.sub(_SEP, s)
    pieces = []
    for chunk in s.split(_SEP):
        for piece in top_level_split(chunk, (";",)):
            piece = _LINE_LABEL.sub("", piece.strip())
            piece = strip_end_punctuation(piece)
            if piece:
                pieces.append(piece)
    return pieces


def split_items(blank: str) -> list[str]:
    """Alternatives / listed values of one blank, each with point names removed."""
    s = blank.strip()
    if _THOUSANDS_BLANK.match(s):
        return [s]
    m = _SET_BRACES.match(s)
    if m:
        s = m.group(1)
    items = top_level_split(s, (" or ", ";", ",", " and "))
    out: list[str] = []
    for item in items:
        item = _POINT_NAME.sub("", item).strip()
        if item.count("\\pm") == 1:
            # x = ±2 names two answers.
            out.extend((item.replace("\\pm", "+", 1), item.replace("\\pm", "-", 1)))
        elif item:
            out.append(item)
    return out


def coordinates(item: str) -> list[str] | None:
    """``(5, 0)`` -> ["5", "0"]; None when the item is not a tuple."""
    s = item.strip()
    if len(s) < 5 or s[0] != "(" or s[-1] != ")":
        return None
    depth = 0
    for i, ch in enumerate(s):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and i != len(s) - 1:
            return None  # "(a)+(b)" is not one tuple
    coords = top_level_split(s[1:-1], (",",))
    return coords if len(coords) >= 2 else None
