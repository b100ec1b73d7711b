"""What a load checks in a graded record: its scores and the parts of its review.

A value a command could not use (a score outside [0, 1], a verdict without a
source, a review part of the wrong type) is set aside under
``review.malformed`` rather than dropped, so writing the run back loses
nothing, and each kind of problem is warned about once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorers.io.record_checks import first_ids
from scorers.records import FLAG_KINDS, REVIEW_KEY
from scorers.review import is_score

MALFORMED_KEY = "malformed"  # review[MALFORMED_KEY][part]: what a load could not use, kept
RANGE = "range"  # the problem kind of a score outside [0, 1] or not a number
_EVIDENCE_FIELDS = ("reasoning", "answer")
_REVIEW_LISTS = ("verdicts", "flags", "history", "conflict")
_REVIEW_TEXTS = ("mode", "primary", "content_hash")


def _verdict_problem(verdict: Any) -> str | None:
    """The problem kind ("verdicts" or RANGE) that makes a verdict unusable, or None."""
    if type(verdict) is not dict or type(verdict.get("source")) is not str:
        return "verdicts"
    for key in ("score", "strict"):
        value = verdict.get(key)
        if value is not None and not is_score(value):
            number = isinstance(value, (int, float)) and not isinstance(value, bool)
            return RANGE if number else "verdicts"
    return None


def _flag_ok(flag: Any) -> bool:
    if type(flag) is not dict or flag.get("kind") not in FLAG_KINDS:
        return False
    if not isinstance(flag.get("source", ""), str):
        return False
    evidence = flag.get("evidence")
    if type(evidence) is not list:
        return False
    for span in evidence:
        if type(span) is not dict or span.get("field") not in _EVIDENCE_FIELDS:
            return False
        start, end = span.get("start"), span.get("end")
        if type(start) is not int or type(end) is not int or not 0 <= start <= end:
            return False
        if not isinstance(span.get("text", ""), str):
            return False
    return True


def _verdict_ok(verdict: Any) -> bool:
    if type(verdict) is dict and "strict" not in verdict:
        score = verdict.get("score")
        kind = type(score)
        if (score is None or ((kind is float or kind is int) and 0 <= score <= 1)) and type(
            verdict.get("source")
        ) is str:
            return True  # the usual verdict, decided without a call
    return _verdict_problem(verdict) is None


def _is_object(value: Any) -> bool:
    return type(value) is dict


_ABSENT = object()
# Per list part of a review: is an item usable. History and conflict entries
# only need to be objects: their fields are checked where they are used.
_ITEM_OK: dict[str, Callable[[Any], bool]] = {
    "verdicts": _verdict_ok,
    "flags": _flag_ok,
    "history": _is_object,
    "conflict": _is_object,
}


def stash(malformed: dict[str, list[Any]], part: str, value: Any) -> None:
    malformed.setdefault(part, []).append(value)


def check_review(review: dict[str, Any], malformed: dict[str, list[Any]]) -> dict[str, None]:
    """Make a record's review well typed; what cannot be used moves to ``malformed``.

    Returns the kinds of problem found, in the order found (a dict, not a set, so
    the load's warnings come in the same order whatever the hash seed): a review
    part's name, or RANGE. The common case (nothing wrong) takes one test per part.
    """
    kinds: dict[str, None] = {}
    for part in _REVIEW_LISTS:
        items = review.get(part, _ABSENT)
        if items is _ABSENT:
            continue
        if type(items) is not list:
            stash(malformed, part, review.pop(part))
            kinds[part] = None
            continue
        if not items or all(map(_ITEM_OK[part], items)):
            continue
        keep = []
        for item in items:
            if _ITEM_OK[part](item):
                keep.append(item)
            else:
                stash(malformed, part, item)
                problem = _verdict_problem(item) if part == "verdicts" else part
                kinds[problem or part] = None
        review[part] = keep
    human = review.get("human", _ABSENT)
    if human is not _ABSENT and (type(human) is not dict or not is_score(human.get("score"))):
        score = human.get("score") if type(human) is dict else None
        number = isinstance(score, (int, float)) and not isinstance(score, bool)
        kinds[RANGE if number else "human"] = None
        stash(malformed, "human", review.pop("human"))
    for part in _REVIEW_TEXTS:
        value = review.get(part)
        if value is not None and type(value) is not str:
            stash(malformed, part, review.pop(part))
            kinds[part] = None
    stale = review.get("stale")
    if stale is not None and type(stale) is not bool:
        stash(malformed, "stale", review.pop("stale"))
        kinds["stale"] = None
    return kinds


def check_scores(record: dict[str, Any], malformed: dict[str, list[Any]]) -> bool:
    """Set aside a ``correct``/``correct_strict`` that is not a score; True if one was."""
    found = False
    correct = record.get("correct")
    if correct is not None and not is_score(correct):
        stash(malformed, "correct", correct)
        record["correct"] = None  # not graded: left out of every count
        found = True
    if "correct_strict" in record:
        strict = record["correct_strict"]
        if strict is not None and not is_score(strict):
            stash(malformed, "correct_strict", record.pop("correct_strict"))
            found = True
    return found


def keep_malformed(review: dict[str, Any], malformed: dict[str, list[Any]]) -> None:
    """Put what a load set aside under ``review.malformed``, beside what an earlier load did."""
    kept = review.get(MALFORMED_KEY)
    if type(kept) is dict:  # set aside by an earlier load: keep both
        for part, values in malformed.items():
            old = kept.get(part, [])
            kept[part] = (old if type(old) is list else [old]) + values
    else:
        if kept is not None:
            stash(malformed, MALFORMED_KEY, kept)
        review[MALFORMED_KEY] = malformed


def problem_warnings(target: str, problems: dict[str, list[Any]]) -> list[str]:
    """One warning per kind of problem, counting the records that had it."""
    out = []
    for kind, where in problems.items():
        first = first_ids(where)
        if kind == RANGE:
            out.append(
                f"{target}: {len(where)} record(s) with a score out of range (not a number in "
                f"[0, 1]; first: {first}); not counted (kept under review.{MALFORMED_KEY})"
            )
        elif kind == REVIEW_KEY:
            out.append(
                f"{target}: {len(where)} record(s) whose review is not an object (first: {first}); "
                f"read as graded elsewhere (kept under review.{MALFORMED_KEY})"
            )
        else:
            out.append(
                f"{target}: {len(where)} record(s) with a malformed review.{kind} "
                f"(first: {first}); ignored (kept under review.{MALFORMED_KEY})"
            )
    return out
