"""The format of an ``-o/--output`` file, shared by ``export`` and ``summary``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from scorers.errors import UsageError


def output_format(
    given: str | None, output: str | None, suffixes: Mapping[str, str], default: str
) -> str:
    """--format, else the --output name's suffix, else ``default``.

    A suffix naming another format than --format is refused: the file would hold one
    format under the other's name (`-o x.jsonl` once wrote Parquet, `-o s.json` a table).
    """
    implied = suffixes.get(Path(output).suffix.lower()) if output else None
    if given and implied and given != implied:
        raise UsageError(
            f"--output {output} names a {implied} file but --format is {given}: "
            "make them agree (or drop --format)"
        )
    return given or implied or default
