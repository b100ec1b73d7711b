"""What a directory about to be graded into already holds, and whether grading may replace it.

Grading writes a run's files whole. Into a run graded from the same inputs that
is a re-grade (a fixed evaluator, edited annotations): its journal stays and is
replayed onto the new files, so no override is lost. Into a run graded from
other inputs, or one whose origin is unknown but which holds a reviewer's
journal, it would replace someone's results and mix their overrides with
another run's items: refused unless the caller says ``overwrite``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import orjson

from scorers.adjudicate.journal import journal_files
from scorers.errors import UsageError
from scorers.io.run_paths import ResultsPaths


@dataclass(frozen=True)
class ExistingRun:
    """The run files found where grading will write."""

    paths: ResultsPaths
    results: tuple[Path, ...]  # updated_predictions.json / scores.json present
    graded_from: tuple[str | None, str | None] | None  # run.json's (annotations, predictions)
    journal_lines: int  # overrides, undos and redos journaled, all reviewers
    reviewers: tuple[str, ...]

    def same_inputs(self, annotations: str | None, predictions: str) -> bool:
        if self.graded_from is None:
            return False
        return self.graded_from == (_real(annotations), _real(predictions))

    def described(self) -> str:
        parts = []
        if self.graded_from is not None:
            annotations, predictions = self.graded_from
            parts.append(f"a run graded from {predictions}")
            if annotations:
                parts[-1] += f" and {annotations}"
        elif self.results:
            parts.append(
                ", ".join(p.name for p in self.results)
                + f" of unknown origin (no readable {self.paths.run.name})"
            )
        if self.journal_lines:
            who = ", ".join(self.reviewers)
            parts.append(f"a journal of {self.journal_lines} override line(s) by {who}")
        return " with ".join(parts)


def _real(path: str | None) -> str | None:
    return os.path.realpath(path) if path else None


def _graded_from(run: Path) -> tuple[str | None, str | None] | None:
    try:
        settings = orjson.loads(run.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    if not isinstance(settings, dict) or not isinstance(settings.get("predictions"), str):
        return None
    annotations = settings.get("annotations")
    return (
        _real(annotations if isinstance(annotations, str) else None),
        _real(settings["predictions"]),
    )


def _lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return 0


def existing_run(paths: ResultsPaths) -> ExistingRun | None:
    """What of a run is at ``paths``; None when grading there replaces nothing of one."""
    results = tuple(p for p in (paths.updated, paths.scores) if p.is_file())
    graded_from = _graded_from(paths.run) if paths.run.is_file() else None
    journals = [(p.stem, _lines(p)) for p in journal_files(paths.journal)]
    journals = [(who, n) for who, n in journals if n]
    if not results and graded_from is None and not journals:
        return None
    return ExistingRun(
        paths,
        results,
        graded_from,
        sum(n for _, n in journals),
        tuple(who for who, _ in journals),
    )


def check_target(
    paths: ResultsPaths,
    annotations: str | None,
    predictions: str,
    *,
    overwrite: bool,
    chosen: bool,
) -> ExistingRun | None:
    """The run grading would replace at ``paths``, or UsageError (exit 2) if that loses work.

    ``chosen``: the directory was named (--out-dir), not taken from beside the
    predictions file, where the reference grader's own output of unknown origin
    is replaced as the reference itself would.
    """
    found = existing_run(paths)
    if found is None or overwrite or found.same_inputs(annotations, predictions):
        return found
    unknown = found.graded_from is None
    if unknown and not found.journal_lines and not chosen:
        return found
    where = f"--out-dir {paths.directory}" if chosen else str(paths.directory)
    raise UsageError(
        f"{where} already holds {found.described()}; grading {predictions} into it would "
        "replace that run's results. Choose another --out-dir, or add --overwrite to "
        "replace them (a journal is kept and replayed: overrides of answers that changed "
        "are marked stale)"
    )
