"""Whether the app's terminal is still there.

Textual's input thread does not notice a terminal that hangs up without sending
SIGHUP (a tmux pane or an ssh session closed while ``make demo`` holds the
session): reads return end-of-file at once, and the thread spins on them,
taking a core for as long as the orphaned app lives. The app polls for the
hang-up instead and leaves; every override was journaled when it was made, so
nothing is lost.
"""

from __future__ import annotations

import os
import select
import sys

HUNG_UP = 129  # 128 + SIGHUP, the status a shell reports for a hang-up


def _stdin() -> int:
    try:
        return sys.__stdin__.fileno() if sys.__stdin__ is not None else -1
    except (OSError, ValueError):
        return -1


def is_terminal() -> bool:
    """Standard input is a terminal now: ask before watching it (a pipe or a file
    reports hang-up once its writer is done, which is no reason to leave)."""
    fd = _stdin()
    return fd >= 0 and os.isatty(fd) and hasattr(select, "poll")


def hung_up() -> bool:
    """True when standard input has hung up; never blocks or reads."""
    fd = _stdin()
    if fd < 0 or not hasattr(select, "poll"):
        return False
    poller = select.poll()
    poller.register(fd, 0)  # no events asked: hang-up and errors are always reported
    return any(
        event & (select.POLLHUP | select.POLLERR | select.POLLNVAL) for _, event in poller.poll(0)
    )
