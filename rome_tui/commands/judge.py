"""``rome-tui judge``: add LLM judge verdicts to a graded run."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rome_tui.console import warn
from scorers.judges.progress import JudgeProgress
from scorers.judges.registry import JUDGE_MODULES
from scorers.judges.rubric import VARIANTS
from scorers.judges.run import JudgePlan, JudgeRunRequest, judge_run, plan_run
from scorers.judges.runner import rough_tokens
from scorers.judges.vrc_answer import MODES

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
    request = JudgeRunRequest(
        results=args.results,
        judge=args.judge,
        model=args.model,
        base_url=args.base_url,
        concurrency=args.concurrency,
        timeout=args.timeout,
        max_retries=args.max_retries,
        where=tuple(args.where),
        parse=args.parse,
        fence=not args.no_fence,
        vrc_answer_mode=args.vrc_answer_mode,
        rubric=args.rubric,
        use_cache=not args.no_cache,
    )
    if args.dry_run:
        return _dry_run(plan_run(request), args)
    result = judge_run(request, progress=JudgeProgress)
    for warning in result.warnings:
        warn("judge", warning)
    if not result.selected:
        return _nothing_selected(args)
    line = (
        f"judge {result.judge} ({result.model}): {result.judged}/{result.selected} records "
        f"judged, {result.errors} errors; {result.calls} requests, {result.cached} cached, "
        f"{result.retries} retries, {result.tokens:,} tokens, {result.seconds:.1f} s"
    )
    print(line)
    if result.errors:
        print(
            f"rome-tui judge: {result.errors} judge error(s) recorded (flag judge_error); "
            f"first: {result.first_error or ''}",
            file=sys.stderr,
        )
    if result.interrupted:
        print(
            "rome-tui judge: interrupted; finished verdicts were saved and replies cached. Run again to resume.",
            file=sys.stderr,
        )
        return 130
    return 0


def _nothing_selected(args: argparse.Namespace) -> int:
    print(
        f"rome-tui judge: no record matches {' and '.join(args.where) or 'the run'}; nothing to do",
        file=sys.stderr,
    )
    return 0


def _dry_run(planned: JudgePlan, args: argparse.Namespace) -> int:
    for warning in planned.warnings:
        warn("judge", warning)
    if not planned.selected:
        return _nothing_selected(args)
    requests = planned.requests
    print(f"dry run: judge {planned.judge}, model {planned.model}, endpoint {planned.endpoint}")
    print(f"  records:        {planned.selected}")
    print(
        f"  calls:          {len(requests)} ({planned.cached} already cached, "
        f"{len(requests) - planned.cached} to send)"
    )
    print(
        f"  prompt tokens:  ~{rough_tokens(planned.prompt_chars):,} (about 4 characters per token)"
    )
    if planned.judge == "mathreal":
        print(
            "  (an answer with \\boxed{} needs no extraction call; the count assumes the rest need one)"
        )
    for request in requests[:3]:
        roles = "+".join(role for role, _ in request.messages)
        print(
            f"  e.g. {roles} message(s), {request.prompt_chars():,} chars, prompt {request.prompt_hash()}"
        )
    return 0
