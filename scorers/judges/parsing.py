"""Parsers for judge replies. Each returns a :class:`Parsed`: a score, or an error, never a silent 0.

``parse`` names the path taken (``judgement-line``, ``tag``, ``regex-fallback``,
``json``, ``rome``, ...) so a reviewer can filter verdicts that needed a
fallback.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

import orjson


@dataclass
class Parsed:
    score: float | None
    parse: str
    error: str | None = None
    explanation: str | None = None
    metrics: dict[str, Any] = field(default_factory=dict)


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
        score=float(int(float(number) > 0.5)), parse="rome", explanation=_rationale(content or "")
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
            return Parsed(score=float(bare), parse="bare-number")
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
        return Parsed(
            score=None, parse="failed", error=f"expected an object, got {type(obj).__name__}"
        )
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
    if not isinstance(judge_overall, (int, float)) or isinstance(judge_overall, bool):
        notes.append("the judge gave no numeric Overall Score")
    elif abs(float(judge_overall) - mean) > OVERALL_TOLERANCE:
        notes.append(
            f"the judge's Overall Score {judge_overall} differs from the mean of its metrics {mean:.2f}"
        )
    extra = sorted(set(obj) - set(VRC_METRICS) - {VRC_OVERALL})
    if extra:
        notes.append("ignored extra keys: " + ", ".join(map(str, extra))[:200])
    return Parsed(
        score=round(mean / 10, 4), parse=path, explanation="; ".join(notes) or None, metrics=metrics
    )


# --- VRC-Bench final-answer judge --------------------------------------------------------

_BINARY = re.compile(r"^\W*([01])(?:\.0*)?\W*$")
_BINARY_TOKEN = re.compile(r"(?<![\d.])([01])(?:\.0+)?(?![\d.])")


def parse_binary(content: str | None) -> Parsed:
    """A 0/1 reply. The reference feeds the raw text to ``float()`` and skips what fails."""
    text = (content or "").strip()
    match = _BINARY.match(text)
    if match:
        return Parsed(score=float(match.group(1)), parse="number")
    found = {m.group(1) for m in _BINARY_TOKEN.finditer(text)}
    if len(found) == 1:
        return Parsed(score=float(found.pop()), parse="regex-fallback")
    if not found:
        return Parsed(score=None, parse="failed", error="no 0 or 1 in the reply")
    return Parsed(score=None, parse="failed", error="the reply contains both 0 and 1")


# --- MathReal equivalence judge (evaluate/evaluation_answer_2.py) ------------------------

_SCORE_TAG = re.compile(r"<score>([\d.]+)</score>")
_SCORE_FALLBACK = re.compile(r"\b0\.\d+\b|\b1\.0+\b|\b[01]\b")


def parse_mathreal(content: str | None) -> Parsed:
    """``<score>x</score>``, else the reference's last-number fallback; clamped to [0, 1]."""
    text = content or ""
    match = _SCORE_TAG.search(text)
    if match:
        try:
            value = float(match.group(1))
        except ValueError:
            return Parsed(
                score=None, parse="failed", error=f"<score> holds {match.group(1)!r}, not a number"
            )
        return Parsed(score=min(1.0, max(0.0, value)), parse="tag")
    found = _SCORE_FALLBACK.findall(text)
    if found:
        return Parsed(
            score=min(1.0, max(0.0, float(found[-1]))),
            parse="regex-fallback",
            explanation="score tag not found, used the last number",
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
