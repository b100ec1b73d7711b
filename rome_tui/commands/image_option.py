"""The ``--images DIR`` option shared by ``grade``, ``judge`` and ``review``."""

from __future__ import annotations

import os
from typing import Any

from scorers.errors import UsageError

HELP = (
    "folder the items' image paths (img_path, image, ImgReal...) are relative to; kept in "
    "run.json (default: the run's, else the annotations file's folder)"
)


def add_images_option(parser: Any) -> None:
    parser.add_argument("--images", metavar="DIR", default=None, help=HELP)


def images_dir(value: str | None) -> str | None:
    """The absolute path of ``--images DIR`` (run.json outlives the working directory)."""
    if value is None:
        return None
    if not os.path.isdir(value):
        raise UsageError(f"--images {value}: not a directory")
    return os.path.abspath(value)
