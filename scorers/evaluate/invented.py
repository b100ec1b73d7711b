"""Where a model starts a problem of its own, after it has answered the one asked.

A model that keeps generating past its answer often continues the prompt's format:
a new turn labelled as the prompt labels its problems (``Question:``, ``Problem:``,
``Q:``, or a dialogue's ``User:``/``Human:``), which it then answers too ("The
answer is (B) decrease.\\n\\nQuestion: If all the fish die ...\\nAnswer: (A) ...").
Those later answers answer problems the model invented, not the one asked, so a
reader stops at the first such turn once an answer has been given before it. A
turn that poses the asked question again answers it again, and is read.

Strict mode and math prose both cut here; each says what "an answer was given"
means for it (a marker or a box; for math also an answer tag or field).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable

# A turn label at the start of a line, in any case and Markdown dress, an optional
# number and its colon; what it poses follows on its line or on the next.
_LABEL = r"[ \t*_#>]*(?:question|problem|q|user|human)(?:[ \t]*\d+)?[ \t*_.]*[:：]"
_TURN = re.compile(
    rf"^{_LABEL}[ \t*_]*(?:\n[ \t]*)?(?P<posed>[^\s][^\n]*)", re.IGNORECASE | re.MULTILINE
)
# ... or a Markdown heading that names a new problem ("## Medical Question", "### Problem 2"),
# what it poses on the next line that holds text.
_HEADING = re.compile(
    r"^[ \t]*#{1,6}[ \t]*(?:[^\W\d_]+[ \t]+)?(?:question|problem)(?:[ \t]*\d+)?[ \t]*:?[ \t]*\n"
    r"(?:[ \t]*\n)*[ \t]*(?P<posed>[^\s][^\n]*)",
    re.IGNORECASE | re.MULTILINE,
)
# Where a label can stand: the text's start, or after a newline. The pattern that opens
# with the newline is searched for that literal first, where ``_TURN``'s "^" is tried
# at every position of the text: about 1.4 us an answer of the realistic benchmark
# corpus, against 4 us.
_LABEL_AT_START = re.compile(_LABEL, re.IGNORECASE)
_LABEL_AFTER_NEWLINE = re.compile("\n" + _LABEL, re.IGNORECASE)
_ASKED_LABEL = re.compile(
    r"[ \t*_#]*(?:question|problem|q)(?:[ \t]*\d+)?[ \t*_.]*[:：][ \t]*", re.I
)
_SAME_OPENING = 30  # characters of two problems' first lines that make them one problem


def _opening(text: str) -> str:
    return " ".join(text.split())[:_SAME_OPENING].lower()


def before_invented_problem(text: str, answered: Callable[[str], bool], asked: str = "") -> str:
    """``text`` up to the first turn that poses a problem other than ``asked`` (when
    it is known) and follows a part of ``text`` that ``answered`` says gives an answer."""
    turns = (
        []
        if _LABEL_AT_START.match(text) is None and _LABEL_AFTER_NEWLINE.search(text) is None
        else list(_TURN.finditer(text))
    )  # (the usual answer poses nothing)
    if "#" in text:
        turns = sorted([*turns, *_HEADING.finditer(text)], key=lambda m: m.start())
    if not turns:
        return text
    asked = asked.strip()
    label = _ASKED_LABEL.match(asked)
    again = _opening(asked[label.end() if label else 0 :].split("\n", 1)[0]) if asked else ""
    starts = [m.start() for m in turns if not again or _opening(m.group("posed")) != again]
    # A part that gives an answer stays answered as it grows: bisect for the first
    # (a text of many invented problems is read in a few passes, not one per turn).
    first = bisect_left(starts, True, key=lambda start: answered(text[:start]))
    return text[: starts[first]] if first < len(starts) else text
