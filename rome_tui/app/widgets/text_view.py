"""A read-only, line-virtualised text pane for long reasoning traces.

The text is split into wrapped display lines once per width (a list of
offsets, no copies), and only the visible lines are turned into strips, so a
200 KB trace opens and scrolls as fast as a short one. Highlight spans are
character offsets into a block's text, which is how flag evidence is stored.
Text is drawn as plain segments: markup in it is never interpreted.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.cells import cell_len, get_character_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from rome_tui.app.bindings import bindings
from rome_tui.textsafe import visible

_UNWRAPPED = 1 << 40  # the "width" a paragraph is cut at when lines are kept whole


@dataclass
class Mark:
    start: int
    end: int
    style: Style
    tag: str = ""  # e.g. "evidence:3": lets the owner find and restyle a mark


@dataclass
class Block:
    """A run of text with one base style and highlighted spans."""

    text: str
    style: Style = field(default_factory=Style)
    marks: list[Mark] = field(default_factory=list)
    indent: int = 0

    def __post_init__(self) -> None:
        self.text = visible(self.text)


def _chop(text: str, start: int, end: int, width: int, ascii_only: bool) -> list[tuple[int, int]]:
    """Display lines of ``text[start:end]`` (one paragraph) at ``width`` cells."""
    if end - start <= width and (ascii_only or cell_len(text[start:end]) <= width):
        return [(start, end)]
    lines: list[tuple[int, int]] = []
    pos = start
    while pos < end:
        if ascii_only:
            stop = min(end, pos + width)
        else:
            cells, stop = 0, pos
            while stop < end:
                cells += get_character_cell_size(text[stop])
                if cells > width:
                    break
                stop += 1
            stop = max(stop, pos + 1)
        if stop < end:
            # Break after the last space of the line (the one just past its last cell
            # included: it ends the line's last word), so a word is cut only when it is
            # longer than the line. A break in the second half alone cut "straightforward"
            # in a 24-cell pane.
            space = text.rfind(" ", pos + 1, stop + 1)
            if space != -1:
                stop = space + 1
        lines.append((pos, stop))
        pos = stop
    return lines


class TextView(ScrollView, can_focus=True):
    DEFAULT_CSS = """
    TextView { background: $surface; }
    TextView > .text-view--evidence { background: $warning 35%; }
    TextView > .text-view--match { background: $primary 60%; }
    TextView > .text-view--current { background: $warning; color: $background; text-style: bold; }
    TextView > .text-view--heading { text-style: bold; color: $accent; }
    TextView > .text-view--dim { color: $text-muted; }
    """
    COMPONENT_CLASSES = {
        "text-view--evidence",
        "text-view--match",
        "text-view--current",
        "text-view--heading",
        "text-view--dim",
    }
    BINDINGS = bindings("text")

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's name)
        super().__init__(id=id)
        self.blocks: list[Block] = []
        self._lines: list[tuple[int, int, int]] = []  # (block, start, end)
        self._wrapped_width = -1
        self._line_cells = 0  # the longest display line, for the sideways scroll when unwrapped
        # Unwrapped, each line of the text is one display line and the pane scrolls
        # sideways: a markdown table wrapped cell by cell cannot be read as a table.
        self.wrap = True
        self.titles: tuple[str, ...] = ()  # border titles, longest first: the first that fits

    def style_of(self, name: str) -> Style:
        return self.get_component_rich_style(f"text-view--{name}", partial=True)

    def set_blocks(self, blocks: list[Block]) -> None:
        self.blocks = blocks
        self._wrapped_width = -1
        self._rewrap()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def line_text(self, y: int) -> str:
        block, start, end = self._lines[y]
        return self.blocks[block].text[start:end]

    def _wrap_width(self) -> int:
        if not self.wrap:
            return _UNWRAPPED
        return max(10, self.scrollable_content_region.width - 1)

    def _rewrap(self) -> None:
        width = self._wrap_width()
        if width == self._wrapped_width:
            return
        self._wrapped_width = width
        lines: list[tuple[int, int, int]] = []
        for number, block in enumerate(self.blocks):
            text = block.text
            ascii_only = text.isascii()
            usable = max(4, width - block.indent)
            pos = 0
            while True:
                newline = text.find("\n", pos)
                stop = len(text) if newline == -1 else newline
                if stop == pos:
                    lines.append((number, pos, pos))
                else:
                    lines.extend(
                        (number, a, b) for a, b in _chop(text, pos, stop, usable, ascii_only)
                    )
                if newline == -1:
                    break
                pos = newline + 1
        self._lines = lines
        if self.wrap:
            self._line_cells = width
        else:
            self._line_cells = max(
                (self.blocks[b].indent + cell_len(self.blocks[b].text[s:e]) for b, s, e in lines),
                default=0,
            )
        self.virtual_size = Size(self._line_cells, len(lines))

    def action_toggle_wrap(self) -> None:
        self.wrap = not self.wrap
        self._wrapped_width = -1
        self._rewrap()
        self.scroll_to(x=0, animate=False, immediate=True)
        self.refresh()
        self.notify(
            "Long lines wrapped again."
            if self.wrap
            else "Lines kept whole: ← → (h l) scroll sideways; z wraps them again."
        )

    def action_scroll_columns(self, delta: int) -> None:
        self.scroll_to(x=self.scroll_x + delta, animate=False)

    def on_resize(self, event: events.Resize) -> None:
        self._rewrap()
        if self.titles:
            # A title cut to "Question · answer · r…" reads as broken: take one that fits.
            room = self.size.width - 6  # corners, the rule before the title, its spaces
            fitting = [title for title in self.titles if len(title) <= room]
            self.border_title = fitting[0] if fitting else self.titles[-1]

    def line_of(self, block: int, offset: int) -> int | None:
        """The display line showing character ``offset`` of ``block``."""
        found: int | None = None
        for y, (number, start, _end) in enumerate(self._lines):
            if number > block:
                break
            if number == block:
                if start > offset:
                    break
                found = y  # the last line of the block starting at or before offset
        return found

    def scroll_to_mark(self, block: int, offset: int, also: int | None = None) -> None:
        """Scroll so character ``offset`` of ``block`` sits a third of the way down;
        with ``also`` (a block), so that block's first line is in view too, or, when
        both cannot be, that block alone."""
        self._rewrap()
        y = self.line_of(block, offset)
        if y is None:
            return
        height = max(1, self.scrollable_content_region.height)
        target = max(0, y - height // 3)
        keep = None if also is None else self.line_of(also, 0)
        if keep is not None and not target <= keep < target + height - 1:
            target = max(0, keep - height + 2)  # the block on the last lines
            if y < target:
                target = max(0, keep - height // 3)
        x = 0.0
        if not self.wrap:  # lines kept whole: bring the mark's column into view too
            number, start, _end = self._lines[y]
            text = self.blocks[number].text
            cells = self.blocks[number].indent + cell_len(text[start:offset])
            x = max(0, cells - self.scrollable_content_region.width // 3)
        # Right after set_blocks the new virtual size is not laid out yet and an
        # immediate scroll would be clamped to the old text's height.
        self.scroll_to(x=x, y=target, animate=False, immediate=True)
        self.call_after_refresh(self.scroll_to, x=x, y=target, animate=False, immediate=True)
        self.refresh()

    def action_scroll_lines(self, delta: int) -> None:
        self.scroll_to(y=self.scroll_y + delta, animate=False)

    def action_scroll_pages(self, delta: int) -> None:
        page = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_y + delta * page, animate=False)

    def render_line(self, y: int) -> Strip:
        self._rewrap()
        width = self.scrollable_content_region.width
        _, scroll_y = self.scroll_offset
        index = scroll_y + y
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        number, start, end = self._lines[index]
        block = self.blocks[number]
        segments = [Segment(" " * block.indent)] if block.indent else []
        cuts = {start, end}
        for mark in block.marks:
            if mark.start < end and mark.end > start:
                cuts.add(max(start, mark.start))
                cuts.add(min(end, mark.end))
        points = sorted(cuts)
        for a, b in zip(points, points[1:], strict=False):
            style = block.style
            for mark in block.marks:
                if mark.start <= a and mark.end >= b and mark.start < mark.end:
                    style = style + mark.style
            segments.append(Segment(block.text[a:b], style))
        scroll_x = self.scroll_offset[0] if not self.wrap else 0
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width, self.rich_style).apply_style(self.rich_style)
