"""A run judged through Batch files instead of live calls.

:func:`export_batch` writes the OpenAI Batch input file of every call the
reply cache does not answer yet; :func:`import_batch` reads the output files
(OpenAI's or vLLM run_batch's) and applies their replies exactly as a live run
applies its own (:func:`scorers.judges.run.execute_and_save`). The Batch API
round trip that uploads and downloads them is ``scorers.judges.batch_api``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scorers.errors import InputError
from scorers.judges.base import Call, ChatReply, ChatRequest, Pending
from scorers.judges.batchfile import BatchOutput, custom_id, read_outputs, write_requests
from scorers.judges.client import ClientStats
from scorers.judges.run import PreparedRun, empty_result, execute_and_save, judge_with, prepare_run
from scorers.judges.run_request import JudgeRunRequest, JudgeRunResult, ProgressFactory
from scorers.judges.runner import plan
from scorers.records import Verdict


@dataclass
class BatchExport:
    path: str
    selected: int
    lines: int  # calls written (uncached, distinct)
    cached: int  # calls the cache already answers
    waiting: int  # records with a call in the file (their later calls come in a next round)
    unaskable: int = 0  # records that get an error verdict without a call (runner.Plan)
    unaskable_reason: str | None = None


def export_batch(request: JudgeRunRequest, path: str | os.PathLike[str]) -> BatchExport:
    """Write the OpenAI Batch input file of every call the cache does not answer yet
    (none when there is no such call).

    A judge whose second call depends on the first reply (mathreal's
    extraction, then its judge) exports the first now; after the import, the
    next export holds the second.
    """
    p = prepare_run(request)
    uncached = collect_uncached(p)
    # An empty Batch input file is refused (OpenAI's empty_file) and runs nothing: when
    # the cache answers every call, no file is written and the caller says so.
    lines = write_requests(path, uncached.calls) if uncached.calls else 0
    return BatchExport(
        str(path),
        len(p.selected),
        lines,
        uncached.cached,
        uncached.waiting,
        uncached.unaskable,
        uncached.unaskable_reason,
    )


def _refuse_foreign_output(
    p: PreparedRun, out: BatchOutput, paths: Sequence[str | os.PathLike[str]]
) -> None:
    """InputError, before anything is written, when no line of the files answers a call
    this run still needs and the cache answers none either: the output of another judge,
    model or run, which imported as "0 judged" with exit 0."""
    uncached = collect_uncached(p)
    wanted = {custom_id(request, model) for request, model in uncached.calls}
    if wanted and not uncached.cached and not wanted & out.replies.keys():
        raise InputError(
            ", ".join(map(str, paths)),
            f"none of its {out.lines} result line(s) answers a call of judge {p.judge.name}, "
            f"model {p.label} on this run's records: the output of another judge, model "
            "or run? Nothing was imported",
        )


@dataclass
class Uncached:
    """The calls of a run the cache does not answer yet, by model (a batch's input)."""

    calls: list[tuple[ChatRequest, str]]
    cached: int
    waiting: int
    unaskable: int
    unaskable_reason: str | None


def collect_uncached(p: PreparedRun) -> Uncached:
    out = Uncached([], 0, 0, 0, None)
    for model in p.models:
        planned = asyncio.run(
            plan(p.selected, p.judge, p.opts[model], p.cache, stop_at_uncached=True)
        )
        out.calls += [(r, model) for r in planned.requests]
        out.cached += planned.cached
        out.waiting = max(out.waiting, planned.blocked)
        out.unaskable = max(out.unaskable, planned.unaskable)
        out.unaskable_reason = out.unaskable_reason or planned.unaskable_reason
    return out


def import_batch(
    request: JudgeRunRequest,
    paths: Sequence[str | os.PathLike[str]],
    *,
    progress: ProgressFactory | None = None,
    output: BatchOutput | None = None,
) -> tuple[JudgeRunResult, BatchOutput]:
    """Judge from Batch output files (OpenAI's or vLLM run_batch's) and write the run back.

    Each reply goes through the judge's parser, the cache (parsed replies
    only) and the write-back like a live reply; a failed line (an ``error``,
    a non-200 status) is an error verdict. Records with a call the files do
    not answer stay unjudged (``pending``): export again for them.
    """
    p = prepare_run(request)
    result = empty_result(p)
    out = output if output is not None else read_outputs(paths)
    if output is None and not out.lines:
        # An empty output file is a batch that did not run (or was cut off): saying
        # "0 judged" and exiting 0 would let a script carry on as if it had.
        raise InputError(
            ", ".join(map(str, paths)), "empty: no Batch result lines (did the batch run?)"
        )
    if not p.selected:
        return result, out
    if output is None:
        _refuse_foreign_output(p, out, paths)
    stats = ClientStats()
    used: set[str] = set()

    def call_for(model: str) -> Call:
        async def call(req: ChatRequest) -> ChatReply:
            key = custom_id(req, model)
            if p.cache is not None:
                entry = p.cache.get(key)
                if entry is not None:
                    stats.cached += 1
                    return ChatReply(
                        content=entry.get("content"),
                        usage=dict(entry.get("usage") or {}),
                        cached=True,
                    )
            reply = out.replies.get(key)
            if reply is None:
                raise Pending
            used.add(key)
            stats.calls += 1
            stats.prompt_tokens += reply.usage.get("prompt_tokens", 0)
            stats.completion_tokens += reply.usage.get("completion_tokens", 0)
            fresh = ChatReply(
                content=reply.content,
                usage=dict(reply.usage),
                error=reply.error,
                finish_reason=reply.finish_reason,
            )
            if reply.error is None and p.cache is not None:
                fresh.on_settle = p.cache.keeper(key, model, fresh)
            return fresh

        return call

    async def main(done: Callable[[dict[str, Any], Verdict], None]) -> int:
        return await judge_with(p, {m: call_for(m) for m in p.models}, done)

    execute_and_save(p, result, main, stats, progress)
    result.calls, result.cached, result.tokens = stats.calls, stats.cached, stats.tokens
    unmatched = len(set(out.replies) - used)
    if unmatched:
        result.warnings.append(
            f"{unmatched} line(s) of the batch output match no call of this judge, model and "
            "selection (another judge's batch, or records since changed); they were skipped"
        )
    return result, out
