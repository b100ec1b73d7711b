"""Reading annotation and prediction files in every shape seen in the wild.

Accepted: a JSON array, a JSON object keyed by question_id (pretty-printed or
not), a single record object, or JSON Lines; an optional UTF-8 BOM; and
``evaluator_kwargs`` / ``usage`` given as JSON strings (the BAAI/ROME-Evaluated
export). Anything else is an :class:`InputError` naming the file, the line
(JSONL) or record, and the problem.

The reference grader reads fewer shapes (spec §2.1); where it would have read
the file differently, a warning says so. Warnings are returned as plain
strings; the caller decides where they go. The file is parsed by
:mod:`scorers.io.parse`, its records checked by :mod:`scorers.io.record_checks`,
and predictions matched with annotations by :mod:`scorers.io.pairing`.
"""

from __future__ import annotations

from typing import Any

from scorers.errors import InputError, json_type
from scorers.io.parse import Parsed, parse_file
from scorers.io.record_checks import (
    TOO_DEEP,
    annotation_warnings,
    decode_json_strings,
    first_ids,
    first_too_deep,
    load_warnings,
    no_answer,
    record_label,
    writable_in_a_list,
)
from scorers.io.streaming import OnBlock


def _records_of(parsed: Parsed, path: str, what: str) -> list[tuple[Any, Any]]:
    """(where, record) pairs of a top-level list; ``where`` is a line or an index."""
    if not isinstance(parsed.value, list):
        raise InputError(path, f"expected a list of {what}")
    out = []
    for i, item in enumerate(parsed.value):
        where = parsed.lines[i] if parsed.lines is not None else i
        if not isinstance(item, dict):
            raise _bad(path, where, parsed, f"expected a JSON object, got {json_type(item)}")
        out.append((where, item))
    return out


def _bad(path: str, where: Any, parsed: Parsed, problem: str) -> InputError:
    if parsed.lines is not None:
        return InputError(path, problem, line=where)
    return InputError(path, problem, record=where)


def _keys_differ(path: str, value: dict[str, Any], wins: str, what: str) -> list[str]:
    """A warning for records of an object keyed by question_id whose own question_id
    is another (a hand edit, a merge): which one is used is easy to get wrong."""
    differ = [
        f"{key} holds {item['question_id']!r}"
        for key, item in value.items()
        if isinstance(item, dict)
        and item.get("question_id") is not None
        and str(item["question_id"]) != str(key)
    ]
    if not differ:
        return []
    return [
        f"{path}: {len(differ)} of its {what} have a question_id other than their key "
        f"(first: {first_ids(differ)}); {wins} is used"
    ]


def _looks_like_record(value: dict[str, Any], *keys: str) -> bool:
    return "question_id" in value and any(k in value for k in keys)


# What an annotation's verdict depends on: two annotations of one question_id that
# differ here give the question two right answers, and strict mode cannot pick one.
TARGET_FIELDS = frozenset(("evaluator", "evaluator_kwargs", "reference"))
_SHOWN_DIFFERENCES = 3


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where ``a`` and ``b`` differ, as ``field.sub: A vs B`` (at most a few)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out: list[str] = []
        for key in list(a) + [k for k in b if k not in a]:
            if a.get(key, _ABSENT) != b.get(key, _ABSENT):
                where = f"{path}.{key}" if path else str(key)
                out += differences(a.get(key, _ABSENT), b.get(key, _ABSENT), where)
            if len(out) >= _SHOWN_DIFFERENCES:
                return out[:_SHOWN_DIFFERENCES]
        return out
    return [f"{path}: {_shown(a)} vs {_shown(b)}"]


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _conflict(path: str, parsed: Parsed, qid: str, where: Any, differs: list[str]) -> InputError:
    """The error for two annotations of ``qid`` with different targets, naming both."""
    value = parsed.value
    first = next(
        i
        for i, item in enumerate(value)
        if isinstance(item, dict) and str(item.get("question_id")) == qid
    )
    if parsed.lines is not None:
        both = f"lines {parsed.lines[first]} and {where}"
    else:
        both = f"records #{first} and #{where} (counting from 0)"
    return InputError(
        path,
        f"question_id {qid} is annotated twice with different targets ({both}: "
        f"{'; '.join(differs)}); strict mode cannot tell which is right. Remove one, or "
        "grade with --mode rome, which uses the last as the reference grader does",
    )


def load_annotations(
    path: str, mode: str = "strict"
) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Annotations keyed by ``str(question_id)``; the last of duplicate ids wins, as in the reference."""
    parsed = parse_file(path)
    warnings = parsed.warnings
    value = parsed.value
    found = parsed.nonfinite
    out: dict[str, dict[str, Any]] = {}
    decoded = 0
    if isinstance(value, dict) and _looks_like_record(value, "evaluator", "evaluator_kwargs"):
        warnings.append(
            f"{path}: a single annotation object; the reference grader would read its field names as ids"
        )
        value = [value]
        parsed = Parsed(value, None, warnings)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(item, dict):
                raise InputError(
                    path, f"expected an annotation object, got {json_type(item)}", record=key
                )
            decoded += decode_json_strings(item, path, key, found)
            out[str(key)] = item
        warnings += _keys_differ(path, value, "the key", "annotations")
    elif isinstance(value, list):
        duplicates: list[str] = []
        conflicts: list[str] = []  # "qid (what differs)" of duplicates that are not identical
        missing_id = 0
        for where, item in _records_of(parsed, path, "annotations"):
            if "question_id" not in item or item["question_id"] is None:
                if mode != "rome":
                    raise _bad(path, where, parsed, "annotation has no question_id")
                missing_id += 1
            qid = str(item.get("question_id"))
            decoded += decode_json_strings(item, path, qid, found)
            earlier = out.get(qid)
            if earlier is not None:
                duplicates.append(qid)
                if earlier != item:
                    differs = differences(earlier, item)
                    targets = any(
                        d.split(".", 1)[0].split(":", 1)[0] in TARGET_FIELDS for d in differs
                    )
                    if targets and mode != "rome":
                        raise _conflict(path, parsed, qid, where, differs)
                    conflicts.append(f"{qid} ({'; '.join(differs)})")
            out[qid] = item
        warnings += annotation_warnings(
            path, missing_id, len(duplicates), dict.fromkeys(duplicates), conflicts
        )
    else:
        raise InputError(
            path,
            "expected a list of annotations or an object keyed by question_id, "
            f"got {json_type(value)}",
        )
    if not out:
        raise InputError(path, "empty: no annotations")
    values = list(out.values())
    deep = None if writable_in_a_list(values) else first_too_deep(values)
    if deep is not None:
        raise InputError(path, TOO_DEEP, record=list(out)[deep])
    warnings += load_warnings(path, "annotations", decoded, found, value)
    return out, warnings


def load_predictions(
    path: str, mode: str = "strict", *, on_block: OnBlock | None = None
) -> tuple[list[dict[str, Any]], list[str]]:
    """Predictions as a list, in file order (spec §2.3 shapes).

    ``on_block`` sees the records of a large file as they are parsed, before
    they are checked and before JSON-text fields are decoded in place.
    """
    parsed = parse_file(path, on_block)
    warnings = parsed.warnings
    value = parsed.value
    found = parsed.nonfinite
    records: list[dict[str, Any]]
    if isinstance(value, list):
        records = [item for _, item in _records_of(parsed, path, "predictions")]
    elif isinstance(value, dict):
        if "question_id" in value and "answer" in value:
            records = [value]
        elif all(isinstance(v, dict) for v in value.values()):
            records = []
            warnings += _keys_differ(path, value, "its question_id", "predictions")
            for key, item in value.items():
                merged = {"question_id": key, **item}
                if "answer" not in merged:
                    raise InputError(path, no_answer(merged), record=key)
                records.append(merged)
        else:
            bad = next(k for k, v in value.items() if not isinstance(v, dict))
            raise InputError(
                path,
                "expected a list of predictions, a single prediction with question_id and answer, "
                "or an object keyed by question_id whose values are objects",
                record=bad,
            )
    else:
        raise InputError(path, f"expected a list of predictions, got {json_type(value)}")
    decoded = 0
    for i, record in enumerate(records):
        if "usage" in record or "evaluator_kwargs" in record or "inference_scores" in record:
            decoded += decode_json_strings(record, path, record.get("question_id", i), found)
    deep = first_too_deep(records)
    if deep is not None:
        raise InputError(
            path,
            TOO_DEEP,
            line=parsed.lines[deep] if parsed.lines is not None else None,
            record=record_label(records[deep], deep),
        )
    warnings += load_warnings(
        path, "predictions", decoded, found, value, fields="usage/evaluator_kwargs"
    )
    return records, warnings
