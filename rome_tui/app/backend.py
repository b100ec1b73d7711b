"""What the app needs from the results store (``scorers.adjudicate.store.ResultsStore``).

A Protocol, so the app's type checks say exactly which part of the store it
relies on (and nothing reaches past it); the real store is passed in by
``rome-tui review``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

from scorers.io.run_paths import ResultsPaths
from scorers.io.run_settings import RunSettings
from scorers.records import HistoryEntry


class ReviewStore(Protocol):
    records: list[dict[str, Any]]
    annotator: str
    settings: RunSettings  # the bucket field (tracker_type)
    paths: ResultsPaths  # the run's name in the title and status line
    warnings: list[str]  # what opening the run found wrong and read past, said on mount

    @property
    def dirty(self) -> bool:
        """True while the journal holds changes the JSON files do not."""
        ...

    def index_of(self, question_id: str) -> int: ...

    def baseline_score(self, i: int) -> Any:
        """Record ``i``'s score before any human override (``scorers.review.machine_score``
        as the run was opened)."""
        ...

    def override(self, question_id: str, score: float, reason: str) -> HistoryEntry: ...

    def undo(self) -> HistoryEntry | None: ...

    def redo(self) -> HistoryEntry | None: ...

    def write_back(self) -> Any: ...

    def reload(self) -> None:
        """Re-read the files and every journal (the way out of a write conflict)."""
        ...


def bucket_field(store: ReviewStore) -> str:
    """The record field that names an item's bucket (ROME's ``tracker_type``)."""
    return store.settings.tracker_type or "task"


def source_name(store: ReviewStore) -> str:
    """``directory/file`` of the results: enough to recognise the run, short enough to fit."""
    path = Path(store.paths.updated)
    return f"{path.parent.name}/{path.name}"


def run_location(store: ReviewStore) -> str:
    """Where the run being edited lives: its directory (its file when that is not
    updated_predictions.json), with the home directory written as ``~``."""
    path = Path(store.paths.updated).absolute()
    place = path.parent if path.name == "updated_predictions.json" else path
    home = Path.home()
    try:
        return "~/" + str(place.relative_to(home)) if place != home else "~"
    except ValueError:
        return str(place)


def run_name(store: ReviewStore) -> str:
    """The results directory's name (the file's too when it is not updated_predictions.json)."""
    name = source_name(store)
    directory, _, file = name.partition("/")
    return directory if file == "updated_predictions.json" else name
