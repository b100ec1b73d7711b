"""Grading one (prediction, annotation) pair at a time: the ``Grader``.

``scorers.grade.run`` takes ``rome-tui grade`` from files to files around it.
For each prediction, in file order: keep the original response as
``raw_answer``, grade it with both rule modes (``rule:rome`` on the whole
``answer`` as the reference does, ``rule:strict`` on the final answer after
``</think>``), copy the annotation fields over the record as the reference's
``pred.update(gt)`` does, set ``correct`` from the primary verdict, and
recompute the flags. The record keeps the reference's key order (spec §7.3)
with everything rome-tui adds under ``review``.

Harness behaviours (production FlagEvalMM, spec §8) and which mode has them:

- multi-run answers ``{"inference_0": ...}``: both modes (the reference
  cannot read them at all); ``correct`` is the mean over runs;
- reject filtering (answers starting with "Error code" ...): strict mode;
- ``reject_info`` and average token usage in scores.json: strict mode.

rome mode keeps scores.json byte-identical to the reference's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import orjson

from scorers.errors import EvaluatorError, InputError, json_type
from scorers.evaluate import rome, strict
from scorers.evaluate.memo import kwargs_key
from scorers.evaluate.outcome import Outcome
from scorers.flags.flagging import recompute_flags
from scorers.grade.llm_grading import JUDGE_SOURCE, judge_all
from scorers.grade.notes import Notes, grading_warnings, kind_of, usage_notes
from scorers.grade.rule_verdicts import error_verdict, mean_verdict, outcome_verdict
from scorers.io.graded_elsewhere import REJECT_PREFIXES
from scorers.io.pairing import item_key
from scorers.io.run_settings import RunSettings
from scorers.io.scores import REJECTED_KEY
from scorers.records import (
    REVIEW_KEY,
    REVIEW_VERSION,
    Flag,
    Review,
    Verdict,
    content_hash,
    is_multi_run,
    response_texts,
)
from scorers.review import RELEASE_SOURCE, choose_primary, flag_context, settle

StrictEvaluate = Callable[..., Outcome]
MathEvaluate = Callable[..., Outcome]

# What the child computed for one pair: the two rule verdicts, the rome
# extraction marks, the content hash and the record's flags.
Graded = tuple[tuple[Verdict, Verdict, dict[str, int]], str, list[Flag]]


def _math_evaluator() -> MathEvaluate | None:
    try:
        from scorers.evaluate.mathmatch import math_matching
    except ImportError:
        return None
    return math_matching


class AnswerError(EvaluatorError):
    """The prediction's answer itself cannot be graded (the predictions file is at fault)."""


def _text_form(value: Any) -> str:
    """What a non-text answer is graded as: its JSON text, null as the empty answer."""
    if value is None:
        return ""
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer beyond 64 bits
        return str(value)


class Grader:
    """Grades one record at a time; holds the evaluators and settings of a run."""

    def __init__(self, settings: RunSettings) -> None:
        self.settings = settings
        self.notes = Notes()  # answers that were not text, and how they were read
        self.mode = settings.mode
        self.rome_primary = settings.mode == "rome"
        self.strict_primary = settings.mode == "strict"
        # rome mode without the LLM grader: a rule error stops the run, as in the reference.
        self.rome_errors_fatal = self.rome_primary and not settings.use_llm_evaluator
        self.llm_rome = settings.use_llm_evaluator and self.rome_primary
        self.strict: StrictEvaluate = strict.evaluate
        self._math: MathEvaluate | None = None
        self._math_loaded = False
        self.reject_filter = settings.reject_filter
        self.flag_context = flag_context(settings)

    def math(self) -> MathEvaluate | None:
        if not self._math_loaded:
            self._math = _math_evaluator()
            self._math_loaded = True
        return self._math

    # --- one response ---------------------------------------------------------

    def _verdicts(
        self, evaluator: str, kwargs: Any, response: str, question: Any = None
    ) -> tuple[Verdict, Verdict, dict[str, int]]:
        """Both rule verdicts for one response; the primary mode's error propagates.

        Each evaluator gets the whole response: strict mode and ``math_matching``
        read its final answer (``records.final_answer``), rome mode the whole of
        it, as the reference does.
        ``question`` (the annotation's text) lets strict mode read an option
        named by its text or an order given by the items' names.
        """
        if evaluator == "math_matching":
            outcome = self._run_math(kwargs, response)
            return (
                outcome_verdict("rule:rome", outcome),
                outcome_verdict("rule:strict", outcome),
                {},
            )
        rome_v: Verdict
        strict_v: Verdict
        # Both modes' memos key the kwargs by their JSON text: made once here.
        kwargs_text = kwargs_key(kwargs)
        try:
            rome_outcome, marks = rome.evaluate_full(
                evaluator, kwargs, response, kwargs_text=kwargs_text
            )
            rome_v = outcome_verdict("rule:rome", rome_outcome)
        except EvaluatorError as exc:
            # The reference's LLM mode never runs the rules, so it accepts any evaluator.
            if self.rome_errors_fatal:
                raise
            rome_v = error_verdict("rule:rome", str(exc))
            marks = {}
        try:
            asked = question if isinstance(question, str) else None
            strict_v = outcome_verdict(
                "rule:strict",
                self.strict(evaluator, kwargs, response, asked, kwargs_text=kwargs_text),
            )
        except EvaluatorError as exc:
            if self.strict_primary:
                raise
            strict_v = error_verdict("rule:strict", str(exc))
        return rome_v, strict_v, marks

    def _run_math(self, kwargs: Any, response: str) -> Outcome:
        math = self.math()
        if math is None:
            raise EvaluatorError(
                "math_matching is not available (scorers.evaluate.mathmatch failed to import)"
            )
        if not isinstance(kwargs, Mapping):
            raise EvaluatorError("math_matching: evaluator_kwargs must be an object")
        try:
            return math(response, **kwargs)
        except TypeError as exc:
            raise EvaluatorError(f"math_matching: {exc}") from None

    # --- one record -----------------------------------------------------------

    def single_response(self, pred: Mapping[str, Any]) -> str | None:
        """The text :meth:`grade_record` grades ``pred`` by, when it is one text
        graded without a note or a reject; None otherwise. Reads, never changes."""
        response = _response(pred)
        if type(response) is not str or (self.reject_filter and _rejected(response)):
            return None
        return response

    def rule_verdicts(
        self, gt: Mapping[str, Any], response: str
    ) -> tuple[Verdict, Verdict, dict[str, int]]:
        """Both rule verdicts of one text answer and the rome marks; the primary
        mode's EvaluatorError propagates."""
        evaluator = gt.get("evaluator")
        if not isinstance(evaluator, str):
            raise EvaluatorError(f"evaluator must be a name, not {json_type(evaluator)}")
        return self._verdicts(evaluator, gt.get("evaluator_kwargs"), response, gt.get("question"))

    def grade_record(
        self,
        pred: dict[str, Any],
        gt: Mapping[str, Any],
        given: tuple[Verdict, Verdict, dict[str, int]] | None = None,
    ) -> dict[str, Any]:
        """Grade ``pred`` in place against ``gt`` and return it (now a graded record).

        ``given`` is :meth:`rule_verdicts` of :meth:`single_response`, computed
        elsewhere (the grading worker); only a single-text record takes it.
        """
        release = self._release_verdict(pred)
        if REVIEW_KEY in pred:  # re-grading rome-tui output: grade the original response
            restored = _response(pred)
            del pred[REVIEW_KEY]
            if "raw_answer" in pred:
                pred["answer"] = restored
        elif self.settings.release and isinstance(pred.get("raw_answer"), str):
            # A release row: ``answer`` is the release's extraction, the response is raw_answer.
            pred["answer"] = pred["raw_answer"]
        response = original = pred["answer"]
        evaluator = gt.get("evaluator")
        kwargs = gt.get("evaluator_kwargs")
        if not isinstance(evaluator, str):
            raise EvaluatorError(f"evaluator must be a name, not {json_type(evaluator)}")
        if type(response) is list and response:
            # Read as runs in both modes, as rome-tui's own files store runs.
            self.notes.add("list", _qid(pred))
            response = {f"inference_{i}": run for i, run in enumerate(response)}
        if self.reject_filter and _rejected(response):
            return self._reject(pred, gt, response, original)
        rome_primary = self.rome_primary
        extra: dict[str, Any] | None = None
        if isinstance(response, str):
            if given is None:
                rome_v, strict_v, marks = self._verdicts(
                    evaluator, kwargs, response, gt.get("question")
                )
            else:
                rome_v, strict_v, marks = given
                # An extraction that is the whole response shares its string, as here.
                for verdict in given[:2]:
                    if verdict["extracted"] == response:
                        verdict["extracted"] = response
            extracted = (rome_v if rome_primary else strict_v)["extracted"]
        elif is_multi_run(response):
            rome_v, strict_v, marks, extracted, extra = self._grade_runs(
                evaluator, kwargs, response, _qid(pred), gt.get("question")
            )
        else:
            if rome_primary:
                raise AnswerError(
                    f"answer is {kind_of(response)}, not text (the reference crashes; "
                    'a multi-run answer is {"inference_0": text, ...})'
                )
            self.notes.add("not_text", _qid(pred), response)
            response = _text_form(response)
            rome_v, strict_v, marks = self._verdicts(
                evaluator, kwargs, response, gt.get("question")
            )
            extracted = strict_v["extracted"]
        # The reference's own fields, in its key order.
        if self.llm_rome:
            pred["answer"] = response
        else:
            pred["answer"] = response if extracted is None else extracted
            pred["raw_answer"] = (
                [response[k] for k in sorted(response, key=_run_index)]
                if extra is not None
                else original
            )
        if rome_primary and marks:
            pred.update(marks)
        pred.update(gt)
        primary = rome_v if rome_primary else strict_v
        pred["correct"] = primary["score"]
        if "strict" in primary:
            pred["correct_strict"] = primary["strict"]
        pred["judgement_response"] = None
        if extra is not None:
            pred.update(extra)
        pred[REVIEW_KEY] = {
            "version": REVIEW_VERSION,
            "mode": self.mode,
            "primary": primary["source"],
            "verdicts": [rome_v, strict_v] if release is None else [rome_v, strict_v, release],
            "flags": [],
            "history": [],
        }
        if self.settings.by_model:
            pred[REVIEW_KEY]["item"] = item_key(pred)
        return pred

    def _release_verdict(self, pred: Mapping[str, Any]) -> Verdict | None:
        """The published grade of a release row (its own ``correct`` and
        ``judgement_response``), read before grading replaces them; kept when
        a graded release is graded again."""
        if not self.settings.release:
            return None
        review = pred.get(REVIEW_KEY)
        if type(review) is dict:
            for verdict in review.get("verdicts") or ():
                if type(verdict) is dict and verdict.get("source") == RELEASE_SOURCE:
                    return cast(Verdict, verdict)
            return None
        score = pred.get("correct")
        if type(score) is bool:
            score = float(score)
        if not isinstance(score, (int, float)) or not 0 <= score <= 1:
            # Said once per run: without a published grade the row cannot be audited.
            self.notes.add("release_no_grade", item_key(pred), score)
            return None
        explanation = pred.get("judgement_response")
        return Verdict(
            source=RELEASE_SOURCE,
            score=score,
            extracted=pred.get("answer") if isinstance(pred.get("answer"), str) else None,
            explanation=explanation if isinstance(explanation, str) else None,
        )

    def _grade_runs(
        self, evaluator: str, kwargs: Any, runs: dict[str, Any], qid: str, question: Any = None
    ) -> tuple[Verdict, Verdict, dict[str, int], str | None, dict[str, Any]]:
        """Multi-run answers: every run graded, the mean kept (production harness, spec §8.3)."""
        keys = sorted(runs, key=_run_index)
        per_run: list[tuple[Verdict, Verdict, dict[str, int]]] = []
        for key in keys:
            text = runs[key]
            if not isinstance(text, str):
                self.notes.add("run_not_text", f"{qid}/{key}", text)
                text = _text_form(text)
            per_run.append(self._verdicts(evaluator, kwargs, text, question))
        primary_index = 0 if self.mode == "rome" else 1
        rome_v = mean_verdict("rule:rome", [r[0] for r in per_run], keys)
        strict_v = mean_verdict("rule:strict", [r[1] for r in per_run], keys)
        marks: dict[str, int] = {}
        for run in per_run:
            marks.update(run[2])
        extracted_runs = {
            f"inference_{i}": (run[primary_index]["extracted"] or "")
            for i, run in enumerate(per_run)
        }
        primary = rome_v if self.mode == "rome" else strict_v
        extra = {
            "inference_scores": [p.get("score") for p in primary.get("parts", [])],
            "num_inferences": len(per_run),
        }
        return rome_v, strict_v, marks, extracted_runs, extra  # type: ignore[return-value]

    def _reject(
        self, pred: dict[str, Any], gt: Mapping[str, Any], response: Any, original: Any
    ) -> dict[str, Any]:
        pred["raw_answer"] = original
        pred.update(gt)
        first = response if isinstance(response, str) else next(iter(response.values()), "")
        review = Review(
            version=REVIEW_VERSION, mode=self.mode, primary="", verdicts=[], flags=[], history=[]
        )
        cast(dict[str, Any], review)[REJECTED_KEY] = str(first)[:80]
        if self.settings.by_model:
            review["item"] = item_key(pred)
        pred[REVIEW_KEY] = review
        return pred

    def finish(self, record: dict[str, Any]) -> None:
        """Set ``correct`` from the run's primary source, hash the content, recompute flags."""
        review = record[REVIEW_KEY]
        # Without the LLM grader there is no judge verdict to prefer.
        if self.settings.use_llm_evaluator and not review.get(REJECTED_KEY):
            # The reference's LLM mode (rome) lets the judge decide every bucket.
            policy = "judge" if self.llm_rome else None
            if choose_primary(record, self.settings, JUDGE_SOURCE, policy) == JUDGE_SOURCE:
                settle(record, JUDGE_SOURCE)
        texts = response_texts(record)  # split once, for the hash and the flags
        review["content_hash"] = content_hash(record, texts.answer)
        recompute_flags(record, self.flag_context, texts)

    def take(self, pred: dict[str, Any], gt: Mapping[str, Any], graded: Graded) -> dict[str, Any]:
        """Grade ``pred`` from what the grading worker computed for it."""
        given, digest, flags = graded
        record = self.grade_record(pred, gt, given)
        review = record[REVIEW_KEY]
        review["content_hash"] = digest
        review["flags"] = flags
        return record


def _qid(pred: Mapping[str, Any]) -> str:
    return str(pred.get("question_id"))


def _response(pred: Mapping[str, Any]) -> Any:
    """The response a prediction is graded by: for rome-tui's own output, the
    original response it kept in ``raw_answer``."""
    if REVIEW_KEY in pred and "raw_answer" in pred:
        raw = pred["raw_answer"]
        if type(raw) is list and is_multi_run(pred.get("answer")):
            # A multi-run answer keeps its runs as a list in raw_answer.
            return {f"inference_{i}": run for i, run in enumerate(raw)}
        return raw
    return pred["answer"]


def _run_index(key: str) -> tuple[int, str]:
    tail = key.rsplit("_", 1)[-1]
    return (int(tail), key) if tail.isdigit() else (1 << 30, key)


def _rejected(response: Any) -> bool:
    if isinstance(response, str):
        return response.startswith(REJECT_PREFIXES)
    if is_multi_run(response):
        # The harness's own test for runs can never be true; a question is
        # rejected here when every run was.
        return all(isinstance(v, str) and v.startswith(REJECT_PREFIXES) for v in response.values())
    return False


def grade_pairs(
    pairs: Sequence[tuple[dict[str, Any], Mapping[str, Any]]],
    settings: RunSettings,
    *,
    predictions_path: str = "predictions",
    annotations_path: str = "annotations",
    judge_cache_dir: str | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """Grade matched (prediction, annotation) pairs in this process; records are
    the predictions, mutated."""
    grader = Grader(settings)
    warnings: list[str] = []
    places = (predictions_path, annotations_path)
    if settings.use_llm_evaluator:
        records = _grade_serial(grader, pairs, places, finish=False)
        judge_all(settings, records, [gt for _, gt in pairs], warnings, judge_cache_dir)
        for record in records:
            grader.finish(record)
    else:
        records = _grade_serial(grader, pairs, places, finish=True)
    warnings += grading_warnings(
        grader.notes, usage_notes(records, settings.harness_stats), predictions_path
    )
    return records, warnings


def _grade_serial(
    grader: Grader,
    pairs: Sequence[tuple[dict[str, Any], Mapping[str, Any]]],
    places: tuple[str, str],
    *,
    finish: bool,
) -> list[dict[str, Any]]:
    """Grade ``pairs`` in order; an evaluator error names its file and record."""
    records: list[dict[str, Any]] = []
    append = records.append
    grade = grader.grade_record
    # Without judges a record is complete once graded: finish it while it is
    # still in the cache. With judges, ``correct`` may come from a judge verdict.
    done = grader.finish if finish else None
    pred: dict[str, Any] = {}
    try:
        for pred, gt in pairs:
            record = grade(pred, gt)
            if done is not None:
                done(record)
            append(record)
    except EvaluatorError as exc:
        raise named_error(exc, pred, places) from None
    return records


def named_error(
    exc: EvaluatorError, pred: Mapping[str, Any], places: tuple[str, str]
) -> InputError:
    at_fault = places[0] if isinstance(exc, AnswerError) else places[1]
    record = _qid(pred)
    model = pred.get("model")
    if isinstance(model, str) and model:
        # A release holds every model's copy of a question: the id alone is ambiguous.
        record = f"{record} (model {model})"
    return InputError(at_fault, str(exc), record=record)
