"""A published release opened as it is: its Parquet file graded into a run directory.

``rome-tui review FILE.parquet`` and ``summary FILE.parquet`` call
:func:`release_run`: the release (rows carrying their own annotation and
published grade, as BAAI/ROME-Evaluated does) is graded once, with no
annotations file, into a run directory beside it (``FILE.rome-tui/``) or where
``--out-dir`` says, and that run is what is reviewed. The release file is only
read; an audit lives in the run directory and its journal, and ``rome-tui
export`` writes the adjudicated table back in the release's schema.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import orjson

from scorers.errors import InputError, UsageError
from scorers.grade.run import grade_files
from scorers.io import parquet
from scorers.io.jsonio import atomic_write_bytes
from scorers.io.parquet import is_parquet
from scorers.io.run_paths import RUN_NAME, UPDATED_NAME, ResultsPaths
from scorers.io.run_settings import RunSettings

RUN_SUFFIX = ".rome-tui"


def is_release(path: str | os.PathLike[str]) -> bool:
    """A Parquet file (a release or any table of rows), not a run directory."""
    return Path(path).is_file() and is_parquet(path)


def default_run_dir(release: str | os.PathLike[str]) -> Path:
    """``data/train-00000.parquet`` -> ``data/train-00000.rome-tui``."""
    p = Path(release)
    return p.with_name(p.stem + RUN_SUFFIX)


def _graded_from(run_dir: Path, release: Path) -> bool:
    """Whether ``run_dir`` already holds a run graded from ``release``."""
    if not (run_dir / UPDATED_NAME).is_file():
        return False
    try:
        settings = orjson.loads((run_dir / RUN_NAME).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return False
    return isinstance(settings, dict) and settings.get("predictions") == str(release)


def release_run(
    release: str | os.PathLike[str],
    out_dir: str | os.PathLike[str] | None = None,
    settings: RunSettings | None = None,
) -> tuple[Path, list[str]]:
    """The run directory of ``release``, graded into it first if it is not yet.

    Returns the directory and the grading's warnings (none when the run was
    there already). A directory holding a run of another file is refused.
    """
    source = Path(release).resolve()
    run_dir = Path(out_dir) if out_dir is not None else default_run_dir(source)
    if _graded_from(run_dir, source):
        return run_dir, []
    if (run_dir / UPDATED_NAME).exists():
        raise UsageError(
            f"{run_dir} holds a run graded from another file; give --out-dir DIR for {source}"
        )
    annotated = _annotated(source)  # before anything is made: a refused file leaves nothing
    created = not run_dir.exists()
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a release in a read-only folder (a mounted dataset, say)
        why = "a file is in its place" if run_dir.is_file() else exc.strerror or str(exc)
        raise UsageError(
            f"cannot create {run_dir} to grade {source} into: {why}; give --out-dir DIR "
            "in a folder you can write"
        ) from None
    paths = ResultsPaths.of(run_dir)
    try:
        if not annotated:
            return run_dir, _import_graded(source, paths)
        result = grade_files(None, str(source), settings or RunSettings(), paths=paths)
    except BaseException:
        if created:  # a file that could not be read leaves no empty FILE.rome-tui/ behind
            shutil.rmtree(run_dir, ignore_errors=True)
        raise
    return run_dir, result.warnings


_ANNOTATION = ("evaluator", "evaluator_kwargs")


def _annotated(source: Path) -> bool:
    """Whether the rows carry their own annotation (else they were graded elsewhere).

    One annotation column without the other is a release that lost a column, not a
    file graded elsewhere: importing it would audit nothing, so it is refused.
    """
    import pyarrow.parquet as pq

    try:
        names = set(pq.read_schema(source).names)
    except (OSError, ValueError):
        return True  # grading reads it and reports what is wrong, naming the file
    present = [name for name in _ANNOTATION if name in names]
    if len(present) == 1:
        (missing,) = (name for name in _ANNOTATION if name not in names)
        raise InputError(
            str(source),
            f"has an {present[0]!r} column but no {missing!r} column: a release's rows "
            "carry both to be graded",
        )
    return len(present) == 2


def _import_graded(source: Path, paths: ResultsPaths) -> list[str]:
    """Rows graded elsewhere with no annotation of their own (a ``correct`` per row):
    copied into the run as they are, and read as any file graded elsewhere is."""
    rows, warnings = parquet.read_rows(str(source))
    if not any("correct" in row for row in rows[:1]):
        raise InputError(
            str(source),
            "neither graded (no 'correct' column) nor annotated (no 'evaluator' and "
            "'evaluator_kwargs' columns): grade it with rome-tui grade --annotations FILE "
            f"--predictions {source} --out-dir DIR",
        )
    atomic_write_bytes(paths.updated, orjson.dumps(rows, option=orjson.OPT_NON_STR_KEYS))
    settings = RunSettings(predictions=str(source))
    atomic_write_bytes(paths.run, settings.to_json())
    said = (
        f"{source}: no 'evaluator' and 'evaluator_kwargs' columns, so nothing is graded: "
        "read as graded elsewhere (each row's 'correct' as its verdict); to grade it, "
        f"rome-tui grade --annotations FILE --predictions {source} --out-dir DIR"
    )
    return [said, *warnings]
