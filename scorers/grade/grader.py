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

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, cast

import orjson

from scorers.errors import EvaluatorError, InputError
from scorers.evaluate import rome, strict
from scorers.evaluate.outcome import Outcome
from scorers.flags.flagging import recompute_flags
from scorers.io.graded_elsewhere import REJECT_PREFIXES
from scorers.io.pairing import item_key
from scorers.io.record_checks import FIRST_IDS, first_ids
from scorers.io.run_settings import RunSettings
from scorers.io.scores import REJECTED_KEY, usage_unreadable
from scorers.records import (
    REVIEW_KEY,
    REVIEW_VERSION,
    Flag,
    Review,
    Verdict,
    content_hash,
    final_answer,
    is_multi_run,
    response_texts,
)
from scorers.review import RELEASE_SOURCE, choose_primary, flag_context, settle

JUDGE_SOURCE = "judge:rome"

StrictEvaluate = Callable[[str, Mapping[str, Any], str, "str | None"], Outcome]
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


def _kind_of(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, float) and value != value:
        return "NaN"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object whose keys are not all inference_N"
    return type(value).__name__


class Notes:
    """Counted observations made while grading: per kind, how many and the first ids."""

    def __init__(self) -> None:
        self.count: dict[str, int] = {}
        self.first: dict[str, list[str]] = {}
        self.types: dict[str, dict[str, None]] = {}

    def add(self, kind: str, where: str, value: Any = None) -> None:
        self.count[kind] = self.count.get(kind, 0) + 1
        first = self.first.setdefault(kind, [])
        if len(first) <= FIRST_IDS:  # one more than shown, so the warning can say "..."
            first.append(where)
        self.types.setdefault(kind, {})[_kind_of(value)] = None

    def merge(self, other: Notes) -> None:
        """Add the notes of records graded after this object's."""
        for kind, n in other.count.items():
            self.count[kind] = self.count.get(kind, 0) + n
            first = self.first.setdefault(kind, [])
            first.extend(other.first[kind][: FIRST_IDS + 1 - len(first)])
            self.types.setdefault(kind, {}).update(other.types[kind])

    def __bool__(self) -> bool:
        return bool(self.count)

    def warnings(self, predictions_path: str) -> list[str]:
        out = []
        for kind, n in self.count.items():
            first = first_ids(self.first[kind])
            types = ", ".join(self.types[kind])
            if kind == "not_text":
                out.append(
                    f"{predictions_path}: {n} answer(s) were not text ({types}; first: {first}); "
                    "graded as their JSON text, null as an empty answer"
                )
            elif kind == "list":
                out.append(
                    f"{predictions_path}: {n} answer(s) were a list (first: {first}); "
                    "graded as runs inference_0, inference_1, ... like a multi-run answer"
                )
            elif kind == "release_no_grade":
                out.append(
                    f"{predictions_path}: {n} row(s) whose 'correct' is no score from 0 to 1 "
                    f"({types}; first: {first}): no published grade to audit them against "
                    "(no release verdict, never release_strict_disagree)"
                )
            elif kind == "run_not_text":
                out.append(
                    f"{predictions_path}: {n} run(s) of multi-run answers were not text "
                    f"({types}; first: {first}); graded as their JSON text, null as an empty answer"
                )
        return out


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
            return _verdict("rule:rome", outcome), _verdict("rule:strict", outcome), {}
        rome_v: Verdict
        strict_v: Verdict
        try:
            rome_outcome, marks = rome.evaluate_full(evaluator, kwargs, response)
            rome_v = _verdict("rule:rome", rome_outcome)
        except EvaluatorError as exc:
            # The reference's LLM mode never runs the rules, so it accepts any evaluator.
            if self.rome_errors_fatal:
                raise
            rome_v = _error_verdict("rule:rome", str(exc))
            marks = {}
        try:
            asked = question if isinstance(question, str) else None
            strict_v = _verdict("rule:strict", self.strict(evaluator, kwargs, response, asked))
        except EvaluatorError as exc:
            if self.strict_primary:
                raise
            strict_v = _error_verdict("rule:strict", str(exc))
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
            raise EvaluatorError(f"evaluator must be a name, not {type(evaluator).__name__}")
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
            raise EvaluatorError(f"evaluator must be a name, not {type(evaluator).__name__}")
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
                    f"answer is {_kind_of(response)}, not text (the reference crashes; "
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
        rome_v = _mean_verdict("rule:rome", [r[0] for r in per_run], keys)
        strict_v = _mean_verdict("rule:strict", [r[1] for r in per_run], keys)
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


def _verdict(source: str, outcome: Outcome) -> Verdict:
    verdict: Verdict = {
        "source": source,
        "score": outcome.score,
        "extracted": outcome.extracted,
        "explanation": outcome.note,
    }
    if outcome.strict is not None:
        verdict["strict"] = outcome.strict
    if outcome.parts is not None:
        verdict["parts"] = list(outcome.parts)
    if outcome.uncertain is not None:
        verdict["uncertain"] = outcome.uncertain
    return verdict


def _error_verdict(source: str, error: str) -> Verdict:
    return Verdict(source=source, score=None, extracted=None, explanation=None, error=error)


def _mean_verdict(source: str, runs: list[Verdict], keys: list[str]) -> Verdict:
    scores = [v.get("score") for v in runs]
    numeric = [s for s in scores if s is not None]
    mean = sum(numeric) / len(numeric) if numeric and len(numeric) == len(scores) else None
    verdict = Verdict(
        source=source,
        score=mean,
        extracted=runs[0].get("extracted") if runs else None,
        explanation=f"mean of {len(runs)} runs",
        parts=[
            {"run": key, "score": v.get("score"), "extracted": v.get("extracted")}
            for key, v in zip(keys, runs, strict=False)
        ],
    )
    if mean is None:
        verdict["error"] = next(
            (str(v["error"]) for v in runs if v.get("error")), "a run could not be graded"
        )
    doubt = next((v["uncertain"] for v in runs if v.get("uncertain")), None)
    if doubt is not None:
        verdict["uncertain"] = doubt
    stricts = [v.get("strict", v.get("score")) for v in runs]
    if any("strict" in v for v in runs) and all(s is not None for s in stricts):
        verdict["strict"] = sum(s for s in stricts if s is not None) / len(stricts)
    return verdict


def _judge(
    grader: Grader,
    records: list[dict[str, Any]],
    pairs_gt: list[Mapping[str, Any]],
    warnings: list[str],
    cache_dir: str | None,
) -> None:
    """The ROME LLM grader on every record (``--use_llm_evaluator``)."""
    from scorers.judges.grade_hook import llm_scores

    settings = grader.settings
    todo: list[int] = []
    triples: list[tuple[str, str, str]] = []
    for i, record in enumerate(records):
        review = record[REVIEW_KEY]
        if review.get(REJECTED_KEY):
            continue
        raw = record.get("raw_answer", record.get("answer"))
        if not isinstance(raw, str):
            continue  # multi-run answers are judged by rules only
        gt = pairs_gt[i]
        answer = rome.judged_text(raw) if grader.mode == "rome" else final_answer(raw)
        question = gt.get("question", "")
        reference = gt.get("reference", "")
        triples.append((str(question or ""), str(reference or ""), answer))
        todo.append(i)
    if not todo:
        return
    rome_mode = grader.mode == "rome"
    results = llm_scores(
        triples,
        model=settings.llm_model,
        base_url=os.environ.get("OPENAI_BASE_URL"),
        parse="rome" if rome_mode else "robust",
        cache_dir=cache_dir,
    )  # the published prompt byte for byte in either mode: fencing is the judge's opt-in
    failed = 0
    for i, (score, raw_reply, error) in zip(todo, results, strict=True):
        record = records[i]
        verdict = Verdict(source=JUDGE_SOURCE, score=score, extracted=None, explanation=None)
        if settings.llm_model:
            verdict["model"] = settings.llm_model
        if raw_reply is not None:
            verdict["raw"] = raw_reply
        if error is not None or score is None:
            verdict["error"] = error or "no score"
            failed += 1
        record[REVIEW_KEY]["verdicts"].append(verdict)
        record["judgement_response"] = raw_reply
    if failed:
        warnings.append(
            f"{failed} judge call(s) failed or could not be parsed; those items keep their rule verdict"
        )


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
        _judge(grader, records, [gt for _, gt in pairs], warnings, judge_cache_dir)
        for record in records:
            grader.finish(record)
    else:
        records = _grade_serial(grader, pairs, places, finish=True)
    unreadable = unreadable_usage(records) if settings.harness_stats else []
    warnings += grading_warnings(grader.notes, unreadable, predictions_path)
    return records, warnings


def unreadable_usage(records: Iterable[Mapping[str, Any]]) -> list[str]:
    return [_qid(r) for r in records if usage_unreadable(r.get("usage"))]


def grading_warnings(notes: Notes, unreadable: list[str], predictions_path: str) -> list[str]:
    warnings = notes.warnings(predictions_path)
    if unreadable:
        warnings.append(
            f"{predictions_path}: {len(unreadable)} prediction(s) with unreadable usage "
            f"(first: {first_ids(unreadable)}): not an object of numeric token counts; counted as "
            "0 tokens in scores.json's averages, as the harness does"
        )
    return warnings


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
