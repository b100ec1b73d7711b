"""``rome-tui export RESULTS --format parquet|jsonl``: the adjudicated table in the release's schema."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rome_tui.commands.output_format import output_format
from rome_tui.console import warn


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write the adjudicated table (Parquet or JSONL) in the release's schema",
        description=(
            "Write a reviewed run as a table in the schema of the release it was graded "
            "from (BAAI/ROME-Evaluated's columns, in its order), so an audited release can "
            "be republished: 'correct' is the human score where a reviewer set one, else "
            "the release's own grade (else the run's), and a 'review' column holds every "
            "verdict, override and flag as JSON text. Overrides still only in the journal "
            "are included."
        ),
        epilog="exit codes: 0 written; 2 unreadable input or bad options",
    )
    parser.add_argument(
        "results", metavar="RESULTS", help="results directory or updated_predictions.json"
    )
    parser.add_argument(
        "--format",
        choices=("parquet", "jsonl"),
        default=None,
        help="default: the --output file's suffix (.jsonl, .parquet; no suffix: parquet)",
    )
    parser.add_argument(
        "--output",
        "-o",
        metavar="FILE",
        default=None,
        help="default: adjudicated.parquet (or .jsonl) in the results directory",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from scorers.adjudicate.store import ResultsStore
    from scorers.errors import UsageError
    from scorers.io.export import export

    with ResultsStore.open(args.results, annotator="export") as store:
        for warning in store.warnings:
            warn("export", warning)
        source = store.settings.predictions
        if args.output is not None:  # a file of the run is refused before its name's format
            output = Path(args.output)
            if source and output.resolve() == Path(source).resolve():
                raise UsageError(
                    f"refusing to overwrite the graded file {source}: choose another --output"
                )
            _check_output(output, store)
        args.format = output_format(args.format, args.output, _SUFFIXES, "parquet")
        output = Path(args.output or store.paths.directory / f"adjudicated.{args.format}")
        rows = export(store.records, str(output), args.format, predictions=source)
    print(f"{output}: {rows} rows ({args.format})")
    return 0


_SUFFIXES = {".jsonl": "jsonl", ".parquet": "parquet", ".pq": "parquet"}


def _check_output(output: Path, store: Any) -> None:
    """Refuse an --output that cannot be written, or that is a file the run or the
    reviewers own (its results, settings, a journal, the judge's cache): exporting
    over one would lose work that only it holds."""
    from scorers.errors import UsageError
    from scorers.io.runfiles import LOCK_NAME

    if output.is_dir():
        raise UsageError(f"--output {output}: is a directory; name the file to write")
    if not output.parent.is_dir():
        raise UsageError(f"--output {output}: no such directory {output.parent}")
    paths = store.paths
    target = output.resolve()
    owned = {p.resolve() for p in (paths.updated, paths.scores, paths.run)}
    if store.settings.annotations:
        owned.add(Path(store.settings.annotations).resolve())
    in_run = target.parent == paths.directory.resolve() and (
        target.name.startswith("judge_") or target.name == LOCK_NAME
    )
    if target in owned or in_run or paths.journal.resolve() in target.parents:
        raise UsageError(
            f"--output {output}: refusing to overwrite a file of the run; choose another name"
        )
