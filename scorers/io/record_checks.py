"""What every loader checks in a record and how it words what it found.

Shared by the whole-file loaders (:mod:`scorers.io.loading`), the streamed grade
(:mod:`scorers.grade.stream`), the annotation index and a run's records
(:mod:`scorers.io.results`), so a file reads the same, and is warned about in the
same words, whichever path reads it: fields exports write as JSON text decoded,
nesting too deep to write back refused, the first ids a warning quotes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeGuard

import orjson

from scorers.errors import InputError
from scorers.io import nonfinite

FIRST_IDS = 5  # how many ids a warning quotes
JSON_STRING_FIELDS = ("evaluator_kwargs", "usage", "inference_scores")
# orjson parses 1024 levels of nesting but writes only 254, and a record is
# written inside the list of records: a record may nest this many containers,
# itself included, or it could be read but never written back.
WRITABLE_DEPTH = 253
TOO_DEEP = (
    f"nested more than {WRITABLE_DEPTH} levels deep (rome-tui could read it but not write it back)"
)
_CONTAINERS = frozenset((dict, list))


def deeper_than(values: list[Any], limit: int = WRITABLE_DEPTH) -> bool:
    """True when some value of ``values`` nests more than ``limit`` containers, itself included.

    Walks all the values one level at a time, so a large run costs a few list
    comprehensions per level rather than a Python loop per record; records
    rarely nest more than five levels.
    """
    level = [value for value in values if type(value) in _CONTAINERS]
    for _ in range(limit):
        level = [
            item
            for node in level
            for item in (node.values() if type(node) is dict else node)
            if type(item) in _CONTAINERS
        ]
        if not level:
            return False
    return True


def writable_in_a_list(values: list[Any]) -> bool:
    """True when orjson can write ``values`` as one list: then no value nests more
    than WRITABLE_DEPTH containers (orjson writes 254 levels, the list is one).

    orjson checks in C what deeper_than walks in Python: for annotations, whose
    kwargs nest a few levels, several times faster. For predictions, mostly
    long texts it would copy, the walk is the cheaper. False also when orjson
    cannot write a value for another reason: the walk then decides.
    """
    try:
        orjson.dumps(values)
    except orjson.JSONEncodeError:
        return False
    return True


def first_too_deep(values: list[Any], limit: int = WRITABLE_DEPTH) -> int | None:
    """Index of the first value nested more than ``limit`` levels, or None."""
    if not deeper_than(values, limit):
        return None
    return next(i for i, value in enumerate(values) if deeper_than([value], limit))


def annotation_warnings(
    path: str, missing_id: int, duplicates: int, shown: Iterable[Any], conflicts: list[str]
) -> list[str]:
    """What both annotation readers (whole file, streamed index) warn of: ids missing,
    and duplicates graded last-wins as the reference grader does."""
    warnings = []
    if missing_id:
        warnings.append(
            f"{path}: {missing_id} annotation(s) without question_id, filed under the id 'None' as the reference does"
        )
    if duplicates:
        differing = (
            f"; {len(conflicts)} of them differ (first: {conflicts[0]})" if conflicts else ""
        )
        warnings.append(
            f"{path}: {duplicates} duplicate annotation id(s) (first: {first_ids(shown)})"
            f"{differing}; the last of each is used, as in the reference grader"
        )
    return warnings


WRONG_WAY = "an annotations file? (--annotations and --predictions given the wrong way round)"


def no_answer(prediction: dict[str, Any]) -> str:
    """The problem of a prediction without an answer, saying so when it is an annotation
    (the two files given the wrong way round)."""
    if "evaluator" in prediction:
        return f"prediction has no 'answer' but has an 'evaluator': {WRONG_WAY}"
    return "prediction has no 'answer'"


def record_label(pred: dict[str, Any], index: int) -> str | int:
    """How an error names a record: its question_id, else its place in the file."""
    qid = pred.get("question_id")
    return str(qid) if qid is not None else index


def first_ids(ids: Iterable[Any]) -> str:
    """The first few ids of a warning, comma-separated."""
    shown = []
    for i, value in enumerate(ids):
        if i == FIRST_IDS:
            shown.append("...")
            break
        shown.append(repr(value) if not isinstance(value, str) else value)
    return ", ".join(shown)


def _json_text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and value[:1] in ("{", "[")


def needs_decoding(record: dict[str, Any]) -> bool:
    """Whether :func:`decode_json_strings` would change ``record`` (or reject it)."""
    for name in JSON_STRING_FIELDS:  # noqa: SIM110 - any() over a generator costs more per record
        if _json_text(record.get(name)):
            return True
    return False


def load_warnings(
    path: str,
    what: str,
    decoded: int,
    found: list[nonfinite.Found],
    value: Any,
    *,
    fields: str = "evaluator_kwargs/usage",
) -> list[str]:
    """The warnings a load of ``what`` ("annotations", "predictions", "records") ends with,
    worded here for every loader, whole-file or streamed: how many records had JSON-text
    fields decoded (``decode_json_strings``), and the NaN/Infinity values read as null."""
    out = []
    if decoded:
        out.append(f"{path}: {decoded} {what[:-1]}(s) with {fields} as JSON text, decoded")
    if found:
        out.append(nonfinite.warning(path, found, value, what))
    return out


def decode_json_strings(
    record: dict[str, Any],
    path: str,
    where: str | int,
    found: list[nonfinite.Found] | None = None,
) -> bool:
    """Decode fields that exports store as JSON text; True if one was decoded.
    NaN/Infinity inside them are read as null and recorded in ``found``."""
    changed = False
    for name in JSON_STRING_FIELDS:
        value = record.get(name)
        # (_json_text written out: this runs for every annotation and prediction)
        if type(value) is str and value[:1] in ("{", "["):
            try:
                record[name] = orjson.loads(value)
            except orjson.JSONDecodeError as exc:
                lenient = nonfinite.loads(value.encode())
                if lenient is None or found is None:
                    raise InputError(
                        path, f"{name} is a string but not valid JSON: {exc.msg}", record=where
                    ) from None
                record[name] = lenient[0]
                found += [(str(where), f"{name}{_dot(p)}", w) for _, p, w in lenient[1]]
            changed = True
    return changed


def _dot(path: str) -> str:
    return "" if not path else path if path.startswith("[") else "." + path
