"""``rome-tui judge``: add LLM judge verdicts to a graded run."""

from __future__ import annotations

import argparse
import math
import sys
from shlex import quote
from typing import Any

from rome_tui.commands.image_option import add_images_option, images_dir
from rome_tui.console import warn
from scorers.errors import UsageError
from scorers.judges.batch_run import export_batch, import_batch
from scorers.judges.batchfile import BatchOutput
from scorers.judges.registry import JUDGE_MODULES
from scorers.judges.rubric import VARIANTS
from scorers.judges.run import judge_run, plan_run
from scorers.judges.run_request import JudgePlan, JudgeRunRequest, JudgeRunResult
from scorers.judges.vrc_answer import MODES
from scorers.records import verdict_of
from scorers.review import NOT_CORRECTNESS_JUDGES

# Some judge calls failed: their items hold error verdicts (flag judge_error), the rest
# were judged and saved. Not 1, which means a bug.
JUDGE_ERRORS_EXIT = 5

DESCRIPTION = """Add LLM judge verdicts to a graded run (review.verdicts, source judge:NAME),
recompute flags and `correct` (per the run's primary policy), and rewrite the files atomically.

The endpoint is any OpenAI-compatible server: OPENAI_BASE_URL / --base-url, OPENAI_MODEL /
--model, OPENAI_API_KEY (not needed for a local server). Replies that parsed are cached in
judge_cache.jsonl beside the results, so an interrupted run resumes and a repeated run makes
no calls. Exit status 0 when every call was judged (or no record matched the selection), 5
when some failed (their items carry a judge_error flag; --retry-errors asks them again), 2 on
bad options or when nothing answers at the endpoint, or it answers 404 or a web page before
any reply (a --base-url without /v1, an unknown --model, a proxy; nothing is written), 130
when interrupted."""

EXAMPLES = """examples:
  rome-tui judge out/ --judge rome --dry-run --price-in 0.4 --price-out 1.6
  rome-tui judge out/ --judge rome --where task=diagrams --rpm 500 --tpm 200000
  OPENAI_BASE_URL=http://127.0.0.1:8000/v1 rome-tui judge out/ --judge rubric --model qwen3 --concurrency 16
  rome-tui judge out/ --judge vrc-answer --models gpt-4o-mini,gpt-4.1-mini,gpt-4.1-nano
  rome-tui judge out/ --judge rome --flagged rule_uncertain # what strict mode could not decide
  rome-tui judge out/ --judge rome --flagged                # only items with a heuristic flag
  rome-tui judge out/ --judge rubric --flagged --low-confidence   # the doubtful flags only
  rome-tui judge out/ --judge mathreal --batch-export calls.jsonl   # then vLLM run_batch or OpenAI
  rome-tui judge out/ --judge mathreal --batch-import results.jsonl
  rome-tui judge out/ --judge rome --batch                  # OpenAI Batch API, half price
"""


def _kinds(text: str) -> list[str]:
    return [k.strip() for k in text.split(",") if k.strip()]


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
        "--models",
        type=_kinds,
        metavar="A,B,C",
        help="a judge panel: each model's verdict is kept as judge:NAME@MODEL, the panel's "
        "(majority, or mean for graded scales) as judge:NAME",
    )
    parser.add_argument(
        "--base-url", help="OpenAI-compatible endpoint (default: OPENAI_BASE_URL, else OpenAI)"
    )
    parser.add_argument(
        "--concurrency",
        type=int,
        default=8,
        help="requests in flight at once (default 8; halves on 429, then creeps back)",
    )
    parser.add_argument(
        "--rpm", type=float, metavar="N", help="at most N requests a minute (per model)"
    )
    parser.add_argument(
        "--tpm",
        type=float,
        metavar="N",
        help="at most about N tokens a minute (per model; prompt estimate + max_tokens)",
    )
    parser.add_argument(
        "--where",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="judge only records whose FIELD equals VALUE (dotted for nested keys; repeat to AND)",
    )
    parser.add_argument(
        "--flagged",
        nargs="?",
        const="",
        type=str,
        metavar="KIND,...",
        help="judge only items carrying one of these flags (no list: any heuristic flag)",
    )
    parser.add_argument(
        "--low-confidence",
        action="store_true",
        help="with --flagged: only flags the heuristics mark low-confidence (an innocent "
        "reading they cannot rule out)",
    )
    parser.add_argument(
        "--retry-errors",
        action="store_true",
        help="judge only items whose earlier verdict of this judge is an error",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the calls, estimated tokens and cost; send nothing",
    )
    parser.add_argument(
        "--price-in",
        type=float,
        metavar="USD",
        help="dry run: dollars per million input tokens (else [prices.MODEL] in the config)",
    )
    parser.add_argument(
        "--price-out", type=float, metavar="USD", help="dry run: dollars per million output tokens"
    )
    batch = parser.add_mutually_exclusive_group()
    batch.add_argument(
        "--batch-export",
        metavar="FILE.jsonl",
        help="write the uncached calls in the OpenAI Batch input format (also vLLM run_batch's); "
        "send nothing",
    )
    batch.add_argument(
        "--batch-import",
        metavar="FILE.jsonl",
        action="append",
        help="judge from Batch output files (OpenAI's or vLLM run_batch's; repeatable)",
    )
    batch.add_argument(
        "--batch",
        action="store_true",
        help="round trip through the OpenAI Files and Batches endpoints (half price; resumable)",
    )
    parser.add_argument(
        "--batch-id", help="--batch: resume this batch instead of the one in judge_batch.json"
    )
    parser.add_argument(
        "--poll",
        type=float,
        default=30.0,
        metavar="S",
        help="--batch: seconds between status checks (default 30)",
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
        "--max-retries",
        type=int,
        default=5,
        help="retries on 429/5xx/timeouts/empty replies (default 5)",
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
        "--fence",
        action="store_true",
        help="wrap model answers in nonce tags (default: the published prompts byte for byte)",
    )
    add_images_option(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.models is not None and args.model:
        raise UsageError("give --model or --models, not both")
    if args.models is not None and len(args.models) < 2:
        raise UsageError("--models needs at least two models (a panel); use --model for one")
    if args.batch_id and not args.batch:
        raise UsageError("--batch-id goes with --batch")
    if not (args.poll > 0 and math.isfinite(args.poll)):  # float() takes 'nan' and 'inf'
        raise UsageError(f"--poll must be a positive number of seconds, got {args.poll}")
    if args.dry_run and (args.batch or args.batch_import):
        raise UsageError("--dry-run sends nothing: use it without --batch / --batch-import")
    request = JudgeRunRequest(
        results=args.results,
        judge=args.judge,
        model=args.model,
        models=tuple(args.models or ()),
        base_url=args.base_url,
        concurrency=args.concurrency,
        timeout=args.timeout,
        max_retries=args.max_retries,
        rpm=args.rpm,
        tpm=args.tpm,
        where=tuple(args.where),
        flagged=None if args.flagged is None else tuple(_kinds(args.flagged)),
        low_confidence=args.low_confidence,
        retry_errors=args.retry_errors,
        parse=args.parse,
        fence=args.fence,
        vrc_answer_mode=args.vrc_answer_mode,
        rubric=args.rubric,
        use_cache=not args.no_cache,
        price_in=args.price_in,
        price_out=args.price_out,
        images=images_dir(args.images),
    )
    if args.dry_run:
        return _dry_run(plan_run(request), args)
    if args.batch_export:
        return _export(request, args)
    if args.batch_import:
        result, out = import_batch(request, args.batch_import, progress=_progress())
        print(
            f"batch import: {out.lines} result lines ({out.failed} failed) "
            f"from {', '.join(args.batch_import)}"
        )
        return _report(result, args, batch=True)
    if args.batch:
        return _batch(request, args)
    result = judge_run(request, progress=_progress())
    return _report(result, args)


def _progress() -> Any:
    """The progress bar on a terminal; in a pipe or a log, a plain line a minute (no Rich)."""
    if not sys.stderr.isatty():
        from rome_tui.render.judge_log import JudgeLogLines

        return JudgeLogLines
    from rome_tui.render.judge_progress import JudgeProgress

    return JudgeProgress


def _report(result: JudgeRunResult, args: argparse.Namespace, *, batch: bool = False) -> int:
    for warning in result.warnings:
        warn("judge", warning)
    if not result.selected:
        return _nothing_selected(args)
    line = (
        f"judge {result.judge} ({result.model}): {result.judged}/{result.selected} records "
        f"judged, {result.errors} error{'' if result.errors == 1 else 's'}; {result.calls} "
        f"{'replies' if batch else 'requests'}, {result.cached} cached"
    )
    if not batch:
        line += f", {result.retries} retries"
        if result.throttled:
            line += f", {result.throttled} throttled (429)"
    line += f", {result.tokens:,} tokens, {result.seconds:.1f} s"
    print(line)
    if result.records and result.judge not in NOT_CORRECTNESS_JUDGES:
        # where the judge says otherwise than the rule: what it was asked for
        source = f"judge:{result.judge}"
        verdicts = [(r, verdict_of(r, source)) for r in result.records]
        answered = [r for r, v in verdicts if v is not None and not v.get("error")]
        split = sum(
            any(
                f.get("kind") == "rule_judge_disagree" and f.get("source") == source
                for f in (r.get("review") or {}).get("flags") or ()
            )
            for r in answered
        )
        if answered:  # over the items the judge answered: an error verdict disagrees with none
            print(
                f"judge and rule disagree on {split} of {len(answered)} items"
                + (
                    f": rome-tui review {quote(args.results)} --filter flag:rule_judge_disagree"
                    if split
                    else ""
                )
            )
    if result.judge == "rubric" and result.records:
        # the items a person settles first: where the rubric and the heuristics disagree
        from scorers.judges.flags import DISAGREE_KIND  # (loaded by the run's flagging)

        split = sum(
            any(f.get("kind") == DISAGREE_KIND for f in (r.get("review") or {}).get("flags") or ())
            for r in result.records
        )
        print(
            f"rubric and heuristic flags disagree on {split} of {len(result.records)} items"
            + (
                f": rome-tui review {quote(args.results)} --filter flag:{DISAGREE_KIND}"
                if split
                else ""
            )
        )
    if result.pending:
        print(
            f"rome-tui judge: {result.pending} record(s) wait for calls the batch did not hold "
            "(a second step, or calls not exported): run --batch-export again for them",
            file=sys.stderr,
        )
    if result.interrupted:
        print(
            "rome-tui judge: interrupted; finished verdicts were saved and replies cached. Run again to resume.",
            file=sys.stderr,
        )
        return 130
    if result.errors:
        print(
            f"rome-tui judge: {result.errors} of {result.verdicts} judgements failed "
            f"(flag judge_error; first: {result.first_error or ''}); "
            "--retry-errors asks them again",
            file=sys.stderr,
        )
        return JUDGE_ERRORS_EXIT
    return 0


def _nothing_selected(args: argparse.Namespace) -> int:
    what = " and ".join(args.where) or "the run"
    if args.flagged is not None or args.low_confidence:
        low = "low-confidence " if args.low_confidence else ""
        kinds = " or ".join(_kinds(args.flagged or ""))
        what += f" with a {low}flag {kinds}" if kinds else f" with a {low}heuristic flag"
    if args.retry_errors:
        what += " with an earlier judge error"
    print(f"rome-tui judge: no record matches {what}; nothing to do", file=sys.stderr)
    return 0


def _export(request: JudgeRunRequest, args: argparse.Namespace) -> int:
    exported = export_batch(request, args.batch_export)
    if not exported.selected:
        return _nothing_selected(args)
    if exported.lines:
        print(
            f"batch export: {exported.lines} request lines written to {exported.path} "
            f"({exported.cached} calls already cached)"
        )
    elif exported.cached:  # an empty input file is no batch (OpenAI refuses it): say why
        print(
            f"batch export: nothing to export, no file written: the cache answers all "
            f"{exported.cached} calls; without --batch-export, rome-tui judge "
            f"{quote(args.results)} --judge {args.judge}{_model_options(request)} "
            "writes their verdicts from it without a call"
        )
    else:
        print("batch export: nothing to export, no file written: no call to make")
    if exported.unaskable:
        print(f"  not askable: {_unaskable(exported.unaskable, exported.unaskable_reason)}")
    if exported.lines:
        print(
            "  run them with the OpenAI Batch API, or on a GPU node with\n"
            f"    python -m vllm.entrypoints.openai.run_batch -i {exported.path} -o results.jsonl "
            # A panel's lines name several models: one vLLM server cannot serve them all.
            f"--model {request.model if request.model and not request.models else 'MODEL'}\n"
            f"  then: rome-tui judge {args.results} --judge {args.judge} --batch-import results.jsonl"
            + _model_options(request)
        )
    return 0


def _model_options(request: JudgeRunRequest) -> str:
    return (f" --models {','.join(request.models)}" if request.models else "") + (
        f" --model {request.model}" if request.model else ""
    )


def _unaskable(count: int, reason: str | None) -> str:
    # Said before anything is sent: otherwise "0 calls" is all a user sees until a live
    # run gives each of these records an error verdict.
    return f"{count} record(s) the judge cannot be asked about ({reason}); a run marks them judge_error"


def _batch(request: JudgeRunRequest, args: argparse.Namespace) -> int:
    # Imported here: the Batch API goes through the openai SDK, which a live run never loads.
    from scorers.judges.batch_api import STATE_NAME, BatchStatus, run_batch

    shown: dict[str, tuple[str, int, int]] = {}

    def status(s: BatchStatus) -> None:
        now = (s.status, s.completed, s.failed)
        if shown.get(s.id) != now:
            shown[s.id] = now
            print(
                f"batch {s.id}: {s.status}, {s.completed}/{s.total} done, {s.failed} failed",
                file=sys.stderr,
                flush=True,
            )

    def event(message: str) -> None:
        print(f"rome-tui judge: {message}", file=sys.stderr, flush=True)

    try:
        done = run_batch(
            request,
            poll_seconds=args.poll,
            batch_id=args.batch_id,
            on_status=status,
            on_event=event,
            progress=_progress(),
        )
    except KeyboardInterrupt:
        print(
            "rome-tui judge: interrupted while the batch runs at the provider; run the same "
            f"command again to resume it (its id is in {STATE_NAME})",
            file=sys.stderr,
        )
        return 130
    if done.nothing_to_send:
        print("batch: every call is already cached; applying the cached replies")
        return _report(judge_run_cached(request), args, batch=True)
    last = done.last
    if last is None:
        return 0
    return _report(last, args, batch=True)


def judge_run_cached(request: JudgeRunRequest) -> JudgeRunResult:
    """Apply cached replies only (nothing to send): an import of an empty output."""
    result, _ = import_batch(request, [], output=BatchOutput({}, 0, 0))
    return result


def _money(dollars: float) -> str:
    return f"${dollars:,.2f}" if dollars >= 1 else f"${dollars:,.4f}"


def _dry_run(planned: JudgePlan, args: argparse.Namespace) -> int:
    for warning in planned.warnings:
        warn("judge", warning)
    if not planned.selected:
        return _nothing_selected(args)
    requests = planned.requests
    print(f"dry run: judge {planned.judge}, model {planned.model}, endpoint {planned.endpoint}")
    print(f"  records:        {planned.selected}")
    print(f"  calls:          {len(requests)} to send ({planned.cached} already cached)")
    if planned.unaskable:
        print(f"  not askable:    {_unaskable(planned.unaskable, planned.unaskable_reason)}")
    est = planned.estimate
    if est is not None:
        print(f"  input tokens:   ~{est.input_tokens:,} (about 4 characters per token)")
        print(f"  output tokens:  ~{est.output_tokens:,} ({est.output_basis})")
        if est.dollars is not None:
            print(
                f"  cost:           ~{_money(est.dollars)} at the prices from {est.price_source}; "
                f"the Batch API (--batch) charges half: ~{_money(est.dollars / 2)}"
            )
        else:
            print(
                "  cost:           give --price-in/--price-out (dollars per million tokens) "
                'or [prices."MODEL"] in the config file'
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
