"""``strict`` rule grading: ROME's evaluators as a careful human applies them.

Each evaluator reads the final answer (``scorers.records.final_answer``), finds where
the model states its answer (:mod:`scorers.evaluate.strict.final`), and compares what it
states with the annotation. Every departure from the reference grader is listed
with an example in the README section "Strict mode".

``Outcome.extracted`` is a canonical form of what was read, so two answers can
be compared through it: sorted option letters (``"AC"``), a number
(``"1234"``, ``"45%"``), list items joined by ``", "``, a time ``h:mm:ss``, or
the folded answer text for phrase evaluators.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from scorers.errors import EvaluatorError
from scorers.evaluate.invented import before_invented_problem
from scorers.evaluate.memo import MAX_TEXT, Memo, kwargs_key
from scorers.evaluate.outcome import Outcome
from scorers.evaluate.strict import (
    choices_matching,
    doubt,
    interval_matching,
    key_items_matching,
    location_matching,
    number_matching,
    ordered_list_matching,
)
from scorers.evaluate.strict.commit import correction, reasoned
from scorers.evaluate.strict.final import Located, before_supposed, locate, states_answer
from scorers.evaluate.strict.question import options as question_options
from scorers.evaluate.strict.reading import TEXTS, Reading, question_facts
from scorers.records import final_answer

__all__ = ["EVALUATORS", "evaluate"]

# One module an evaluator, named as the evaluator.
EVALUATORS: dict[str, Callable[[Mapping[str, Any], Reading], Outcome]] = {
    "key_items_matching": key_items_matching.key_items_matching,
    "choices_matching": choices_matching.choices_matching,
    "ordered_list_matching": ordered_list_matching.ordered_list_matching,
    "number_matching": number_matching.number_matching,
    "location_matching": location_matching.location_matching,
    "interval_matching": interval_matching.interval_matching,
    "multi_interval_matching": interval_matching.multi_interval_matching,
}

# The evaluators that read an answer without a marker at its end (a number, option
# letters, an interval), where a closing supposition would be read for it.
_READ_AT_END = frozenset(
    {"number_matching", "choices_matching", "interval_matching", "multi_interval_matching"}
)


def evaluate(
    evaluator: str,
    kwargs: Mapping[str, Any],
    response: str,
    question: str | None = None,
    *,
    kwargs_text: Any = ...,
) -> Outcome:
    """Grade ``response`` for one item in strict mode.

    ``response`` may be the whole model output: only its final answer
    (``scorers.records.final_answer``, the text after the first ``</think>``) is
    graded. ``question`` is the annotation's question text: its options let an
    answer choose by an option's text or order by the items' names. Raises
    :class:`EvaluatorError` naming the evaluator and the kwarg when the
    annotation does not fit. ``kwargs_text`` is ``memo.kwargs_key(kwargs)`` when
    the caller has it (the grader computes it once for both modes).
    """
    func = EVALUATORS.get(evaluator)
    if func is None:
        raise EvaluatorError(f"unknown evaluator {evaluator!r}")
    if not isinstance(response, str):
        response = "" if response is None else str(response)
    asked = question if isinstance(question, str) else ""
    final = before_invented_problem(final_answer(response), states_answer, asked)
    loc = locate(final)
    if evaluator in _NUMERIC and (before := _before_invented_letter(final, loc, asked)):
        final, loc = before, locate(before)
    if kwargs_text is ...:
        kwargs_text = kwargs_key(kwargs)
    outcome = _read(func, evaluator, kwargs, kwargs_text, final, loc, asked, question)
    if outcome.uncertain is None and outcome.score == 0 and evaluator in _FREE_TEXT:
        # A sure 0 the evaluator could not weigh: the answer names part of a key.
        why = doubt.partial_key(evaluator, kwargs, loc.segment, final)
        why = why or doubt.near_spelling(evaluator, kwargs, loc.segment, asked)
        if why is not None:
            return dataclasses.replace(outcome, uncertain=why)
    if outcome.uncertain is None and outcome.score and evaluator in _FREE_TEXT:
        # A sure credit for a reasoning that stopped before it committed.
        why = doubt.cut_before_committing(evaluator, kwargs, final, loc.how)
        if why is not None:
            return dataclasses.replace(outcome, uncertain=why)
    return outcome


_FREE_TEXT = frozenset({"key_items_matching", "location_matching"})
_NUMERIC = frozenset({"number_matching", "interval_matching", "multi_interval_matching"})
_LONE_LETTER = re.compile(r"[(\[]?[A-J][)\]]?[.:]?")


def _before_invented_letter(final: str, loc: Located, asked: str) -> str | None:
    """The text before a closing marker that names an option letter, for a number
    the question asks with no options ("... so the total is 68 square feet.\nThe best
    answer is A."): the letter answers options the model invented; a reader takes
    the number it stated before. None when there is no such marker or nothing before it."""
    if loc.how != "marker" or _LONE_LETTER.fullmatch(loc.segment.strip()) is None:
        return None
    if question_options(asked):
        return None
    start = len(final) - len(loc.tail)
    line = final.rfind("\n", 0, max(start, 0))
    body = final[:line].rstrip() if line > 0 else ""
    return body or None


def _read(
    func: Callable[[Mapping[str, Any], Reading], Outcome],
    evaluator: str,
    kwargs: Mapping[str, Any],
    kwargs_text: str | None,
    final: str,
    loc: Located,
    asked: str,
    question: str | None,
) -> Outcome:
    """The evaluator's outcome for the located answer, memoised."""
    if loc.how == "marker" and ". " in loc.segment:
        loc = reasoned(loc)
    elif evaluator in _READ_AT_END and (body := before_supposed(loc)) is not None:
        stated = func(kwargs, Reading(body, correction(body), asked, final))
        if stated.extracted:
            return stated
    if kwargs_text is None or len(loc.tail) > MAX_TEXT:
        return func(kwargs, Reading(loc, correction(loc), asked, final))
    # The outcome is a function of the kwargs and the located answer (its
    # correction is one too), and of what the evaluator read of the question.
    key = (evaluator, kwargs_text, loc)
    known = _MEMO.get(key)
    if type(known) is Outcome:
        return known
    if known is not None:  # this answer's outcome depends on the question
        if known == _BY_TEXT:
            known = _MEMO.get((key, asked))
        else:
            known = _MEMO.get((key, known, question_facts(asked, known)))
        if known is not None:
            return known
    reading = Reading(loc, correction(loc), asked, final)
    outcome = func(kwargs, reading)
    used = reading.used
    if not used:
        _MEMO.put(key, outcome)
    elif used.isdisjoint(TEXTS):
        # Read only facts of the question: the same for every question that has them.
        facts = tuple(sorted(f for f in used if isinstance(f, tuple)))  # (all of used)
        _MEMO.put(key, facts)
        _MEMO.put((key, facts, question_facts(asked, facts)), outcome)
    elif "final" not in used:
        _MEMO.put(key, _BY_TEXT)
        _MEMO.put((key, asked), outcome)
    return outcome


# Strict outcomes by (evaluator, kwargs, located answer). An answer whose outcome
# depends on the question holds instead the names of the question's facts it
# read (its outcome is keyed by their values too) or _BY_TEXT (keyed by the
# question's text).
_MEMO = Memo()
_BY_TEXT = "question text"
