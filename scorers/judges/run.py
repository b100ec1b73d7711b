"""Judging a graded run from files to files: load, select, judge, apply, flag, save.

The judge-side counterpart of :func:`scorers.grade.run.grade_files`, callable
from a notebook::

    from scorers.judges.run import judge_run
    from scorers.judges.run_request import JudgeRunRequest
    result = judge_run(JudgeRunRequest("out/", "rome", where=("task=diagrams",)))
    print(result.judged, result.errors)

``rome-tui judge`` is this plus argument parsing and a progress bar (passed in
as ``progress``: this module draws nothing). The run is written through the
same conflict check as every other writer of a run
(:func:`scorers.io.runfiles.save_unless_changed`): if the review app or another
command wrote the run meanwhile, nothing is overwritten and the judge's replies
stay in the cache, so running again costs no calls.

Where the replies come from is one choice among three, and everything after
it (parsers, cache, verdicts, panel, primary policy, flags, save) is shared:
the live client (:func:`judge_run`), a Batch output file
(``scorers.judges.batch_run``: ``import_batch``; ``export_batch`` writes the
input file), or the OpenAI Batch API round trip (``scorers.judges.batch_api``).
The request and the result are ``scorers.judges.run_request``'s; which records
are judged is ``scorers.judges.runner``'s (``select``, ``select_flagged``,
``select_errors``).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

from scorers.errors import UsageError
from scorers.flags.flagging import detectors, recompute_flags
from scorers.io.runfiles import load_run, save_unless_changed
from scorers.judges.base import Call, ChatReply, ChatRequest, Judge, JudgeOptions, Unreachable
from scorers.judges.cache import JudgeCache, check_writable
from scorers.judges.client import ClientStats, JudgeClient, warm_import
from scorers.judges.cost import Estimate, estimate, prices_for
from scorers.judges.panel import member_source, panel_verdict
from scorers.judges.registry import get_judge
from scorers.judges.run_request import (
    JudgePlan,
    JudgeRunRequest,
    JudgeRunResult,
    Progress,
    ProgressFactory,
)
from scorers.judges.runner import (
    apply_primary,
    judge_records,
    parse_where,
    plan,
    select,
    select_errors,
    select_flagged,
)
from scorers.records import Verdict, item_id, set_verdict, verdict_of
from scorers.review import flag_context


@dataclass
class PreparedRun:
    """A run loaded and its records selected: what the live run, the dry run and the
    Batch files (``scorers.judges.batch_run``) start from."""

    judge: Judge
    models: list[str]
    opts: dict[str, JudgeOptions]  # per model
    loaded: Any
    read: Any
    selected: list[dict[str, Any]]
    cache: JudgeCache | None

    @property
    def panel(self) -> bool:
        return len(self.models) > 1

    def source(self, model: str) -> str:
        return member_source(self.judge.name, model) if self.panel else f"judge:{self.judge.name}"

    @property
    def label(self) -> str:
        return ",".join(self.models)


def prepare_run(request: JudgeRunRequest) -> PreparedRun:
    """Check the request, load the run and select the records to judge."""
    request.checked()
    conditions = parse_where(request.where)
    judge = get_judge(request.judge)
    loaded, read = load_run(request.results)
    models = request.model_names(judge)
    opts = {
        model: JudgeOptions(
            model=model,
            parse=request.parse,
            fence=request.fence,
            vrc_answer_mode=request.vrc_answer_mode,
            rubric=request.rubric,
        )
        for model in models
    }
    if request.images:
        loaded.settings.images = request.images
    selected = select(loaded.records, conditions)
    if request.flagged is not None or request.low_confidence:
        selected = select_flagged(
            selected, request.flagged or (), low_confidence=request.low_confidence
        )
    if request.retry_errors:
        sources = [f"judge:{judge.name}"] + [member_source(judge.name, m) for m in models]
        selected = select_errors(selected, sources)
    cache = JudgeCache.beside(loaded.paths.directory) if request.use_cache and selected else None
    return PreparedRun(judge, models, opts, loaded, read, selected, cache)


# --- dry run -------------------------------------------------------------------------------


def plan_run(request: JudgeRunRequest) -> JudgePlan:
    """The dry run of :func:`judge_run`: nothing is sent and nothing written."""
    p = prepare_run(request)
    requests: list[ChatRequest] = []
    cached = unaskable = 0
    reason: str | None = None
    total: Estimate | None = None
    for model in p.models:
        planned = asyncio.run(plan(p.selected, p.judge, p.opts[model], p.cache))
        requests += planned.requests
        cached += planned.cached
        unaskable = max(unaskable, planned.unaskable)  # the same records for every member
        reason = reason or planned.unaskable_reason
        prices = prices_for(model, request.price_in, request.price_out)
        part = estimate(
            planned.requests, judge=p.judge.name, model=model, cache=p.cache, prices=prices
        )
        total = part if total is None else total + part
    return JudgePlan(
        judge=p.judge.name,
        model=p.label,
        endpoint=request.endpoint(),
        selected=len(p.selected),
        requests=requests,
        cached=cached,
        prompt_chars=sum(r.prompt_chars() for r in requests),
        estimate=total,
        warnings=list(p.loaded.warnings),
        unaskable=unaskable,
        unaskable_reason=reason,
    )


# --- live run ------------------------------------------------------------------------------


def judge_run(
    request: JudgeRunRequest, *, progress: ProgressFactory | None = None
) -> JudgeRunResult:
    """Judge the selected records of a run and write the run back.

    Every finished verdict is applied (the run's primary policy, then the
    flags) and saved, also after an interruption (``interrupted``); the rest
    is in the reply cache. ConflictError if the run changed on disk meanwhile.
    """
    warm_import()  # the openai SDK, while the run loads
    p = prepare_run(request)
    result = empty_result(p)
    if not p.selected:
        return result
    check_writable(p.loaded.paths.directory)
    if request.missing_api_key():
        raise UsageError(
            "OPENAI_API_KEY is not set: set it for OpenAI, or point --base-url / OPENAI_BASE_URL "
            "at a local server (which needs no key)"
        )
    stats = ClientStats()

    async def main(done: Callable[[dict[str, Any], Verdict], None]) -> None:
        clients = [
            JudgeClient(
                model=model,
                base_url=request.base_url,
                concurrency=request.concurrency,
                timeout=request.timeout,
                max_retries=request.max_retries,
                cache=p.cache,
                rpm=request.rpm,
                tpm=request.tpm,
                stats=stats,
            )
            for model in p.models
        ]
        try:
            await judge_with(p, {c.model: _stop_if_unreachable(c) for c in clients}, done)
        finally:
            for client in clients:
                await client.aclose()

    execute_and_save(p, result, main, stats, progress)
    result.calls, result.cached = stats.calls, stats.cached
    result.retries, result.tokens, result.throttled = stats.retries, stats.tokens, stats.throttled
    return result


def _stop_if_unreachable(client: JudgeClient) -> Call:
    """The client's call, raising :class:`Unreachable` once a call was refused before the
    endpoint ever answered: nothing listens there, and every other call would fail alike."""

    async def call(request: ChatRequest) -> ChatReply:
        reply = await client(request)
        if reply.error is not None and client.unreachable is not None:
            raise Unreachable(
                f"{reply.error}; nothing was written to the run"
                + (
                    " (replies already cached stay in the cache)"
                    if client.cache is not None
                    else ""
                )
            )
        return reply

    return call


def empty_result(p: PreparedRun) -> JudgeRunResult:
    """The result of a run before any reply: the selection and the load's warnings."""
    return JudgeRunResult(
        judge=p.judge.name,
        model=p.label,
        paths=p.loaded.paths,
        selected=len(p.selected),
        warnings=list(p.loaded.warnings),
    )


async def judge_with(
    p: PreparedRun, calls: dict[str, Call], done: Callable[[dict[str, Any], Verdict], None]
) -> int:
    """Judge the selected records with each model's call function; the records left pending."""
    outcomes = await asyncio.gather(
        *(
            judge_records(
                p.selected, p.judge, p.opts[model], call, on_verdict=done, source=p.source(model)
            )
            for model, call in calls.items()
        )
    )
    return max((o.pending for o in outcomes), default=0)


def execute_and_save(
    p: PreparedRun,
    result: JudgeRunResult,
    main: Callable[[Callable[[dict[str, Any], Verdict], None]], Any],
    stats: ClientStats,
    progress: ProgressFactory | None,
) -> None:
    """Run ``main`` (which judges, reporting each verdict), then apply, flag and save."""
    started = time.monotonic()
    # The flag detectors take about half a second to import; do it in a thread while
    # the run waits on the network, not after the last reply.
    warm = threading.Thread(target=detectors, name="import-detectors", daemon=True)
    warm.start()
    touched: dict[int, dict[str, Any]] = {}  # id(record) -> record, in the order judged
    written: list[Verdict] = []
    shown: AbstractContextManager[Progress | None] = (
        progress(len(p.selected) * len(p.models), f"judge {p.judge.name}", stats)
        if progress is not None
        else nullcontext()
    )
    with shown as bar:
        ctx = flag_context(p.loaded.settings)
        settled: set[int] = set()

        def done(record: dict[str, Any], verdict: Verdict) -> None:
            touched.setdefault(id(record), record)
            written.append(verdict)
            if not p.panel:
                # Applied while the other calls are in flight: the event loop is
                # idle most of the time, and this CPU is then off the critical path.
                apply_primary(record, p.loaded.settings, p.judge)
                recompute_flags(record, ctx)
                settled.add(id(record))
            if bar is not None:
                bar.advance(verdict.get("error") is not None)

        try:
            pending = asyncio.run(main(done))
        except KeyboardInterrupt:
            result.interrupted = True
            pending = 0
    result.pending = pending or 0
    judged = list(touched.values())
    complete = len(judged)
    if p.panel:
        fresh = {id(v) for v in written}
        complete = sum(_apply_panel(p, r, fresh) for r in judged)
    # Fewer verdicts than records, with nothing pending, means the run was cut short.
    result.interrupted = result.interrupted or (result.pending == 0 and complete < len(p.selected))
    warm.join()
    for record in judged:
        if id(record) not in settled:
            apply_primary(record, p.loaded.settings, p.judge)
            recompute_flags(record, ctx)
    if judged:
        then = (
            f"The judge's answers are cached in {p.cache.path}: run the same command again "
            "to apply them to the new file without asking the judge again."
            if p.cache is not None
            else "Run the same command again to judge the new file."
        )
        save_unless_changed(p.loaded, p.read, then)
    result.records = judged
    result.judged = complete
    for record in judged:
        for model in p.models if p.panel else ():
            _count(result, record, member_source(p.judge.name, model))
        _count(result, record, f"judge:{p.judge.name}")
    result.seconds = time.monotonic() - started


def _count(result: JudgeRunResult, record: dict[str, Any], source: str) -> None:
    verdict = verdict_of(record, source)
    if verdict is None:
        return
    result.verdicts += 1  # counted as errors are, so "N of M failed" has N <= M
    error = verdict.get("error")
    if error is not None:
        result.errors += 1
        if result.first_error is None and str(error):
            result.first_error = f"record {item_id(record)}: {source}: {str(error)[:200]}"


def _apply_panel(p: PreparedRun, record: dict[str, Any], fresh: set[int]) -> bool:
    """Set the panel verdict once every member judged the record this run."""
    members: list[tuple[str, Verdict]] = []
    for model in p.models:
        verdict = verdict_of(record, member_source(p.judge.name, model))
        if verdict is None or id(verdict) not in fresh:
            return False
        members.append((model, verdict))
    set_verdict(record, panel_verdict(p.judge.name, members))
    return True
