"""A graded run on disk: its files, its settings, loading and saving it.

A results directory holds ``updated_predictions.json`` (ROME-compatible
records plus one ``review`` key each), ``scores.json`` (the reference's
format) and ``run.json`` (the :class:`RunSettings` the run was graded with).
``load_results`` also reads outputs rome-tui did not write: the reference
grader's ``updated_predictions.json``, a production-harness
``*_evaluated.json`` and BAAI/ROME-Evaluated rows; their ``correct`` becomes a
``rule:rome`` (or ``judge:rome``) verdict so they can be reviewed like our own.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast, runtime_checkable

import orjson

from scorers.errors import InputError, NotGradedError
from scorers.io.jsonio import (
    atomic_write_bytes,
    dumps_any_keys,
    json_error,
    read_bytes,
    replacing,
)
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
from scorers.io.scores import REJECTED_KEY, ScoreTally, scores_json_bytes
from scorers.io.writeback import Writeback
from scorers.records import FLAG_KINDS, REVIEW_KEY, REVIEW_VERSION, Review, Verdict, content_hash
from scorers.review import is_score

T = TypeVar("T")

UPDATED_NAME = "updated_predictions.json"
SCORES_NAME = "scores.json"
RUN_NAME = "run.json"
JOURNAL_NAME = "journal"
REJECT_PREFIXES = (
    "Error code",
    "Can not answer because of",
    "Input data may contain inappropriate content",
)


@dataclass
class RunSettings:
    """How a run was graded; saved as run.json beside the results."""

    mode: str = "strict"  # "rome" or "strict": the rule verdict that is primary
    tracker_type: str = "task"
    tracker_subtype: str | None = None
    primary: str = "rule"  # "rule" or "judge": the source of ``correct``
    primary_by_bucket: dict[str, str] = field(default_factory=dict)  # bucket -> "rule"/"judge"
    tools_available: list[str] = field(default_factory=list)
    annotations: str | None = None
    predictions: str | None = None
    scores_path: str | None = None  # set when --output put scores.json elsewhere
    images: str | None = None  # --images DIR: the root of the items' image paths (scorers.images)
    use_llm_evaluator: bool = False
    llm_model: str | None = None
    reject_filter: bool = False  # production harness: drop "Error code ..." answers before grading
    harness_stats: bool = False  # scores.json carries reject_info and average token usage
    # The predictions hold several models: an item is model/question_id (review.item).
    by_model: bool = False
    # The rows carry their own annotation and published grade (BAAI/ROME-Evaluated):
    # that grade is kept as the verdict of source "release".
    release: bool = False
    graded_at: str | None = None
    version: int = 1

    @property
    def primary_rule(self) -> str:
        return f"rule:{self.mode}"

    def primary_for(self, bucket: Any) -> str:
        return self.primary_by_bucket.get(str(bucket), self.primary)

    def to_json(self) -> bytes:
        return orjson.dumps(asdict(self), option=orjson.OPT_INDENT_2)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RunSettings:
        """Settings from run.json; ValueError naming the field for a wrong type or value.

        Unknown fields are ignored (a newer rome-tui may add some).
        """
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        for name, value in values.items():
            problem = _setting_problem(name, value)
            if problem is not None:
                raise ValueError(f"{name} must be {problem}, got {_shown(value)}")
        return cls(**values)


MODES = ("rome", "strict")
PRIMARIES = ("rule", "judge")
_TEXT = "a string"
_OPTIONAL_TEXT = "a string or null"
_FLAG = "true or false"
_SETTING_KINDS: dict[str, str] = {
    "tracker_type": _TEXT,
    "tracker_subtype": _OPTIONAL_TEXT,
    "annotations": _OPTIONAL_TEXT,
    "predictions": _OPTIONAL_TEXT,
    "scores_path": _OPTIONAL_TEXT,
    "images": _OPTIONAL_TEXT,
    "llm_model": _OPTIONAL_TEXT,
    "graded_at": _OPTIONAL_TEXT,
    "use_llm_evaluator": _FLAG,
    "reject_filter": _FLAG,
    "harness_stats": _FLAG,
    "by_model": _FLAG,
    "release": _FLAG,
}


def _setting_problem(name: str, value: Any) -> str | None:
    """What ``value`` of run.json's ``name`` should have been, or None when it fits."""
    if name == "mode":
        return None if value in MODES else "'rome' or 'strict'"
    if name == "primary":
        return None if value in PRIMARIES else "'rule' or 'judge'"
    if name == "primary_by_bucket":
        ok = isinstance(value, dict) and all(v in PRIMARIES for v in value.values())
        return None if ok else "an object mapping buckets to 'rule' or 'judge'"
    if name == "tools_available":
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        return None if ok else "a list of tool names"
    if name == "version":
        return None if type(value) is int else "an integer"
    kind = _SETTING_KINDS.get(name)
    if kind == _TEXT:
        return None if isinstance(value, str) and value else "a non-empty string"
    if kind == _OPTIONAL_TEXT:
        return None if value is None or isinstance(value, str) else kind
    if kind == _FLAG:
        return None if isinstance(value, bool) else kind
    return None


def _shown(value: Any) -> str:
    """A value of a JSON file as a message quotes it: short, in JSON's own words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return f"{'an object' if isinstance(value, dict) else 'a list'}"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class ResultsPaths:
    directory: Path
    updated: Path
    scores: Path
    run: Path
    journal: Path  # a directory for the override journal (owner: scorers.adjudicate.journal)

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> ResultsPaths:
        """Paths of a results directory or of a results file and its siblings.

        For a file not named updated_predictions.json (e.g. a harness
        ``x_evaluated.json``) the siblings are prefixed with its stem so two
        runs in one directory never share a scores.json.
        """
        p = Path(path)
        if p.is_dir() or (not p.exists() and p.suffix.lower() not in (".json", ".jsonl")):
            return cls(p, p / UPDATED_NAME, p / SCORES_NAME, p / RUN_NAME, p / JOURNAL_NAME)
        directory = p.parent
        if p.name == UPDATED_NAME:
            return cls(
                directory,
                p,
                directory / SCORES_NAME,
                directory / RUN_NAME,
                directory / JOURNAL_NAME,
            )
        stem = p.stem
        return cls(
            directory,
            p,
            directory / f"{stem}.scores.json",
            directory / f"{stem}.run.json",
            directory / f"{stem}.journal",
        )

    def with_scores(self, scores: str | os.PathLike[str] | None) -> ResultsPaths:
        if not scores:
            return self
        return ResultsPaths(self.directory, self.updated, Path(scores), self.run, self.journal)


@dataclass
class LoadedResults:
    records: list[dict[str, Any]]
    settings: RunSettings
    paths: ResultsPaths
    warnings: list[str]


def _read_settings(paths: ResultsPaths) -> RunSettings | None:
    if not paths.run.exists():
        return None
    data = read_bytes(paths.run)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise json_error(str(paths.run), data, exc) from None
    if not isinstance(value, dict):
        raise InputError(str(paths.run), "expected a JSON object of run settings")
    try:
        return RunSettings.from_dict(value)
    except (TypeError, ValueError) as exc:
        raise InputError(str(paths.run), f"bad {RUN_NAME} setting: {exc}") from None


def _guess_settings(
    records: Sequence[dict[str, Any]], warnings: list[str], path: str
) -> RunSettings:
    """Settings for a run rome-tui did not grade: the reference's defaults, or the harness's buckets."""
    has_task = any("task" in r for r in records[:1000])
    has_image_type = any("image_type" in r for r in records[:1000])
    if not has_task and has_image_type:
        settings = RunSettings(
            mode="rome", tracker_type="image_type", tracker_subtype="image_subtype"
        )
    else:
        settings = RunSettings(mode="rome")
    warnings.append(
        f"{path}: no run settings found; assuming rome mode with buckets by "
        f"{settings.tracker_type}"
        + (f"/{settings.tracker_subtype}" if settings.tracker_subtype else "")
    )
    return settings


def _imported_review(record: dict[str, Any]) -> Review:
    """A review for a record graded elsewhere: its ``correct`` as the verdict it came from."""
    review = Review(version=REVIEW_VERSION, mode="rome", verdicts=[], flags=[], history=[])
    score = record.get("correct")
    if isinstance(score, bool):
        score = int(score)
    judged = record.get("judgement_response")
    extracted = record.get("answer")
    if isinstance(score, (int, float)):
        source = "judge:rome" if judged else "rule:rome"
        verdict = Verdict(
            source=source,
            score=score,
            extracted=extracted if isinstance(extracted, str) else None,
            explanation="imported from a reference grader output",
        )
        if judged:
            verdict["raw"] = str(judged)
        review["verdicts"] = [verdict]
        review["primary"] = source
    else:
        raw = record.get("raw_answer", record.get("answer"))
        if isinstance(raw, str) and raw.startswith(REJECT_PREFIXES):
            cast(dict[str, Any], review)[REJECTED_KEY] = raw[:80]
        review["primary"] = "rule:rome"
    review["content_hash"] = content_hash(record)
    return review


# --- checking what a results file holds ------------------------------------------

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


def _stash(malformed: dict[str, list[Any]], part: str, value: Any) -> None:
    malformed.setdefault(part, []).append(value)


def _check_review(review: dict[str, Any], malformed: dict[str, list[Any]]) -> set[str]:
    """Make a record's review well typed; what cannot be used moves to ``malformed``.

    Returns the kinds of problem found: a review part's name, or RANGE. The
    common case (nothing wrong) takes one test per part.
    """
    kinds: set[str] = set()
    for part in _REVIEW_LISTS:
        items = review.get(part, _ABSENT)
        if items is _ABSENT:
            continue
        if type(items) is not list:
            _stash(malformed, part, review.pop(part))
            kinds.add(part)
            continue
        if not items or all(map(_ITEM_OK[part], items)):
            continue
        keep = []
        for item in items:
            if _ITEM_OK[part](item):
                keep.append(item)
            else:
                _stash(malformed, part, item)
                problem = _verdict_problem(item) if part == "verdicts" else part
                kinds.add(problem or part)
        review[part] = keep
    human = review.get("human", _ABSENT)
    if human is not _ABSENT and (type(human) is not dict or not is_score(human.get("score"))):
        score = human.get("score") if type(human) is dict else None
        number = isinstance(score, (int, float)) and not isinstance(score, bool)
        kinds.add(RANGE if number else "human")
        _stash(malformed, "human", review.pop("human"))
    for part in _REVIEW_TEXTS:
        value = review.get(part)
        if value is not None and type(value) is not str:
            _stash(malformed, part, review.pop(part))
            kinds.add(part)
    stale = review.get("stale")
    if stale is not None and type(stale) is not bool:
        _stash(malformed, "stale", review.pop("stale"))
        kinds.add("stale")
    return kinds


def _check_scores(record: dict[str, Any], malformed: dict[str, list[Any]]) -> bool:
    """Set aside a ``correct``/``correct_strict`` that is not a score; True if one was."""
    found = False
    correct = record.get("correct")
    if correct is not None and not is_score(correct):
        _stash(malformed, "correct", correct)
        record["correct"] = None  # not graded: left out of every count
        found = True
    if "correct_strict" in record:
        strict = record["correct_strict"]
        if strict is not None and not is_score(strict):
            _stash(malformed, "correct_strict", record.pop("correct_strict"))
            found = True
    return found


def _problem_warnings(target: str, problems: dict[str, list[Any]]) -> list[str]:
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


def _refuse_a_file_of_the_run(path: Path) -> None:
    """InputError for a run's scores.json, run.json or journal named where its results are
    expected: read as records, each said only "record 0: expected a JSON object"."""
    journal = path.parent.name == JOURNAL_NAME
    directory = path.parent.parent if journal else path.parent
    if not (directory / UPDATED_NAME).is_file():
        return
    what = {SCORES_NAME: "the run's scores", RUN_NAME: "the run's settings"}.get(path.name)
    if journal and path.suffix == ".jsonl":
        what = "a reviewer's journal"
    if what is not None:
        raise InputError(
            str(path), f"{what}, not the run's results: name the run's directory, {directory}"
        )


def _runs_inside(directory: Path) -> list[str]:
    """The run directories just inside ``directory`` (sorted), if it is a folder of runs."""
    try:
        children = sorted(p for p in directory.iterdir() if p.is_dir())
    except OSError:
        return []
    return [str(p) for p in children if (p / UPDATED_NAME).is_file()]


def _an_annotation(record: dict[str, Any]) -> bool:
    return "evaluator" in record and not ({"answer", "response"} & record.keys())


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
        inside = _runs_inside(paths.directory) if paths.updated.name == UPDATED_NAME else []
        if inside:
            shown = ", ".join(inside[:5]) + (f" and {len(inside) - 5} more" if inside[5:] else "")
            raise InputError(
                str(paths.directory),
                f"a folder of runs, not a run: name the runs themselves ({shown})",
            )
        raise InputError(
            target, "no such file (expected a results directory or an updated_predictions.json)"
        )
    _refuse_a_file_of_the_run(paths.updated)
    warnings: list[str] = []
    settings = _read_settings(paths)
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
        raise InputError(target, f"expected a list of graded records, got {type(value).__name__}")
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
                target, f"expected a JSON object, got {type(record).__name__}", record=where
            )
        qid = record.get("question_id", where)
        decoded += decode_json_strings(record, target, qid, parsed.nonfinite)
        malformed: dict[str, list[Any]] = {}
        kinds: set[str] = {RANGE} if _check_scores(record, malformed) else set()
        review = record.get(REVIEW_KEY)
        if type(review) is not dict:
            if review is not None:
                _stash(malformed, REVIEW_KEY, review)
                kinds.add(REVIEW_KEY)
            else:
                imported += 1
                if type(record.get("correct")) in (int, float, bool):
                    scored += 1
            try:
                review = record[REVIEW_KEY] = cast(dict[str, Any], _imported_review(record))
            except orjson.JSONEncodeError:  # content_hash of kwargs nested too deep
                raise InputError(target, TOO_DEEP, record=qid) from None
        else:
            kinds |= _check_review(review, malformed)
        for kind in kinds:
            problems.setdefault(kind, []).append(qid)
        if malformed:
            kept = review.get(MALFORMED_KEY)
            if type(kept) is dict:  # set aside by an earlier load: keep both
                for part, values in malformed.items():
                    old = kept.get(part, [])
                    kept[part] = (old if type(old) is list else [old]) + values
            else:
                if kept is not None:
                    _stash(malformed, MALFORMED_KEY, kept)
                review[MALFORMED_KEY] = malformed
    if imported == len(records) and not scored:
        raise NotGradedError(target, annotations=all(map(_an_annotation, records)))
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
    warnings.extend(_problem_warnings(target, problems))
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
        settings = _guess_settings(records, warnings, target)
    paths = paths.with_scores(settings.scores_path)
    return LoadedResults(records, settings, paths, warnings)


# --- writing -----------------------------------------------------------------


def _dumps(records: Sequence[dict[str, Any]]) -> bytes:
    """``orjson.dumps(records, OPT_INDENT_2 | OPT_NON_STR_KEYS)``."""
    return dumps_any_keys(records, orjson.OPT_INDENT_2, _default)


_BATCH = 64  # records serialised per orjson call


@runtime_checkable
class Serialised(Protocol):
    """Records some of which arrive already serialised (``scorers.grade.run.DeferredRecords``)."""

    def spans(self) -> Iterator[tuple[int, int, bytes | memoryview | None]]:
        """``(start, stop, data)`` in order, covering every record once: ``data``
        is ``_dumps(records[start:stop])`` or None to dump here."""
        ...


def serialise(records: Sequence[dict[str, Any]]) -> bytes | None:
    """``records`` as one indented JSON array, as the writer would write them;
    None if orjson cannot write one of them (the writer then names it)."""
    try:
        return _dumps(records)
    except orjson.JSONEncodeError:
        return None


def _updated_chunks(
    records: Sequence[dict[str, Any]] | Serialised, target: str = UPDATED_NAME
) -> Iterable[bytes | memoryview]:
    """The bytes of ``orjson.dumps(records, OPT_INDENT_2)``, a few records at a time.

    Serialising in small batches bounds the extra memory of writing a large
    run. A batch is dumped as an array of its own, which indents its records
    exactly as they sit in the whole array; only its brackets are dropped.
    A record orjson cannot write (nested too deep) is an InputError naming it.
    """
    spans: Iterable[tuple[int, int, bytes | memoryview | None]]
    if isinstance(records, Serialised):
        spans = records.spans()  # never empty: a run with no record to write is an error
    elif not records:
        yield b"[]"
        return
    else:
        spans = [(0, len(records), None)]
    yield b"[\n"
    for first, stop, data in spans:
        if data is not None:
            if first:
                yield b",\n"
            yield memoryview(data)[2:-2]
            continue
        assert isinstance(records, Sequence)
        for start in range(first, stop, _BATCH):
            chunk = records[start : min(stop, start + _BATCH)]
            try:
                batch = _dumps(chunk)
            except orjson.JSONEncodeError as exc:
                raise _unwritable(chunk, start, target, exc) from None
            for record in chunk:
                _drop_utf8_copies(record)
            if start:
                yield b",\n"
            yield memoryview(batch)[2:-2]  # without "[\n" and "\n]"
    yield b"\n]"


def _unwritable(
    chunk: Sequence[dict[str, Any]], start: int, target: str, exc: Exception
) -> InputError:
    deep = first_too_deep(list(chunk))
    index = start + (deep if deep is not None else 0)
    record = chunk[deep] if deep is not None else None
    problem = TOO_DEEP if deep is not None else f"cannot be written as JSON: {exc}"
    qid = record.get("question_id", index) if isinstance(record, dict) else None
    return InputError(target, problem, record=qid)


_LONG = 1024  # characters: below this a cached UTF-8 copy is not worth a new string


def _fresh(value: str, seen: dict[int, tuple[str, str]]) -> str:
    known = seen.get(id(value))
    if known is None:
        # The old string stays in ``seen`` until the walk ends, so no id is reused meanwhile.
        known = seen[id(value)] = (value, "".join((value, "")))
    return known[1]


def _drop_utf8_copies(record: dict[str, Any]) -> None:
    """Free the UTF-8 copies orjson left inside the record's long non-ASCII texts.

    CPython caches a UTF-8 encoding inside every non-ASCII ``str`` that orjson
    serialises and keeps it as long as the string lives: writing a run would
    otherwise add the size of its reasoning texts again. An equal new string
    has no cache; the old one (and its copy) is freed with the last reference,
    so every place in the record that shared it gets the same new string.
    """
    seen: dict[int, tuple[str, str]] = {}
    for key, value in record.items():
        if type(value) is str:
            if len(value) > _LONG and not value.isascii():
                record[key] = _fresh(value, seen)
        elif type(value) is list:
            for i, item in enumerate(value):
                if type(item) is str and len(item) > _LONG and not item.isascii():
                    value[i] = _fresh(item, seen)
    review = record.get(REVIEW_KEY)
    if seen and type(review) is dict:
        for verdict in review.get("verdicts") or ():
            if type(verdict) is dict:
                text = verdict.get("extracted")
                if type(text) is str and id(text) in seen:
                    verdict["extracted"] = seen[id(text)][1]


def _default(value: Any) -> Any:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)


def updated_bytes(records: Sequence[dict[str, Any]]) -> bytes:
    return b"".join(bytes(chunk) for chunk in _updated_chunks(records))


def write_updated(
    path: str | os.PathLike[str],
    records: Sequence[dict[str, Any]] | Serialised,
    *,
    while_syncing: Callable[[], T] | None = None,
) -> T | None:
    """Atomically replace ``path`` with the records, streamed in chunks.

    ``while_syncing`` runs while the data is flushed to disk (fsync releases
    the GIL); its result is returned once the file is in place.
    """
    result: T | None = None
    with replacing(path, sync=False) as handle:
        writeback = Writeback(handle)
        try:
            for chunk in _updated_chunks(records, str(path)):
                handle.write(chunk)
                writeback.wrote(len(chunk))
        finally:
            writeback.finish()
        handle.flush()
        if while_syncing is None:
            os.fsync(handle.fileno())
        else:
            result = _run_while_syncing(handle.fileno(), while_syncing)
    return result


def _run_while_syncing(fd: int, work: Callable[[], T]) -> T:
    errors: list[OSError] = []

    def sync() -> None:
        try:
            os.fsync(fd)
        except OSError as exc:
            errors.append(exc)

    thread = threading.Thread(target=sync, name="rome-tui-fsync", daemon=True)
    thread.start()
    try:
        result = work()
    finally:
        thread.join()
    if errors:
        raise errors[0]
    return result


def scores_of(records: Iterable[dict[str, Any]], settings: RunSettings) -> dict[str, Any]:
    tally = tally_of(settings)
    tally.add(records)
    return tally.result()


def tally_of(settings: RunSettings) -> ScoreTally:
    """An empty score tally for a run with ``settings``."""
    return ScoreTally(
        settings.tracker_type, settings.tracker_subtype, harness_stats=settings.harness_stats
    )


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


def settings_json(settings: RunSettings) -> str:
    return json.dumps(asdict(settings), indent=2)
