"""``rome-tui undo RESULTS``: undo the annotator's last override (or ``--redo`` it again)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rome_tui.commands.override import add_common_options, fmt_score, write_back_with_retry
from rome_tui.console import warn


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "undo",
        help="undo the last override without the app",
        description=(
            "Undo the annotator's most recent override (journaled like the override "
            "itself), then rewrite updated_predictions.json and scores.json."
        ),
        epilog=(
            "exit codes: 0 undone and written back; 4 nothing to undo; 2 bad input; "
            "3 the files kept changing under us (the undo is in the journal)"
        ),
    )
    parser.add_argument(
        "results", metavar="RESULTS", help="results directory or updated_predictions.json"
    )
    parser.add_argument("--redo", action="store_true", help="redo the last undone override instead")
    add_common_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from scorers.adjudicate.store import ResultsStore

    op = "redo" if args.redo else "undo"
    with ResultsStore.open(args.results, annotator=args.annotator) as store:
        for warning in store.warnings:
            warn("undo", warning)
        entry = store.redo() if args.redo else store.undo()
        if entry is None:
            print(
                f"rome-tui undo: nothing to {op} for annotator {store.annotator}", file=sys.stderr
            )
            return 4
        if not args.quiet:
            print(
                f"{op} {entry['question_id']}: {fmt_score(entry.get('old'))} -> {fmt_score(entry.get('new'))} "
                f"by {entry['annotator']}"
            )
        write_back_with_retry(store, "undo")
    return 0
