"""Messages to the user's terminal. File contents (ids, bucket names, model text) end
up in warnings and errors, so everything printed here goes through the control
character filter: a results file must not be able to clear or retitle a terminal."""

from __future__ import annotations

import sys

from rome_tui.textsafe import one_line

MESSAGE_LIMIT = 2000


def printable(text: object) -> str:
    return one_line(str(text), MESSAGE_LIMIT)


def warn(command: str, message: object) -> None:
    print(f"rome-tui {command}: warning: {printable(message)}", file=sys.stderr)


def note(command: str, message: object) -> None:
    """What a command did beside its output (a release graded into a new run folder)."""
    print(f"rome-tui {command}: {printable(message)}", file=sys.stderr)


def error(command: str, message: object) -> None:
    print(f"rome-tui {command}: error: {printable(message)}", file=sys.stderr)
    for line in getattr(message, "hint", ()):
        print(printable(line), file=sys.stderr)
