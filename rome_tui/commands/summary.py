"""``rome-tui summary RESULTS…``: accuracy with intervals, leaderboard, agreement, flags, tokens."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rome_tui.commands.output_format import output_format
from rome_tui.commands.release_option import release_run_for
from rome_tui.console import warn
from scorers.errors import InputError, UsageError
from scorers.stats import DEFAULT_RESAMPLES

FORMATS = ("table", "json", "csv", "markdown", "latex")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "summary",
        help="scores, intervals and agreement of runs",
        description=(
            "Summarise one or more graded runs: overall and per-bucket accuracy (loose and "
            "strict) with 95% bootstrap intervals, mean ± std over inference runs, a "
            "leaderboard with paired bootstrap tests of adjacent models, agreement between "
            "verdict sources (Cohen's kappa), judge error rates against human overrides, "
            "behaviour flag rates and token usage. Records carrying a 'model' field are "
            "grouped by it; otherwise each RESULTS is one model named after its directory."
        ),
        epilog="exit codes: 0 done; 2 unreadable input or bad options (the message names the file)",
    )
    parser.add_argument(
        "results",
        metavar="RESULTS",
        nargs="+",
        help="results directories, updated_predictions.json / *_evaluated.json files, or a "
        "Parquet release (graded into FILE.rome-tui/ beside it, or --out-dir)",
    )
    parser.add_argument(
        "--out-dir",
        metavar="DIR",
        default=None,
        help="where a Parquet release is graded (default: FILE.rome-tui beside it)",
    )
    parser.add_argument(
        "--by", metavar="FIELD", help="bucket field (default: the run's tracker_type, else 'task')"
    )
    parser.add_argument(
        "--subtype", metavar="FIELD", help="sub-bucket field (default: the run's tracker_subtype)"
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format (default: the --output file's suffix: .json .csv .md .tex; .txt or none: table)",
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE", help="write to FILE (atomically) instead of stdout"
    )
    parser.add_argument(
        "--plot", metavar="FILE.png", help="also draw the accuracy-versus-tokens scatter as a PNG"
    )
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: 0)")
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"bootstrap resamples (default: {DEFAULT_RESAMPLES})",
    )
    parser.set_defaults(func=run)


def model_name(path: str) -> str:
    """The name of a run without a ``model`` field: its directory, or its file's stem."""
    p = Path(path).resolve() if os.path.exists(path) else Path(path)
    if p.is_dir():
        return p.name
    if p.name == "updated_predictions.json":
        return p.parent.name
    stem = p.stem
    return stem[: -len("_evaluated")] if stem.endswith("_evaluated") else stem


_SUFFIXES = {".json": "json", ".csv": "csv", ".md": "markdown", ".tex": "latex"}


def _load(path: str) -> Any:
    """The run's records with every acknowledged override, journal included."""
    from scorers.io.results import load_results
    from scorers.io.run_paths import ResultsPaths

    journal = ResultsPaths.of(path).journal
    if journal.is_dir() and any(journal.iterdir()):
        # Overrides fsynced to the journal but not yet written back still count.
        from scorers.adjudicate.store import ResultsStore

        with ResultsStore.open(path, annotator="summary") as store:
            return store
    return load_results(path)


def run(args: argparse.Namespace) -> int:
    from scorers.grade.release import is_release
    from scorers.io.run_paths import ResultsPaths
    from scorers.stats.summary import SummaryOptions, group_by_model, summarise

    if args.bootstrap < 1:
        raise UsageError(f"--bootstrap must be at least 1, got {args.bootstrap}")
    args.format = output_format(
        args.format, args.output, _SUFFIXES, "table", plain=("", ".txt", ".text", ".log")
    )
    if args.plot and not args.plot.lower().endswith(".png"):
        raise UsageError(f"--plot writes a PNG: give a file name ending in .png, got {args.plot!r}")
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    warnings: list[str] = []
    if args.out_dir is not None and not any(map(is_release, args.results)):
        warnings.append(
            f"--out-dir {args.out_dir} is where a Parquet release is graded; no RESULTS is "
            "one, so it is not used"
        )
    by, subtype = args.by, args.subtype
    names: dict[str, str] = {}
    seen: set[Path] = set()
    for path in args.results:
        results_file = ResultsPaths.of(path).updated.resolve()
        if results_file in seen:
            # The same run twice would be two "models" with identical answers.
            warnings.append(f"{path}: the same run named twice; read once")
            continue
        seen.add(results_file)
        if is_release(path):
            # A release: graded into its run directory (once), never written itself.
            path, graded = release_run_for("summary", path, args.out_dir)
            warnings.extend(graded)
        loaded = _load(path)
        if not loaded.records:
            raise InputError(str(loaded.paths.updated), "empty: no graded records to summarise")
        warnings.extend(loaded.warnings)
        if by is None:
            by = loaded.settings.tracker_type or "task"
        if subtype is None and args.by is None:
            subtype = loaded.settings.tracker_subtype
        grouped = group_by_model(loaded.records, model_name(path))
        for name, records in grouped:
            unique = name
            if unique in names:
                unique = f"{name} ({path})"
                warnings.append(f"{path}: model {name} also in {names[name]}; shown as {unique!r}")
            names[unique] = path
            groups.append((unique, records))
    for option, field in (("--by", args.by), ("--subtype", args.subtype)):
        # A misspelt field put every item in one unnamed bucket, with no word said.
        if field is not None and not any(field in r for _, rs in groups for r in rs):
            fields = ", ".join(sorted(k for k in groups[0][1][0] if k != "review"))
            raise UsageError(f"{option} {field}: no record has this field (they have: {fields})")
    options = SummaryOptions(
        by=by or "task", subtype=subtype, seed=args.seed, n_resamples=args.bootstrap
    )
    summary = summarise(groups, options, warnings=warnings)
    no_plot: str | None = None
    if args.plot:
        from rome_tui.render.plot import write_scatter_png
        from rome_tui.render.scatter import scatter_points

        points = scatter_points(summary)
        if points:
            write_scatter_png(points, args.plot)
        else:
            # The tables are still worth having: say why there is no picture, after them.
            no_plot = (
                f"no plot written to {args.plot}: no model has token usage (a 'usage' field "
                "with completion_tokens or total_tokens) to put on the x axis"
            )
    if args.format == "table":
        _print_table(summary, args.output)
        # On a terminal the table starts with them; into a file or a pipe they would
        # be seen only by whoever opens it, so stderr has them too.
        if args.output or not sys.stdout.isatty():
            _warn_all(warnings)
        _warn_all([no_plot] if no_plot else [])
        return 0
    from rome_tui.render import text

    writers = {
        "json": text.to_json,
        # A CSV file keeps names byte for byte; on a terminal controls are made visible.
        "csv": lambda s: text.to_csv(s, exact_names=bool(args.output)),
        "markdown": text.to_markdown,
        "latex": text.to_latex,
    }
    rendered = writers[args.format](summary)
    if args.output:
        from scorers.io.jsonio import atomic_write_bytes

        atomic_write_bytes(args.output, rendered.encode("utf-8"))
    else:
        sys.stdout.write(rendered)
    _warn_all(warnings + ([no_plot] if no_plot else []))
    return 0


def _warn_all(warnings: list[str]) -> None:
    for warning in warnings:
        warn("summary", warning)


def _print_table(summary: Any, output: str | None) -> None:
    from rich.console import Console

    from rome_tui.render.tables import summary_renderable

    if output:
        from scorers.io.jsonio import atomic_write_bytes

        with open(os.devnull, "w") as sink:
            console = Console(record=True, width=120, file=sink)
            console.print(summary_renderable(summary))
        atomic_write_bytes(output, console.export_text().encode("utf-8"))
        return
    Console().print(summary_renderable(summary))
