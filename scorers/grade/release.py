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
from pathlib import Path

import orjson

from scorers.errors import UsageError
from scorers.grade.run import grade_files
from scorers.io.parquet import is_parquet
from scorers.io.results import RUN_NAME, UPDATED_NAME, ResultsPaths, RunSettings

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
    run_dir.mkdir(parents=True, exist_ok=True)
    result = grade_files(
        None, str(source), settings or RunSettings(), paths=ResultsPaths.of(run_dir)
    )
    return run_dir, result.warnings
