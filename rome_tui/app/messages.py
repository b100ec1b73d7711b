"""Typed messages between the app's widgets, screens and workers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from PIL.Image import Image

    from rome_tui.app.images import Decoded
    from scorers.images import ResolvedImage


@dataclass
class WriteBackDone(Message):
    """Both result files were rewritten from the store's current state."""

    seconds: float


@dataclass
class WriteBackConflict(Message):
    """Another process changed the files since they were read: nothing was overwritten."""

    detail: str


@dataclass
class WriteBackFailed(Message):
    """The rewrite failed for another reason (disk full, permissions...)."""

    detail: str


class IndexReady(Message):
    """Every item's row is built: counts, filters and sorting are at full speed."""


@dataclass
class TextsSearched(Message):
    """The words of filter ``query`` were searched in every record's texts (now cached)."""

    query: str


@dataclass
class ImageLoaded(Message):
    """An image pane's worker resolved and decoded the image asked for with ``token``."""

    token: int
    resolved: list[ResolvedImage]  # one per image of the record
    index: int  # which of them was decoded
    decoded: Decoded | None  # None with a problem
    problem: str | None
    preview: Image | None  # sized for the pane
