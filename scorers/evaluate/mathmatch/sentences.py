"""The value a math answer written as prose commits to.

A reader does not cut a sentence after its last "is" or "=": they find the
sentence that states the result and, in it, the value it states. This module
chooses that sentence in the text the extractor hands it (the paragraph after a
final-answer marker, or the closing line of an answer without one):

1. Number words and mathematics read aloud become digits and symbols, sentence
   by sentence (:mod:`numberwords`: "three hours", "two thirds", "pi over 4");
   a LaTeX span that relates nothing ("$39$") is read as text.
2. The stating sentence: the first after a marker, else the last that names
   its value as the answer ("15 is the answer", "I'd say 7"), else the last
   that holds a value and is not a side remark (in parentheses, a check, an
   example, a supposition, a comparison, a comment on the result, a word to the
   reader, a reason whose main clause states nothing; read by the sentence's
   opening and its first clause). A later correction ("Wait, ... 48.")
   takes its place; a later doubting candidate ("It could also be 5.") joins it
   as a hedge.
3. In it, the value it states (:mod:`values`); remarks are read by :mod:`remarks`.

What comes back is text for :mod:`scoring`, which decides what several values
mean (a hedge between candidates for one value earns nothing).
"""

from __future__ import annotations

import re

from scorers.evaluate.mathmatch.numberwords import number_words_to_digits, spoken_math
from scorers.evaluate.mathmatch.prose import HAS_VALUE, NUMBER, sentences
from scorers.evaluate.mathmatch.remarks import closing_aside, is_remark
from scorers.evaluate.mathmatch.values import CHOSEN, LATEX, WORD, only_value, value_of

# "… is the answer", "the answer is …", "final answer": the sentence names its value.
_NAMES_ANSWER = re.compile(
    r"\b(?:is|was)\s+(?:the|our|my)\s+(?:final\s+|correct\s+)?(?:answer|result)\b|"
    r"\b(?:the|our|my)\s+(?:final\s+)?answer\s+(?:is|was)\b(?!n['’]t|\s+not\b)|"
    r"\bfinal\s+answer\b(?!\s+(?:is|was)(?:n['’]t|\s+not\b))",
    re.I,
)
# "Hmm, actually ... 64.", "Wait, it is 12.", "No wait, 35.": a correction; its value replaces
# what came before.
_CORRECTION = re.compile(
    r"^\W*(?:(?:hmm+|oh|well|no)\b[\s,.!]*)*(?:actually|wait|oops|sorry|no\s*[,.!—–]|correction|"
    r"on\s+second\s+thought|I\s+mean|I\s+meant|I\s+made\s+an?\s+(?:mistake|error|slip)|"
    r"let\s+me\s+(?:correct|redo|recount))",
    re.I,
)
# "It could also be 5.", "But it might be 6.", "Or possibly 7.": another candidate, in doubt.
_DOUBTED_CANDIDATE = re.compile(
    r"^\W*(?:(?:but|or|although|though|then\s+again|alternatively)\b[\s,]*)?"
    r"(?:(?:it|this|that|the\s+(?:answer|value|result))\s+(?:could|might|may)\b|"
    r"(?:possibly|perhaps|maybe)\b)"
    # "However, 15 is also plausible.": a value the writer still allows
    r"|^\W*(?:however|but|though|although|then\s+again)\b[^.;]*\b(?:also\s+)?(?:possible|plausible)\b",
    re.I,
)
_NO_NUMBER_LEAD = re.compile(
    r"\b(?:solve\s+for|find|compute|calculate|work\s+out|determine|using|let['’]?s|we\s+(?:can|need|will))\b",
    re.I,
)


# "\\( 39 \\)" and "\\[ x = 10 \\]" are "$39$" and "$$x = 10$$" in another notation.
_PAREN_MATH = re.compile(r"(?<!\\)\\\((.*?)\\\)", re.S)
_BRACKET_MATH = re.compile(r"(?<!\\)\\\[(.*?)\\\]", re.S)
# An inline formula that relates nothing ("$39$", "$8\sqrt{3}$") is a value written in
# LaTeX: read as text, the sentence's own structure says whether it is the value stated
# ("fills $14$ bags with $2$ in each" states 14). One with a relation ("$y = 3 - x$") is kept.
# (not "$240 - $150": a currency sign, and what follows it, ends in an operator or a space)
_VALUE_SPAN = re.compile(r"(?<!\$)\$(?!\$)([^$]*[^\s$+\-−*/=])\$(?!\$)")
_RELATION = re.compile(r"[=<>≤≥≠≈]|\\(?:le|ge|leq|geq|neq|ne|approx|in|lt|gt)(?![A-Za-z])")


def dollar_math(text: str) -> str:
    """``text`` with inline and display math in ``$`` notation only."""
    if "\\" not in text:
        return text
    # LaTeX's escaped dollar (\( \$1150 \)) is a currency sign, a unit: no math delimiter.
    text = text.replace("\\$", "")
    text = _PAREN_MATH.sub(lambda m: "$" + m.group(1).strip() + "$", text)
    return _BRACKET_MATH.sub(lambda m: "$$" + m.group(1).strip() + "$$", text)


def _value_as_text(m: re.Match[str]) -> str:
    inner = m.group(1)
    if _RELATION.search(inner) or WORD.search(LATEX.sub(" ", inner)):
        return m.group(0)  # an equation, or a currency sign before words ("$12 and $15")
    return inner.strip()


# A name with digits in it, "qwen7b", "GPT4", "llama70b": letters first, then the digits.
_NAME_WITH_DIGITS = re.compile(r"\b[A-Za-z]{2,}\d+[A-Za-z]*\b")
_CONCLUDES = re.compile(r"(?:so|thus|therefore|hence|in\s+conclusion)\b", re.I)


def _stating_index(found: list[str], first: bool) -> int:
    if first and (
        len(found) == 1 or NUMBER.search(found[0]) or not _NO_NUMBER_LEAD.search(found[0])
    ):
        # "Answer: The bus went 300 miles and the car 240. Therefore, the bus went 60 miles
        # farther.": a later sentence that concludes states what the first led up to.
        for i in range(len(found) - 1, 0, -1):
            if (
                _CONCLUDES.match(found[i])
                and HAS_VALUE.search(found[i])
                and not is_remark(found[i])
            ):
                return i
        return 0
    # (after a marker, a first sentence that only says how the value is found,
    # "Using these formulas, we can solve for S2.", leads in: the value comes later)
    # A sentence that names its value as the answer states it, whatever follows.
    for i in range(len(found) - 1, -1, -1):
        if (_NAMES_ANSWER.search(found[i]) or CHOSEN.search(found[i])) and HAS_VALUE.search(
            found[i]
        ):
            return i
    # Else the last that states a value and is not a side remark (nor a candidate
    # offered with doubt after one stated: "32. Possibly 33, though." is a hedge).
    for i in range(len(found) - 1, -1, -1):
        doubted = i > 0 and _DOUBTED_CANDIDATE.search(found[i])
        # (digits inside a name state nothing: "as qwen7b and llama70b argued")
        valued = HAS_VALUE.search(_NAME_WITH_DIGITS.sub(" ", found[i]))
        if valued and not is_remark(found[i]) and not doubted:
            return i
    return len(found) - 1


def stating_sentence(text: str, *, first: bool) -> str:
    """The sentence that states the result: the first (after a marker), else
    the last that names its value as the answer, else the last that states a
    value and is not a side remark."""
    found = sentences(text)
    if not found:
        return text.strip()
    return found[_stating_index(found, first)]


def committed_value(text: str, items: int = 1, *, first: bool = False) -> str:
    """The value ``text`` commits to, as text; ``items``: how many values the
    reference has (it decides between a count and the list that follows it)."""
    text = _VALUE_SPAN.sub(_value_as_text, text)
    # Number words are read sentence by sentence: "Seven. (All 3 steps were exact.)"
    # states 7, whatever digits another sentence holds.
    found = [spoken_math(number_words_to_digits(s)) for s in sentences(text)]
    if not found:
        return value_of(spoken_math(number_words_to_digits(text.strip())), items)
    at = _stating_index(found, first)
    return _later_say(value_of(found[at], items), found[at + 1 :], items)


def later_say(value: str, text: str, items: int = 1) -> str:
    """``value`` as the sentences of ``text`` after it leave it: "Answer: 30.\n\nWait,
    I forgot the lid: 34." is 34, "Answer: 30.\n\nBut it could also be 32." a hedge."""
    # (a line break ends a sentence: "Answer: 32\n\nBut it could also be 33.")
    found = [
        spoken_math(number_words_to_digits(s)) for ln in text.splitlines() for s in sentences(ln)
    ]
    return _later_say(value, found, items)


def revises(line: str) -> bool:
    """Whether ``line`` opens by correcting or doubting what came before ("No wait, 35.",
    "But it could also be 32.")."""
    return bool(_CORRECTION.search(line) or _DOUBTED_CANDIDATE.search(line))


def _later_say(value: str, later: list[str], items: int) -> str:
    for sentence in reversed(later):
        if _CORRECTION.search(sentence) and HAS_VALUE.search(sentence):
            return value_of(sentence, items)  # the answer corrected at the end is the answer given
    # "The answer is 4. It could also be 5.": a later sentence offering another
    # candidate with doubt makes the two a hedge.
    for sentence in later:
        if _DOUBTED_CANDIDATE.search(sentence):
            other = only_value(sentence)
            mine = only_value(value) or value
            if other is not None and other != mine:
                return f"{mine} or {other}"
    return value


# "(1) ... (2) ...", "(a) ... (b) ...", "Part 2: ...": labelled parts inside one line.
_INLINE_LABEL = re.compile(
    r"(?<=\S)\s+(?=\(\s*(?:\d{1,2}|[a-h])\s*\)\s|[a-h]\)\s|(?:part|question)\s+\d{1,2}\s*[:.)])",
    re.IGNORECASE,
)


_NAMED_VALUE = re.compile(r"[A-Za-z]\w*\s*(?:=|\bis\b)\s*\S")


def parts_of_line(line: str, count: int) -> list[str] | None:
    """``line`` cut into ``count`` answers (one per blank of the reference): at
    labels, else at sentence ends, else at "and" / ";" between clauses that each
    hold a value; None when no cut gives ``count`` pieces."""
    from scorers.evaluate.mathmatch.normalize import top_level_split

    for pieces in (
        _INLINE_LABEL.split(line),
        sentences(line),
        top_level_split(line, (" and ", "; ")),
        # "Mean = 7.5, median = 7": named values separated by commas.
        [p for p in top_level_split(line, (", ",)) if _NAMED_VALUE.search(p)],
    ):
        # "x = -3 or x = 2. (Both were checked in 2 ways.)": a remark is no part
        pieces = [p.strip() for p in pieces if p.strip() and not closing_aside(p)]
        while len(pieces) > count and not HAS_VALUE.search(pieces[0]):
            pieces = pieces[1:]  # "Sure! (1) ... (2) ...": a lead-in, no part
        if len(pieces) == count and all(HAS_VALUE.search(p) for p in pieces):
            return pieces
    return None
