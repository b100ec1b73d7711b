"""The image pane of the detail view: the selected item's image, or a line saying why not.

The record's image paths are resolved and decoded in a named worker
(``image-decode``); the pane shows the result only if it is still the item and
image asked for (a token), so fast cursor moves never show a stale picture. A
path that cannot be shown (missing, empty, corrupt, enormous, outside the image
root) becomes one line naming the resolved path and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from rome_tui.app.images import Decoded, ImageOptions
from rome_tui.app.messages import ImageLoaded
from rome_tui.textsafe import one_line
from scorers.images import ImageRoots, ResolvedImage, image_refs, mentioned_images, resolve_images


def image_options(widget: Widget) -> ImageOptions:
    """The app's image options (a default for an app that has none)."""
    options = getattr(widget.app, "image_options", None)
    if isinstance(options, ImageOptions):
        return options
    fallback = ImageOptions("none", ImageRoots())
    widget.app.image_options = fallback  # type: ignore[attr-defined]
    return fallback


def placeholder_text(image: ResolvedImage | None, problem: str) -> Text:
    """The one line shown instead of a picture: what is wrong, then the resolved path.

    The problem comes first so that a narrow pane, which wraps the line, still
    shows it whole at the top.
    """
    line = Text()
    line.append("⚠ ", style="bold yellow")
    line.append(problem, style="yellow")
    if image is not None:
        line.append(f" · <image {image.number}> ", style="bold")
        line.append(one_line(image.label, 300))
    return line


class ImagePane(Vertical):
    """The selected item's images, one at a time ([ and ] step through them)."""

    DEFAULT_CSS = """
    ImagePane {
        width: 30%; min-width: 16; height: 1fr;
        border: round $panel; padding: 0;
        align: center middle;
    }
    ImagePane.-none, ImagePane.-off { display: none; }
    ImagePane > .picture { width: auto; height: auto; }
    ImagePane > #image-note { width: 1fr; height: auto; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 - Textual's name
        super().__init__(id=id)
        self.record: Mapping[str, Any] | None = None
        self.resolved: list[ResolvedImage] = []
        self.count = 0
        self.index = 0
        self.token = 0
        self.decoded: Decoded | None = None
        self.problem: str | None = None
        self.picture: Widget | None = None

    def compose(self) -> ComposeResult:
        options = image_options(self)
        if options.renderer != "none":
            from rome_tui.app.renderers import image_widget_class

            self.picture = image_widget_class(options.renderer)(None, classes="picture")  # type: ignore[arg-type]
            yield self.picture
        yield Static(id="image-note")

    def on_mount(self) -> None:
        self.set_class(True, "-none")
        self.set_class(not image_options(self).pane_shown, "-off")

    @property
    def note(self) -> Static:
        return self.query_one("#image-note", Static)

    # --- what to show ------------------------------------------------------------

    def clear(self) -> None:
        self.record, self.resolved, self.count, self.index = None, [], 0, 0
        self.token += 1
        self.set_class(True, "-none")

    def show(self, record: Mapping[str, Any]) -> None:
        """Show the first image of ``record`` (the pane hides when it names none)."""
        self.record = record
        self.count = len(image_refs(record))
        self.resolved = []
        self.set_class(self.count == 0, "-none")
        if self.count:
            self.load(0)
        else:
            self.token += 1

    def step(self, step: int) -> bool:
        """Show the next (or previous) image of a multi-image item; False when there is none."""
        if self.record is None or self.count < 2:
            return False
        self.load((self.index + step) % self.count)
        return True

    def toggle(self) -> bool:
        """Hide or show the pane; whether it is shown now (kept across items)."""
        options = image_options(self)
        options.pane_shown = not options.pane_shown
        self.set_class(not options.pane_shown, "-off")
        if options.pane_shown and self.record is not None and self.count:
            self.load(self.index)
        return options.pane_shown

    def resolve_now(self) -> list[ResolvedImage]:
        """The record's images, resolved here if the worker has not done it (pane hidden)."""
        if not self.resolved and self.record is not None and self.count:
            self.resolved = resolve_images(self.record, image_options(self).roots)
        return self.resolved

    @property
    def current(self) -> ResolvedImage | None:
        if 0 <= self.index < len(self.resolved):
            return self.resolved[self.index]
        return None

    def load(self, index: int) -> None:
        self.index = index
        self.token += 1
        self._titles(None)
        self.note.update(Text("loading…", style="dim"))
        self.note.display = True
        if self.picture is not None:
            self.picture.display = False
        if self.record is None or not image_options(self).pane_shown:
            return
        self.decode_image(self.token, self.record, index)

    @work(
        thread=True, exclusive=True, group="image-decode", name="decode image", exit_on_error=False
    )
    def decode_image(self, token: int, record: Mapping[str, Any], index: int) -> None:
        options = image_options(self)
        resolved = resolve_images(record, options.roots)
        image = resolved[index] if index < len(resolved) else None
        decoded: Decoded | None = None
        preview = None
        problem = image.problem if image is not None else "no such image"
        if get_current_worker().is_cancelled:
            return  # the reviewer moved on before decoding began: spare the CPU
        if image is not None and problem is None and image.path is not None:
            if options.renderer == "none":
                problem = None
            else:
                loaded = options.cache.load(image.path)
                if isinstance(loaded, str):
                    problem = loaded
                else:
                    decoded = loaded
                    preview = loaded.preview
        self.post_message(ImageLoaded(token, resolved, index, decoded, problem, preview))

    @on(ImageLoaded)
    def image_loaded(self, message: ImageLoaded) -> None:
        message.stop()
        if message.token != self.token:
            return  # an older request: the reviewer has moved on
        self.resolved = message.resolved
        self.decoded = message.decoded
        self.problem = message.problem
        image = self.current
        self._titles(image)
        if message.preview is not None and self.picture is not None:
            self.picture.image = message.preview  # type: ignore[attr-defined]
            self.picture.display = True
            self.note.display = False
            return
        if self.picture is not None:
            self.picture.display = False
        self.note.display = True
        if message.problem is None and image is not None:
            # Drawing is off (ROME_TUI_IMAGES=none): the path is still worth knowing.
            self.note.update(Text(f"<image {image.number}> {one_line(image.label, 300)}"))
        else:
            self.note.update(placeholder_text(image, message.problem or "no image"))

    def _titles(self, image: ResolvedImage | None) -> None:
        number = self.index + 1
        title = f"Image {number}/{self.count}" if self.count > 1 else "Image"
        question = self.record.get("question") if self.record is not None else None
        if self.count and number in mentioned_images(question):
            title += f" · <image {number}>"
        if self.count > 1 and len(title) > self.size.width - 6:  # a narrow pane: keep "2/3"
            title = title.removeprefix("Image ")
        self.border_title = title
        if image is None:
            self.border_subtitle = ""
            return
        size = f" · {self.decoded.size_text}" if self.decoded is not None else ""
        self.border_subtitle = one_line(Path(image.raw).name, 40) + size
