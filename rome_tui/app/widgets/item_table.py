"""A virtualised item table: draws only the visible rows of a filtered index.

Textual's DataTable measures every cell when rows are added (8.7 s for 50,000
rows); this widget keeps no per-row widgets or cells. It holds the row models
and a list of positions (the current filter and sort) and renders each screen
line on demand with the line API, so its cost is independent of the item count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rome_tui.app.bindings import bindings
from rome_tui.app.items import LazyRows, Row, distinct_parts
from rome_tui.textsafe import one_line

# (key, title, preferred width, narrowest width); id's preferred width follows the data.
_COLUMNS = (
    ("id", "id", 14, 12),
    ("model", "model", 14, 8),
    ("bucket", "bucket", 11, 6),
    ("evaluator", "evaluator", 17, 8),
    ("rome", "rome", 5, 5),
    ("strict", "strict", 6, 6),
    ("release", "release", 7, 7),  # only in a run graded from a release (the published grade)
    ("judge", "judge", 5, 5),
    ("human", "human", 6, 6),
)
_SHRINK_ORDER = ("evaluator", "model", "bucket", "id")  # what gives way first when narrow
_FLAGS_MIN = 12
_FLAGS_NARROWEST = 6  # below _FLAGS_MIN only to spare a horizontal scrollbar (a table row)
_FLAGS_ROOMY = 40  # flags wider than this give their room to cut ids and names, in this order:
_GROW_ORDER = ("id", "evaluator", "model", "bucket")
_WIDEST = 64  # ... each up to its longest value among the first rows, at most this
_TEXTS: dict[str, Callable[[Row], str]] = {
    "id": lambda row: row.qid,
    "evaluator": lambda row: row.evaluator,
    "model": lambda row: row.model,
    "bucket": lambda row: row.bucket,
}
# The column whose title carries the sort arrow, by sort key ("rule" sorts strict, else rome).
_SORT_COLUMN = {"rule": "strict"}
_MARK_WIDTH = 2


def _columns_for(rows: Sequence[Row], models: bool = True) -> tuple[tuple[str, str, int, int], ...]:
    """The columns a run has data for: ``release`` only in a run graded from a release,
    ``judge`` only once a judge has run, ``model`` only if a record names one (a column
    of dashes or blanks would take the room of the ids and the flags)."""
    released = any(row.release is not None for row in rows)
    judged = any(row.judge is not None or row.judge_error for row in rows)
    shown = {"release": released, "judge": judged, "model": models}
    return tuple(column for column in _COLUMNS if shown.get(column[0], True))


def score_text(value: float | None) -> str:
    if value is None:
        return "—"
    if value == int(value):
        return str(int(value))
    return f"{value:.2f}".rstrip("0")


class ItemTable(ScrollView, can_focus=True):
    """Rows of the current view; ``cursor`` is a position in that view."""

    DEFAULT_CSS = """
    ItemTable { background: $surface; }
    ItemTable > .item-table--header { text-style: bold; background: $panel; color: $text; }
    ItemTable > .item-table--cursor { background: $primary 40%; }
    ItemTable:focus > .item-table--cursor { background: $primary; color: $text; }
    ItemTable > .item-table--pass { color: $success; }
    ItemTable > .item-table--fail { color: $error; }
    ItemTable > .item-table--partial { color: $warning; }
    ItemTable > .item-table--flag { color: $warning; }
    ItemTable > .item-table--human { text-style: bold; }
    ItemTable > .item-table--dim { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "item-table--header",
        "item-table--cursor",
        "item-table--pass",
        "item-table--fail",
        "item-table--partial",
        "item-table--flag",
        "item-table--human",
        "item-table--dim",
    }
    BINDINGS = bindings("table")

    cursor: reactive[int] = reactive(0, init=False, always_update=True)

    class CursorMoved(Message):
        """The highlighted item changed (coalesced: only the latest matters)."""

        def __init__(self, table: ItemTable, position: int, by_view: bool = False) -> None:
            super().__init__()
            self.table = table
            self.position = position
            self.by_view = by_view  # placed by a new view (a filter, a sort), not moved to

        def can_replace(self, message: Message) -> bool:
            return isinstance(message, ItemTable.CursorMoved)

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self.rows: Sequence[Row] = ()
        self.view: list[int] = []
        self.sort_key = "order"  # "order": the file's order, no column marked
        self.sort_reverse = False
        self._id_width = 14
        self._longest: dict[str, int] = {}
        self._columns = _columns_for(())
        self._model_labels: dict[str, str] = {}
        self._width_cache: tuple[tuple[object, ...], dict[str, int]] | None = None

    # --- data -------------------------------------------------------------------------

    def set_view(self, rows: Sequence[Row], view: list[int], cursor: int = 0) -> None:
        if rows is not self.rows:
            # A model name too long for its column shows the part that tells it from the
            # run's other models: "gemini-…" twice told nobody which model an item is.
            self._model_labels = (
                rows.model_labels
                if isinstance(rows, LazyRows)
                else distinct_parts(row.model for row in rows)
            )
            self._columns = _columns_for(rows, models=any(self._model_labels))
            self._width_cache = None
        self.rows = rows
        self.view = view
        if rows:
            first = [rows[p] for p in view[:200]]
            longest = max((cell_len(row.qid) for row in first), default=8)
            self._id_width = max(12, min(32, longest + 1))
            self._longest = {  # as drawn: a control character shows as one cell
                name: max((cell_len(one_line(text(row), _WIDEST)) for row in first), default=0)
                for name, text in _TEXTS.items()
            }
        self.virtual_size = Size(self._line_width(), len(view) + 1)
        self.set_reactive(ItemTable.cursor, max(0, min(cursor, len(view) - 1)))
        self._scroll_cursor_into_view()
        self.refresh()
        self.post_message(self.CursorMoved(self, self.cursor, by_view=True))

    @property
    def current(self) -> Row | None:
        if 0 <= self.cursor < len(self.view):
            return self.rows[self.view[self.cursor]]
        return None

    def position_of(self, row_index: int) -> int | None:
        for position, pos in enumerate(self.view):
            if self.rows[pos].index == row_index:
                return position
        return None

    # --- cursor -----------------------------------------------------------------------

    def watch_cursor(self, old: int, new: int) -> None:
        clamped = max(0, min(new, len(self.view) - 1))
        if clamped != new:
            self.set_reactive(ItemTable.cursor, clamped)
        self._scroll_cursor_into_view()
        self.refresh()
        self.post_message(self.CursorMoved(self, self.cursor))

    def _scroll_cursor_into_view(self) -> None:
        body = max(1, self.scrollable_content_region.height - 1)
        top = round(self.scroll_y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False, immediate=True)
        elif self.cursor >= top + body:
            self.scroll_to(y=self.cursor - body + 1, animate=False, immediate=True)

    def action_cursor(self, delta: int) -> None:
        self.cursor = self.cursor + delta

    def action_page(self, direction: int) -> None:
        page = max(1, self.scrollable_content_region.height - 2)
        self.cursor = self.cursor + direction * page

    def action_jump(self, position: int) -> None:
        self.cursor = position if position >= 0 else len(self.view) - 1

    def on_click(self, event: events.Click) -> None:
        if event.y >= 1:
            self.cursor = round(self.scroll_y) + event.y - 1

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self._line_width(), len(self.view) + 1)

    def watch_show_vertical_scrollbar(self) -> None:
        # The columns fit the width left beside the vertical scrollbar: when it comes or
        # goes (an empty view, then a full one) the line width follows, or a horizontal
        # scrollbar would take a table row.
        self.virtual_size = Size(self._line_width(), len(self.view) + 1)

    # --- drawing ----------------------------------------------------------------------

    def _widths(self) -> dict[str, int]:
        """Column widths for the current size: narrow terminals shrink the text columns
        (evaluator first) so the scores and flags stay visible."""
        available = self.scrollable_content_region.width
        key = (available, self._id_width, *self._longest.values())
        if self._width_cache is not None and self._width_cache[0] == key:
            return self._width_cache[1]
        widths = {name: width for name, _, width, _ in self._columns}
        widths["id"] = self._id_width
        narrowest = {name: low for name, _, _, low in self._columns}
        excess = _MARK_WIDTH + sum(w + 1 for w in widths.values()) + _FLAGS_MIN + 1 - available
        for name in _SHRINK_ORDER:
            if excess <= 0:
                break
            if name not in widths:
                continue
            give = min(excess, widths[name] - narrowest[name])
            widths[name] -= max(0, give)
            excess -= max(0, give)
        used = _MARK_WIDTH + sum(w + 1 for w in widths.values())
        room = available - used - 1  # every cell ends in a space
        # A wide terminal shows a long id or evaluator whole ("gemini-2.5-pro/question_
        # academic_11", "ordered_list_matching") rather than cut beside a flags column
        # of blanks.
        for name in _GROW_ORDER:
            if name in widths and name in self._longest:
                grow = min(min(_WIDEST, self._longest[name]) - widths[name], room - _FLAGS_ROOMY)
                if grow > 0:
                    widths[name] += grow
                    room -= grow
        widths["flags"] = room if _FLAGS_NARROWEST <= room < _FLAGS_MIN else max(_FLAGS_MIN, room)
        self._width_cache = (key, widths)
        return widths

    def _line_width(self) -> int:
        return _MARK_WIDTH + sum(w + 1 for w in self._widths().values())

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"item-table--{name}", partial=True)

    def _score_style(self, value: float | None) -> Style:
        if value is None:
            return self._style("dim")
        if value >= 1:
            return self._style("pass")
        if value <= 0:
            return self._style("fail")
        return self._style("partial")

    # Widths are in terminal cells, not characters: a CJK character or an emoji takes
    # two, and a cell measured in characters pushed every later column to the right.
    @staticmethod
    def _cell(text: str, width: int) -> str:
        text = one_line(text, width + 1)
        if cell_len(text) > width:
            text = set_cell_size(text, width - 1) + "…"
        return set_cell_size(text, width) + " "

    def _model_label(self, model: str, width: int) -> str:
        if cell_len(model) <= width:
            return model
        return self._model_labels.get(model, model)

    @staticmethod
    def _cell_tail(text: str, width: int) -> str:
        """Like ``_cell`` but keeps the end: ids differ at their end ("…/question_geo_2")."""
        text = one_line(text, 1000)
        if cell_len(text) > width:
            start, room = len(text), width - 1
            while start > 0 and cell_len(text[start - 1 :]) <= room:
                start -= 1
            text = "…" + text[start:]
        return set_cell_size(text, width) + " "

    def _header(self) -> list[Segment]:
        style = self._style("header")
        w = self._widths()
        marked = _SORT_COLUMN.get(self.sort_key, self.sort_key)
        arrow = "↓" if self.sort_reverse else "↑"
        parts = [" " * _MARK_WIDTH]
        for name, title, _, _ in self._columns:
            if name == marked:  # the arrow survives a narrow column; the title gives way
                if len(title) + 2 <= w[name]:
                    title = f"{title} {arrow}"
                else:
                    title = title[: w[name] - 1] + arrow
            parts.append(self._cell(title, w[name]))
        flags_title = "flags" + (arrow if marked == "flags" else "")
        said = f"{flags_title}   sorted by {self.sort_key} {arrow}"
        if self.sort_key != "order" and len(said) <= w["flags"]:
            flags_title = said
        parts.append(self._cell(flags_title, w["flags"]))
        return [Segment("".join(parts), style)]

    def _row_segments(self, row: Row) -> list[Segment]:
        base = Style()
        w = self._widths()
        mark = (
            "! "
            if row.conflict or row.stale
            else ("✓ " if row.reviewed else ("• " if row.flags else "  "))
        )
        segments = [
            Segment(
                mark, self._style("flag") if mark.strip() in ("•", "!") else self._style("pass")
            ),
            Segment(self._cell_tail(row.qid, w["id"]), base),
        ]
        if "model" in w:
            model = self._cell(self._model_label(row.model, w["model"]), w["model"])
            segments.append(Segment(model, base))
        segments += [
            Segment(self._cell(row.bucket, w["bucket"]), base),
            Segment(self._cell(row.evaluator, w["evaluator"]), self._style("dim")),
            Segment(self._cell(score_text(row.rome), w["rome"]), self._score_style(row.rome)),
            Segment(self._cell(score_text(row.strict), w["strict"]), self._score_style(row.strict)),
        ]
        if "release" in w:
            release = self._cell(score_text(row.release), w["release"])
            segments.append(Segment(release, self._score_style(row.release)))
        if "judge" in w:
            judge = self._cell("err" if row.judge_error else score_text(row.judge), w["judge"])
            style = self._style("fail") if row.judge_error else self._score_style(row.judge)
            segments.append(Segment(judge, style))
        human_style = self._score_style(row.human) + self._style("human")
        segments.append(Segment(self._cell(score_text(row.human), w["human"]), human_style))
        flags = f"{row.flag_count} " + ", ".join(row.flags) if row.flags else ""
        segments.append(Segment(self._cell(flags, w["flags"]), self._style("flag")))
        return segments

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        scroll_x, scroll_y = self.scroll_offset
        if y == 0:
            segments = self._header()
        else:
            position = scroll_y + y - 1
            if position >= len(self.view):
                return Strip.blank(width, self.rich_style)
            segments = self._row_segments(self.rows[self.view[position]])
            if position == self.cursor:
                cursor = self._style("cursor")
                segments = [Segment(s.text, (s.style or Style()) + cursor) for s in segments]
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width, self.rich_style).apply_style(self.rich_style)
