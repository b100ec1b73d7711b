"""Option letters as a careful reader picks them out of an answer.

The answer commits to the first run of option letters joined by separators
(``A, C``, ``A and C``, ``B or D``); prose before the run is skipped (``Option``,
``Both``, ``The correct choice is``) and anything after it is a remark
(``B, because A is too small``). Whole words never count, so no capital of
``FINAL``, ``Option`` or ``Both`` is read as a letter, and I, N, S, T are
letters like any other. ``A`` and ``I`` followed by an ordinary lower-case
word are the article and the pronoun. A lower-case letter counts only where it
cannot be a word: the whole answer is letters (``b``, ``a, c``), it is
bracketed (``(b)``), or it follows "option"/"choice".
"""

from __future__ import annotations

import re
from functools import lru_cache

from scorers.evaluate.strict.fold import fold_width

# A word keeps its apostrophe ("I'm", "A's", "don't"): an apostrophe inside a
# word makes no letter of its parts, while a quote around a letter ('A') quotes it.
_TOKEN = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)*|\S")
_LATEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_SEPARATORS = frozenset(",，、،;；/&+|")
_JOINERS = frozenset(("and", "or"))
_OPENERS = frozenset("([{【")
_CLOSERS = frozenset(")]}】")
_OPTION_WORDS = frozenset(("option", "options", "choice", "choices", "letter"))
# After "A" or "I", these keep the letter an option ("A is correct", "I and K").
_VERB_LIKE = frozenset(
    (
        "is",
        "was",
        "seems",
        "appears",
        "would",
        "should",
        "must",
        "fits",
        "matches",
        "only",
        "and",
        "or",
        "best",
        "correct",
        "right",
    )
)
_MAX_SEGMENT = 400  # an answer run starts early in its segment; bounds the token pass
_MAX_WHOLE_RUN = 8  # "AC", "ABD": a capitals-only answer up to this long is letters


def _whole_letters(tokens: list[str]) -> list[str] | None:
    """Letters when the answer is nothing but letters and separators (``b``, ``A, C``)."""
    letters: list[str] = []
    for tok in tokens:
        if tok.isalpha() and tok.isascii():
            if len(tok) == 1:
                letters.append(tok.upper())
            elif tok.lower() in _JOINERS:
                continue
            elif tok.isupper() and len(tok) <= _MAX_WHOLE_RUN and len(tokens) == 1:
                letters.extend(tok)
            else:
                return None
        elif tok in _SEPARATORS or tok in _OPENERS or tok in _CLOSERS or tok in ".:":
            continue
        else:
            return None
    return letters or None


def _is_option(tokens: list[str], i: int, explicit: bool, lower: bool = False) -> bool:
    """``lower``: the question labels its options in lower case, so a lower-case
    letter is read as a capital is ("so b.", "i.e. c" stays an abbreviation)."""
    tok = tokens[i]
    if len(tok) != 1 or not tok.isascii() or not tok.isalpha():
        return False
    nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
    prev = tokens[i - 1] if i > 0 else ""
    if tok.isupper() or lower:
        if (
            nxt == "."
            and i + 3 < len(tokens)
            and tokens[i + 3] == "."
            and len(tokens[i + 2]) == 1
            and (lower or tokens[i + 2].isupper())
        ):
            return False  # U.S., e.g.: an abbreviation, not options U and S
        if (
            prev == "."
            and nxt == "."
            and i >= 2
            and len(tokens[i - 2]) == 1
            and (lower or tokens[i - 2].isupper())
        ):
            return False
        if tok in "AIai" and nxt.isalpha() and nxt[:1].islower() and nxt not in _VERB_LIKE:
            return explicit
        return True
    return explicit or (prev in _OPENERS and nxt in _CLOSERS) or (i == 0 and nxt in _CLOSERS)


def _runs(tokens: list[str], lower: bool = False) -> list[list[str]]:
    """Every run of option letters, in order of appearance."""
    runs: list[list[str]] = []
    current: list[str] | None = None
    explicit = False
    for i, tok in enumerate(tokens):
        if len(tok) == 1 and _is_option(tokens, i, explicit, lower):  # (words are most tokens)
            if current is None:
                current = []
                runs.append(current)
            current.append(tok.upper())
            explicit = False
            continue
        low = tok.lower()
        if current is not None:
            if tok in _SEPARATORS or low in _JOINERS or tok in _CLOSERS:
                continue
            if low in _OPTION_WORDS:  # "Option B and Option D"
                explicit = True
                continue
            # "(C)" continues a run; "(or possibly D)" is a remark.
            if (
                tok in _OPENERS
                and i + 2 < len(tokens)
                and _is_option(tokens, i + 1, True, lower)
                and tokens[i + 2] in _CLOSERS
            ):
                continue
            current = None
        explicit = low in _OPTION_WORDS or (explicit and low in ("is", "(", ":"))
    return runs


def _tokens(segment: str) -> list[str]:
    segment = _LATEX_COMMAND.sub(" ", fold_width(segment))
    return _TOKEN.findall(segment)


def read_letters(segment: str, *, last: bool = False, lower: bool = False) -> list[str]:
    """The option letters an answer commits to, in the order written.

    ``last`` picks the last run instead of the first: used when no marker says
    where the answer is and the conclusion is at the end. ``lower``: the
    question's labels are lower case, so lower-case letters count as capitals do.
    """
    if len(segment) == 1 and segment.isascii() and segment.isalpha():
        return [segment.upper()]  # "Final Answer: C", the format the prompt asks for
    return list(_letters_in(segment, last, lower))


@lru_cache(maxsize=256)  # (one evaluation reads the same answer for letters several times)
def _letters_in(segment: str, last: bool, lower: bool) -> tuple[str, ...]:
    segment = segment[-_MAX_SEGMENT:] if last else segment[:_MAX_SEGMENT]
    tokens = _tokens(segment)
    if not tokens:
        return ()
    whole = _whole_letters(tokens)
    if whole is not None:
        return tuple(whole)
    runs = _runs(tokens, lower)
    if not runs:
        return ()
    return tuple(runs[-1] if last else runs[0])


@lru_cache(maxsize=1024)
def read_label(label: str) -> frozenset[str] | None:
    """The letters of a label: ``"B"``, ``"AC"``, ``"A,C"``, ``"a, c"``; None if not letters."""
    letters: set[str] = set()
    label = fold_width(label)
    if len(label) > 1 and label.isalpha() and not (label.isupper() or label.islower()):
        return None  # "True", "Paris": a word, not a run of option letters
    for ch in label:
        if ch.isascii() and ch.isalpha():
            letters.add(ch.upper())
        elif not (ch.isspace() or ch in _SEPARATORS or ch in "()[]."):
            return None
    return frozenset(letters) if letters else None


# "B, though C is also possible": a second option kept open.
_ALSO = re.compile(
    r"\b(?:also possible|also plausible|could also be|might also be|may also be|or possibly"
    r"|or maybe|or perhaps|(?:just as|equally) likely|could just as well"
    r"|(?:can't|cannot) (?:be excluded|be ruled out|rule out)|(?:isn't|is not|not) impossible)\b",
    re.IGNORECASE,
)
# The same, case-sensitive, for lowered ASCII text (same offsets and word
# boundaries there): a case-blind alternation costs more per character.
_ALSO_LOWER = re.compile(_ALSO.pattern)


def kept_open(segment: str, chosen: frozenset[str]) -> bool:
    """The answer keeps another option open beside the one it names."""
    ascii_text = segment.isascii()
    also = (_ALSO_LOWER if ascii_text else _ALSO).search(segment.lower() if ascii_text else segment)
    if also is None:
        return False
    others = {x for run in _runs(_tokens(segment[:_MAX_SEGMENT])) for x in run}
    return bool(others - chosen)
