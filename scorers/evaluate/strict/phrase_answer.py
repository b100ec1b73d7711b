"""The answer text the phrase evaluators (key items, location) grade, and the part
of it the answer commits to, where a rival name may stand in for the keys."""

from __future__ import annotations

import re
from collections.abc import Callable

from scorers.evaluate.strict.answer_names import rival_name
from scorers.evaluate.strict.commit import (
    FEW_SENTENCES,
    conclusion,
    firm,
    may_rule_out,
    more_sentences_than,
    reaffirms,
    sentences,
)
from scorers.evaluate.strict.final import Located, without_closing
from scorers.evaluate.strict.phrases import Answer
from scorers.evaluate.strict.reading import Reading


def phrase_text(loc: Located) -> str:
    # Free-text answers run on past their marker line: everything after it counts,
    # but a closing formula ("Hope this helps!").
    return without_closing(loc.tail) if loc.how == "marker" else loc.segment


def phrase_answer(reading: Reading, found: Callable[[Answer], bool]) -> tuple[Answer, bool]:
    """The answer text a phrase evaluator grades: a correction after the final
    answer replaces it when it names a candidate or says it corrects ("scratch
    that"); after a mere "actually" or "sorry" naming none, the original answer
    stands and the doubt is reported by the caller."""
    answer = Answer(phrase_text(reading.loc))
    if reading.fixed is None:
        return answer, False
    fixed = Answer(reading.fixed.segment)
    if found(fixed) or firm(reading.fixed):
        return fixed, False
    return answer, not reaffirms(reading.fixed)


# What an answer settles on, inside the text a phrase evaluator reads: after
# the last turn of its committed sentence ("..., but the photo shows Bohr").
TURN = re.compile(
    r"\b(?:but|yet|however|instead|so|therefore|thus|hence|though|although)\b[ \t,:]*",
    re.IGNORECASE,
)


def _committed(reading: Reading, read: str) -> str | None:
    """The part of the answer it commits to, when narrower than ``read``, what
    phrase evaluators read: the first sentence of a marker's answer, or the
    concluding sentence of an answer without one or of a correction that
    replaced it ("Wait, no — Ag is gold. Silver is Au."), from its last turn on."""
    loc = reading.loc
    if reading.fixed is not None:
        if read is not reading.fixed.segment:
            return None
        text = _BRACKETED_CLAUSE.split(conclusion(read), 1)[0]
    elif loc.how == "box":
        return None
    elif loc.how == "whole":  # its concluding sentence, before a clause in brackets
        text = _BRACKETED_CLAUSE.split(conclusion(loc.segment), 1)[0]
    else:  # the answer's first sentence, before a remark after a dash or in brackets
        parts = sentences(loc.segment)
        text = _REMARK.split(parts[0], 1)[0] if parts else ""
    turns = list(TURN.finditer(text))
    if turns and turns[-1].end() < len(text):
        text = text[turns[-1].end() :]
    return text if text.strip() != read.strip() else None


# A remark after the answer: after a spaced dash, or a clause in brackets (a
# name or two there is the answer's other name: "Old Bridge (Ponte Vecchio)").
_BRACKETED_CLAUSE = re.compile(r"[ \t]*[(\[](?=[ \t]*(?:[^\s()\[\]]+[ \t]+){2}[^\s()\[\]])")
_REMARK = re.compile(r"[ \t]+[—–-][ \t]+|" + _BRACKETED_CLAUSE.pattern)


def settled_elsewhere(
    reading: Reading, found: Callable[[Answer], bool], keys: list[str]
) -> str | None:
    """A name the answer commits to in place of the keys it mentions only
    elsewhere ("At first I suspected Handel. ... this is pure Bach.", "It looks
    like Sydney, yet the skyline is Melbourne's"): the keys are found in the
    text read, not in the committed part, and that part names another
    capitalised name. Two readings (all the text, the committed part) then
    disagree, and only a reader can weigh them ("This is Kyoto. The temple is
    Kinkaku-ji" names a part of the key): the verdict stands, unsure. Returns
    the rival name, a place first where the keys are places."""
    if not all(k[:1].isupper() for k in keys):
        return None  # names against names: "oak" has no capitalised rival
    read = phrase_text(reading.loc)
    fixed = reading.fixed
    if fixed is not None and (found(Answer(fixed.segment)) or firm(fixed)):
        read = fixed.segment  # (what phrase_answer read)
    if len(read) > FEW_SENTENCES * 200:
        return None  # a long answer's last sentence is as often a remark
    text = _committed(reading, read)
    if text is None:
        return None
    lowered = text.lower()
    if any(k.lower() in lowered for k in keys):
        return None  # (the usual case, told without folding: the key is in it)
    if more_sentences_than(read, FEW_SENTENCES) or found(Answer(text)):
        return None
    if fixed is None and reading.loc.how == "whole" and _answered_first(read, found):
        return None
    return rival_name(text, keys)


def _answered_first(read: str, found: Callable[[Answer], bool]) -> bool:
    """An answer that states the key before its last sentence, in words that
    neither rule it out nor hold it as a passing belief ("not", "first", "might",
    "like", ...), and whose last sentence does not turn ("but", "however"): it
    answers, then goes on about the answer ("... is Yoon Suk-yeol. He took office
    in May 2022."), and a name there is no rival."""
    parts = sentences(read)
    if len(parts) < 2 or TURN.search(parts[-1]):
        return False
    head = read[: read.rfind(parts[-1])]
    return found(Answer(head)) and not may_rule_out(head)


def answer_line(reading: Reading) -> str | None:
    """The short line an answer without a marker ends on, standing alone after its
    reasoning ("Step 3: ... the filling shows potato and onion.\npotato and onion"),
    or the JSON object it closes with: a reader may take that line for the answer,
    and a key named only on the way there for no answer. None for a list item, a
    question, a line cut off (ending on a comma or a colon), or a line of more than
    a few words."""
    loc = reading.loc
    if reading.fixed is not None or loc.how != "whole":
        return None
    text = without_closing(loc.segment).rstrip()
    end = len(text)
    if (closed := text.rfind("}")) >= 0 and not text[closed + 1 :].strip(" \t\n`"):
        return _closing_object(text, closed)
    while True:
        start = text.rfind("\n", 0, end) + 1
        line = text[start:end].strip()
        if line and not _BRACKETS_ONLY.fullmatch(line):
            break
        if start == 0:
            return None
        end = start - 1
    if start < _BODY_MIN or _LIST_ITEM.match(line) or line[-1] in _CUT:
        return None
    unspaced = sum(1 for c in line if ord(c) >= _CJK_FROM)
    if len(line.split()) > _LINE_WORDS or unspaced > _LINE_WORDS * 2 or "?" in line:
        return None
    return line


def shown(line: str) -> str:
    """``line`` on one line, cut to a length a message can quote."""
    return " ".join(line.split())[:_SHOWN]


_SHOWN = 60


def _closing_object(text: str, closed: int) -> str | None:
    """The JSON-like object an answer ends with, after its reasoning."""
    depth = 0
    for at in range(closed, -1, -1):
        depth += {"}": 1, "{": -1}.get(text[at], 0)
        if depth == 0:
            return text[at : closed + 1] if at >= _BODY_MIN else None
    return None


_BRACKETS_ONLY = re.compile(r"`{3}\w*|[\[\](),]+")  # (a code fence, a closing bracket)
_LIST_ITEM = re.compile(r"(?:[-*•]|\d+[.)])\s")
_CUT = ",:;，：、-–—"
_CJK_FROM = 0x2E80
_LINE_WORDS = 6
_BODY_MIN = 200  # characters of reasoning before it


def has_any(candidates: list[str]) -> Callable[[Answer], bool]:
    return lambda answer: any(answer.contains(c) for c in candidates)
