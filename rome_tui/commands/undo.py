"""``rome-tui undo RESULTS``: undo the annotator's last override (or ``--redo`` it again)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from rome_tui.commands.override import add_common_options, fmt_score, write_back_with_retry
from rome_tui.console import warn

if TYPE_CHECKING:
    from scorers.adjudicate.store import ResultsStore


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
            old, new = fmt_score(entry.get("old")), fmt_score(entry.get("new"))
            who = entry["annotator"]
            if old != new:
                print(f"{op} {entry['question_id']}: {old} -> {new} by {who}")
            else:  # "1 -> 1" read as if nothing had happened: say what did
                state = _review_state(store, entry, op)
                print(f"{op} {entry['question_id']}: {new} kept by {who}, {state}")
        write_back_with_retry(store, "undo")
    return 0


def _review_state(store: ResultsStore, entry: Mapping[str, Any], op: str) -> str:
    """Whether the item is reviewed once an undo or redo has kept its score: "1 -> 1" read
    as if nothing had happened, but the undo took away (or the redo put back) a review."""
    from scorers.records import review_of

    try:
        record = store.records[store.index_of(entry["question_id"])]
    except KeyError:  # the item left the file: no review to speak of
        return "item no longer in the file"
    human = review_of(record).get("human")
    if human is None:
        return "no longer reviewed"
    if op == "undo":
        return f"still reviewed ({human['annotator']}'s override stands)"
    return "now reviewed"
