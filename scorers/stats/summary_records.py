"""What the summary reads in a record: numbers, buckets, token usage, pairing ids.

Also the names it counts by (verdict sources, flag kinds) and the 0.5 cut that
binarises a score, so the collector, the estimates and the tables agree on them.
Every reader here is lenient: a malformed field reads as missing, not as a crash.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import orjson

from scorers.records import HEURISTIC_FLAG_KINDS

THRESHOLD = 0.5
BINARISE_NOTE = (
    "Scores binarised at 0.5 (score >= 0.5 counts as correct) for agreement and error rates"
)
HUMAN = "human"
RUBRIC = "judge:rubric"
VRC_STEPS = "judge:vrc-steps"
HEURISTIC = "heuristic"
DISAGREE = "heuristic_rubric_disagree"  # names the kinds in its disagree_on

# The behaviour columns of LRM-Eval's tables, in their order, then the rest.
BEHAVIOUR_KINDS: tuple[str, ...] = tuple(
    kind for kind in HEURISTIC_FLAG_KINDS if kind != "judge_prompt_injection"
)
# Kinds that only a reasoning trace can show: their rate is over items that have one,
# as LRM-Eval leaves models without a visible trace out of those columns.
REASONING_KINDS = frozenset(
    {
        "answer_contradicts_reasoning",
        "hedged_reasoning_certain_answer",
        "claims_web_search",
        "claims_tool_use",
        "reasoning_abstains_answer_does_not",
    }
)
# The kinds the LRM-Eval rubric asks about (questions 2, 4, 6 and 7), so the only
# ones where heuristic and rubric flags can be compared.
RUBRIC_KINDS: tuple[str, ...] = (
    "answer_contradicts_reasoning",
    "hedged_reasoning_certain_answer",
    "claims_web_search",
    "claims_tool_use",
)


def number(value: Any) -> float | None:
    """A finite int, float or bool as a float; anything else (NaN, text, null) is None."""
    kind = type(value)  # exact type checks first: this runs several times per record
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is int or kind is bool:
        return float(value)
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def decoded(value: Any) -> Any:
    """A field some exports write as JSON text, decoded; text that does not parse is None."""
    if isinstance(value, str) and value[:1] in ("[", "{"):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return value


def bucket_key(value: Any) -> str:
    """The reference's ``value or "all"``, as text (JSON text for unhashable values)."""
    if not value:
        return "all"
    if isinstance(value, str):
        return value
    if isinstance(value, (list, dict)):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS).decode()
    return str(value)


def usages(value: Any) -> list[dict[str, Any]]:
    """The ``usage`` of each response: one object or a list, either possibly as JSON text."""
    value = decoded(value)
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        return [u for u in (decoded(v) for v in value) if isinstance(u, dict)]
    return []


def token_count(value: Any) -> float | None:
    """A token count: :func:`number` at least 0 (a negative count is missing, as NaN is;
    grading warns about it, scorers.io.scores.negative_counts)."""
    count = number(value)
    return count if count is not None and count >= 0 else None


def reasoning_tokens(usage: Mapping[str, Any]) -> float | None:
    """OpenAI's ``completion_tokens_details.reasoning_tokens``, else a top-level count."""
    details = usage.get("completion_tokens_details")
    if isinstance(details, dict):
        found = token_count(details.get("reasoning_tokens"))
        if found is not None:
            return found
    return token_count(usage.get("reasoning_tokens"))


def pair_key(record: Mapping[str, Any]) -> str:
    """The id that pairs a question across models.

    A file holding several models needs ids unique per record, so they are often
    written ``<model>/<question_id>``; that prefix is dropped when it is the
    record's own ``model``, so the same question pairs up across models.
    """
    qid = record.get("question_id")
    if type(qid) is not str:
        qid = str(qid)
    model = record.get("model")
    if model and isinstance(model, str) and qid.startswith(model + "/"):
        return qid[len(model) + 1 :]
    return qid


def group_by_model(
    records: Sequence[dict[str, Any]], fallback: str
) -> list[tuple[str, list[dict[str, Any]]]]:
    """Split records by their ``model`` field; records without one get ``fallback``.

    A BAAI/ROME-Evaluated export holds many models in one file; a rome-tui
    results directory usually holds one and no ``model`` field.
    """
    groups: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        name = record.get("model")
        key = name if isinstance(name, str) and name else fallback
        groups.setdefault(key, []).append(record)
    return list(groups.items())
