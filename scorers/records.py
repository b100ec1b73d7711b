"""The record model shared by every layer.

A graded record is a plain ``dict``: the ROME-compatible prediction record
(``question_id``, ``answer``, ``raw_answer``, annotation fields, ``correct``,
``judgement_response``) plus one extra key, ``review``, that holds everything
rome-tui adds. Records stay dicts (not dataclasses) because a 100,000-item run
must load and save at close to orjson speed; the TypedDicts below give mypy the
shape without a conversion pass.

Evidence offsets index into the two texts returned by :func:`response_texts`,
which is the single definition of "the reasoning" and "the final answer" of a
record. Anything that shows or searches those texts must go through it.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any, Literal, NamedTuple, TypedDict

import orjson

REVIEW_KEY = "review"
REVIEW_VERSION = 1

TextField = Literal["reasoning", "answer"]


class Evidence(TypedDict):
    field: TextField
    start: int
    end: int
    text: str


class _FlagRequired(TypedDict):
    kind: str
    source: str
    evidence: list[Evidence]


class Flag(_FlagRequired, total=False):
    detail: str
    # Heuristic flags only: "high", or "low" where the cue has an innocent reading the
    # heuristics cannot rule out (the items worth a rubric judge's second look).
    confidence: str
    # heuristic_rubric_disagree only: the behaviour kinds on which the two readings differ.
    disagree_on: list[str]


class _VerdictRequired(TypedDict):
    source: str  # "rule:rome", "rule:strict", "judge:<name>", "human:<annotator>"
    score: float | None  # None when ``error`` is set, or the judge scores no correctness (rubric)
    extracted: str | None
    explanation: str | None


class Verdict(_VerdictRequired, total=False):
    error: str  # judge call failed or reply unparsable: never read as a 0
    strict: float  # all-or-nothing score where partial credit exists (math)
    parts: list[dict[str, Any]]  # per-blank detail for multi-part answers
    model: str
    prompt_hash: str
    raw: str
    parse: str  # how the reply was parsed: "tag", "regex-fallback", "rome", ...
    fallback: str  # why the score needed a fallback parse (raises judge_parse_fallback)
    agreement: float  # a judge panel's agreement with its own verdict (0-1)
    usage: dict[str, Any]
    metrics: dict[str, Any]  # e.g. VRC-Bench per-metric scores
    uncertain: str  # why the rule could not decide (strict mode): raises ``rule_uncertain``


class HistoryEntry(TypedDict, total=False):
    id: str
    op: Literal["set", "undo", "redo"]
    annotator: str
    time: str  # UTC, ISO 8601 with "Z"
    question_id: str
    old: float | None
    new: float | None
    reason: str
    content_hash: str


class Human(TypedDict, total=False):
    score: float
    annotator: str
    time: str
    reason: str
    content_hash: str


class Review(TypedDict, total=False):
    version: int
    mode: str  # rule mode whose verdict is primary: "rome" or "strict"
    primary: str  # source whose score fills ``correct`` when no human override exists
    verdicts: list[Verdict]
    flags: list[Flag]
    content_hash: str  # hash of what was graded, see :func:`content_hash`
    human: Human  # the override in force, if any
    history: list[HistoryEntry]
    stale: bool  # the override was made on content that has since changed
    conflict: list[Human]  # competing overrides from other reviewers, unresolved
    item: str  # model/question_id when the run holds several models (see item_id)


# Flag kinds. Detectors may only emit kinds listed here so that filters,
# summaries and the README stay in step.
FLAG_KINDS: dict[str, str] = {
    "rome_strict_disagree": "rome and strict rule modes give different scores",
    "rule_judge_disagree": "the primary rule verdict and an LLM judge disagree",
    "heuristic_rubric_disagree": "the heuristics and the LRM-Eval rubric judge disagree on a behaviour: one flags it, the other does not",
    "release_strict_disagree": "the published grade (the release's own correct) and strict mode disagree",
    "rule_uncertain": "strict mode could not decide: the answer names something that is neither a key item nor a known alternative of one, or a number whose format stays ambiguous",
    "judge_error": "a judge call failed or its reply could not be parsed",
    "judge_rationale_contradicts": "the judge's rationale argues against its own verdict",
    "judge_parse_fallback": "the judge's score was read by a fallback parse, or its reply is inconsistent",
    "answer_contradicts_reasoning": "the reasoning concludes a different answer than the final answer",
    "hedged_reasoning_certain_answer": "the reasoning ends unsure but the answer states no doubt",
    "claims_web_search": "the reasoning claims a web search the run could not make",
    "claims_tool_use": "the reasoning claims running code, a calculator or an image tool",
    "abstained": "the answer declines to answer",
    "reasoning_abstains_answer_does_not": "the reasoning says it cannot tell, the answer commits anyway",
    "judge_prompt_injection": "the answer addresses the grader",
    "override_stale": "a human override was made on content that has since changed",
    "override_conflict": "reviewers made different overrides of this item",
}
# The kinds the no-LLM detectors (scorers.flags.behaviour) raise, in LRM-Eval's order.
HEURISTIC_FLAG_KINDS: tuple[str, ...] = (
    "answer_contradicts_reasoning",
    "hedged_reasoning_certain_answer",
    "claims_web_search",
    "claims_tool_use",
    "abstained",
    "reasoning_abstains_answer_does_not",
    "judge_prompt_injection",
)


class ResponseTexts(NamedTuple):
    reasoning: str
    answer: str


_THINK_OPEN = "<think>"
_THINK_CLOSE = "</think>"
_REASONING_FIELDS = ("reason", "reasoning_content", "reasoning")


_RUN_KEY = re.compile(r"inference_\d+")


def is_multi_run(answer: Any) -> bool:
    """The production harness's multi-run answer: an object whose every key is ``inference_N``."""
    return (
        type(answer) is dict
        and bool(answer)
        and all(type(k) is str and _RUN_KEY.fullmatch(k) for k in answer)
    )


def raw_response(record: Mapping[str, Any], run: int = 0) -> Any:
    """The model's original response: ``raw_answer`` once graded, else ``answer``.

    Runs are a non-empty list (as graded files keep them) or a multi-run object,
    as the grader reads them; any other value is one response, graded as its
    JSON text.
    """
    value = record.get("raw_answer", record.get("answer"))
    if isinstance(value, list) and value:
        value = value[run] if run < len(value) else None
    elif is_multi_run(value):
        keys = sorted(value, key=_inference_order)
        value = value[keys[run]] if run < len(keys) else None
    return value


def _inference_order(key: str) -> tuple[int, str]:
    tail = key.rsplit("_", 1)[-1]
    return (int(tail), key) if tail.isdecimal() and tail.isascii() else (1 << 30, key)


def strip_think_tags(text: str) -> str:
    """Drop one wrapping ``<think>``/``</think>`` pair, keeping inner whitespace."""
    start, end = _think_bounds(text, 0, len(text))
    return text if start == 0 and end == len(text) else text[start:end]


def _think_bounds(text: str, lo: int, hi: int) -> tuple[int, int]:
    """:func:`strip_think_tags` of ``text[lo:hi]`` as bounds into ``text``.

    Working on offsets copies a multi-kilobyte reasoning once, not per step.
    """
    # Tests at the two ends first: a search of the whole text for a tag it
    # lacks would read every character of a long reasoning, twice.
    if text.startswith(_THINK_OPEN, lo, hi):
        lo += len(_THINK_OPEN)
    elif lo < hi and text[lo].isspace():
        start = text.find(_THINK_OPEN, lo, hi)
        if start != -1 and text[lo:start].isspace():
            lo = start + len(_THINK_OPEN)
    if text.endswith(_THINK_CLOSE, lo, hi):
        hi -= len(_THINK_CLOSE)
    elif lo < hi and text[hi - 1].isspace():
        end = text.rfind(_THINK_CLOSE, lo, hi)
        if end != -1 and text[end + len(_THINK_CLOSE) : hi].isspace():
            hi = end
    return lo, hi


def split_think(text: str) -> tuple[str, str]:
    """Split at the first ``</think>`` as the production harness does.

    Returns (reasoning, answer); without a closing tag the reasoning is empty.
    """
    cut = text.find(_THINK_CLOSE)
    if cut == -1:
        return "", text
    after = cut + len(_THINK_CLOSE)
    start, end = _think_bounds(text, 0, after)
    return text[start:end], text[after:]


def _raw_text(record: Mapping[str, Any], run: int) -> str:
    raw = raw_response(record, run) if run else record.get("raw_answer", record.get("answer"))
    if isinstance(raw, str):
        return raw
    if run == 0 and isinstance(raw, (list, dict)):
        raw = raw_response(record, 0)
        if isinstance(raw, str):
            return raw
    return "" if raw is None else _to_text(raw)


def final_answer(response: str) -> str:
    """The final answer of one response text: everything after the first ``</think>``.

    The production harness splits there (exact case, first tag), and so does
    every reader of a final answer: grading (strict mode, ``math_matching``,
    the judges), flags and the app. Only rome mode, which reproduces the
    reference grader, reads the whole response (see :mod:`scorers.evaluate.rome`).
    """
    cut = response.find(_THINK_CLOSE)
    return response if cut == -1 else response[cut + len(_THINK_CLOSE) :]


def final_answer_text(record: Mapping[str, Any], run: int = 0) -> str:
    """``response_texts(record, run).answer`` without reading the reasoning."""
    return final_answer(_raw_text(record, run))


def _reasoning_span(record: Mapping[str, Any], run: int, raw: str) -> tuple[str, int, int]:
    """Where the reasoning is: (text, start, end), so callers copy it at most once.

    The reasoning comes from ``reason``, ``reasoning_content`` or ``reasoning``
    (the first non-empty one), else from a ``<think>`` block inside ``raw``.
    """
    for name in _REASONING_FIELDS:
        value = record.get(name)
        if value is None:
            continue
        if isinstance(value, list):
            value = value[run] if run < len(value) else None
        # ``not isspace()`` is ``bool(strip())`` without copying the text.
        if isinstance(value, str) and value and not value.isspace():
            start, end = _think_bounds(value, 0, len(value))
            if start < end:
                return value, start, end
            break
    cut = raw.find(_THINK_CLOSE)
    if cut == -1:
        return "", 0, 0
    start, end = _think_bounds(raw, 0, cut + len(_THINK_CLOSE))
    return raw, start, end


def response_texts(record: Mapping[str, Any], run: int = 0) -> ResponseTexts:
    """The reasoning and the final answer of a record, as shown and searched.

    The reasoning comes from ``reason``, ``reasoning_content`` or ``reasoning``
    (the first non-empty one), else from a ``<think>`` block inside the answer.
    The final answer is :func:`final_answer` of the response.
    """
    raw = _raw_text(record, run)
    text, start, end = _reasoning_span(record, run, raw)
    return ResponseTexts(text[start:end], final_answer(raw))


_NOT_SPACE = re.compile(r"\S")


def has_reasoning(record: Mapping[str, Any], run: int = 0) -> bool:
    """Whether ``response_texts(record, run).reasoning`` holds more than whitespace.

    Reads the span in place: a summary asks this of every record of a run.
    """
    text, start, end = _reasoning_span(record, run, _raw_text(record, run))
    return _NOT_SPACE.search(text, start, end) is not None


def _to_text(value: Any) -> str:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def decode_kwargs(value: Any) -> Any:
    """``evaluator_kwargs`` as a dict, decoding the JSON string of HF exports."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
    return value


def content_hash(record: Mapping[str, Any], final: str | None = None) -> str:
    """A short hash of what a verdict is about: answer, reference, evaluator, kwargs.

    Stored with every override so that an override made on one answer is
    never silently applied to a re-graded, different one. ``final`` is
    ``final_answer_text(record)`` when the caller has it already.
    """
    what = [
        final_answer_text(record) if final is None else final,
        record.get("reference"),
        record.get("evaluator"),
        decode_kwargs(record.get("evaluator_kwargs")),
    ]
    try:
        payload = orjson.dumps(what, option=orjson.OPT_SORT_KEYS, default=str)
    except orjson.JSONEncodeError:  # a non-string key, as Python dicts allow
        payload = orjson.dumps(
            what, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS, default=str
        )
    return hashlib.sha256(payload).hexdigest()[:16]


def review_of(record: dict[str, Any]) -> Review:
    """The record's ``review`` dict, created empty if missing or malformed."""
    review = record.get(REVIEW_KEY)
    if not isinstance(review, dict):
        review = Review(version=REVIEW_VERSION, verdicts=[], flags=[], history=[])
        record[REVIEW_KEY] = review
    return review  # type: ignore[return-value]


def verdict_of(record: Mapping[str, Any], source: str) -> Verdict | None:
    review = record.get(REVIEW_KEY)
    if not isinstance(review, dict):
        return None
    for verdict in review.get("verdicts", ()):
        if isinstance(verdict, dict) and verdict.get("source") == source:
            return verdict  # type: ignore[return-value]
    return None


def set_verdict(record: dict[str, Any], verdict: Verdict) -> None:
    """Add or replace the verdict of ``verdict['source']``: one per source."""
    verdicts = review_of(record).setdefault("verdicts", [])
    for i, old in enumerate(verdicts):
        if old.get("source") == verdict["source"]:
            verdicts[i] = verdict
            return
    verdicts.append(verdict)


def question_id(record: Mapping[str, Any]) -> str:
    return str(record.get("question_id"))


def item_id(record: Mapping[str, Any]) -> str:
    """The id a reviewer types and sees: ``review.item`` (``model/question_id`` in a
    run of several models), else the question_id."""
    review = record.get(REVIEW_KEY)
    if type(review) is dict:
        item = review.get("item")
        if type(item) is str:
            return item
    return str(record.get("question_id"))
