"""How a run was graded (:class:`RunSettings`), saved as run.json beside its results.

Every reader of run.json goes through :func:`read_settings`, which names the
field and what it should have been when a value does not fit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import orjson

from scorers.errors import InputError
from scorers.io.jsonio import json_error, read_bytes
from scorers.io.run_paths import RUN_NAME


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


def read_settings(path: Path) -> RunSettings | None:
    """The settings saved at ``path`` (a run's run.json, whatever its stem), None when
    there are none; an error calls the file run.json as the docs do."""
    if not path.exists():
        return None
    data = read_bytes(path)
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise json_error(str(path), data, exc) from None
    if not isinstance(value, dict):
        raise InputError(str(path), "expected a JSON object of run settings")
    try:
        return RunSettings.from_dict(value)
    except (TypeError, ValueError) as exc:
        raise InputError(str(path), f"bad {RUN_NAME} setting: {exc}") from None
