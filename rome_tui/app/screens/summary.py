"""Accuracy overall and per bucket, before and after the human overrides."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from rome_tui.app.items import Accuracy, Progress, Row, accuracy, progress
from rome_tui.textsafe import one_line


def _delta(item: Accuracy) -> Text:
    change = item.after - item.before
    if abs(change) < 0.005:
        return Text("·", style="dim")
    return Text(f"{change:+.2f}", style="green" if change > 0 else "red")


def summary_table(rows: Sequence[Row]) -> Table:
    overall, buckets = accuracy(rows)
    table = Table(title="Accuracy (%) before and after overrides", title_justify="left")
    table.add_column("bucket")
    table.add_column("n", justify="right")
    table.add_column("before", justify="right")
    table.add_column("after", justify="right")
    table.add_column("change", justify="right")
    for item in buckets:
        table.add_row(
            Text(one_line(item.name) if item.name else "(none)"),  # names come from the file
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


class SummaryReady(Message):
    """The full summary (intervals, agreement, flag rates) computed off the UI thread."""

    def __init__(self, renderable: RenderableType) -> None:
        super().__init__()
        self.renderable = renderable


def full_summary(
    records: Sequence[dict[str, Any]], bucket_field: str, fallback: str
) -> RenderableType:
    """The same tables ``rome-tui summary`` prints, from the records as they are now."""
    from rome_tui.render.tables import summary_renderable
    from scorers.stats.summary import SummaryOptions, group_by_model, summarise

    summary = summarise(group_by_model(list(records), fallback), SummaryOptions(by=bucket_field))
    return summary_renderable(summary, scatter=True)


class SummaryScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SummaryScreen { align: center middle; }
    SummaryScreen > VerticalScroll {
        width: 95%; max-width: 150; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding("escape,t,q", "close", "Close", id="summary-close", tooltip="Back to the review")
    ]

    def __init__(
        self,
        rows: Sequence[Row],
        records: Sequence[dict[str, Any]] = (),
        bucket_field: str = "task",
        fallback: str = "model",
    ) -> None:
        super().__init__()
        self.rows = rows
        self.records = records
        self.bucket_field = bucket_field
        self.fallback = fallback

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Summary"
            scroll.border_subtitle = (
                "↑↓ PgUp PgDn scroll · Esc closes"  # the footer below is the review screen's
            )
            yield Static(progress_text(progress(self.rows)), id="summary-progress")
            yield Static(summary_table(self.rows), id="summary-table")
            if self.records:
                yield Static(
                    Text("computing intervals and agreement…", style="dim"), id="summary-full"
                )

    def on_mount(self) -> None:
        if self.records:
            self.compute_full()

    @work(thread=True, exclusive=True, group="summary", exit_on_error=False)
    def compute_full(self) -> None:
        try:
            renderable: RenderableType = full_summary(
                self.records, self.bucket_field, self.fallback
            )
        except Exception as exc:  # the quick table above is still right; say what failed
            renderable = Text(f"full summary unavailable: {type(exc).__name__}: {exc}", style="red")
        self.post_message(SummaryReady(renderable))

    @on(SummaryReady)
    def show_full(self, message: SummaryReady) -> None:
        self.query_one("#summary-full", Static).update(message.renderable)

    def action_close(self) -> None:
        self.dismiss(None)
