"""Where a graded run's files are: their names, and which of them a path names.

A results directory holds ``updated_predictions.json`` (the records),
``scores.json``, ``run.json`` (:class:`scorers.io.run_settings.RunSettings`) and
``journal/`` (the reviewers' overrides). A results file of another name (a
harness's ``x_evaluated.json``) has siblings prefixed with its stem instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from scorers.errors import InputError

UPDATED_NAME = "updated_predictions.json"
SCORES_NAME = "scores.json"
RUN_NAME = "run.json"
JOURNAL_NAME = "journal"


@dataclass(frozen=True)
class ResultsPaths:
    directory: Path
    updated: Path
    scores: Path
    run: Path
    journal: Path  # a directory for the override journal (owner: scorers.adjudicate.journal)

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> ResultsPaths:
        """Paths of a results directory or of a results file and its siblings.

        For a file not named updated_predictions.json (e.g. a harness
        ``x_evaluated.json``) the siblings are prefixed with its stem so two
        runs in one directory never share a scores.json.
        """
        p = Path(path)
        if p.is_dir() or (not p.exists() and p.suffix.lower() not in (".json", ".jsonl")):
            return cls(p, p / UPDATED_NAME, p / SCORES_NAME, p / RUN_NAME, p / JOURNAL_NAME)
        directory = p.parent
        if p.name == UPDATED_NAME:
            return cls(
                directory,
                p,
                directory / SCORES_NAME,
                directory / RUN_NAME,
                directory / JOURNAL_NAME,
            )
        stem = p.stem
        return cls(
            directory,
            p,
            directory / f"{stem}.scores.json",
            directory / f"{stem}.run.json",
            directory / f"{stem}.journal",
        )

    def with_scores(self, scores: str | os.PathLike[str] | None) -> ResultsPaths:
        if not scores:
            return self
        return ResultsPaths(self.directory, self.updated, Path(scores), self.run, self.journal)


def refuse_a_file_of_the_run(path: Path) -> None:
    """InputError for a run's scores.json, run.json or journal named where its results are
    expected: read as records, each said only "record 0: expected a JSON object"."""
    journal = path.parent.name == JOURNAL_NAME
    directory = path.parent.parent if journal else path.parent
    if not (directory / UPDATED_NAME).is_file():
        return
    what = {SCORES_NAME: "the run's scores", RUN_NAME: "the run's settings"}.get(path.name)
    if journal and path.suffix == ".jsonl":
        what = "a reviewer's journal"
    if what is not None:
        raise InputError(
            str(path), f"{what}, not the run's results: name the run's directory, {directory}"
        )


def runs_inside(directory: Path) -> list[str]:
    """The run directories just inside ``directory`` (sorted), if it is a folder of runs."""
    try:
        children = sorted(p for p in directory.iterdir() if p.is_dir())
    except OSError:
        return []
    return [str(p) for p in children if (p / UPDATED_NAME).is_file()]
