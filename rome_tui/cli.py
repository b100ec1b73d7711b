"""``rome-tui`` command line: one sub-command per module in ``rome_tui.commands``.

Each command module defines ``register(subparsers)`` that adds its parser and
sets ``func`` to a callable taking the parsed namespace and returning an exit
code. Modules are imported only when their command runs so that ``grade`` never
pays for importing Textual.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from rome_tui.console import error
from scorers.errors import RomeTuiError

# name -> (module, one-line help). The order is the order of ``--help``.
COMMANDS: dict[str, tuple[str, str]] = {
    "grade": ("rome_tui.commands.grade", "grade predictions with the rule evaluators"),
    "judge": ("rome_tui.commands.judge", "add LLM judge verdicts to a graded run"),
    "review": ("rome_tui.commands.review", "open the review app on a graded run"),
    "override": ("rome_tui.commands.override", "set a human score without the app"),
    "undo": ("rome_tui.commands.undo", "undo the last override without the app"),
    "summary": ("rome_tui.commands.summary", "scores, intervals and agreement of runs"),
    "export": ("rome_tui.commands.export", "the adjudicated table as Parquet or JSONL"),
}

EXIT_CODES = """exit codes:
  0  success
  1  unexpected internal error (a bug: please report it); grade: a grading
     process was killed (out of memory, say), nothing was written
  2  bad input or bad options: the message names the file, record and problem
  3  the results changed on disk since they were read; nothing was overwritten
  4  nothing to do (undo or redo with an empty history)
  5  judge: some judge calls failed; their items carry judge_error, the rest were saved
  129 review: its terminal hung up; every override made is in the journal
  130 interrupted (Ctrl+C); completed work is kept
"""


def build_parser(argv: Sequence[str]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rome-tui",
        description="Grade reasoning-model benchmark answers and adjudicate the doubtful ones.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"rome-tui {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = next((a for a in argv if a in COMMANDS), None)
    for name, (module, help_text) in COMMANDS.items():
        if name == wanted:
            importlib.import_module(module).register(sub)
        else:
            # Placeholder parser so --help lists every command without importing it.
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _version() -> str:
    """The installed package's version (what a bug report names)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rome-tui")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(args_list)
    args = parser.parse_args(args_list)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except RomeTuiError as exc:
        error(args.command, exc)
        return exc.exit_code
    except KeyboardInterrupt:
        print(f"rome-tui {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
