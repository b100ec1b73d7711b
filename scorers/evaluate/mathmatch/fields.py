"""A structured answer: a JSON or dict field named like an answer.

Prompts that ask for JSON ("give a rationale and a numeric 'ans'") get objects such
as ``{"rationale": "...", "ans": 230}`` or ``{"EXPLANATION": "...", "ANSWER": "True"}``;
the field is the slot the writer fills with their result, as a box is. The last
complete field counts (a later object cut off by the length limit names none), and
the text after it may still correct it ("Note: I have corrected the answer to 230").
An answer tag (``<answer> ... </answer>``) is such a slot too, and so is the action
by which a tool-using agent ends its turns: an object whose type names the final
answer (``{"type": "final_answer", "content": "3"}``, LangChain's ``{"action": "Final
Answer", "action_input": "3"}``) holds the answer in its other field (a tool call,
``{"type": "tool_call", ...}``, is no such action).
"""

from __future__ import annotations

import json
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


# The field of an agent's action object that says which action it is, naming the end.
_END = r"final[ _]?answer|finish"
_FINISHES = re.compile(
    rf"""["'](?:type|action|name|tool|tool_name)["']\s*:\s*["'](?:{_END})["']""", re.IGNORECASE
)
# Fields beside it that give the agent's reasons, not its result.
_REASONS = re.compile(r"thoughts?|reason(?:ing)?|rationale|explanation|plan", re.IGNORECASE)
_DECODER = json.JSONDecoder()


def _agent_answer(text: str) -> tuple[int, str, str] | None:
    """(where, value, text after it) of the last complete action object of ``text``
    that ends the agent's turns, or None (none, or cut off by the length limit)."""
    last = None
    for last in _FINISHES.finditer(text):  # noqa: B007 - we want the last match
        pass
    if last is None:
        return None
    start = text.rfind("{", 0, last.start())
    try:
        action, end = _DECODER.raw_decode(text, start) if start >= 0 else (None, 0)
    except ValueError:
        return None  # cut off mid-object: no answer given yet
    if not isinstance(action, dict) or end < last.end():
        return None
    said = [
        str(value)
        for key, value in action.items()
        if isinstance(value, (str, int, float))
        and not _REASONS.fullmatch(str(key))
        and not isinstance(value, bool)
        and not re.fullmatch(_END, str(value), re.IGNORECASE)
    ]
    # (one value besides the action's name and reasons: the answer)
    return (start, said[-1].strip(), text[end:]) if len(said) == 1 and said[0].strip() else None


def answer_field(text: str) -> tuple[str, str] | None:
    """(value, text after it) of the last answer field of ``text``, or None. A field
    after a problem the writer poses once answered answers that new problem."""
    last = None
    for field in _FIELD.finditer(text):
        if last is not None and _poses_problem(text[last.end() : field.start()]):
            break
        last = field
    agent = _agent_answer(text)
    if agent is not None and (last is None or agent[0] > last.start()):
        return agent[1], agent[2]
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
