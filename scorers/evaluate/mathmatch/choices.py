"""Multiple-choice letters and circled selections (①②③).

MathReal: a single-option reference is right when the answer names that option
and no other (option text after the letter is fine); selections such as
``②;③;⑤`` earn a share per selection named.
"""

from __future__ import annotations

import re

from scorers.evaluate.mathmatch.blanks import CIRCLED

_SINGLE_LETTER = re.compile(r"^\(?([A-H])\)?\.?$")
# "B. 12", "B: 12", "(B) 12" name option B
_LETTER_WITH_TEXT = re.compile(r"^\(?([A-H])(?:\)\s*[.:：、]?|\s*[.:：、])\s*\S")
_LETTER_LIST = re.compile(r"^[A-H](?:\s*(?:,|and|&|/|\s)?\s*[A-H])*$")
# A capital A-H standing alone; "A" followed by a lowercase word is the article.
_STANDALONE = re.compile(r"(?<![A-Za-z\\'])(?:A(?!\s+(?!(?:or|and)\b)[a-z])|[B-H])(?![A-Za-z'])")
_LETTER_RUN = re.compile(r"(?<![A-Za-z\\])([A-H]{2,5})(?![A-Za-z])")
_CONCLUSION = re.compile(
    r"\b(?:so|therefore|thus|hence|answer|choose|chose|choice|select(?:ed)?|pick|option|only)\b|故|选|答案",
    re.IGNORECASE,
)
_LEADING = re.compile(r"^\s*(?:option\s*|choice\s*)?\(?([A-H])\)?\s*[.:、)]", re.IGNORECASE)
_ONLY_CIRCLED = re.compile(r"^[" + CIRCLED + r"\s,;]*(?:\s*(?:and|or)\s*[" + CIRCLED + r"\s,;]*)*$")


def reference_letters(blank: str, multiple_choice: bool) -> list[str] | None:
    """Option letters a reference blank names, or None when it is not a choice."""
    s = blank.strip()
    m = _SINGLE_LETTER.match(s) or _LETTER_WITH_TEXT.match(s)
    if m:
        return [m.group(1)]
    if multiple_choice and _LETTER_LIST.match(s):
        return sorted(set(re.findall(r"[A-H]", s)))
    return None


# An answer that opens by naming an option, of up to ten (MMLU-Pro's A-J): "B", "(C)",
# "I. Would you like ...", "D) 12", "B, as in step 3"; not the article of "A total of 12".
_OPENS_WITH_OPTION = re.compile(r"^\(?[A-J]\)?(?:[.!:),;](?:\s|$)|\s*$|\s+\()")


def opens_with_option(answer: str) -> bool:
    """Whether ``answer`` opens by naming an option letter."""
    return _OPENS_WITH_OPTION.match(answer.strip()) is not None


def option_text(answer: str) -> str | None:
    """The text after the option letter that opens ``answer`` ("A: 464", "B. 12 cm"),
    or None: read against a reference that is a value, it is the value stated (also
    the answer turn of a "Q: ... A: ..." dialogue)."""
    s = answer.strip()
    m = _LETTER_WITH_TEXT.match(s)
    return s[m.end() - 1 :] if m else None


def is_circled_selection(blank: str) -> bool:
    return any(c in CIRCLED for c in blank) and bool(_ONLY_CIRCLED.match(blank.strip()))


def answer_letters(text: str, *, expand_runs: bool) -> set[str]:
    """The option letters an answer chooses."""
    s = text.strip()
    found = _STANDALONE.findall(s)
    if expand_runs:
        for run in _LETTER_RUN.findall(s):
            found.extend(run)
    letters = set(found)
    if len(letters) <= 1:
        return letters
    markers = list(_CONCLUSION.finditer(s))
    if markers:
        after = set(_STANDALONE.findall(s[markers[-1].end() :]))
        if after:
            return after
    lead = _LEADING.match(s)
    if lead:
        return {lead.group(1).upper()}
    return letters


def circled(text: str) -> list[str]:
    seen: list[str] = []
    for ch in text:
        if ch in CIRCLED and ch not in seen:
            seen.append(ch)
    return seen


def circled_answer(text: str) -> list[str]:
    """Selections an answer names; "1 and 3" or "(1)(3)" stand for ①③ when no circled digit is used."""
    found = circled(text)
    if found:
        return found
    for number in re.findall(r"(?<![\d.])(\d{1,2})(?![\d.])", text):
        if 1 <= int(number) <= len(CIRCLED):
            mark = CIRCLED[int(number) - 1]
            if mark not in found:
                found.append(mark)
    return found
