"""Predictions matched with the annotations they are graded against.

The reference grader counts ids in its own way (spec §2.2-2.4). ``rome`` mode
reproduces its counting (duplicate predictions count twice, missing predictions
are ignored, a prediction without an annotation stops the run); ``strict`` mode
grades each id once and reports the rest. Rows of the published release carry
their own annotation (:func:`self_pairs`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorers.errors import InputError
from scorers.io.record_checks import WRONG_WAY, first_ids, no_answer, record_label


@dataclass
class Paired:
    """Predictions matched with their annotations, in grading order."""

    pairs: list[tuple[dict[str, Any], dict[str, Any]]]
    warnings: list[str]
    unmatched: list[str]  # prediction ids without an annotation (strict mode: not graded)
    duplicates: list[str]  # prediction ids seen more than once
    missing: list[str]  # annotation ids no prediction refers to


def _no_answer(
    path: str, predictions: list[dict[str, Any]], pred: dict[str, Any], index: int
) -> InputError:
    """A prediction without an answer; a Parquet table's rows all have its columns, so
    there the column is missing, named with the file's columns, not the first row."""
    from scorers.io.parquet import is_parquet

    if is_parquet(path) and not any("answer" in p for p in predictions):
        problem = f"column 'answer' missing (every row needs it; the file has: {', '.join(pred)})"
        return InputError(path, problem + (f": {WRONG_WAY}" if "evaluator" in pred else ""))
    return InputError(path, no_answer(pred), record=record_label(pred, index))


def pair(
    annotations: dict[str, dict[str, Any]],
    predictions: list[dict[str, Any]],
    mode: str,
    *,
    annotations_path: str = "annotations",
    predictions_path: str = "predictions",
) -> Paired:
    """Match predictions to annotations as ``mode`` counts them (see module doc)."""
    warnings: list[str] = []
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    unmatched: list[str] = []
    duplicates: list[str] = []
    seen: set[str] = set()
    by_model = several_models(predictions)
    for index, pred in enumerate(predictions):
        qid = str(pred.get("question_id"))
        gt = annotations.get(qid)
        if gt is None:
            # A record with no id at all is named by its place, not as the id "None".
            no_id = "question_id" not in pred or pred["question_id"] is None
            unmatched.append(f"record #{index} (no question_id)" if no_id else qid)
            continue
        if "answer" not in pred:
            raise _no_answer(predictions_path, predictions, pred, index)
        if "evaluator" not in gt or "evaluator_kwargs" not in gt:
            raise InputError(
                annotations_path,
                "annotation must include 'evaluator' and 'evaluator_kwargs'",
                record=qid,
            )
        key = item_key(pred) if by_model else qid
        if key in seen:
            duplicates.append(key)
            if mode != "rome":
                continue
        seen.add(key)
        pairs.append((pred, gt))
    if unmatched:
        message = (
            f"{predictions_path}: {len(unmatched)} prediction(s) without an annotation "
            f"(first: {first_ids(unmatched)})"
        )
        if mode == "rome":
            raise InputError(
                predictions_path,
                f"{len(unmatched)} prediction(s) without an annotation (first: {first_ids(unmatched)}); "
                "the reference grader stops here (use --mode strict to grade the rest)",
            )
        warnings.append(message + "; not graded")
    if duplicates:
        if mode == "rome":
            warnings.append(
                f"{predictions_path}: {len(duplicates)} repeated prediction id(s) (first: "
                f"{first_ids(dict.fromkeys(duplicates))}); each copy is graded and counted, as in the reference grader"
            )
        else:
            warnings.append(
                f"{predictions_path}: {len(duplicates)} repeated prediction id(s) (first: "
                f"{first_ids(dict.fromkeys(duplicates))}); only the first of each is graded"
            )
    paired_ids = {str(p.get("question_id")) for p, _ in pairs} if by_model else seen
    missing = [qid for qid in annotations if qid not in paired_ids]
    if missing:
        warnings.append(
            f"{annotations_path}: {len(missing)} annotation(s) without a prediction (first: {first_ids(missing)}); "
            "they are not in the denominator"
            + (", as in the reference grader" if mode == "rome" else "")
        )
    if not pairs:
        if not predictions:
            raise InputError(predictions_path, "no prediction to grade")
        # Show both sides' ids: a mismatch is usually the wrong pair of files, or ids
        # written differently (numbers vs "question_..." strings, a missing field).
        theirs = first_ids(dict.fromkeys(unmatched))
        raise InputError(
            predictions_path,
            f"no prediction matches an annotation (predictions' ids: {theirs}; "
            f"annotations' ids in {annotations_path}: {first_ids(annotations)})",
        )
    return Paired(pairs, warnings, unmatched, duplicates, missing)


# --- rows that carry their own annotation (the published release) ----------------------

ANNOTATION_FIELDS = ("evaluator", "evaluator_kwargs")


def several_models(records: Iterable[Mapping[str, Any]]) -> bool:
    """Whether the records hold more than one ``model``: then an item is
    (model, question_id), written ``model/question_id``."""
    first: Any = None
    for record in records:
        model = record.get("model")
        if isinstance(model, str) and model:
            if first is None:
                first = model
            elif model != first:
                return True
    return False


def item_key(record: Mapping[str, Any]) -> str:
    """``model/question_id``: the id of an item in a file of several models (an id
    already written so, as the demo set's are, is kept)."""
    qid = str(record.get("question_id"))
    model = record.get("model")
    if not isinstance(model, str) or not model or qid.startswith(model + "/"):
        return qid
    return f"{model}/{qid}"


def self_annotated(predictions: list[dict[str, Any]]) -> bool:
    """Whether the rows carry their own annotation (``evaluator`` and its kwargs)."""
    return bool(predictions) and all(k in predictions[0] for k in ANNOTATION_FIELDS)


def self_pairs(predictions: list[dict[str, Any]], mode: str, path: str) -> Paired:
    """Each row paired with its own annotation, as the release holds them.

    The grader grades the row's ``raw_answer`` (the model's whole response;
    ``answer`` is the release's extraction). Repeated items (the same
    question_id, or model/question_id in a file of several models) are
    reported as repeated ids are with an annotations file.
    """
    by_model = several_models(predictions)
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    duplicates: list[str] = []
    seen: set[str] = set()
    for index, pred in enumerate(predictions):
        # In a file of several models "record q1" named no row: say whose q1 it is (as
        # grader.named_error does).
        model = pred.get("model")
        label = f"{record_label(pred, index)} (model {model})" if by_model and model else None
        for name in ANNOTATION_FIELDS:
            if pred.get(name) is None:
                raise InputError(
                    path,
                    f"row {index} has no {name!r}: rows graded without --annotations carry "
                    "their own (evaluator, evaluator_kwargs, reference), as the release does",
                    record=label or record_label(pred, index),
                )
        if "answer" not in pred and "raw_answer" not in pred:
            raise InputError(
                path,
                f"row {index} has no 'answer' or 'raw_answer' (the model's response): "
                "nothing to grade",
                record=label or record_label(pred, index),
            )
        key = item_key(pred) if by_model else str(pred.get("question_id"))
        if key in seen:
            duplicates.append(key)
            if mode != "rome":
                continue
        seen.add(key)
        gt = {
            name: pred[name]
            for name in ("question", "reference", *ANNOTATION_FIELDS)
            if name in pred
        }
        pairs.append((pred, gt))
    warnings: list[str] = []
    if duplicates:
        what = "model/question_id pair(s)" if by_model else "prediction id(s)"
        warnings.append(
            f"{path}: {len(duplicates)} repeated {what} (first: "
            f"{first_ids(dict.fromkeys(duplicates))}); "
            + (
                "each copy is graded and counted, as in the reference grader"
                if mode == "rome"
                else "only the first of each is graded"
            )
        )
    if not pairs:
        raise InputError(path, "no prediction to grade")
    return Paired(pairs, warnings, [], duplicates, [])
