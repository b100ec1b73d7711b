"""Errors a user can act on. Each names the file, the place in it, and the problem.

The CLI turns these into one-line messages and an exit code; a traceback for
bad input is a bug.
"""

from __future__ import annotations

import shlex


def json_type(value: object) -> str:
    """A parsed value's kind as JSON names it, for messages about a file: "got null"
    rather than Python's "got NoneType" ("got list" for an array, "got dict" ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    kinds = ((str, "a string"), ((int, float), "a number"), (list, "an array"), (dict, "an object"))
    for kind, name in kinds:
        if isinstance(value, kind):
            return name
    return type(value).__name__


def json_shown(value: object, width: int = 40) -> str:
    """A wrong value in a message: a string or a number as written (cut to ``width``),
    null and true/false as JSON writes them, a list or an object as its JSON text (cut),
    anything else by its kind (:func:`json_type`). NaN in a file is read as null, so
    this says "got null" where Python's repr said "got None"."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (str, int, float)):
        return f"{value!r:.{width}}"
    if isinstance(value, (list, dict)):
        import orjson

        try:
            return f"{orjson.dumps(value).decode():.{width}}"
        except TypeError:
            pass
    return json_type(value)


class RomeTuiError(Exception):
    """Base of every error the CLI reports without a traceback."""

    exit_code = 1
    # Commands that fix the problem, printed one per line below the message.
    hint: tuple[str, ...] = ()


class InputError(RomeTuiError):
    """A file could not be read as what it should be."""

    exit_code = 2

    def __init__(
        self,
        path: str,
        problem: str,
        *,
        line: int | None = None,
        record: str | int | None = None,
    ) -> None:
        self.path = str(path)
        self.problem = problem
        self.line = line
        self.record = record
        super().__init__(str(self))

    def __str__(self) -> str:
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
        if self.record is not None:
            where += f": record {self.record}"
        return f"{where}: {self.problem}"


class NotGradedError(InputError):
    """Predictions without a single score: the file was never graded."""

    def __init__(self, path: str, *, annotations: bool = False) -> None:
        if annotations:  # records with an evaluator and no answer: the other input of grade
            super().__init__(
                path,
                "not graded: an annotations file (its records carry an evaluator and no "
                "answer); grade a predictions file against it:",
            )
            self.hint = (
                f"  rome-tui grade --annotations {shlex.quote(path)} --predictions "
                "PREDICTIONS.json --out-dir DIR",
            )
            return
        super().__init__(
            path,
            "not graded: no record has a score or a review (a predictions file?); grade it first:",
        )
        self.hint = (
            f"  rome-tui grade --annotations ANNOTATIONS.json --predictions {shlex.quote(path)} "
            "--out-dir DIR",
        )


class UsageError(RomeTuiError):
    """Options that do not fit together."""

    exit_code = 2


class ConflictError(RomeTuiError):
    """Another process changed the results since they were loaded."""

    exit_code = 3


class GradingProcessDied(RomeTuiError):
    """A forked grading process ended before answering (killed, out of memory):
    nothing was written (``scorers.grade.pool``)."""


class EvaluatorError(RomeTuiError):
    """An item's evaluator name or kwargs do not fit; the pipeline adds file and record."""

    exit_code = 2
