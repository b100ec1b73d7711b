"""What the app needs from the results store (``scorers.adjudicate.store.ResultsStore``).

A Protocol, so the app's type checks say exactly which part of the store it
relies on; the real store is passed in by ``rome-tui review``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from scorers.records import HistoryEntry


class ReviewStore(Protocol):
    records: list[dict[str, Any]]
    annotator: str

    def index_of(self, question_id: str) -> int: ...

    def override(self, question_id: str, score: float, reason: str) -> HistoryEntry: ...

    def undo(self) -> HistoryEntry | None: ...

    def redo(self) -> HistoryEntry | None: ...

    def write_back(self) -> Any: ...


def bucket_field(store: object) -> str:
    """The record field that names an item's bucket (ROME's ``tracker_type``)."""
    settings = getattr(store, "settings", None)
    return str(getattr(settings, "tracker_type", None) or "task")


def source_name(store: object) -> str:
    """``directory/file`` of the results: enough to recognise the run, short enough to fit."""
    paths = getattr(store, "paths", None)
    updated = getattr(paths, "updated", None)
    if updated is None:
        return "results"
    path = Path(updated)
    return f"{path.parent.name}/{path.name}"


def baseline_getter(store: object) -> Callable[[int], Any] | None:
    """The store's score-before-overrides of record ``i``, when the store keeps one."""
    getter = getattr(store, "baseline_score", None)
    return getter if callable(getter) else None


def run_location(store: object) -> str:
    """Where the run being edited lives: its directory (its file when that is not
    updated_predictions.json), with the home directory written as ``~``."""
    paths = getattr(store, "paths", None)
    updated = getattr(paths, "updated", None)
    if updated is None:
        return run_name(store)
    path = Path(updated).absolute()
    place = path.parent if path.name == "updated_predictions.json" else path
    home = Path.home()
    try:
        return "~/" + str(place.relative_to(home)) if place != home else "~"
    except ValueError:
        return str(place)


def run_name(store: object) -> str:
    """The results directory's name (the file's too when it is not updated_predictions.json)."""
    name = source_name(store)
    directory, _, file = name.partition("/")
    return directory if file == "updated_predictions.json" else name
