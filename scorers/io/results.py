"""A graded run read and written whole: :func:`load_results` and :func:`save_results`.

A results directory holds ``updated_predictions.json`` (ROME-compatible
records plus one ``review`` key each), ``scores.json`` (the reference's
format) and ``run.json`` (the :class:`RunSettings` the run was graded with);
where they are is :mod:`scorers.io.run_paths`. ``load_results`` also reads
outputs rome-tui did not write (:mod:`scorers.io.graded_elsewhere`) and makes
every review well typed (:mod:`scorers.io.review_checks`); ``save_results``
writes the records through :mod:`scorers.io.updated_writer`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import orjson

from scorers.errors import InputError, NotGradedError, json_type
from scorers.io.graded_elsewhere import an_annotation, guess_settings, imported_review
from scorers.io.jsonio import atomic_write_bytes
from scorers.io.pairing import item_key, several_models
from scorers.io.parquet import is_parquet
from scorers.io.parse import parse_file
from scorers.io.record_checks import (
    TOO_DEEP,
    decode_json_strings,
    first_ids,
    first_too_deep,
    load_warnings,
)
from scorers.io.review_checks import (
    RANGE,
    check_review,
    check_scores,
    keep_malformed,
    problem_warnings,
    stash,
)
from scorers.io.run_paths import UPDATED_NAME, ResultsPaths, refuse_a_file_of_the_run, runs_inside
from scorers.io.run_settings import RunSettings, read_settings
from scorers.io.scores import scores_json_bytes, scores_of
from scorers.io.updated_writer import Serialised, write_updated
from scorers.records import REVIEW_KEY


@dataclass
class LoadedResults:
    records: list[dict[str, Any]]
    settings: RunSettings
    paths: ResultsPaths
    warnings: list[str]


def load_results(path: str | os.PathLike[str]) -> LoadedResults:
    """Load a graded run: rome-tui's own, the reference's, the harness's or HF rows.

    Every record comes out well typed for the commands that read it: a
    ``correct`` or verdict score that is not a number in [0, 1] and review
    parts of the wrong type are set aside under ``review.malformed`` (so a
    write-back loses nothing) with one warning per kind of problem. An empty
    file, and records nested too deep to be written back, are InputErrors.
    """
    paths = ResultsPaths.of(path)
    target = str(paths.updated)
    if paths.updated.is_file() and is_parquet(paths.updated):
        # Written back, a run would replace the release with JSON: a release is
        # reviewed through the run directory it is graded into.
        raise InputError(
            target,
            "a Parquet file is not a run (writing the review back would replace it): "
            f"`rome-tui review {target}` or `rome-tui summary {target}` grade it into a run "
            "directory beside it (or --out-dir DIR); name that directory here",
        )
    if not paths.updated.exists():
        inside = runs_inside(paths.directory) if paths.updated.name == UPDATED_NAME else []
        if inside:
            shown = ", ".join(inside[:5]) + (f" and {len(inside) - 5} more" if inside[5:] else "")
            raise InputError(
                str(paths.directory),
                f"a folder of runs, not a run: name the runs themselves ({shown})",
            )
        raise InputError(
            target, "no such file (expected a results directory or an updated_predictions.json)"
        )
    refuse_a_file_of_the_run(paths.updated)
    warnings: list[str] = []
    settings = read_settings(paths.run)
    parsed = parse_file(target)
    warnings.extend(parsed.warnings)
    value = parsed.value
    if isinstance(value, dict):
        if "question_id" in value:
            value = [value]
        else:
            value = [
                {"question_id": k, **v} if isinstance(v, dict) else v for k, v in value.items()
            ]
    if not isinstance(value, list):
        raise InputError(target, f"expected a list of graded records, got {json_type(value)}")
    if not value:
        raise InputError(target, "empty: no graded records")
    decoded = 0
    imported = 0
    scored = 0  # records graded elsewhere that carry a score
    problems: dict[str, list[Any]] = {}  # kind -> ids of the records with it, in file order
    records: list[dict[str, Any]] = value
    for i, record in enumerate(records):
        where = parsed.lines[i] if parsed.lines is not None else i
        if not isinstance(record, dict):
            raise InputError(
                target, f"expected a JSON object, got {json_type(record)}", record=where
            )
        qid = record.get("question_id", where)
        decoded += decode_json_strings(record, target, qid, parsed.nonfinite)
        malformed: dict[str, list[Any]] = {}
        kinds: dict[str, None] = {RANGE: None} if check_scores(record, malformed) else {}
        review = record.get(REVIEW_KEY)
        if type(review) is not dict:
            if review is not None:
                stash(malformed, REVIEW_KEY, review)
                kinds[REVIEW_KEY] = None
            else:
                imported += 1
                if type(record.get("correct")) in (int, float, bool):
                    scored += 1
            try:
                review = record[REVIEW_KEY] = cast(dict[str, Any], imported_review(record))
            except orjson.JSONEncodeError:  # content_hash of kwargs nested too deep
                raise InputError(target, TOO_DEEP, record=qid) from None
        else:
            kinds.update(check_review(review, malformed))
        for kind in kinds:
            problems.setdefault(kind, []).append(qid)
        if malformed:
            keep_malformed(review, malformed)
    if imported == len(records) and not scored:
        raise NotGradedError(target, annotations=all(map(an_annotation, records)))
    deep = first_too_deep(records)
    if deep is not None:
        raise InputError(
            target,
            TOO_DEEP,
            line=parsed.lines[deep] if parsed.lines is not None else None,
            record=records[deep].get("question_id", deep),
        )
    warnings += load_warnings(target, "records", decoded, parsed.nonfinite, parsed.value)
    if imported:
        warnings.append(
            f"{target}: {imported} record(s) graded elsewhere; their 'correct' is kept as the rome verdict"
        )
    warnings.extend(problem_warnings(target, problems))
    if several_models(records):
        # Items of several models are model/question_id, also in files graded elsewhere.
        for record in records:
            review = record[REVIEW_KEY]
            if type(review.get("item")) is not str:
                review["item"] = item_key(record)
    repeated = _repeated_ids(records)
    if repeated:
        warnings.append(
            f"{target}: {len(repeated)} question_id(s) appear more than once (first: "
            f"{first_ids(repeated)}); every copy is counted as a separate item, as in "
            "scores.json, and none of them can be overridden"
        )
    if settings is None:
        settings = guess_settings(records, warnings, target)
    paths = paths.with_scores(settings.scores_path)
    return LoadedResults(records, settings, paths, warnings)


def _repeated_ids(records: Sequence[dict[str, Any]]) -> list[str]:
    """Ids that repeat within one model: an export of several models (BAAI/ROME-Evaluated)
    legitimately has each question once per model."""
    seen: set[tuple[str, str]] = set()
    repeated: dict[str, None] = {}
    for record in records:
        qid = record.get("question_id")
        if qid is None:
            continue
        key = (str(record.get("model", "")), qid if type(qid) is str else str(qid))
        if key in seen:
            repeated[key[1]] = None
        else:
            seen.add(key)
    return list(repeated)


# --- writing -----------------------------------------------------------------


def save_results(
    paths: ResultsPaths,
    records: Sequence[dict[str, Any]] | Serialised,
    settings: RunSettings,
    *,
    scores_when_written: Callable[[], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Rewrite updated_predictions.json, scores.json and run.json atomically; returns the scores.

    ``scores_when_written`` gives the scores once every record is written
    (default: computed from the records then; records that are only
    ``Serialised`` must come with it).
    """
    paths.updated.parent.mkdir(parents=True, exist_ok=True)
    paths.scores.parent.mkdir(parents=True, exist_ok=True)
    # The scores are computed while the records file is flushed to disk.
    scores = write_updated(
        paths.updated,
        records,
        while_syncing=scores_when_written or (lambda: scores_of(_held(records), settings)),
    )
    assert scores is not None
    atomic_write_bytes(paths.scores, scores_json_bytes(scores))
    if paths.scores != ResultsPaths.of(paths.updated).scores:
        settings.scores_path = str(paths.scores.resolve())
    atomic_write_bytes(paths.run, settings.to_json())
    return scores


def _held(records: Sequence[dict[str, Any]] | Serialised) -> Sequence[dict[str, Any]]:
    if not isinstance(records, Sequence):
        raise TypeError("records given only as Serialised spans need scores_when_written")
    return records
