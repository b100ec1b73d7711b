"""The full-screen image view: zoom and pan for small text and far-away signs.

Opened with ``v`` on the review screen at the image its pane shows. The image
is decoded once (the app's cache, in a worker); zooming and panning crop the
cached copy, so they cost no decoding.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, Static

from rome_tui.app.bindings import bindings
from rome_tui.app.images import Decoded, ImageOptions, fit, open_externally, zoomed
from rome_tui.app.messages import ImageLoaded
from rome_tui.app.status import short_path
from rome_tui.app.widgets.footer import FittedFooter
from rome_tui.app.widgets.image_pane import placeholder_text
from rome_tui.textsafe import one_line
from scorers.images import ResolvedImage

ZOOMS = (1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0)
PAN_STEP = 0.1  # of the visible part, per key press
VIEW_PIXELS = 1600  # at most, on a large Sixel or Kitty terminal
CELL_PIXELS = (10, 20)  # a typical character cell, as textual-image assumes without a reply


def view_pixels(renderer: str, columns: int, rows: int) -> tuple[int, int]:
    """Pixels worth handing the widget for a view of ``columns`` x ``rows`` cells."""
    if renderer == "halfcell":
        return max(1, columns), max(1, rows * 2)  # one pixel wide, two high per cell
    return (
        min(VIEW_PIXELS, max(1, columns) * CELL_PIXELS[0]),
        min(VIEW_PIXELS, max(1, rows) * CELL_PIXELS[1]),
    )


def source_for(decoded: Decoded, zoom: float, width: int, height: int) -> Image.Image:
    """The smallest cached copy that still has the pixels a view of width x height needs."""
    small = decoded.preview  # its visible part at ``zoom`` is 1/zoom of it
    if small.width >= width * zoom and small.height >= height * zoom:
        return small
    return decoded.image


class ImageScreen(Screen[None]):
    BINDINGS = bindings("image")
    DEFAULT_CSS = """
    ImageScreen #image-status { height: 1; background: $panel; padding: 0 1; }
    ImageScreen Middle { height: 1fr; }
    ImageScreen .picture { width: auto; height: auto; }
    ImageScreen #image-note { width: auto; max-width: 100%; height: auto; padding: 1 2; }
    """

    def __init__(self, images: list[ResolvedImage], index: int, options: ImageOptions) -> None:
        super().__init__()
        self.images = images
        self.index = index
        self.options = options
        self.zoom_level = 0
        self.cx = self.cy = 0.5
        self.decoded: Decoded | None = None
        self.problem: str | None = None
        self.token = 0
        self.picture: Widget | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="image-status")
        with Middle(), Center():
            if self.options.renderer != "none":
                from rome_tui.app.renderers import image_widget_class

                self.picture = image_widget_class(self.options.renderer)(None, classes="picture")  # type: ignore[arg-type]
                yield self.picture
            yield Static(id="image-note")
        yield FittedFooter()

    def on_mount(self) -> None:
        self.load()

    @property
    def current(self) -> ResolvedImage:
        return self.images[self.index]

    def load(self) -> None:
        self.token += 1
        self.decoded, self.problem = None, None
        self.zoom_level, self.cx, self.cy = 0, 0.5, 0.5
        self.update_status()
        image = self.current
        if image.problem is not None or image.path is None or self.options.renderer == "none":
            self.problem = image.problem or ("drawing is off" if image.path else "no path")
            self.draw()
            return
        self.decode(self.token, image.path)

    @work(
        thread=True, exclusive=True, group="image-decode", name="decode image", exit_on_error=False
    )
    def decode(self, token: int, path: Path) -> None:
        loaded = self.options.cache.load(path)
        decoded = None if isinstance(loaded, str) else loaded
        problem = loaded if isinstance(loaded, str) else None
        self.post_message(ImageLoaded(token, self.images, self.index, decoded, problem, None))

    @on(ImageLoaded)
    def image_loaded(self, message: ImageLoaded) -> None:
        if message.token != self.token:
            return
        self.decoded, self.problem = message.decoded, message.problem
        self.draw()

    def draw(self) -> None:
        note = self.query_one("#image-note", Static)
        if self.decoded is None:
            if self.picture is not None:
                self.picture.display = False
            note.display = True
            note.update(placeholder_text(self.current, self.problem or "no image"))
            self.update_status()
            return
        width, height = view_pixels(self.options.renderer, self.size.width, self.size.height - 2)
        zoom = ZOOMS[self.zoom_level]
        source = source_for(self.decoded, zoom, width, height)
        part, self.cx, self.cy = zoomed(source, zoom, self.cx, self.cy)
        if self.picture is not None:
            self.picture.image = fit(part, width, height)  # type: ignore[attr-defined]
            self.picture.display = True
        note.display = False
        self.update_status()

    def update_status(self) -> None:
        image = self.current
        line = Text()
        line.append(f"image {image.number}/{len(self.images)}", style="bold")
        # Short facts first: a narrow terminal cuts the line from the right.
        if self.decoded is not None:
            line.append(f" · zoom {ZOOMS[self.zoom_level]:g}×", style="bold")
            line.append(f" · {self.decoded.size_text}", style="dim")
        hint = Text("  (arrows pan)" if self.zoom_level else "", style="dim")
        # The path keeps its end (the file's name) in the room left on the one line.
        room = self.size.width - 2 - line.cell_len - 3 - hint.cell_len
        line.append(f" · {short_path(one_line(image.label, 1000), max(12, room))}")
        line.append_text(hint)
        self.query_one("#image-status", Static).update(line)

    # --- actions ---------------------------------------------------------------------

    def on_resize(self) -> None:
        # Narrow terminals keep the footer for the image keys (ctrl+p still works).
        self.query_one(Footer).show_command_palette = self.app.size.width >= 100
        if self.decoded is not None:
            self.draw()
        else:
            self.update_status()

    def action_zoom(self, step: int) -> None:
        if self.decoded is None:
            return
        level = min(max(self.zoom_level + step, 0), len(ZOOMS) - 1)
        if step == 0:
            level, self.cx, self.cy = 0, 0.5, 0.5
        if level != self.zoom_level or step == 0:
            self.zoom_level = level
            self.draw()

    def action_pan(self, dx: int, dy: int) -> None:
        if self.decoded is None or self.zoom_level == 0:
            return
        visible = 1 / ZOOMS[self.zoom_level]
        self.cx += dx * PAN_STEP * visible
        self.cy += dy * PAN_STEP * visible
        self.draw()

    def action_image(self, step: int) -> None:
        if len(self.images) < 2:
            self.notify("This item has one image.")
            return
        self.index = (self.index + step) % len(self.images)
        self.load()

    def action_open(self) -> None:
        open_image(self, self.current)

    def action_close(self) -> None:
        self.dismiss(None)


def open_image(screen: Screen[Any], image: ResolvedImage | None) -> None:
    """Open ``image`` in the system's viewer, or say why not (never blocks)."""
    if image is None or image.path is None:
        screen.notify("No image to open.")
        return
    if image.refused or image.problem == "no such file":
        screen.notify(
            f"{one_line(image.label, 200)}: {image.problem}",
            title="Not opened",
            severity="warning",
            markup=False,
        )
        return
    problem = open_externally(image.path)
    if problem is not None:
        screen.notify(
            f"{problem}; the file is {one_line(image.label, 200)}",
            title="No image viewer",
            severity="warning",
            markup=False,
        )
    else:
        screen.notify(f"opened {one_line(image.label, 200)}", markup=False)
