"""Rich renderables of the summary, shared by ``rome-tui summary`` and the review app."""

from __future__ import annotations

from dataclasses import replace

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from rome_tui.render.scatter import AccuracyTokensScatter, scatter_points
from rome_tui.render.tablespec import TEXT_LIMIT, TableSpec, all_tables, shown, shown_spec
from scorers.stats.summary import Summary

# Headings for narrow terminals: Rich never breaks a word, so long heading words
# would otherwise push the last columns off the screen.
SHORT_HEADINGS: dict[str, str] = {
    "Accuracy (%)": "Acc.",
    "Acc. (%)": "Acc.",
    "Strict (%)": "Strict",
    "Strict 95% CI": "Strict CI",
    "Runs: mean ± std": "Runs",
    "Completion tokens": "Compl. tok.",
    "Reasoning tokens": "Reas. tok.",
    "Agreement (%)": "Agr. %",
    "Source A": "A",
    "Source B": "B",
    "Error rate (%)": "Err. %",
    "Overridden": "Overr.",
    "Before (%)": "Before",
    "After (%)": "After",
    "Change (pp)": "Δ pp",
    "Conflicts": "Confl.",
    "Heuristic": "Heur.",
    "Disagree": "Dis.",
    "Incons. ans.": "Ans.",
    "Incons. cert.": "Cert.",
    "Claimed search": "Search",
    "Claimed tools": "Tools",
    "Abstained": "Abst.",
    "Abstains in trace": "Abst. trace",
    "Partial": "Part.",
    "Weighted κ": "Wtd κ",
}


def _label_column(spec: TableSpec) -> int:
    """The column that names each row: the first that is not a number."""
    return next((i for i, numeric in enumerate(spec.numeric) if not numeric), 0)


def _natural_widths(spec: TableSpec) -> list[int]:
    return [
        max([len(name)] + [len(row[i]) for row in spec.rows]) for i, name in enumerate(spec.columns)
    ]


def _floors(spec: TableSpec) -> list[int]:
    """The narrowest each column may be: single numbers never wrap, intervals break at
    their space, labels fold after 12 characters, headings wrap at word boundaries."""
    floors = []
    for i, numeric in enumerate(spec.numeric):
        cells = [row[i] for row in spec.rows]
        widest = max(map(len, cells), default=0)
        longest_word = max((len(w) for c in cells for w in c.split()), default=0)
        if numeric:
            floor = longest_word if any(" " in c for c in cells) else widest
        else:
            floor = min(widest, 12)  # longer labels fold onto a second line
        heading_word = max((len(w) for w in spec.columns[i].split()), default=0)
        floors.append(max(1, floor, min(heading_word, 6)))
    return floors


def _without_last_columns(spec: TableSpec, max_width: int) -> TableSpec:
    """The spec with its last columns left out while even the narrowest layout (labels
    folded to 6) is wider than ``max_width``: a column left out, and named, reads better
    than every number folded ("24" over "0"). The first two columns always stay."""
    while len(spec.columns) > 2:
        floors = _floors(spec)
        narrowest = sum(
            min(f, 6) if not numeric else f for f, numeric in zip(floors, spec.numeric, strict=True)
        )
        if narrowest + len(spec.columns) + 1 <= max_width:  # one space between columns
            break
        spec = replace(
            spec,
            columns=spec.columns[:-1],
            rows=[row[:-1] for row in spec.rows],
            numeric=spec.numeric[:-1],
        )
    return spec


def _fitted_widths(spec: TableSpec, budget: int) -> list[int]:
    """Column widths that fit ``budget`` characters of content, or come as close as they can.

    Narrowing takes one character at a time from the column with the most room
    to spare, down to each column's floor (:func:`_floors`).
    """
    widths = _natural_widths(spec)
    floors = _floors(spec)
    while sum(widths) > budget:
        room = [w - f for w, f in zip(widths, floors, strict=True)]
        i = max(range(len(widths)), key=room.__getitem__)
        if room[i] <= 0:
            break
        widths[i] -= 1
    # Still too wide: labels fold further (to 6), so that numbers need not (Rich would
    # otherwise fold "240" into "24" over "0").
    labels = [i for i, numeric in enumerate(spec.numeric) if not numeric]
    while sum(widths) > budget and labels:
        i = max(labels, key=widths.__getitem__)
        if widths[i] <= 6:
            break
        widths[i] -= 1
    return widths


def rich_table(spec: TableSpec, max_width: int | None = None) -> Table:
    """A Rich table of a spec; every cell is plain Text, so model names are never markup.

    In a terminal too narrow for the natural layout the table drops its vertical
    rules, shortens its headings (:data:`SHORT_HEADINGS`) and narrows the
    columns that can wrap, rather than letting the last columns fall off; where
    even that would fold numbers, its last columns are left out and the caption
    names them.
    """
    spec = shown_spec(spec)
    overhead = 3 * len(spec.columns) + 1
    fits = max_width is None or sum(_natural_widths(spec)) + overhead <= max_width
    widths: list[int | None] = [None] * len(spec.columns)
    padding = (0, 1)
    if not fits and max_width is not None:
        full_names = spec.columns
        spec = replace(spec, columns=[SHORT_HEADINGS.get(c, c) for c in spec.columns])
        # One space between columns and no cell padding: two cells a column. With the
        # padding, nine columns in the app's 72-cell summary folded a count of 60 into
        # "6" over "0" and an interval into "[62.5" / "," / "84.2]".
        padding = (0, 0)
        spec = _without_last_columns(spec, max_width)
        if len(spec.columns) < len(full_names):
            hidden = ", ".join(full_names[len(spec.columns) :])
            spec = replace(spec, note=f"{spec.note} Not shown at this width: {hidden}.".strip())
        widths = list(_fitted_widths(spec, max_width - len(spec.columns) - 1))
    label = _label_column(spec)
    table = Table(
        title=Text(spec.title, style="bold"),  # a str title would be parsed as markup
        title_justify="left",
        caption_justify="left",
        box=box.HEAVY_HEAD if fits else box.SIMPLE_HEAD,
        padding=padding,
    )
    for i, (name, numeric) in enumerate(zip(spec.columns, spec.numeric, strict=True)):
        table.add_column(
            Text(name),
            justify="right" if numeric else "left",
            no_wrap=fits and i == label,  # the model or bucket name, when there is room
            overflow="fold",
            width=widths[i],
        )
    previous = None
    for i, row in enumerate(spec.rows):
        if i in spec.sections and i:
            table.add_section()
            previous = None
        # Rows grouped by model show the model once per group.
        first = "" if len(spec.rows) > 1 and row[0] == previous and not spec.numeric[0] else row[0]
        previous = row[0]
        table.add_row(Text(first), *(Text(cell) for cell in row[1:]))
    if spec.note:
        table.caption = Text(spec.note, style="dim")
    return table


class SpecTable:
    """A table that picks its column widths when it knows the width it is drawn in."""

    def __init__(self, spec: TableSpec) -> None:
        self.spec = spec

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield rich_table(self.spec, options.max_width)


def summary_tables(summary: Summary) -> list[SpecTable]:
    return [SpecTable(spec) for spec in all_tables(summary)]


def summary_renderable(summary: Summary, *, scatter: bool = True) -> RenderableType:
    """Every summary table, then the accuracy-versus-tokens scatter when there is token usage."""
    parts: list[RenderableType] = []
    for warning in summary.warnings:
        parts.append(Text(f"warning: {shown(warning, TEXT_LIMIT)}", style="yellow"))
    for table in summary_tables(summary):
        parts += [table, Text("")]
    points = scatter_points(summary)
    if scatter and points:
        parts.append(AccuracyTokensScatter(points))
    return Group(*parts)
