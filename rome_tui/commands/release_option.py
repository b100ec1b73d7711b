"""A Parquet release named where a run is expected, shared by ``review`` and ``summary``."""

from __future__ import annotations

from pathlib import Path

from rome_tui.console import note


def release_run_for(command: str, release: str, out_dir: str | None) -> tuple[str, list[str]]:
    """The run directory of a Parquet release and the grading's warnings, graded into
    it first if need be; the first time says so (a folder appeared beside the release
    with no word of why)."""
    from scorers.grade.release import default_run_dir, release_run
    from scorers.io.run_paths import UPDATED_NAME

    target = Path(out_dir) if out_dir is not None else default_run_dir(Path(release).resolve())
    fresh = not (target / UPDATED_NAME).exists()
    run_dir, graded = release_run(release, out_dir)
    if fresh:
        note(command, f"graded {release} into {run_dir} (once: later commands read that run)")
    return str(run_dir), graded
