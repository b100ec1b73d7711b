"""``rome-tui override RESULTS QUESTION_ID SCORE --reason TEXT``: adjudicate without the app.

Same path as the app: the override is appended to the annotator's journal and
fsynced, then updated_predictions.json and scores.json are rewritten atomically.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from rome_tui.console import warn
from scorers.errors import ConflictError, UsageError

if TYPE_CHECKING:
    from scorers.adjudicate.store import ResultsStore


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "override",
        help="set a human score without the app",
        description=(
            "Set the human score of one item: appended to the annotator's journal "
            "(RESULTS/journal/<annotator>.jsonl), then updated_predictions.json and "
            "scores.json are rewritten."
        ),
        epilog=(
            "exit codes: 0 saved and written back; 2 bad input (unknown id, score not in "
            "[0, 1], empty reason, unreadable files); 3 the files kept changing under us "
            "(the override is in the journal and is applied on the next open)"
        ),
    )
    parser.add_argument(
        "results", metavar="RESULTS", help="results directory or updated_predictions.json"
    )
    parser.add_argument("question_id", metavar="QUESTION_ID")
    parser.add_argument(
        "score",
        metavar="SCORE",
        help="a number from 0 to 1 (partial credit allowed: 0.5, 1/2, 50%%)",
    )
    parser.add_argument(
        "--reason", required=True, help="why (required, recorded in the audit trail)"
    )
    add_common_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from rome_tui.typed_score import parse_score
    from scorers.adjudicate.store import ResultsStore

    score = parse_score(args.score)  # as the app's dialog reads it: 0.5, 1/2 and 50% alike
    if score is None:
        raise UsageError(
            f"SCORE must be a number between 0 and 1 (0.5, 1/2 and 50% work), got {args.score!r}"
        )
    with ResultsStore.open(args.results, annotator=args.annotator) as store:
        for warning in store.warnings:
            warn("override", warning)
        entry = store.override(args.question_id, score, args.reason)
        i = store.index_of(entry["question_id"])
        if not args.quiet:
            old, new = fmt_score(entry.get("old")), fmt_score(entry.get("new"))
            # "1 -> 1" read as if nothing happened: the score stays, the item is now reviewed
            change = f"{old} -> {new}" if old != new else f"{new} kept, now reviewed"
            print(
                f"{entry['question_id']}: {change} by {entry['annotator']} "
                f"(journal {store.journal_path()})"
            )
            for human in store.conflicts(i):
                print(
                    f"  conflict: {human.get('annotator')} scored {fmt_score(human.get('score'))}"
                    f" ({human.get('reason')})",
                    file=sys.stderr,
                )
        write_back_with_retry(store, "override")
    return 0


def fmt_score(value: Any) -> str:
    return "-" if value is None else f"{value:g}" if isinstance(value, (int, float)) else str(value)


RETRIES = 3


def add_common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--annotator",
        help="who is adjudicating (default: $ROME_TUI_ANNOTATOR, then `annotator` in "
        "~/.config/rome-tui/config.toml, then the login name)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print nothing on success")


def write_back_with_retry(store: ResultsStore, command: str) -> None:
    """Rewrite the results; if another process wrote them meanwhile, merge and retry.

    The change is already durable in the journal. Re-reading the files and every
    journal takes the other process's work in, so writing after a reload never
    overwrites it; a run that keeps changing is reported as a conflict (exit 3).
    """
    for attempt in range(RETRIES):
        try:
            store.write_back()
            return
        except ConflictError as exc:
            if attempt == RETRIES - 1:
                raise ConflictError(f"{exc} (gave up after {RETRIES} attempts)") from None
            print(
                f"rome-tui {command}: the results changed on disk meanwhile; "
                "re-reading them and every journal, then writing again",
                file=sys.stderr,
            )
            store.reload()
