"""A structured answer: a JSON or dict field named like an answer.

Prompts that ask for JSON ("give a rationale and a numeric 'ans'") get objects such
as ``{"rationale": "...", "ans": 230}`` or ``{"EXPLANATION": "...", "ANSWER": "True"}``;
the field is the slot the writer fills with their result, as a box is. The last
complete field counts (a later object cut off by the length limit names none), and
the text after it may still correct it ("Note: I have corrected the answer to 230").
An answer tag (``<answer> ... </answer>``) is such a slot too.
"""

from __future__ import annotations

import re

# A quoted key named like an answer ("ans", "answer", "final_answer", "Final Answer"),
# its colon, and its value: a string in either quote (escapes kept) or a bare scalar.
_FIELD = re.compile(
    r"""(?P<q>["'])(?:final[ _]?)?ans(?:wer)?(?P=q)\s*:\s*"""
    r"""(?:"(?P<dq>(?:[^"\\\n]|\\.)*)"|'(?P<sq>(?:[^'\\\n]|\\.)*)'|(?P<bare>\[[^\]\n]*\]|[^,}\]\n]+))""",
    re.IGNORECASE,
)


# The format asked for, echoed ("answer with {\"answer\": \"<number>\"}"): no value given.
_PLACEHOLDER = re.compile(r"^(?:<[^<>]*>|\.\.\.|…|\?+)$")
_PARAGRAPH_BREAK = re.compile(r"\n\s*\n")


def _poses_problem(text: str) -> bool:
    """A paragraph of ``text`` ends in a question of some length: a problem posed ("A
    snail is at the bottom of a 20-foot well. ... How many days will it take?"), not a
    word to the reader ("Is this right?")."""
    return any(
        p.rstrip().endswith("?") and len(p.split()) >= 8 for p in _PARAGRAPH_BREAK.split(text)
    )


def answer_field(text: str) -> tuple[str, str] | None:
    """(value, text after it) of the last answer field of ``text``, or None. A field
    after a problem the writer poses once answered answers that new problem."""
    last = None
    for field in _FIELD.finditer(text):
        if last is not None and _poses_problem(text[last.end() : field.start()]):
            break
        last = field
    if last is None:
        return None
    value = last.group("dq") if last.group("dq") is not None else last.group("sq")
    if value is None:
        value = last.group("bare")
    value = value.strip()
    if not value or value.lower() in ("null", "none") or _PLACEHOLDER.match(value):
        return None
    return value, text[last.end() :]


# R1-Zero / TinyZero prompts ask for "<answer> ... </answer>"; writers also close with a
# second "<answer>" ("... = 4005.<answer>") or leave the last one open at the end.
_TAG = re.compile(r"<\s*(/?)\s*answer\s*>", re.IGNORECASE)


def answer_tag(text: str) -> tuple[str, str] | None:
    """(text inside the last answer tag that holds something, text after that tag), or
    None. A tag opens a span that runs to the next tag of either kind (a repeated
    opening tag is used as the closing one) or to the end."""
    last = None
    open_at = None
    for tag in _TAG.finditer(text):
        if open_at is not None:
            span = text[open_at : tag.start()].strip()
            if span and not _PLACEHOLDER.match(span):
                last = span, text[tag.end() :]
            open_at = None
        elif not tag.group(1):
            open_at = tag.end()
    if open_at is not None:
        span = text[open_at:].strip()
        if span and not _PLACEHOLDER.match(span):
            last = span, ""
    return last
