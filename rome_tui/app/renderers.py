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
    # Imported here, before the app starts: the import asks the terminal its cell
    # size in pixels and which protocols it speaks.
    import textual_image.widget  # noqa: F401

    if mode != "auto":
        return mode
    if os.environ.get("TMUX") or not (sys.__stdout__ and sys.__stdout__.isatty()):
        return "halfcell"
    from textual_image.renderable import Image, SixelImage, TGPImage

    if Image is SixelImage:
        return "sixel"
    if Image is TGPImage:
        return "tgp"
    return "halfcell"


def image_widget_class(renderer: Drawn) -> Any:
    """The textual-image widget class that draws with ``renderer`` (not for "none")."""
    from textual_image import widget

    if renderer == "sixel":
        return widget.SixelImage
    if renderer == "tgp":
        return widget.TGPImage
    return widget.HalfcellImage
