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
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorers.errors import UsageError
from scorers.flags.flagging import recompute_flags
from scorers.io.results import LoadedResults, ResultsPaths
from scorers.io.runfiles import RunStamp, load_run, save_unless_changed
from scorers.judges.base import ChatRequest, Judge, JudgeOptions
from scorers.judges.cache import JudgeCache
from scorers.judges.client import ClientStats, JudgeClient
from scorers.judges.registry import get_judge
from scorers.judges.runner import apply_primary, judge_records, parse_where, plan, select
from scorers.records import Verdict, question_id, verdict_of
from scorers.review import flag_context


@dataclass(frozen=True)
class JudgeRunRequest:
    """What to judge and how; the defaults are ``rome-tui judge``'s."""

    results: str | os.PathLike[str]  # a results directory or its updated_predictions.json
    judge: str  # a name in scorers.judges.registry.JUDGE_MODULES
    model: str | None = None  # default: $OPENAI_MODEL, else the judge's protocol model
    base_url: str | None = None  # default: $OPENAI_BASE_URL, else OpenAI
    concurrency: int = 8
    timeout: float = 60.0
    max_retries: int = 5
    where: Sequence[str] = ()  # FIELD=VALUE conditions, ANDed
    parse: str = "robust"  # rome judge: "robust" or the reference's exact "rome" parser
    fence: bool = True
    vrc_answer_mode: str = "final"
    rubric: str = "default"
    use_cache: bool = True

    def checked(self) -> JudgeRunRequest:
        """Itself, or a UsageError naming the option that cannot work."""
        if self.concurrency < 1:
            raise UsageError("--concurrency must be at least 1")
        if self.timeout <= 0:
            raise UsageError("--timeout must be positive")
        if self.max_retries < 0:
            raise UsageError("--max-retries must be 0 or more")
        if self.parse == "rome" and self.judge != "rome":
            raise UsageError("--parse rome applies to --judge rome only")
        return self


class Progress(Protocol):
    def advance(self, error: bool) -> None: ...


# (records to judge, label, the client's live counters) -> a progress display
ProgressFactory = Callable[[int, str, ClientStats], AbstractContextManager[Progress]]


@dataclass
class JudgeRunResult:
    """What a judge run did; ``records`` are the ones judged (already saved)."""

    judge: str
    model: str
    paths: ResultsPaths
    selected: int
    judged: int = 0
    errors: int = 0
    interrupted: bool = False
    first_error: str | None = None  # "record ID: message" of the first error verdict
    calls: int = 0
    cached: int = 0
    retries: int = 0
    tokens: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class JudgePlan:
    """A dry run: the requests a run would send, and how many the cache already holds."""

    judge: str
    model: str
    endpoint: str
    selected: int
    requests: list[ChatRequest]
    cached: int
    prompt_chars: int
    warnings: list[str] = field(default_factory=list)


@dataclass
class _Prepared:
    judge: Judge
    opts: JudgeOptions
    loaded: LoadedResults
    read: RunStamp
    selected: list[dict[str, Any]]
    cache: JudgeCache | None


def _prepare(request: JudgeRunRequest) -> _Prepared:
    request.checked()
    conditions = parse_where(request.where)
    judge = get_judge(request.judge)
    loaded, read = load_run(request.results)
    model = request.model or os.environ.get("OPENAI_MODEL") or judge.default_model
    opts = JudgeOptions(
        model=model,
        parse=request.parse,
        fence=request.fence,
        vrc_answer_mode=request.vrc_answer_mode,
        rubric=request.rubric,
    )
    selected = select(loaded.records, conditions)
    cache = JudgeCache.beside(loaded.paths.directory) if request.use_cache else None
    return _Prepared(judge, opts, loaded, read, selected, cache)


def plan_run(request: JudgeRunRequest) -> JudgePlan:
    """The dry run of :func:`judge_run`: nothing is sent and nothing written."""
    p = _prepare(request)
    planned = asyncio.run(plan(p.selected, p.judge, p.opts))
    requests = planned.requests
    cache = p.cache
    return JudgePlan(
        judge=p.judge.name,
        model=p.opts.model,
        endpoint=request.base_url
        or os.environ.get("OPENAI_BASE_URL")
        or "https://api.openai.com/v1",
        selected=len(p.selected),
        requests=requests,
        cached=sum(1 for r in requests if cache is not None and r.cache_key(p.opts.model) in cache),
        prompt_chars=sum(r.prompt_chars() for r in requests),
        warnings=list(p.loaded.warnings),
    )


def judge_run(
    request: JudgeRunRequest, *, progress: ProgressFactory | None = None
) -> JudgeRunResult:
    """Judge the selected records of a run and write the run back.

    Every finished verdict is applied (the run's primary policy, then the
    flags) and saved, also after an interruption (``interrupted``); the rest
    is in the reply cache. ConflictError if the run changed on disk meanwhile.
    """
    p = _prepare(request)
    result = JudgeRunResult(
        judge=p.judge.name,
        model=p.opts.model,
        paths=p.loaded.paths,
        selected=len(p.selected),
        warnings=list(p.loaded.warnings),
    )
    if not p.selected:
        return result
    endpoint = request.base_url or os.environ.get("OPENAI_BASE_URL") or ""
    if not os.environ.get("OPENAI_API_KEY") and (not endpoint or "api.openai.com" in endpoint):
        raise UsageError(
            "OPENAI_API_KEY is not set: set it for OpenAI, or point --base-url / OPENAI_BASE_URL "
            "at a local server (which needs no key)"
        )
    judged = result.records
    started = time.monotonic()
    stats: ClientStats | None = None

    async def main() -> None:
        nonlocal stats
        async with JudgeClient(
            model=p.opts.model,
            base_url=request.base_url,
            concurrency=request.concurrency,
            timeout=request.timeout,
            max_retries=request.max_retries,
            cache=p.cache,
        ) as client:
            stats = client.stats
            shown: AbstractContextManager[Progress | None] = (
                progress(len(p.selected), f"judge {p.judge.name}", client.stats)
                if progress is not None
                else nullcontext()
            )
            with shown as bar:

                def done(record: dict[str, Any], verdict: Verdict) -> None:
                    judged.append(record)
                    if bar is not None:
                        bar.advance(verdict.get("error") is not None)

                await judge_records(p.selected, p.judge, p.opts, client, on_verdict=done)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        result.interrupted = True
    result.interrupted = result.interrupted or len(judged) < len(p.selected)
    ctx = flag_context(p.loaded.settings)
    for record in judged:
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
    source = f"judge:{p.judge.name}"
    for record in judged:
        verdict = verdict_of(record, source)
        error = verdict.get("error") if verdict is not None else None
        if error is not None:
            result.errors += 1
            if result.first_error is None and str(error):
                result.first_error = f"record {question_id(record)}: {str(error)[:200]}"
    result.judged = len(judged)
    result.seconds = time.monotonic() - started
    if stats is not None:
        result.calls, result.cached = stats.calls, stats.cached
        result.retries, result.tokens = stats.retries, stats.tokens
    return result
