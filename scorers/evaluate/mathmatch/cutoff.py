"""What an answer stopped by its token limit commits to, and a calculator's traces.

A generation cut off by its token limit ends wherever the limit fell. Where it fell
tells what the text had committed to:

- inside a block it opened at the end (a code fence or a display ``\\[`` never
  closed, or only the backslash that opens one): the writer was checking or
  restating what the lines before had reached ("Let's confirm this with Python."),
  so the block is dropped and those lines are read as written;
- inside a paragraph that set out to check the answer before it ("I think that's
  right. Let me make sure of the ages. Harriet is 21, so 24 then. Zack is"): the check
  never finished, so the paragraph is dropped and the lines before it are read (as
  a check in a code block is);
- inside a line, stopped mid-expression or on a word that cannot end a sentence
  ("He has 6*", "He bought 2 boxes of beef stock that"): the writer was still
  working; unless a box, a marker or a bold value stated an answer before it, the
  answer states none (the working above it is not an answer).

GSM8K's calculator annotations (``5+2=<<5+2=7>>7``: a tool's trace before the value it
returned) are no text of the answer.
"""

from __future__ import annotations

import re

from scorers.evaluate.mathmatch.prose import HAS_VALUE, sentences

# GSM8K's calculator annotation, closed: "<<5+2=7>>".
_CALCULATION = re.compile(r"<<[^<>\n]*>>")
# A code fence ("```python" opens one, "```" closes it, also on the same line).
_FENCE = re.compile(r"```")
# A display opened on a line of its own and never closed ("\\[ 60 - 42 =" at the end), or
# only the backslash that opens one.
_OPEN_DISPLAY = re.compile(r"\n[ \t]*\\(?:\[(?![\s\S]*?\\\])[\s\S]*)?\Z")
# A line stopped mid-expression: an operand, then an operator, "=" or an annotation opened
# ("6*", "4+1=<<4+", "20 -"; not a rule "---", and a star only when unpaired: "*42*" is
# emphasis). (Not on a word: "Frank can buy 7 pieces of" has stated its value.)
_UNFINISHED = re.compile(r"[\w)\]}]\s*(?:[-+*/×÷=^−]|=?<<)\s*\Z")


# The writer announces a check of what they reached: "Let me make sure ...", "Let's verify
# ...", "I should double-check ...", "Checking again: ...".
_CHECK = re.compile(
    r"^\W*(?:[a-z]+,?\s+){0,3}?(?:let\s+me|let['’]?s|let\s+us|I['’]ll|I\s+will|I\s+should|"
    r"we\s+should|I\s+(?:want|need)\s+to)\s+(?:(?:just|quickly|also)\s+)?(?:check|verify|"
    r"make\s+sure|confirm|double[- ]check|re-?check|re-?verify)\b|^\W*(?:re-?|double[- ])?checking\b",
    re.IGNORECASE,
)
_PARAGRAPH = re.compile(r"\n[ \t]*\n")


def without_cut_check(text: str) -> str:
    """``text`` without a last paragraph cut off mid-sentence (no closing stop) that set
    out to check what came before: one that announces a check before it holds a value."""
    end = text.rstrip()
    if not end or end[-1] in ".!?)]}$*`\"'":
        return text
    parts = _PARAGRAPH.split(end)
    if len(parts) < 2 or not HAS_VALUE.search("\n".join(parts[:-1])):
        return text
    for sentence in sentences(parts[-1]):
        if _CHECK.search(sentence):
            return end[: end.rfind(parts[-1])].rstrip()
        if HAS_VALUE.search(sentence):
            return text
    return text


def without_calculations(text: str) -> str:
    """``text`` without GSM8K's closed calculator annotations."""
    return _CALCULATION.sub("", text) if "<<" in text else text


def without_open_block(text: str) -> str:
    """``text`` without a code fence or a display opened at its end and never closed."""
    fences = list(_FENCE.finditer(text))
    if len(fences) % 2:
        return text[: fences[-1].start()].rstrip()
    display = _OPEN_DISPLAY.search(text)
    if display is not None:
        return text[: display.start()].rstrip()
    return text


def stopped_mid_line(text: str) -> str | None:
    """``text`` as far as it stands when it ends inside a line stopped mid-expression:
    ``None`` when that line was working ("He has 6*": cut off before any answer), the
    text without the aside when the expression was one in brackets, opened after the
    line had stated its value ("She can make 4 piles (32 - 12 =" -> "She can make 4
    piles"); ``text`` itself when it ends no such way."""
    head, _, last = text.rstrip().rpartition("\n")
    end = _UNFINISHED.search(last)
    if end is None or (end.group(0).strip()[-1] == "*" and last.count("*") % 2 == 0):
        return text
    depth = 0
    opened = -1
    for at, char in enumerate(last):
        if char == "(":
            depth += 1
            opened = at if depth == 1 else opened
        elif char == ")" and depth:
            depth -= 1
    before = last[:opened].rstrip() if depth else ""
    if not before:
        return None
    return f"{head}\n{before}" if head else before
