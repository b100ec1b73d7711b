"""``rome-tui grade``: the reference grader's command line, plus modes and a results directory."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from rome_tui.commands.image_option import add_images_option, images_dir
from rome_tui.console import printable, warn
from scorers.errors import UsageError
from scorers.grade.target import ExistingRun, check_target
from scorers.io.run_paths import JOURNAL_NAME, RUN_NAME, SCORES_NAME, UPDATED_NAME, ResultsPaths
from scorers.io.run_settings import RunSettings

DESCRIPTION = """Grade predictions against ROME annotations with the rule evaluators.

Accepts the reference grader's options. --mode rome reproduces the reference
exactly (scores.json byte for byte); --mode strict (default) grades as a
careful human would. Every record keeps both verdicts under "review".
Writes updated_predictions.json, scores.json and run.json (next to the
predictions file unless --out-dir, --updated or --output say otherwise)."""


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "grade",
        help="grade predictions with the rule evaluators",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--annotations",
        default=None,
        help="annotations JSON/JSONL/Parquet (list, object keyed by id, or one record); "
        "not needed when the rows carry their own (evaluator, evaluator_kwargs), as the "
        "BAAI/ROME-Evaluated release does",
    )
    parser.add_argument("--predictions", required=True, help="model predictions JSON/JSONL/Parquet")
    parser.add_argument(
        "--tracker_type", "--tracker-type", default="task", help="bucket key (default: task)"
    )
    parser.add_argument(
        "--tracker_subtype",
        "--tracker-subtype",
        default=None,
        help="sub-bucket key (default: none)",
    )
    parser.add_argument(
        "--output", default=None, help="scores.json path (default: next to the predictions file)"
    )
    parser.add_argument(
        "--updated",
        default=None,
        help="updated_predictions.json path (default: next to the predictions file)",
    )
    parser.add_argument(
        "--use_llm_evaluator",
        "--use-llm-evaluator",
        action="store_true",
        help="also run the ROME LLM grader (OPENAI_API_KEY, OPENAI_BASE_URL); in rome mode it replaces the rules",
    )
    parser.add_argument(
        "--llm_model",
        "--llm-model",
        default=None,
        help="judge model (default: OPENAI_MODEL, then gpt-4.1-mini)",
    )
    parser.add_argument(
        "--mode",
        choices=("rome", "strict"),
        default="strict",
        help="primary rule mode (default: strict)",
    )
    parser.add_argument(
        "--out-dir", default=None, metavar="DIR", help="write every output file into DIR"
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace a run graded from other inputs in the output directory (its journal "
        "is kept and replayed; without this such a run is refused)",
    )
    parser.add_argument(
        "--primary",
        action="append",
        default=None,
        metavar="SOURCE[:BUCKET]",
        help="source of 'correct': rule (default) or judge, optionally per bucket, e.g. judge:Diagrams (repeatable, comma-separated)",
    )
    parser.add_argument(
        "--tools-available",
        default="",
        metavar="LIST",
        help="tools the model really had, comma-separated (e.g. web_search,python): claims of other tools are flagged",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the scores as JSON even on a terminal"
    )
    add_images_option(parser)
    parser.set_defaults(func=run)


def parse_primary(values: list[str] | None) -> tuple[str, dict[str, str]]:
    default = "rule"
    by_bucket: dict[str, str] = {}
    for value in values or ():
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            source, _, bucket = item.partition(":")
            if source not in ("rule", "judge"):
                raise UsageError(f"--primary {item!r}: the source must be 'rule' or 'judge'")
            if bucket:
                by_bucket[bucket] = source
            else:
                default = source
    return default, by_bucket


def output_paths(args: argparse.Namespace) -> ResultsPaths:
    if args.out_dir:
        out = Path(args.out_dir)
        if out.exists() and not out.is_dir():
            raise UsageError(f"--out-dir {out}: exists and is not a directory")
        args.created_out_dir = not out.exists()
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:  # a file where a parent directory should be, read-only, ...
            raise UsageError(f"--out-dir {out}: cannot create it: {exc.strerror or exc}") from None
        updated = Path(args.updated) if args.updated else out / UPDATED_NAME
        scores = Path(args.output) if args.output else out / SCORES_NAME
        base = ResultsPaths.of(updated)
        return ResultsPaths(
            out,
            updated,
            scores,
            out / RUN_NAME if not args.updated else base.run,
            out / JOURNAL_NAME if not args.updated else base.journal,  # where review looks
        )
    here = Path(os.path.dirname(args.predictions) or ".")
    updated = Path(args.updated) if args.updated else here / UPDATED_NAME
    scores = Path(args.output) if args.output else here / SCORES_NAME
    base = ResultsPaths.of(updated)
    return ResultsPaths(base.directory, updated, scores, base.run, base.journal)


def _remove_if_empty(directory: Path) -> None:
    """Remove an --out-dir this grade created and failed to fill: an empty folder (but
    for the lock) looked like a run. Anything else in it is left alone."""
    from scorers.io.runfiles import LOCK_NAME

    try:
        if {p.name for p in directory.iterdir()} <= {LOCK_NAME}:
            (directory / LOCK_NAME).unlink(missing_ok=True)
            directory.rmdir()
    except OSError:
        pass  # it stays; the error being reported is the one that matters


def _check_not_inputs(paths: ResultsPaths, args: argparse.Namespace) -> None:
    inputs = {os.path.realpath(args.predictions): "--predictions"}
    if args.annotations:
        inputs[os.path.realpath(args.annotations)] = "--annotations"
    for target in (paths.updated, paths.scores, paths.run):
        hit = inputs.get(os.path.realpath(target))
        if hit:
            raise UsageError(
                f"refusing to overwrite the {hit} file {target}: choose another --updated/--output/--out-dir"
            )


def run(args: argparse.Namespace) -> int:
    from scorers.grade.run import grade_files

    primary, by_bucket = parse_primary(args.primary)
    if (primary == "judge" or "judge" in by_bucket.values()) and not args.use_llm_evaluator:
        raise UsageError("--primary judge needs --use_llm_evaluator (no judge verdicts otherwise)")
    strict = args.mode == "strict"
    settings = RunSettings(
        mode=args.mode,
        tracker_type=args.tracker_type,
        tracker_subtype=args.tracker_subtype,
        primary=primary,
        primary_by_bucket=by_bucket,
        tools_available=[t.strip() for t in args.tools_available.split(",") if t.strip()],
        use_llm_evaluator=args.use_llm_evaluator,
        llm_model=args.llm_model,
        reject_filter=strict,
        harness_stats=strict,
        images=images_dir(args.images),
    )
    paths = output_paths(args)
    _check_not_inputs(paths, args)
    existing = check_target(
        paths,
        args.annotations,
        args.predictions,
        overwrite=args.overwrite,
        chosen=bool(args.out_dir),
    )
    for target in (paths.updated, paths.scores, paths.run):
        target.parent.mkdir(parents=True, exist_ok=True)
    try:
        result = grade_files(args.annotations, args.predictions, settings, paths=paths)
    except BaseException:
        if getattr(args, "created_out_dir", False):
            _remove_if_empty(paths.directory)
        raise
    for warning in result.warnings:
        warn("grade", warning)
    scores = result.scores
    if existing is not None and existing.journal_lines:
        scores = _replay_journals(paths, existing)
    if args.json or not sys.stdout.isatty():
        print(json.dumps(scores, ensure_ascii=False, indent=2))
    else:
        _print_table(scores, settings, paths)
        _print_next_step(result.flagged, len(result.graded), paths)
    return 0


def _replay_journals(paths: ResultsPaths, existing: ExistingRun) -> dict[str, Any]:
    """The run's journals applied to the files just written: a re-grade keeps every
    override. Returns the scores with them."""
    from scorers.adjudicate.store import rewrite_with_journals

    replayed = rewrite_with_journals(_run_target(paths))
    for warning in replayed.warnings:
        warn("grade", warning)
    note = (
        f"kept the journal of {', '.join(existing.reviewers)}: "
        f"{replayed.in_force} override(s) in force"
    )
    if replayed.stale:
        note += (
            f", {replayed.stale} stale (the answer, reference or evaluator changed: review them)"
        )
    print(printable(f"rome-tui grade: {note}"), file=sys.stderr)
    return replayed.scores


def _run_target(paths: ResultsPaths) -> Path:
    """What ``rome-tui review`` is given to open this run."""
    return paths.directory if paths.updated.name == UPDATED_NAME else paths.updated


def review_command(paths: ResultsPaths) -> str:
    """The command that opens this run in the review app, quoted for a POSIX shell."""
    return f"rome-tui review {shlex.quote(str(_run_target(paths)))}"


def _print_next_step(flagged: int, total: int, paths: ResultsPaths) -> None:
    """The review queue's length and how to open it: what a person does after grading."""
    if flagged:
        print(f"{flagged} of {total} items flagged for review; to review them:")
    else:
        print(f"no item of {total} is flagged; to browse the run:")
    print(printable(f"  {review_command(paths)}"))


def _print_table(scores: dict[str, Any], settings: RunSettings, paths: ResultsPaths) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from rome_tui.textsafe import one_line

    header = {
        "final_score",
        "accuracy",
        "accuracy_strict",
        "reject_info",
        "average_tokens",
        "average_prompt_tokens",
        "average_completion_tokens",
    }
    # Bucket names come from the input files: controls are made visible so a file
    # cannot clear or retitle the terminal, and Text keeps markup literal.
    table = Table(
        title=Text(
            f"ROME scores ({one_line(str(settings.mode))} mode, "
            f"buckets by {one_line(str(settings.tracker_type))})",
            style="table.title",
        )
    )
    table.add_column("bucket")
    table.add_column("score", justify="right")
    table.add_column("count", justify="right")
    table.add_column("accuracy", justify="right")
    strict_col = "accuracy_strict" in scores
    if strict_col:
        table.add_column("strict", justify="right")
    for name, row in scores.items():
        if name in header or not isinstance(row, list) or len(row) < 4:
            continue
        cells: list[str | Text] = [
            Text(one_line(str(name))),
            f"{row[0]:g}",
            str(row[1]),
            f"{row[2] * 100:.1f}%",
        ]
        if strict_col:
            cells.append(f"{row[4] * 100:.1f}%" if len(row) > 4 else "")
        table.add_row(*cells)
        subs = row[3]
        if isinstance(subs, dict) and not (len(subs) == 1 and name in subs):
            for sub, entry in subs.items():
                sub_cells: list[str | Text] = [
                    Text(f"  {one_line(str(sub))}"),
                    f"{entry[0]:g}",
                    str(entry[1]),
                    f"{entry[2] * 100:.1f}%",
                ]
                if strict_col:
                    sub_cells.append("")
                table.add_row(*sub_cells, style="dim")
    final = scores.get("final_score")
    total_cells = ["overall"]
    if isinstance(final, list) and len(final) == 2:
        total_cells += [f"{final[0]:g}", str(final[1])]
    else:
        total_cells += ["", ""]
    total_cells.append(f"{scores.get('accuracy', 0)}%")
    if strict_col:
        total_cells.append(f"{scores.get('accuracy_strict')}%")
    table.add_section()
    table.add_row(*total_cells, style="bold")
    console = Console()
    console.print(table)
    reject = scores.get("reject_info")
    if isinstance(reject, dict):
        console.print(
            f"rejected before grading: {reject.get('reject_number')} of {reject.get('total_question')}"
        )
    if "average_tokens" in scores:
        console.print(f"average tokens: {scores['average_tokens']:.1f}", highlight=False)
    console.print(
        printable(f"wrote {paths.updated}, {paths.scores}, {paths.run}"),
        highlight=False,
        markup=False,
    )
