"""Parsers for judge replies. Each returns a :class:`Parsed`: a score, or an error, never a silent 0.

``parse`` names the path taken (``judgement-line``, ``tag``, ``regex-fallback``,
``json``, ``rome``, ...). A score read by a fallback the published protocol
allows (MathReal's last-number rule, a JSON object cut out of prose) or a reply
that contradicts itself (VRC's Overall Score that is not the mean of its
metrics) sets ``fallback`` to the reason; the verdict keeps it and the
``judge_parse_fallback`` flag puts the item in the review queue. A value out
of the protocol's range is an error, never clamped into a score.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from scorers.errors import json_type


@dataclass
class Parsed:
    score: float | None
    parse: str
    error: str | None = None
    explanation: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)
    fallback: str | None = None  # why the score is less certain than the protocol's happy path


# --- ROME (flageval-baai/ROME-evaluation, spec §6.1) -------------------------------------

_FIRST_NUMBER = re.compile(r"(\d+(?:\.\d+)?)")


def parse_rome_reference(content: str | None) -> Parsed:
    """The reference grader's parser, quirks included (spec §6.1).

    Strip every ``Judgement:``; keep the text after the last blank line if
    there is one; the first number there (or "0") decides, 1 if > 0.5. A
    number in the reasoning can therefore flip the verdict; that is the point
    of reproducing it.
    """
    compare = (content or "").replace("Judgement:", "").strip()
    part = compare.split("\n\n")[-1].strip() if "\n\n" in compare else compare
    match = _FIRST_NUMBER.search(part)
    number = match.group(1) if match else "0"
    return Parsed(
        score=float(int(float(number) > 0.5)),
        parse="rome",
        explanation=_rationale(content or ""),
        fallback=None if match else "no number in the reply: the reference parser reads 0",
    )


_JUDGEMENT_LINE = re.compile(
    r"^[\s>*#_`-]*judge?ment[\s*_`]*[:：][\s*_`]*(?P<value>[^\n]*)$",
    re.IGNORECASE | re.MULTILINE,
)
_VALUE = re.compile(r"^\(?\s*(?P<num>[01](?:\.0+)?|0?\.\d+)\s*\)?(?![\d.])")
_WORDS = {"consistent": 1.0, "inconsistent": 0.0, "correct": 1.0, "incorrect": 0.0}


def parse_rome_robust(content: str | None) -> Parsed:
    """The verdict on the last ``Judgement:`` line, the format the ROME prompt asks for.

    A reply that is only a bare 0 or 1 is accepted too. Anything else is an
    error with the raw text kept, never a score read off the reasoning.
    """
    text = content or ""
    lines = list(_JUDGEMENT_LINE.finditer(text))
    if not lines:
        bare = text.strip().strip("*`").strip()
        if bare in {"0", "1"}:
            return Parsed(
                score=float(bare),
                parse="bare-number",
                fallback="a bare number instead of the 'Judgement:' line the prompt asks for",
            )
        return Parsed(
            score=None,
            parse="failed",
            error="no 'Judgement:' line in the reply",
            explanation=_rationale(text),
        )
    last = lines[-1]
    value = _value_of(last)
    rationale = _rationale(text[: last.start()])
    match = _VALUE.match(value)
    if match:
        number = float(match.group("num"))
        if number not in (0.0, 1.0):
            return Parsed(
                score=None,
                parse="failed",
                error=f"judgement {value!r} is not 0 or 1",
                explanation=rationale,
            )
        score = number
    elif value.lower().rstrip(".") in _WORDS:
        score = _WORDS[value.lower().rstrip(".")]
    else:
        return Parsed(
            score=None,
            parse="failed",
            error=f"judgement {value[:60]!r} is not 0 or 1",
            explanation=rationale,
        )
    distinct = {_value_of(m)[:1].lower() for m in lines}
    parse = "judgement-line" if len(distinct) <= 1 else "judgement-line-last-of-several"
    return Parsed(score=score, parse=parse, explanation=rationale)


def _value_of(match: re.Match[str]) -> str:
    return match.group("value").strip().strip("*`_").strip()


def _rationale(text: str) -> str:
    """The judge's reasoning, without the ``Reasoning:`` label, for display and flags."""
    text = _JUDGEMENT_LINE.sub("", text).strip()
    return re.sub(r"^\s*[*#]*\s*reasoning\s*[*]*\s*[:：]\s*", "", text, flags=re.IGNORECASE)[:2000]


# --- VRC-Bench step judge (LlamaV-o1 eval/get_result.py) ---------------------------------

VRC_METRICS: tuple[str, ...] = (
    "Faithfulness-Step",
    "Faithfulness-Token",
    "Informativeness-Step",
    "Repetition-Token",
    "Hallucination",
    "Redundancy",
    "Semantic Coverage-Step",
    "Reasoning Alignment",
    "Commonsense",
    "Missing Step",
)
VRC_OVERALL = "Overall Score"
OVERALL_TOLERANCE = 0.05


def _load_object(content: str) -> tuple[Any, str]:
    try:
        return orjson.loads(content), "json"
    except orjson.JSONDecodeError:
        pass
    try:
        # The prompt asks for a Python dict with single quotes; the reference reads it this way.
        return ast.literal_eval(content.strip()), "python-literal"
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    start, end = content.find("{"), content.rfind("}")
    if start == -1 or end <= start:
        raise ValueError("no JSON object in the reply")
    block = content[start : end + 1]
    try:
        return orjson.loads(block), "extracted-json"
    except orjson.JSONDecodeError:
        pass
    try:
        return ast.literal_eval(block), "extracted-json"
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise ValueError("the object in the reply is neither JSON nor a Python literal") from None


def parse_vrc_steps(content: str | None) -> Parsed:
    """The 10 metric scores, each checked to be a number in 1–10; Overall recomputed as their mean."""
    if not content or not content.strip():
        return Parsed(score=None, parse="failed", error="empty reply")
    try:
        obj, path = _load_object(content)
    except ValueError as exc:
        return Parsed(score=None, parse="failed", error=str(exc))
    if not isinstance(obj, dict):
        return Parsed(score=None, parse="failed", error=f"expected an object, got {json_type(obj)}")
    problems: list[str] = []
    scores: dict[str, float] = {}
    for name in VRC_METRICS:
        value = obj.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            problems.append(
                f"{name} missing" if value is None else f"{name}={value!r} is not a number"
            )
        elif not 1 <= value <= 10:
            problems.append(f"{name}={value} outside 1-10")
        else:
            scores[name] = float(value)
    if problems:
        return Parsed(score=None, parse="failed", error="schema violation: " + "; ".join(problems))
    mean = sum(scores.values()) / len(scores)
    judge_overall = obj.get(VRC_OVERALL)
    metrics: dict[str, Any] = dict(scores)
    metrics["overall_mean"] = round(mean, 4)
    metrics["overall_judge"] = judge_overall
    notes = []
    fallbacks = []
    if path == "extracted-json":
        fallbacks.append("the scores were cut out of text around the JSON object")
    if not isinstance(judge_overall, (int, float)) or isinstance(judge_overall, bool):
        fallbacks.append("the judge gave no numeric Overall Score")
    elif abs(float(judge_overall) - mean) > OVERALL_TOLERANCE:
        fallbacks.append(
            f"the judge's Overall Score {judge_overall} is not the mean of its metrics {mean:.2f}"
        )
    extra = sorted(set(obj) - set(VRC_METRICS) - {VRC_OVERALL})
    if extra:
        notes.append("ignored extra keys: " + ", ".join(map(str, extra))[:200])
    return Parsed(
        score=round(mean / 10, 4),
        parse=path,
        explanation="; ".join(fallbacks + notes) or None,
        metrics=metrics,
        fallback="; ".join(fallbacks) or None,
    )


# --- VRC-Bench final-answer judge --------------------------------------------------------

_BINARY_WRAPPED = re.compile(r"^[\s*_`'\"()\[\].:]*([01])(?:\.0*)?[\s*_`'\"()\[\].:]*$")


def parse_binary(content: str | None) -> Parsed:
    """A 0/1 reply, read as the reference reads it: ``float()`` of the whole text.

    The reference skips any reply ``float()`` cannot read, so the only
    fallback allowed is a lone 0 or 1 wrapped in markdown or punctuation
    (``**1**``); a reply with words around the number is an error, as is any
    number other than 0 or 1.
    """
    text = (content or "").strip()
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is not None:
        if value in (0.0, 1.0):
            return Parsed(score=value, parse="number")
        return Parsed(score=None, parse="failed", error=f"the reply {text[:40]!r} is not 0 or 1")
    match = _BINARY_WRAPPED.match(text)
    if match:
        return Parsed(
            score=float(match.group(1)),
            parse="wrapped-number",
            fallback="the 0/1 came wrapped in markup or punctuation",
        )
    return Parsed(
        score=None, parse="failed", error=f"the reply is not a bare 0 or 1: {text[:80]!r}"
    )


# --- MathReal equivalence judge (evaluate/evaluation_answer_2.py) ------------------------

_SCORE_TAG = re.compile(r"<score>([\d.]+)</score>")
_ANY_SCORE_TAG = re.compile(r"<score>(.*?)</score>", re.DOTALL)
# Whole numbers in the text (with a sign unless a word or digit comes before the
# dash, so "0-1" is two numbers); the reference's fallback accepts those written
# 0.x, 1.0..., 0 or 1. Reading whole numbers keeps "1.5" from being read as 1
# and "-0.5" as 0.5, which the reference's bare pattern does.
_NUMBER = re.compile(r"(?<![\w.])(?:(?<![\w.-])-)?\d+(?:\.\d+)?(?![\w]|\.\d)")
_SCORE_FORM = re.compile(r"-?(?:0\.\d+|1\.0+|[01])")


def parse_mathreal(content: str | None) -> Parsed:
    """``<score>x</score>``, else the reference's last-number fallback (flagged).

    The reference clamps whatever it reads into [0, 1]; here a score outside
    that range, or a tag that holds no number, is an error: the judge broke
    the protocol and its number is not a grade.
    """
    text = content or ""
    match = _SCORE_TAG.search(text)
    if match:
        try:
            value = float(match.group(1))
        except ValueError:
            return Parsed(
                score=None, parse="failed", error=f"<score> holds {match.group(1)!r}, not a number"
            )
        if not 0.0 <= value <= 1.0:
            return Parsed(score=None, parse="failed", error=f"<score> {value:g} is outside 0-1")
        return Parsed(score=value, parse="tag")
    tag = _ANY_SCORE_TAG.search(text)
    if tag:
        return Parsed(
            score=None,
            parse="failed",
            error=f"<score> holds {tag.group(1).strip()[:40]!r}, not a number in 0-1",
        )
    found = [n for n in _NUMBER.findall(text) if _SCORE_FORM.fullmatch(n)]
    if found:
        value = float(found[-1])
        if not 0.0 <= value <= 1.0:
            return Parsed(
                score=None, parse="failed", error=f"the last number {found[-1]} is outside 0-1"
            )
        return Parsed(
            score=value,
            parse="regex-fallback",
            explanation="score tag not found, used the last number",
            fallback="no <score> tag: the reference's last-number fallback read the score",
        )
    return Parsed(score=None, parse="failed", error="unable to extract a score")


# --- LRM-Eval behaviour rubric -----------------------------------------------------------

_QUESTION_START = re.compile(
    r"^[\s>#*_]*(?:(?:rubric\s+)?(?:question|q)\s*)?(\d{1,2})\s*[.):：]",
    re.IGNORECASE | re.MULTILINE,
)
_ANSWER = re.compile(r"(?<![A-Za-z/])(YES|NO|N/A|NA)(?![A-Za-z/])")


@dataclass
class RubricAnswer:
    answer: str  # "YES", "NO" or "N/A"
    justification: str


def parse_rubric(content: str | None, questions: int) -> tuple[dict[int, RubricAnswer], list[int]]:
    """Per question number, the last YES/NO/N/A in its section and the text around it.

    Returns the answers and the numbers of questions with no readable answer.
    """
    text = content or ""
    starts = [(int(m.group(1)), m.start(), m.end()) for m in _QUESTION_START.finditer(text)]
    sections: dict[int, str] = {}
    for i, (number, _, end) in enumerate(starts):
        stop = starts[i + 1][1] if i + 1 < len(starts) else len(text)
        if 1 <= number <= questions and number not in sections:
            sections[number] = text[end:stop]
    answers: dict[int, RubricAnswer] = {}
    for number, body in sections.items():
        found = list(_ANSWER.finditer(body))
        if not found:
            continue
        last = found[-1]
        answer = "N/A" if last.group(1) == "NA" else last.group(1)
        justification = (body[: last.start()] + body[last.end() :]).strip(" \n*:-_")
        justification = re.sub(
            r"^(?:\**\s*(?:answer|justification)\s*\**\s*[:：]\s*)+",
            "",
            justification,
            flags=re.IGNORECASE,
        )
        answers[number] = RubricAnswer(answer, justification.strip()[:1000])
    missing = [n for n in range(1, questions + 1) if n not in answers]
    return answers, missing
