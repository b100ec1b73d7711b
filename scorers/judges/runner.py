"""Judging a set of records: selection, the concurrent run, the dry run, the primary policy.

Verdicts are set on each record the moment its judgement completes, so an
interrupted run still holds (and the caller can save) everything finished;
the rest is in the reply cache and costs nothing on the next run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import orjson

from scorers.errors import UsageError
from scorers.judges.base import (
    ChatReply,
    ChatRequest,
    Judge,
    JudgeOptions,
    Pending,
    Unreachable,
    error_verdict,
)
from scorers.judges.cache import JudgeCache
from scorers.records import HEURISTIC_FLAG_KINDS, Verdict, review_of, set_verdict, verdict_of
from scorers.review import choose_primary, settle

PLAN_PLACEHOLDER = "(planned reply)"

if TYPE_CHECKING:
    from scorers.io.run_settings import RunSettings


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
    """Records whose every FIELD (dotted for nested keys) equals VALUE; a list field matches any element.

    A FIELD no record has is a UsageError naming the fields they have: a typo
    (``tsk=geo``) matched nothing and the run said only "nothing to do".
    """
    for name, _value in conditions:
        if records and all(_lookup(r, name) is _MISSING for r in records):
            fields = sorted({k for r in records[:1000] for k in r if isinstance(k, str)})
            raise UsageError(
                f"--where {name}=...: no record has the field {name!r} "
                f"(they have: {', '.join(fields)})"
            )
    return [
        r for r in records if all(_matches(_lookup(r, name), value) for name, value in conditions)
    ]


# --- running -----------------------------------------------------------------------------


def select_flagged(
    records: Sequence[dict[str, Any]], kinds: Sequence[str], *, low_confidence: bool = False
) -> list[dict[str, Any]]:
    """Records carrying a flag of one of ``kinds`` (none given: any heuristic flag).

    With ``low_confidence``, only flags the heuristics mark ``confidence: "low"``
    count: the cues with an innocent reading they cannot rule out, the items a
    judge's second look is for.
    """
    wanted = set(kinds) or set(HEURISTIC_FLAG_KINDS)

    def counts(flag: Any) -> bool:
        if not isinstance(flag, dict) or flag.get("kind") not in wanted:
            return False
        return not low_confidence or flag.get("confidence") == "low"

    return [
        r for r in records if any(counts(f) for f in (r.get("review") or {}).get("flags") or ())
    ]


def select_errors(
    records: Sequence[dict[str, Any]], sources: Sequence[str]
) -> list[dict[str, Any]]:
    """Records whose verdict from one of ``sources`` is an error."""
    return [
        r
        for r in records
        if any((v := verdict_of(r, s)) is not None and v.get("error") is not None for s in sources)
    ]


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
        except Unreachable:
            raise  # the whole run stops: see judge_run
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
    except Unreachable:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
    return outcome


@dataclass
class Plan:
    requests: list[ChatRequest]  # the calls still to send
    records: int
    cached: int = 0  # calls the cache already answers
    blocked: int = 0  # records whose later calls wait on a reply not yet had (mode "stop")
    # Records the judge cannot ask about at all (vrc-steps without reference steps): the
    # run gives each an error verdict without a call; the first one's reason.
    unaskable: int = 0
    unaskable_reason: str | None = None


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
    asked = False

    async def planned_call(request: ChatRequest) -> ChatReply:
        nonlocal asked
        asked = True
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
        asked = False
        try:
            verdict = await judge.judge(record, planned_call, opts)
        except Pending:
            result.blocked += 1
            continue
        except Exception:  # noqa: BLE001,S112 - the real run records it as an error verdict
            continue
        if not asked and verdict.get("error"):
            result.unaskable += 1
            result.unaskable_reason = result.unaskable_reason or str(verdict["error"])
    return result


def rough_tokens(chars: int) -> int:
    """About four characters per token for English prompts (the usual rule of thumb)."""
    return (chars + 3) // 4


# --- the primary policy ------------------------------------------------------------------


def apply_primary(record: dict[str, Any], settings: RunSettings, judge: Judge) -> None:
    """Set ``review.primary`` and ``correct`` once ``judge`` has judged the record:
    the run's primary policy (:func:`scorers.review.choose_primary`), then the
    human override in force (:func:`scorers.review.settle`)."""
    source = f"judge:{judge.name}"
    primary = choose_primary(record, settings, source)
    if primary != source and review_of(record).get("primary") == primary:
        return  # not primary here, and nothing changes
    settle(record, primary)
    if primary == "judge:rome":
        verdict = verdict_of(record, primary)
        record["judgement_response"] = None if verdict is None else verdict.get("raw")
