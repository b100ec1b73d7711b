"""The reference grader's answer extraction (spec §4, steps A-D), quirks included.

Markers are case-sensitive substrings tried in a fixed order; the first marker
found anywhere wins and the text after its *last* occurrence is the answer.
Only without a marker is the first ``\\boxed{...}`` (no nested braces) used,
and without either the response is returned unstripped. Six characters are
then normalised. Everything here is deliberately literal: rome mode exists to
reproduce published numbers, and strict mode (scorers.evaluate.strict) fixes the rest.
"""

from __future__ import annotations

MARKERS: tuple[str, ...] = ("Answer:", "Answer", "答案：", "答案:", "答案")
_BOX_OPEN = "\\boxed{"
# Step D: exactly these six, nothing else (NBSP, em dash, curly quotes stay).
_NORMALISE: tuple[tuple[str, str], ...] = (
    ("\u2032", "'"),
    ("\u2009", " "),
    ("\u2010", "-"),
    ("\u2212", "-"),
    ("\u2013", "-"),
    ("\u22c5", "\u00b7"),
)


def split_marker(text: str) -> str | None:
    """Step A: the text after the last occurrence of the first marker present, stripped."""
    for marker in MARKERS:
        at = text.rfind(marker)
        if at != -1:
            return text[at + len(marker) :].strip()
    return None


def first_boxed(text: str) -> str | None:
    """Step B: the content of the first ``\\boxed{...}``, cut at the first ``}``."""
    # Same first match as the reference's regex ``\\boxed\{([^}]+)\}``, found with
    # str.find: the regex backtracks over every unclosed box (quadratic on 1 MB).
    start = text.find(_BOX_OPEN)
    while start != -1:
        inner = start + len(_BOX_OPEN)
        close = text.find("}", inner)
        if close == -1:
            return None  # no later box can close either
        if close > inner:
            return text[inner:close].strip()
        start = text.find(_BOX_OPEN, start + 1)  # an empty box never matches
    return None


def normalize(text: str) -> str:
    """Step D: the reference's six-character normalisation."""
    # ``in`` is a fast search, and instant when the text holds no character
    # as wide as the needle (all six are outside Latin-1).
    for old, new in _NORMALISE:
        if old in text:
            text = text.replace(old, new)
    return text


def extract_answer(text: str) -> str:
    """Steps A-D: what the reference stores in ``answer`` before the evaluator runs."""
    found = split_marker(text)
    if found is None:
        found = first_boxed(text)
    if found is None:
        found = text
    return normalize(found)
