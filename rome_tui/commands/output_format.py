"""The format of an ``-o/--output`` file, shared by ``export`` and ``summary``."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from scorers.errors import UsageError


def output_format(
    given: str | None,
    output: str | None,
    suffixes: Mapping[str, str],
    default: str,
    plain: tuple[str, ...] = ("",),
) -> str:
    """--format, else the --output name's suffix, else ``default`` for a name ending in
    one of ``plain`` (no suffix, say).

    A suffix naming another format than --format is refused: the file would hold one
    format under the other's name (`-o x.jsonl` once wrote Parquet, `-o s.json` a table);
    so is, without --format, a suffix of none of them (`-o x.csv` wrote Parquet, `-o
    s.xlsx` a text table).
    """
    suffix = Path(output).suffix.lower() if output else ""
    implied = suffixes.get(suffix)
    if given and implied and given != implied:
        raise UsageError(
            f"--output {output} names a {implied} file but --format is {given}: "
            "make them agree (or drop --format)"
        )
    if not given and not implied and suffix not in plain:
        bare = ", ".join([*(s for s in plain if s), "none"])
        raise UsageError(
            f"--output {output}: {suffix} is not a format this command writes "
            f"({', '.join(suffixes)}; {bare}: {default}); name the file so, or give --format"
        )
    return given or implied or default
