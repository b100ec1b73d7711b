"""Model text is data: make any string safe to draw, keeping its offsets.

Every character is replaced by exactly one character, so an evidence span
``[start, end)`` computed on the original text still points at the same
characters in the displayed one. Nothing here parses markup: callers draw the
result with ``rich.segment.Segment`` or ``rich.text.Text``, which never do.
"""

from __future__ import annotations

# C0 controls become their Unicode "control picture" (ESC -> U+241B), DEL -> U+2421.
# C1 controls and the bidirectional overrides, which can reorder or hide what
# follows them on a terminal, become U+FFFD.
_PICTURES: dict[int, str] = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x7F] = "\u2421"
_PICTURES.update(dict.fromkeys(range(0x80, 0xA0), "\ufffd"))
_PICTURES.update(dict.fromkeys((*range(0x202A, 0x202F), *range(0x2066, 0x206A)), "\ufffd"))
_PICTURES[ord("\t")] = " "

_IN_TEXT = dict(_PICTURES)
del _IN_TEXT[ord("\n")]  # a multi-line view keeps its line breaks
_ONE_LINE = dict(_PICTURES)
_ONE_LINE[ord("\n")] = "\u23ce"  # ⏎


def visible(text: str) -> str:
    """``text`` with every control character made visible; newlines kept."""
    return text.translate(_IN_TEXT)


def one_line(text: str, limit: int = 200) -> str:
    """A single display line: controls and newlines made visible, cut at ``limit``."""
    if len(text) > limit:
        text = text[: limit - 1] + "\u2026"
    return text.translate(_ONE_LINE)
