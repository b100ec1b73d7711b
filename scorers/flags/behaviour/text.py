"""Sentences, the closing part of a reasoning, the scope of doubt, evidence spans: what all share."""

from __future__ import annotations

import re
from typing import NamedTuple

from scorers.flags.behaviour.cues import pattern, regex
from scorers.records import Evidence, Flag, TextField

SOURCE = "heuristic"


class Sentence(NamedTuple):
    start: int
    end: int
    text: str
    paragraph: int  # index of the paragraph (blank-line separated block) holding it


# A sentence runs to 。！？ or . ! ? and a space or the end ("3.5", "(B)." stay whole) or to a line
# break, unless the line (wrapped) ends in no . ! ? : * ." and the next opens a lowercase word, or
# it ends in , ; or is 50 long and the next is no list item. A "# heading" is a line.
_GOES_ON = (
    r"(?<![.!?:][\"'”’)\]])(?:(?<=[^\s.!?:*])\n(?=[ \t]*[a-z][a-z'’])(?!.{0,3}[.)]\s)|(?:(?<=[,;])"
    r"|(?<=[^\n]{49}[^\s.!?:*]))\n(?=[ \t]*[\w$\\\"'(])(?![ \t]*\(?(?:\d\d?|[A-Za-z])[.)]\s))"
)
_SENTENCE = re.compile(
    rf"#+ .*|\S(?:[^\n.!?。！？]+|[.!?](?=[^\s.!?])|{_GOES_ON})*(?:[.!?。！？]+|$|(?=\n))"
)
wraps = re.compile(_GOES_ON).match  # (text, i): whether the line break at i goes on
LINE_END = rf"(?!{_GOES_ON})\n"  # a line break that ends a sentence; one a sentence opens after:
LINE_START = r"(?<=\n)(?<![,;]\n)(?<![^\n]{49}[^\s.!?:*]\n)"  # (a lowercase next line aside)
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
# Markdown headings and bold labels ("**Final Answer**") are not sentences of their own.
_HEADING = re.compile(r"^(?:#+\s.*|\*\*[A-Za-z][A-Za-z\s'’-]*\*\*:?|[-*]\s*)$")


def sentences(text: str, start: int = 0) -> list[Sentence]:
    """The sentences of ``text[start:]`` with their offsets into ``text``."""
    breaks = [m.end() for m in _PARAGRAPH_BREAK.finditer(text, start)]
    out, paragraph = list[Sentence](), 0
    for m in _SENTENCE.finditer(text, start):
        while paragraph < len(breaks) and breaks[paragraph] <= m.start():
            paragraph += 1
        body = m.group(0).rstrip()  # it opens on a non-space
        if body[0] not in "#*-" or not _HEADING.match(body):  # (a NamedTuple's __new__ is slow)
            out.append(tuple.__new__(Sentence, (m.start(), m.start() + len(body), body, paragraph)))
    return out


# The closing part of a reasoning: LRM-Eval's rubric and the hedging literature
# find the decisive conclusion or doubt near the end, and reading less keeps it cheap.
TAIL_SHARE, TAIL_FLOOR, TAIL_CEILING = 0.25, 600, 1500


def closing_part(text: str) -> list[Sentence]:
    """The sentences of the last quarter of ``text`` (600 to 1,500 characters)."""
    lo = max(0, len(text) - min(TAIL_CEILING, max(TAIL_FLOOR, int(len(text) * TAIL_SHARE))))
    if lo:
        cut, line = text.rfind(". ", 0, lo), text.rfind("\n", 0, lo)
        while 0 < line > lo - 300 and wraps(text, line):  # a wrapped line goes on
            line = text.rfind("\n", 0, line)
        lo = (cut := max(cut, line)) + 1 if cut >= 0 and lo - cut < 300 else lo
    return sentences(text, lo)


_RETRACTS = pattern("not_assertions", "retraction")  # "Wait, ...", "Let me reconsider"
_WORD = re.compile(r"(?<!\\)\b[a-zA-Z]{3,}")  # a word; a LaTeX command ("\\boxed") is none


def final_stretch(closing: list[Sentence], anchor: int | None) -> list[Sentence]:
    """What the reasoning says last: from the sentence before its conclusion (``anchor``) in its
    paragraph (earlier ones weigh options it chose among), or with none the last three, also in
    paragraphs of a sentence or two, from the last retraction on; lines opening the paragraph that
    say nothing ("**Final Answer**", "I'd select:") bring in the three sentences before them."""
    last = top = len(closing) - 1 if anchor is None else anchor
    first = max(0, len(closing) - 3 if anchor is None else anchor - 1)
    paragraph = closing[last].paragraph if closing else 0
    while top > 0 and closing[top].paragraph == paragraph and _says_nothing(closing[top].text):
        top -= 1
    if top < last and closing[top].paragraph < paragraph:
        paragraph, first = closing[top].paragraph, max(0, top - 2)
    while first < len(closing) - 1 and (at := closing[first].paragraph) < paragraph:
        if anchor is None and sum(s.paragraph == at for s in closing) < 3:
            break  # a sentence or two a paragraph (summarised thinking): read across them
        first += 1
    for i, s in enumerate(closing[first:], first) if anchor is None else ():
        first = i if s.paragraph < paragraph and _RETRACTS.search(s.text, 0, 40) else first
    return closing[first:]


def _says_nothing(line: str) -> bool:
    """A line with no word ("\\boxed{48}") or a lead-in to what follows ("I would select:")."""
    return line.endswith(":") or _WORD.search(line) is None


# Words that put a cue out of the writer's own assertion: negation, hypothesis,
# modality, plans ("if I could search", "I don't have a calculator", "let me check").
_HYPOTHETICAL = regex("hypothetical")  # on a short window: a plain regex is cheaper than a scan
_CLAUSE_BREAK = re.compile(rf"[.;:,!?，、；：。！？]|{LINE_END}|\b(?:but|so|then)\b")


def in_scope_of_doubt(text: str, start: int, reach: int = 40) -> bool:
    """Whether the cue at ``start`` is out of assertion: quoted (reported), or the clause before
    it (at most ``reach`` characters) holds a negation, a modal, a plan or a hypothesis."""
    ends = _CLAUSE_BREAK.finditer(text, lo := max(0, start - reach), start + 8)  # (reads on)
    window = text[max([lo, *(e for m in ends if (e := m.end()) <= start)]) : start]  # its clause
    return _HYPOTHETICAL.search(window) is not None or quoted(text, start)


_QUOTE_MARKS = re.compile(r"[\"“”«»]")


def quoted(text: str, pos: int) -> bool:
    """Whether ``pos`` lies inside quotation marks opened earlier on its line: reported speech."""
    return len(_QUOTE_MARKS.findall(text, text.rfind("\n", 0, pos) + 1, pos)) % 2 == 1


def evidence(field: TextField, text: str, start: int, end: int) -> Evidence:
    start = max(0, min(start, len(text)))
    end = max(start, min(end, len(text)))
    return Evidence(field=field, start=start, end=end, text=text[start:end])


def flag(kind: str, spans: list[Evidence], detail: str, confidence: str = "high") -> Flag:
    """A heuristic flag. ``confidence`` is ``"high"`` or ``"low"``: low when the cue that raised
    it is one the heuristics cannot tell from an innocent reading (see docs/flags.md)."""
    return Flag(kind=kind, source=SOURCE, evidence=spans, detail=detail, confidence=confidence)


def last_line_span(text: str) -> tuple[int, int]:
    end = len(text.rstrip())
    return text.rfind("\n", 0, end) + 1, end
