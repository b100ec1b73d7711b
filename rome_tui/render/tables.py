"""Rich renderables of the summary, shared by ``rome-tui summary`` and the review app."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rome_tui.render.scatter import AccuracyTokensScatter, scatter_points
from rome_tui.render.tablespec import TableSpec, all_tables
from scorers.summary import Summary


def rich_table(spec: TableSpec) -> Table:
    """A Rich table of a spec; every cell is plain Text, so model names are never markup."""
    table = Table(
        title=spec.title, title_justify="left", title_style="bold", caption_justify="left"
    )
    for i, (name, numeric) in enumerate(zip(spec.columns, spec.numeric, strict=True)):
        cells = [row[i] for row in spec.rows]
        widest = max(map(len, cells), default=0)
        # Single numbers never wrap, intervals may break at their space when the
        # terminal is narrow, and labels keep a readable width (the first column,
        # naming the model or bucket, never wraps).
        if numeric:
            min_width = None if any(" " in c for c in cells) else widest
        else:
            min_width = min(widest, 24)
        table.add_column(
            Text(name),
            justify="right" if numeric else "left",
            no_wrap=i == 0,
            min_width=min_width,
        )
    previous = None
    for i, row in enumerate(spec.rows):
        if i in spec.sections and i:
            table.add_section()
            previous = None
        # Rows grouped by model show the model once per group.
        label = "" if len(spec.rows) > 1 and row[0] == previous and not spec.numeric[0] else row[0]
        previous = row[0]
        table.add_row(Text(label), *(Text(cell) for cell in row[1:]))
    if spec.note:
        table.caption = Text(spec.note, style="dim")
    return table


def summary_tables(summary: Summary) -> list[Table]:
    return [rich_table(spec) for spec in all_tables(summary)]


def summary_renderable(summary: Summary, *, scatter: bool = True) -> RenderableType:
    """Every summary table, then the accuracy-versus-tokens scatter when there is token usage."""
    parts: list[RenderableType] = []
    for warning in summary.warnings:
        parts.append(Text(f"warning: {warning}", style="yellow"))
    for table in summary_tables(summary):
        parts += [table, Text("")]
    points = scatter_points(summary)
    if scatter and points:
        parts.append(AccuracyTokensScatter(points))
    return Group(*parts)
