"""``NaN``, ``Infinity`` and ``-Infinity`` in input files: read, named, and made null.

Python's ``json.dump`` writes them by default (``allow_nan=True``) and the
reference grader reads them back; orjson, like the JSON standard, refuses them.
Only when orjson refuses a piece of a file that contains one of these words is
the piece parsed again with the standard library, which accepts them. Each such
value becomes ``null`` where it stands: a missing value, so that no sum,
average or interval ever sees it, and files written back are standard JSON.
The loader warns once per file, naming the first records and fields.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

# (the record's position or key in the file's top level, the field's path in it, the word)
Found = tuple[int | str | None, str, str]

_WORDS = re.compile(rb"NaN|Infinity")
_SHOWN = 5


class _Constant:
    """Stands in for a NaN/Infinity while the parsed value is walked."""

    __slots__ = ("word",)

    def __init__(self, word: str) -> None:
        self.word = word


def loads(data: bytes | bytearray | memoryview) -> tuple[Any, list[Found]] | None:
    """``data`` parsed with NaN/Infinity accepted and each replaced by None, with
    where they were; None when it holds none of them or is invalid JSON anyway
    (the caller reports orjson's error)."""
    raw = bytes(data)
    if _WORDS.search(raw) is None:
        return None
    constants: list[_Constant] = []

    def constant(word: str) -> _Constant:
        found = _Constant(word)
        constants.append(found)
        return found

    def number(text: str) -> float | _Constant:
        value = float(text)
        # 1e999: a number too large for a float is no statistic either.
        return value if math.isfinite(value) else constant(text)

    try:
        value = json.loads(raw, parse_constant=constant, parse_float=number)
    except (ValueError, RecursionError):
        return None
    if not constants:
        return None  # the words were inside strings: orjson refused something else
    found: list[Found] = []
    if isinstance(value, _Constant):
        return None, [(None, "", value.word)]
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, _Constant):
                value[i] = None
                found.append((i, "", item.word))
            else:
                _scrub(item, "", i, found)
    else:
        _scrub(value, "", None, found)
    return value, found


def _scrub(value: Any, path: str, top: int | str | None, found: list[Found]) -> None:
    """Replace every _Constant inside ``value`` by None, recording where it was."""
    if isinstance(value, dict):
        items: Any = value.items()
        for key, item in list(items):
            where = f"{path}.{key}" if path else str(key)
            if isinstance(item, _Constant):
                value[key] = None
                found.append((top, where, item.word))
            elif isinstance(item, (dict, list)):
                _scrub(item, where, top, found)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            where = f"{path}[{i}]"
            if isinstance(item, _Constant):
                value[i] = None
                found.append((top, where, item.word))
            elif isinstance(item, (dict, list)):
                _scrub(item, where, top, found)


def shifted(found: list[Found], offset: int) -> list[Found]:
    """``found`` of a piece whose first record is record ``offset`` of the file."""
    return [
        (top + offset if isinstance(top, int) else top, path, word) for top, path, word in found
    ]


def warning(path: str, found: list[Found], value: Any, what: str) -> str:
    """One warning for a file's NaN/Infinity values, naming the first records and fields."""
    shown = []
    for top, field, word in found[:_SHOWN]:
        if top is None and isinstance(value, dict) and "question_id" not in value:
            # An object keyed by question_id: the first part of the path is the record.
            top, _, field = field.partition(".")
        shown.append(f"record {_record_name(value, top)} {field or '(the record)'} = {word}")
    more = ", ..." if len(found) > _SHOWN else ""
    return (
        f"{path}: {len(found)} NaN/Infinity value(s) in {what} (not standard JSON; first: "
        f"{', '.join(shown)}{more}): read as null, i.e. missing: left out of every sum and "
        "average, and written back as null"
    )


def _record_name(value: Any, top: int | str | None) -> str:
    if isinstance(top, str):
        return top
    record = value[top] if isinstance(top, int) and isinstance(value, list) else value
    if isinstance(record, dict) and record.get("question_id") is not None:
        return str(record["question_id"])
    return "#" + str(top if top is not None else 0)
