"""Accuracy overall and per bucket, before and after the human overrides."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from rome_tui.app.items import Accuracy, Progress, Row, accuracy, progress


def _delta(item: Accuracy) -> Text:
    change = item.after - item.before
    if abs(change) < 0.005:
        return Text("·", style="dim")
    return Text(f"{change:+.2f}", style="green" if change > 0 else "red")


def summary_table(rows: Sequence[Row]) -> Table:
    overall, buckets = accuracy(rows)
    table = Table(
        expand=True, title="Accuracy (%) before and after overrides", title_justify="left"
    )
    table.add_column("bucket")
    table.add_column("n", justify="right")
    table.add_column("before", justify="right")
    table.add_column("after", justify="right")
    table.add_column("change", justify="right")
    for item in buckets:
        table.add_row(
            Text(item.name or "(none)"),
            str(item.n),
            f"{item.before:.2f}",
            f"{item.after:.2f}",
            _delta(item),
        )
    table.add_section()
    table.add_row(
        Text("overall", style="bold"),
        str(overall.n),
        f"{overall.before:.2f}",
        Text(f"{overall.after:.2f}", style="bold"),
        _delta(overall),
    )
    return table


def progress_text(p: Progress) -> Text:
    return Text(
        f"reviewed {p.reviewed} · overridden {p.overridden} · flagged {p.flagged} "
        f"({p.flagged_left} still to review) · total {p.total}"
    )


class SummaryScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > VerticalScroll {
        width: 90%; max-width: 100; height: 80%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,t,q", "close", "Close", id="summary-close", tooltip="Back to the review")
    ]

    def __init__(self, rows: Sequence[Row]) -> None:
        super().__init__()
        self.rows = rows

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Summary"
            yield Static(progress_text(progress(self.rows)), id="summary-progress")
            yield Static(summary_table(self.rows), id="summary-table")

    def action_close(self) -> None:
        self.dismiss(None)
