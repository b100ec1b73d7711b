"""Judging a graded run from files to files: load, select, judge, apply, flag, save.

The judge-side counterpart of :func:`scorers.grade.run.grade_files`, callable
from a notebook::

    from scorers.judges.run import JudgeRunRequest, judge_run
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
(:func:`import_batch`; :func:`export_batch` writes the input file), or the
OpenAI Batch API round trip (``scorers.judges.batch_api``).
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorers.errors import InputError, UsageError
from scorers.flags.flagging import detectors, recompute_flags
from scorers.io.run_paths import ResultsPaths
from scorers.io.runfiles import load_run, save_unless_changed
from scorers.judges.base import (
    Call,
    ChatReply,
    ChatRequest,
    Judge,
    JudgeOptions,
    Pending,
    Unreachable,
)
from scorers.judges.batchfile import BatchOutput, custom_id, read_outputs, write_requests
from scorers.judges.cache import JudgeCache, check_writable
from scorers.judges.client import ClientStats, JudgeClient, warm_import
from scorers.judges.cost import Estimate, estimate, prices_for
from scorers.judges.panel import member_source, panel_verdict
from scorers.judges.registry import get_judge
from scorers.judges.runner import apply_primary, judge_records, parse_where, plan, select
from scorers.records import (
    FLAG_KINDS,
    HEURISTIC_FLAG_KINDS,
    Verdict,
    item_id,
    set_verdict,
    verdict_of,
)
from scorers.review import flag_context


@dataclass(frozen=True)
class JudgeRunRequest:
    """What to judge and how; the defaults are ``rome-tui judge``'s."""

    results: str | os.PathLike[str]  # a results directory or its updated_predictions.json
    judge: str  # a name in scorers.judges.registry.JUDGE_MODULES
    model: str | None = None  # default: $OPENAI_MODEL, else the judge's protocol model
    models: Sequence[str] = ()  # a judge panel: several models (overrides ``model``)
    base_url: str | None = None  # default: $OPENAI_BASE_URL, else OpenAI
    concurrency: int = 8
    timeout: float = 60.0
    max_retries: int = 5
    rpm: float | None = None  # requests per minute (a token bucket), per model
    tpm: float | None = None  # estimated tokens per minute, per model
    where: Sequence[str] = ()  # FIELD=VALUE conditions, ANDed
    flagged: Sequence[str] | None = None  # only items with these flag kinds ([] = any heuristic)
    low_confidence: bool = False  # ... and only where the flag's confidence is "low"
    retry_errors: bool = False  # only items whose earlier verdict of this judge is an error
    parse: str = "robust"  # rome judge: "robust" or the reference's exact "rome" parser
    fence: bool = False  # wrap model text in nonce tags (off: the published prompts verbatim)
    vrc_answer_mode: str = "final"
    rubric: str = "default"
    use_cache: bool = True
    price_in: float | None = None  # dollars per million input tokens (dry run)
    price_out: float | None = None  # dollars per million output tokens (dry run)
    images: str | None = None  # --images DIR: kept in run.json for the review app (not sent)

    def checked(self) -> JudgeRunRequest:
        """Itself, or a UsageError naming the option that cannot work."""
        if self.concurrency < 1:
            raise UsageError("--concurrency must be at least 1")
        # `not (x > 0)` and isfinite: argparse's float() takes 'nan' and 'inf', which
        # pass every comparison written the other way round.
        if not (self.timeout > 0 and math.isfinite(self.timeout)):
            raise UsageError(f"--timeout must be a positive number of seconds, got {self.timeout}")
        if self.max_retries < 0:
            raise UsageError("--max-retries must be 0 or more")
        if self.parse == "rome" and self.judge != "rome":
            raise UsageError("--parse rome applies to --judge rome only")
        for name, value in (("--rpm", self.rpm), ("--tpm", self.tpm)):
            if value is not None and not (value > 0 and math.isfinite(value)):
                raise UsageError(f"{name} must be positive, got {value}")
        for name, value in (("--price-in", self.price_in), ("--price-out", self.price_out)):
            if value is not None and not (value >= 0 and math.isfinite(value)):
                raise UsageError(
                    f"{name} must be 0 or more (dollars per million tokens), got {value}"
                )
        if len(set(self.models)) != len(self.models):
            raise UsageError("--models lists a model twice")
        if any(not m.strip() or "," in m for m in self.models):
            raise UsageError("--models takes model names separated by commas, e.g. A,B,C")
        unknown = [k for k in self.flagged or () if k not in FLAG_KINDS]
        if unknown:
            raise UsageError(
                f"--flagged: unknown flag kind {unknown[0]!r}; kinds: {', '.join(FLAG_KINDS)}"
            )
        return self

    def model_names(self, judge: Judge) -> list[str]:
        if self.models:
            return list(self.models)
        return [self.model or os.environ.get("OPENAI_MODEL") or judge.default_model]

    def endpoint(self) -> str:
        return self.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"


class Progress(Protocol):
    def advance(self, error: bool) -> None: ...


# (calls to judge, label, the clients' live counters) -> a progress display
ProgressFactory = Callable[[int, str, ClientStats], AbstractContextManager[Progress]]


@dataclass
class JudgeRunResult:
    """What a judge run did; ``records`` are the ones judged (already saved)."""

    judge: str
    model: str  # the model, or "A,B,C" for a panel
    paths: ResultsPaths
    selected: int
    judged: int = 0  # records given a verdict (the panel's, for a panel)
    errors: int = 0  # verdicts written with an error (every member of a panel counts)
    verdicts: int = 0  # verdicts written (members and panel)
    pending: int = 0  # records with a call not answered yet (batch import: export again)
    interrupted: bool = False
    first_error: str | None = None  # "record ID: message" of the first error verdict
    calls: int = 0
    cached: int = 0
    retries: int = 0
    throttled: int = 0
    tokens: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class JudgePlan:
    """A dry run: the requests a run would send, how many the cache holds, what they cost."""

    judge: str
    model: str
    endpoint: str
    selected: int
    requests: list[ChatRequest]
    cached: int
    prompt_chars: int
    estimate: Estimate | None = None
    warnings: list[str] = field(default_factory=list)
    unaskable: int = 0  # records that get an error verdict without a call (runner.Plan)
    unaskable_reason: str | None = None


@dataclass
class _Prepared:
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


def prepare_run(request: JudgeRunRequest) -> _Prepared:
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
    return _Prepared(judge, models, opts, loaded, read, selected, cache)


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
    result = _result_of(p)
    if not p.selected:
        return result
    check_writable(p.loaded.paths.directory)
    endpoint = request.base_url or os.environ.get("OPENAI_BASE_URL") or ""
    if not os.environ.get("OPENAI_API_KEY") and (not endpoint or "api.openai.com" in endpoint):
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
            await _judge_with(p, {c.model: _stop_if_unreachable(c) for c in clients}, done)
        finally:
            for client in clients:
                await client.aclose()

    _execute(p, result, main, stats, progress)
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


def _result_of(p: _Prepared) -> JudgeRunResult:
    return JudgeRunResult(
        judge=p.judge.name,
        model=p.label,
        paths=p.loaded.paths,
        selected=len(p.selected),
        warnings=list(p.loaded.warnings),
    )


async def _judge_with(
    p: _Prepared, calls: dict[str, Call], done: Callable[[dict[str, Any], Verdict], None]
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


def _execute(
    p: _Prepared,
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


def _apply_panel(p: _Prepared, record: dict[str, Any], fresh: set[int]) -> bool:
    """Set the panel verdict once every member judged the record this run."""
    members: list[tuple[str, Verdict]] = []
    for model in p.models:
        verdict = verdict_of(record, member_source(p.judge.name, model))
        if verdict is None or id(verdict) not in fresh:
            return False
        members.append((model, verdict))
    set_verdict(record, panel_verdict(p.judge.name, members))
    return True


# --- Batch files ---------------------------------------------------------------------------


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
    """Write the OpenAI Batch input file of every call the cache does not answer yet.

    A judge whose second call depends on the first reply (mathreal's
    extraction, then its judge) exports the first now; after the import, the
    next export holds the second.
    """
    p = prepare_run(request)
    uncached = collect_uncached(p)
    lines = write_requests(path, uncached.calls)
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
    p: _Prepared, out: BatchOutput, paths: Sequence[str | os.PathLike[str]]
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


def collect_uncached(p: _Prepared) -> Uncached:
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
    result = _result_of(p)
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
        return await _judge_with(p, {m: call_for(m) for m in p.models}, done)

    _execute(p, result, main, stats, progress)
    result.calls, result.cached, result.tokens = stats.calls, stats.cached, stats.tokens
    unmatched = len(set(out.replies) - used)
    if unmatched:
        result.warnings.append(
            f"{unmatched} line(s) of the batch output match no call of this judge, model and "
            "selection (another judge's batch, or records since changed); they were skipped"
        )
    return result, out
