"""``rome-tui judge``: add LLM judge verdicts to a graded run."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from typing import Any

from rome_tui.console import warn
from scorers.adjudicate.store import save_unless_changed, stamp_before_load
from scorers.errors import UsageError
from scorers.flags.flagging import FlagContext, recompute_flags
from scorers.io.results import load_results
from scorers.judges.base import JudgeOptions
from scorers.judges.cache import JudgeCache
from scorers.judges.client import ClientStats, JudgeClient
from scorers.judges.progress import JudgeProgress
from scorers.judges.registry import JUDGE_MODULES, get_judge
from scorers.judges.rubric import VARIANTS
from scorers.judges.runner import (
    apply_primary,
    judge_records,
    parse_where,
    plan,
    rough_tokens,
    select,
)
from scorers.judges.vrc_answer import MODES
from scorers.records import Verdict, question_id

DESCRIPTION = """Add LLM judge verdicts to a graded run (review.verdicts, source judge:NAME),
recompute flags and `correct` (per the run's primary policy), and rewrite the files atomically.

The endpoint is any OpenAI-compatible server: OPENAI_BASE_URL / --base-url, OPENAI_MODEL /
--model, OPENAI_API_KEY (not needed for a local server). Replies are cached in
judge_cache.jsonl beside the results, so an interrupted run resumes and a repeated run makes
no calls."""

EXAMPLES = """examples:
  rome-tui judge out/ --judge rome --where task=diagrams
  OPENAI_BASE_URL=http://127.0.0.1:8000/v1 rome-tui judge out/ --judge rubric --model qwen3 --concurrency 16
  rome-tui judge out/ --judge mathreal --dry-run
"""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "judge",
        help="add LLM judge verdicts to a graded run",
        description=DESCRIPTION,
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "results", metavar="RESULTS", help="a results directory or its updated_predictions.json"
    )
    parser.add_argument(
        "--judge", required=True, choices=list(JUDGE_MODULES), help="which judge to run"
    )
    parser.add_argument(
        "--model", help="judge model (default: OPENAI_MODEL, else the protocol's model)"
    )
    parser.add_argument(
        "--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=8, help="requests in flight at once (default 8)"
    )
    parser.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="judge only records whose FIELD equals VALUE (dotted for nested keys; repeat to AND)",
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the calls and rough tokens; send nothing"
    )
    parser.add_argument(
        "--parse",
        choices=["robust", "rome"],
        default="robust",
        help="rome judge: robust Judgement-line parser (default) or the reference's exact parser",
    )
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds per request (default 60)"
    )
    parser.add_argument(
        "--max-retries", type=int, default=5, help="retries on 429/5xx/timeouts (default 5)"
    )
    parser.add_argument(
        "--vrc-answer-mode",
        choices=MODES,
        default="final",
        help="vrc-answer: final (default) or released",
    )
    parser.add_argument(
        "--rubric", choices=VARIANTS, default="default", help="rubric questions: default or visual"
    )
    parser.add_argument(
        "--no-cache", action="store_true", help="neither read nor write the reply cache"
    )
    parser.add_argument(
        "--no-fence",
        action="store_true",
        help="send model answers unfenced (byte-for-byte protocol prompts)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.concurrency < 1:
        raise UsageError("--concurrency must be at least 1")
    if args.timeout <= 0:
        raise UsageError("--timeout must be positive")
    if args.max_retries < 0:
        raise UsageError("--max-retries must be 0 or more")
    if args.parse == "rome" and args.judge != "rome":
        raise UsageError("--parse rome applies to --judge rome only")
    conditions = parse_where(args.where)
    judge = get_judge(args.judge)
    read = stamp_before_load(args.results)
    loaded = load_results(args.results)
    for warning in loaded.warnings:
        warn("judge", warning)
    model = args.model or os.environ.get("OPENAI_MODEL") or judge.default_model
    opts = JudgeOptions(
        model=model,
        parse=args.parse,
        fence=not args.no_fence,
        vrc_answer_mode=args.vrc_answer_mode,
        rubric=args.rubric,
    )
    selected = select(loaded.records, conditions)
    if not selected:
        print(
            f"rome-tui judge: no record matches {' and '.join(args.where) or 'the run'}; nothing to do",
            file=sys.stderr,
        )
        return 0
    cache = None if args.no_cache else JudgeCache.beside(loaded.paths.directory)
    if args.dry_run:
        return _dry_run(selected, judge, opts, cache, args)

    endpoint = args.base_url or os.environ.get("OPENAI_BASE_URL") or ""
    if not os.environ.get("OPENAI_API_KEY") and (not endpoint or "api.openai.com" in endpoint):
        raise UsageError(
            "OPENAI_API_KEY is not set: set it for OpenAI, or point --base-url / OPENAI_BASE_URL "
            "at a local server (which needs no key)"
        )
    judged: list[dict[str, Any]] = []
    started = time.monotonic()
    stats: ClientStats | None = None

    async def main() -> None:
        async with JudgeClient(
            model=model,
            base_url=args.base_url,
            concurrency=args.concurrency,
            timeout=args.timeout,
            max_retries=args.max_retries,
            cache=cache,
        ) as client:
            nonlocal stats
            stats = client.stats
            with JudgeProgress(len(selected), f"judge {judge.name}", client.stats) as progress:

                def done(record: dict[str, Any], verdict: Verdict) -> None:
                    judged.append(record)
                    progress.advance(verdict.get("error") is not None)

                await judge_records(selected, judge, opts, client, on_verdict=done)

    interrupted = False
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        interrupted = True
    interrupted = interrupted or len(judged) < len(selected)
    ctx = FlagContext(
        tools_available=frozenset(loaded.settings.tools_available),
        primary_rule=loaded.settings.primary_rule,
    )
    for record in judged:
        apply_primary(record, loaded.settings, judge)
        recompute_flags(record, ctx)
    if judged:
        # The review app (or another judge run) may have written the run meanwhile.
        then = (
            f"The judge's answers are cached in {cache.path}: run the same command again "
            "to apply them to the new file without asking the judge again."
            if cache is not None
            else "Run the same command again to judge the new file."
        )
        save_unless_changed(loaded, read, then)
    errors = sum(1 for r in judged if _verdict_error(r, judge.name))
    seconds = time.monotonic() - started
    line = f"judge {judge.name} ({model}): {len(judged)}/{len(selected)} records judged, {errors} errors"
    if stats is not None:
        line += (
            f"; {stats.calls} requests, {stats.cached} cached, {stats.retries} retries, "
            f"{stats.tokens:,} tokens, {seconds:.1f} s"
        )
    print(line)
    if errors:
        print(
            f"rome-tui judge: {errors} judge error(s) recorded (flag judge_error); "
            f"first: {_first_error(judged, judge.name)}",
            file=sys.stderr,
        )
    if interrupted:
        print(
            "rome-tui judge: interrupted; finished verdicts were saved and replies cached. Run again to resume.",
            file=sys.stderr,
        )
        return 130
    return 0


def _verdict_error(record: dict[str, Any], name: str) -> str | None:
    for verdict in record.get("review", {}).get("verdicts", ()):
        if verdict.get("source") == f"judge:{name}":
            error = verdict.get("error")
            return None if error is None else str(error)
    return None


def _first_error(records: list[dict[str, Any]], name: str) -> str:
    for record in records:
        error = _verdict_error(record, name)
        if error:
            return f"record {question_id(record)}: {error[:200]}"
    return ""


def _dry_run(
    selected: list[dict[str, Any]],
    judge: Any,
    opts: JudgeOptions,
    cache: JudgeCache | None,
    args: argparse.Namespace,
) -> int:
    planned = asyncio.run(plan(selected, judge, opts))
    requests = planned.requests
    chars = sum(r.prompt_chars() for r in requests)
    cached = sum(1 for r in requests if cache is not None and r.cache_key(opts.model) in cache)
    endpoint = args.base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1"
    print(f"dry run: judge {judge.name}, model {opts.model}, endpoint {endpoint}")
    print(f"  records:        {len(selected)}")
    print(
        f"  calls:          {len(requests)} ({cached} already cached, {len(requests) - cached} to send)"
    )
    print(f"  prompt tokens:  ~{rough_tokens(chars):,} (about 4 characters per token)")
    if judge.name == "mathreal":
        print(
            "  (an answer with \\boxed{} needs no extraction call; the count assumes the rest need one)"
        )
    for request in requests[:3]:
        roles = "+".join(role for role, _ in request.messages)
        print(
            f"  e.g. {roles} message(s), {request.prompt_chars():,} chars, prompt {request.prompt_hash()}"
        )
    return 0
