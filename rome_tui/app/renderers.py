"""Which terminal graphics draw item images, and the textual-image widget for each.

textual-image asks the terminal what it supports (Sixel, the Kitty graphics
protocol) when it is first imported; that must happen before Textual takes
over the terminal, so ``rome-tui review`` calls :func:`choose_renderer` before
the app runs. ``auto`` takes the library's answer, except under tmux, which
passes neither protocol through reliably: half-cells there (two pixels per
character cell, in colour) work in every terminal.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Literal

from rome_tui.app.settings import ImageRenderer

Drawn = Literal["tgp", "sixel", "halfcell", "none"]


def choose_renderer(mode: ImageRenderer) -> Drawn:
    """The renderer ``mode`` means on this terminal (``auto`` detects it)."""
    if mode == "none":
        return "none"
    asked = _import_textual_image()
    if mode != "auto":
        return mode
    if os.environ.get("TMUX") or not asked:
        return "halfcell"
    from textual_image.renderable import Image, SixelImage, TGPImage

    if Image is SixelImage:
        return "sixel"
    if Image is TGPImage:
        return "tgp"
    return "halfcell"


def _import_textual_image() -> bool:
    """Import textual-image now, before the app starts; whether the terminal was asked.

    The import asks the terminal its cell size in pixels and which protocols it
    speaks, and reads the replies from stdin. With no terminal on both ends
    (stdin redirected, output piped) it is imported as if there were none: cells
    of 10 x 20 pixels, no protocol.
    """
    if "textual_image.widget" in sys.modules:
        return _terminal_on_both_ends()
    if _terminal_on_both_ends():
        try:
            import textual_image.widget  # noqa: F401

            return True
        except Exception:  # a terminal that answers nonsense: carry on without asking
            for name in [m for m in sys.modules if m.startswith("textual_image")]:
                del sys.modules[name]
    real = sys.__stdout__
    with open(os.devnull, "w") as nowhere:
        setattr(sys, "__stdout__", nowhere)  # noqa: B010 - textual-image asks only a terminal
        try:
            import textual_image.widget  # noqa: F401
        finally:
            setattr(sys, "__stdout__", real)  # noqa: B010
    return False


def _terminal_on_both_ends() -> bool:
    return bool(
        sys.__stdout__ and sys.__stdout__.isatty() and sys.__stdin__ and sys.__stdin__.isatty()
    )


def image_widget_class(renderer: Drawn) -> Any:
    """The textual-image widget class that draws with ``renderer`` (not for "none")."""
    from textual_image import widget

    if renderer == "sixel":
        return widget.SixelImage
    if renderer == "tgp":
        return widget.TGPImage
    return widget.HalfcellImage
