"""Typed messages between the app's widgets, screens and workers."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message


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
