"""Evidence spans and the sentence arithmetic the detectors share.

Every detector reports where it looked: an :class:`Evidence` whose ``text`` is
exactly ``texts.<field>[start:end]``. The lowercased copies the detectors search
(``scan.lowered``) keep the original length, so one offset serves both.
"""

from __future__ import annotations

from scorers.records import Evidence, Flag, TextField

SOURCE = "heuristic"

# Benchmark answers repeat ("**Final Answer:** C" from one model on many items):
# what a detector reads from a short answer alone is memoised for the last
# distinct ones (flags._read_answer, contradiction._committed_span).
SHORT_ANSWER = 400  # characters
SHORT_ANSWER_MEMO = 1024  # distinct answers kept

# A sentence ends at . ! ? followed by whitespace, or at a line break; "3.5"
# and "e.g." inside a sentence do not end it. Found with str.rfind/find, which
# run in C, because these helpers are called for every cue.
_ENDS = (". ", "! ", "? ", "\n")
# How far a detector looks around a hit for the sentence it sits in; bounded so
# that a 100,000-character line costs no more than a short one.
_SENTENCE_REACH = 200


def evidence(field: TextField, text: str, start: int, end: int) -> Evidence:
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    return Evidence(field=field, start=start, end=end, text=text[start:end])


def flag(kind: str, spans: list[Evidence], detail: str) -> Flag:
    return Flag(kind=kind, source=SOURCE, evidence=spans, detail=detail)


def sentence_start(text: str, pos: int) -> int:
    """Start of the sentence holding ``pos`` (at most ``_SENTENCE_REACH`` back)."""
    # The four searches of _ENDS written out: this runs for every cue.
    lo = pos - _SENTENCE_REACH if pos > _SENTENCE_REACH else 0
    last = lo
    i = text.rfind(". ", lo, pos)
    if i >= 0:
        last = i + 2
    i = text.rfind("! ", last, pos)
    if i >= 0:
        last = i + 2
    i = text.rfind("? ", last, pos)
    if i >= 0:
        last = i + 2
    i = text.rfind("\n", last, pos)
    if i >= 0 and i + 1 > last:
        last = i + 1
    while last < pos and text[last] in " \t*#>-":
        last += 1
    return last


def sentence_end(text: str, pos: int) -> int:
    """End of the sentence holding ``pos`` (at most ``_SENTENCE_REACH`` on)."""
    n = len(text)
    hi = pos + _SENTENCE_REACH if pos + _SENTENCE_REACH < n else n
    best = hi
    for end in _ENDS:
        i = text.find(end, pos, best + 1)
        if i != -1 and i + 1 < best:
            best = i + 1
    if hi == n and best == hi and text[hi - 1 : hi] in (".", "!", "?"):
        return hi
    return best


def sentence_end_from(text: str, pos: int, earlier: int, earlier_end: int) -> int:
    """``sentence_end(text, pos)``, knowing ``earlier_end = sentence_end(text, earlier)``.

    For ``earlier <= pos``: when a sentence end found from ``earlier`` lies
    after ``pos`` (and was no mere reach limit), it is the first one from ``pos`` too.
    """
    reach = earlier + _SENTENCE_REACH if earlier + _SENTENCE_REACH < len(text) else len(text)
    if earlier <= pos < earlier_end < reach:
        return earlier_end
    return sentence_end(text, pos)


def sentence_span(
    field: TextField, text: str, start: int, end: int, opens: int | None = None
) -> Evidence:
    """Evidence covering the whole sentence around ``text[start:end]``.

    ``opens`` is ``sentence_start(text, start)`` when the caller has it.
    """
    s = sentence_start(text, start) if opens is None else opens
    e = sentence_end(text, max(start, end - 1))
    while e > s and text[e - 1].isspace():
        e -= 1
    return evidence(field, text, s, e)


def tail_start(text: str, fraction: float, floor: int, ceiling: int) -> int:
    """Offset where the closing part of ``text`` begins, snapped to a sentence.

    The closing part is ``fraction`` of the text, but at least ``floor`` and at
    most ``ceiling`` characters.
    """
    size = min(max(int(len(text) * fraction), floor), ceiling)
    if size >= len(text):
        return 0
    return sentence_start(text, len(text) - size)
