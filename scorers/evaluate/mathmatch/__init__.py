"""``math_matching``: MathReal-style grading of math answers without an LLM.

Partial credit per blank (``score``), all-or-nothing (``strict``), one part per
blank. Equivalence of single values uses fast exact rules and then math-verify
under a per-item time limit (see :mod:`scorers.evaluate.mathmatch.mvpool`).
"""

from __future__ import annotations

import os
import re
from typing import Any

from scorers.errors import EvaluatorError, json_type
from scorers.evaluate.mathmatch import choices
from scorers.evaluate.mathmatch.dates import answered_date, reference_date, same_date
from scorers.evaluate.mathmatch.equivalence import Budget
from scorers.evaluate.mathmatch.extract import extract_answer, stated_before_option
from scorers.evaluate.mathmatch.normalize import ascii_numerals
from scorers.evaluate.mathmatch.numberwords import number_in_words
from scorers.evaluate.mathmatch.scoring import (
    BlankResult,
    Grader,
    expected_boxes,
    reference_blanks,
)
from scorers.evaluate.outcome import Outcome
from scorers.records import final_answer

__all__ = ["math_matching", "set_time_limit", "time_limit"]

_PROOF_OR_DRAWING = re.compile(
    r"proof|prove|证明|draw|graphing|sketch|plot|作图|画图|绘图", re.IGNORECASE
)
_MULTIPLE_CHOICE = re.compile(r"multiple\s*-?\s*choice|选择", re.IGNORECASE)
_BOLD_DRESS = re.compile(r"\*\*|__")
_DEFAULT_LIMIT = 5.0
_limit = float(os.environ.get("ROME_TUI_MATH_TIME_LIMIT", _DEFAULT_LIMIT))


def set_time_limit(seconds: float) -> None:
    """Seconds of math-verify time one item may use (default 5, env ROME_TUI_MATH_TIME_LIMIT)."""
    global _limit
    if seconds <= 0:
        raise ValueError("the time limit must be positive")
    _limit = float(seconds)


def time_limit() -> float:
    return _limit


def math_matching(
    response: str,
    *,
    answer: str | int | float | None = None,
    question_type: str | None = None,
    **unknown: Any,
) -> Outcome:
    """Grade ``response`` against the reference ``answer``.

    Raises :class:`EvaluatorError` for a missing or non-text reference and for
    any other keyword argument.
    """
    if unknown:
        raise EvaluatorError(f"math_matching: unknown kwargs {', '.join(sorted(unknown))}")
    if answer is None:
        raise EvaluatorError("math_matching: kwarg 'answer' (the reference) is missing")
    if isinstance(answer, bool) or not isinstance(answer, (str, int, float)):
        raise EvaluatorError(f"math_matching: 'answer' must be text, got {json_type(answer)}")
    if question_type is not None and not isinstance(question_type, str):
        raise EvaluatorError("math_matching: 'question_type' must be text")
    if not isinstance(response, str):
        raise EvaluatorError(f"math_matching: response must be text, got {json_type(response)}")
    response = ascii_numerals(response)
    # A reference written as a number in words ("Four") is that number, as an answer's is.
    reference = number_in_words(ascii_numerals(str(answer)))
    qtype = question_type or ""

    ref_blanks = reference_blanks(reference)
    extracted, _found_by = extract_answer(
        response, boxes=expected_boxes(ref_blanks) if ref_blanks else 1, lines=len(ref_blanks)
    )
    if _PROOF_OR_DRAWING.search(qtype):
        part = {
            "reference": reference,
            "predicted": extracted,
            "score": 1.0,
            "how": "proof/drawing question: accepted",
        }
        return Outcome(
            score=1.0,
            extracted=extracted,
            strict=1.0,
            parts=(part,),
            note="proof/drawing question: accepted without grading",
        )
    if not ref_blanks:
        raise EvaluatorError("math_matching: the reference answer is empty")

    multiple_choice = bool(_MULTIPLE_CHOICE.search(qtype))
    budget = Budget(limit=_limit)
    grader = Grader(budget, multiple_choice=multiple_choice)
    results = grader.grade(ref_blanks, extracted)
    if (
        len(ref_blanks) == 1
        and results[0].score == 0
        and choices.reference_letters(ref_blanks[0], multiple_choice=True) is None  # not "BC"
    ):
        # "... so the net price is $60.48.\n\nThe best answer is B." against "$60.48": the
        # letter names an option whose text the response does not hold; the value the
        # writer stated before naming it is its answer.
        stated = stated_before_option(response, expected_boxes(ref_blanks))
        if stated:
            extracted, results = stated, grader.grade(ref_blanks, stated)
    if (date := reference_date(reference)) is not None:
        # "September 1980": a date is compared as a date, not as its numbers
        written = answered_date(_BOLD_DRESS.sub("", final_answer(response)), extracted)
        if written is not None:
            extracted = written[0]
            right = same_date(written[1], date)
            results = [BlankResult(reference, extracted, float(right), "date")]
    score = sum(r.score for r in results) / len(results)
    strict = 1.0 if all(r.score >= 1.0 - 1e-9 for r in results) else 0.0
    note = None
    if budget.timed_out:
        note = (
            f"math-verify timed out ({budget.timed_out} comparison(s), limit {_limit:g} s per item);"
            " counted as not equal"
        )
    return Outcome(
        score=round(score, 4),
        extracted=extracted,
        strict=strict,
        parts=tuple(r.as_dict() for r in results),
        note=note,
    )
