"""Judging a set of records: selection, the concurrent run, the dry run, the primary policy.

Verdicts are set on each record the moment its judgement completes, so an
interrupted run still holds (and the caller can save) everything finished;
the rest is in the reply cache and costs nothing on the next run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from scorers.errors import UsageError
from scorers.judges.base import (
    ChatReply,
    ChatRequest,
    Judge,
    JudgeOptions,
    Pending,
    error_verdict,
)
from scorers.judges.cache import JudgeCache
from scorers.records import Verdict, review_of, set_verdict, verdict_of

BINARY_JUDGES = frozenset({"rome", "vrc-answer"})
PLAN_PLACEHOLDER = "(planned reply)"


# --- selection ---------------------------------------------------------------------------


def parse_where(items: Iterable[str]) -> list[tuple[str, str]]:
    conditions = []
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--where {item!r}: expected FIELD=VALUE, e.g. --where task=diagrams")
        conditions.append((name.strip(), value))
    return conditions


def _lookup(record: dict[str, Any], dotted: str) -> Any:
    value: Any = record
    for part in dotted.split("."):
        if not isinstance(value, dict) or part not in value:
            return _MISSING
        value = value[part]
    return value


_MISSING = object()


def _matches(value: Any, wanted: str) -> bool:
    if value is _MISSING:
        return False
    if isinstance(value, str):
        return value == wanted
    if isinstance(value, list):
        return any(_matches(v, wanted) for v in value)
    return str(value) == wanted or orjson.dumps(value, default=str).decode() == wanted


def select(
    records: Sequence[dict[str, Any]], conditions: Sequence[tuple[str, str]]
) -> list[dict[str, Any]]:
    """Records whose every FIELD (dotted for nested keys) equals VALUE; a list field matches any element."""
    return [
        r for r in records if all(_matches(_lookup(r, name), value) for name, value in conditions)
    ]


# --- running -----------------------------------------------------------------------------


@dataclass
class RunOutcome:
    judged: int = 0
    errors: int = 0
    pending: int = 0  # records whose calls have no reply yet (batch import): no verdict
    interrupted: bool = False
    verdicts: list[Verdict] = field(default_factory=list)


async def judge_records(
    records: Sequence[dict[str, Any]],
    judge: Judge,
    opts: JudgeOptions,
    call: Callable[[ChatRequest], Any],
    *,
    on_verdict: Callable[[dict[str, Any], Verdict], None] | None = None,
    source: str | None = None,
) -> RunOutcome:
    """Judge every record concurrently (the client bounds the requests in flight).

    Each verdict is set on its record as soon as it exists, under ``source``
    (default ``judge:NAME``; a panel member's is ``judge:NAME@MODEL``). A bug
    in a judge for one record becomes that record's error verdict, not a dead
    run; a call that raises :class:`Pending` leaves the record unjudged.
    """
    outcome = RunOutcome()
    source = source or f"judge:{judge.name}"

    async def one(record: dict[str, Any]) -> None:
        try:
            verdict = await judge.judge(record, call, opts)
        except (asyncio.CancelledError, KeyboardInterrupt):
            raise
        except Pending:
            outcome.pending += 1
            return
        except Exception as exc:  # noqa: BLE001 - recorded on the item, the run goes on
            verdict = error_verdict(
                source, f"internal error: {type(exc).__name__}: {exc}", model=opts.model
            )
        verdict["source"] = source
        set_verdict(record, verdict)
        outcome.judged += 1
        outcome.errors += verdict.get("error") is not None
        outcome.verdicts.append(verdict)
        if on_verdict is not None:
            on_verdict(record, verdict)

    tasks = [asyncio.ensure_future(one(r)) for r in records]
    try:
        await asyncio.gather(*tasks)
    except (asyncio.CancelledError, KeyboardInterrupt):
        outcome.interrupted = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return outcome


@dataclass
class Plan:
    requests: list[ChatRequest]  # the calls still to send
    records: int
    cached: int = 0  # calls the cache already answers
    blocked: int = 0  # records whose later calls wait on a reply not yet had (mode "stop")


async def plan(
    records: Sequence[dict[str, Any]],
    judge: Judge,
    opts: JudgeOptions,
    cache: JudgeCache | None = None,
    *,
    stop_at_uncached: bool = False,
) -> Plan:
    """The requests a run would send, without sending any.

    Cached replies answer their calls, so a second step (mathreal's judge
    after its extraction) is planned from the real first reply when there is
    one. Otherwise the first reply is a placeholder, close enough for counting
    calls and tokens; with ``stop_at_uncached`` (a batch export) the record
    stops at its first uncached call instead, because what follows depends on
    that reply.
    """
    result = Plan([], len(records))
    seen: set[str] = set()

    async def planned_call(request: ChatRequest) -> ChatReply:
        key = request.cache_key(opts.model)
        entry = cache.get(key) if cache is not None else None
        if entry is not None:
            result.cached += 1
            return ChatReply(content=entry.get("content"), usage=dict(entry.get("usage") or {}))
        if key not in seen:
            seen.add(key)
            result.requests.append(request)
        if stop_at_uncached:
            raise Pending
        return ChatReply(content=PLAN_PLACEHOLDER)

    for record in records:
        try:
            await judge.judge(record, planned_call, opts)
        except Pending:
            result.blocked += 1
        except Exception:  # noqa: BLE001,S112 - the real run records it as an error verdict
            continue
    return result


def rough_tokens(chars: int) -> int:
    """About four characters per token for English prompts (the usual rule of thumb)."""
    return (chars + 3) // 4


# --- the primary policy ------------------------------------------------------------------


def apply_primary(record: dict[str, Any], settings: Any, judge: Judge) -> None:
    """Set ``correct`` (and ``review.primary``) per the run's primary policy.

    Only a judge that grades correctness can be primary, and only where the
    policy for the record's bucket is "judge". A judge error there falls back
    to the primary rule verdict: an error is never read as a 0. A human
    override in force always wins.
    """
    if not judge.grades_correctness:
        return
    bucket = record.get(getattr(settings, "tracker_type", "task")) or "all"
    primary_for = getattr(settings, "primary_for", None)
    policy = primary_for(bucket) if callable(primary_for) else getattr(settings, "primary", "rule")
    if policy != "judge" and policy != f"judge:{judge.name}":
        return
    review = review_of(record)
    source = f"judge:{judge.name}"
    verdict = verdict_of(record, source)
    if verdict is None or verdict.get("error") is not None or verdict.get("score") is None:
        source = str(getattr(settings, "primary_rule", "rule:strict"))
        verdict = verdict_of(record, source)
    review["primary"] = source
    human = review.get("human")
    if isinstance(human, dict) and "score" in human and not review.get("stale"):
        record["correct"] = human["score"]
    elif verdict is not None and verdict.get("score") is not None:
        score = verdict["score"]
        if judge.name in BINARY_JUDGES and score in (0.0, 1.0):
            record["correct"] = int(score)  # the reference stores 0/1 as ints
        else:
            record["correct"] = score
        if verdict.get("strict") is not None:
            record["correct_strict"] = verdict["strict"]
        if source == "judge:rome":
            record["judgement_response"] = verdict.get("raw")
