"""The review screen's status line, fitted to the terminal's width.

Plain Rich text with no Textual import, so every width is tested directly. The
parts a reviewer must always see (where the run is, what is left to do, the
accuracy and whether the last override reached the disk) stay at any width:
narrower terminals get shorter wordings first, then a shorter path, and only
then lose the annotator.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from rome_tui.textsafe import one_line

_MIN_PATH = 12  # "…/rome-tui/demo" still says which run this is


@dataclass(frozen=True)
class Counts:
    shown: int
    total: int
    reviewed: int
    flagged: int
    to_do: int
    acc_before: float
    acc_after: float


def short_path(path: str, width: int) -> str:
    """``path`` in at most ``width`` cells, keeping its end (the run's own name)."""
    if cell_len(path) <= width:
        return path
    width = max(2, width)
    tail = path[-(width - 1) :]
    cut = tail.find("/", 1)
    if cut != -1 and len(tail) - cut >= width // 2:
        tail = tail[cut:]  # start at a folder boundary when that keeps enough
    return "…" + tail


def _levels(counts: Counts | None, annotator: str) -> list[list[tuple[str, str]]]:
    """Wordings of everything but the path, most verbose first: (text, style) pieces."""
    who = [(f" · {annotator}", "dim")]
    if counts is None:  # rows still being counted in the background
        return [
            [*who, (" │ counting flags and reviews…", "dim")],
            [(" │ counting…", "dim")],
        ]
    c = counts
    left = "bold" if c.to_do else "green"
    filtered = c.shown != c.total
    return [
        [
            *who,
            (f" │ shown {c.shown}/{c.total}", ""),
            (f" │ reviewed {c.reviewed} / flagged {c.flagged} / total {c.total}", ""),
            (f" ({c.to_do} to do)", left),
            (f" │ acc {c.acc_before:.2f}→", ""),
            (f"{c.acc_after:.2f}%", "bold"),
        ],
        [
            *who,
            (f" │ {c.shown}/{c.total} shown", ""),
            (f" │ {c.reviewed}/{c.flagged} reviewed,", ""),
            (f" {c.to_do} to do", left),
            (f" │ acc {c.acc_before:.1f}→", ""),
            (f"{c.acc_after:.1f}%", "bold"),
        ],
        [
            *who,
            *([(f" │ {c.shown}/{c.total}", "")] if filtered else []),
            (f" │ {c.to_do} to do", left),
            (f" │ acc {c.acc_before:.1f}→", ""),
            (f"{c.acc_after:.1f}%", "bold"),
        ],
        [
            *who,
            *([(f" │ {c.shown}/{c.total}", "")] if filtered else []),
            (f" │ {c.to_do} to do", left),
            (f" │ {c.acc_before:.1f}→", ""),
            (f"{c.acc_after:.1f}%", "bold"),
        ],
        [
            *([(f" │ {c.shown}/{c.total}", "")] if filtered else []),
            (f" │ {c.to_do} to do", left),
            (f" │ {c.acc_before:.1f}→", ""),
            (f"{c.acc_after:.1f}%", "bold"),
        ],
    ]


def status_line(
    width: int, run: str, annotator: str, counts: Counts | None, save: Text | None
) -> Text:
    """The status line in ``width`` cells: run path, annotator, counts, accuracy, save state."""
    annotator = one_line(annotator, 20)
    run = one_line(run, 1000)
    tail = Text(" │ ") + save if save is not None else Text()
    if width < 140:
        # A long save message (an error: its toast has the whole text) keeps its start
        # and leaves room for the annotator.
        tail.truncate(max(30, width - 70), overflow="ellipsis")
    levels = _levels(counts, annotator)
    chosen = levels[-1]
    # Every wording with the annotator beside a roomy path, then beside a short one;
    # the last wording (no annotator) only when none fits.
    with_annotator = [
        pieces
        for room in (_MIN_PATH * 2, _MIN_PATH)
        for pieces in levels[:-1]
        if width - sum(cell_len(text) for text, _ in pieces) - tail.cell_len
        >= min(cell_len(run), room)
    ]
    if with_annotator:
        chosen = with_annotator[0]
    rest = sum(cell_len(text) for text, _ in chosen) + tail.cell_len
    line = Text(short_path(run, max(_MIN_PATH, width - rest)), style="bold")
    for text, style in chosen:
        line.append(text, style=style)
    if line.cell_len + tail.cell_len > width and save is not None:
        # Keep the start of the save state ("files NOT written…"): it is the news.
        room = max(10, width - line.cell_len)
        tail.truncate(room, overflow="ellipsis")
    line.append_text(tail)
    return line
