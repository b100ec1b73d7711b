"""A list laid out over lines: the last paragraph's lines and sentences, or the
heads of a numbered list whose items are explained below them."""

from __future__ import annotations

import re

from scorers.evaluate.strict.commit import sentences
from scorers.evaluate.strict.fold import fold_phrase


def last_block(text: str) -> str:
    """The last paragraph of ``text`` with its lines and sentences as list
    items ("The tiniest is the mouse. The cat is bigger. Then the horse."),
    when it has several, else ""."""
    parts = sentences(text.strip().rsplit("\n\n", 1)[-1])
    # A line's remark after a spaced dash ("2) K2 – 8611 m") is no item.
    parts = [_DASH_REMARK.sub("", p) for p in parts]
    return "; ".join(parts) if len(parts) > 1 else ""


def numbered_heads(text: str, expected: list[str]) -> str:
    """The heads of the items of the one list numbered 1 to n at the starts of
    lines, as many as ``expected`` (each up to a colon or the line's end),
    joined as list items, else "". A head that names no item but gives its
    other name in brackets ("Network Interface Layer (also called Link Layer)")
    is read as that name."""
    heads = [(int(m.group(1)), m.group(2)) for m in _NUMBERED_LINE.finditer(text)]
    if [n for n, _ in heads] != list(range(1, len(expected) + 1)):
        return ""
    items = [fold_phrase(x) for x in expected]
    out = []
    for _, head in heads:
        head = _DASH_REMARK.sub("", _DRESS_MARKS.sub("", head)).strip()
        main, _, aside = head.partition("(")
        other = _ALSO_CALLED.match(aside)
        if other and not _names_any(main, items) and _names_any(other.group(1), items):
            head = other.group(1)
        out.append(head)
    return "; ".join(out)


def _names_any(text: str, items: list[str]) -> bool:
    folded = f" {fold_phrase(text)} "
    return any(f" {item} " in folded for item in items)


_ALSO_CALLED = re.compile(
    r"(?:also |often |sometimes )?(?:called|known as|named|aka|or)[ \t]+([^()]+)\)"
)


_NUMBERED_LINE = re.compile(r"^[ \t]{0,3}(\d{1,2})[.)][ \t]+([^\n:：]{1,120})", re.MULTILINE)
_DRESS_MARKS = re.compile(r"[*_`#]+")
_DASH_REMARK = re.compile(r"[ \t]+[—–-][ \t]+[^\n]{0,200}$")
