"""Where a record's images are on disk: the paths it names, resolved inside an image root.

A record names its images in the field its benchmark uses:

- ROME: ``img_path``, a path (or a list of paths, for multi-image items whose
  question holds ``<image 1>``, ``<image 2>`` ...) relative to the data root;
- VRC-Bench: ``image`` (the Hugging Face ``Image`` feature: a path, or an object
  with a ``path`` when exported to JSON); ``images`` / ``image_path`` are read too;
- MathReal: ``ImgReal`` (the photographed item, e.g. ``real/0001.jpg`` under the
  release's ``img/`` folder) and ``ImgClean`` (its clean rendering, when there is one).

The paths are resolved against the image root: ``--images DIR`` (kept in
run.json as ``images``), then the record's ``data_root`` under that directory;
without ``--images``, the folder of the annotations file the run was graded
from. Data files must not make the app read arbitrary files, so a path that
leaves its root (``..``, an absolute path, a symlink pointing out) is refused.

Pure file-system logic: no decoding, no drawing (that is ``rome_tui``'s).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Field names in the order their images are numbered (``<image N>``).
IMAGE_FIELDS: tuple[str, ...] = ("img_path", "image_path", "images", "image", "ImgReal", "ImgClean")
DATA_ROOT_FIELD = "data_root"

# Above this a file is not opened at all: no benchmark image comes close, and
# reading it would stall the reviewer for nothing.
MAX_FILE_BYTES = 64 * 1024 * 1024

_MENTION = re.compile(r"<image\s*(\d{1,3})>", re.IGNORECASE)


@dataclass(frozen=True)
class ImageRoots:
    """Where relative image paths are looked up."""

    images_dir: Path | None = None  # --images DIR (or run.json's ``images``)
    annotations_dir: Path | None = None  # the annotations file's folder

    @classmethod
    def of(cls, images: str | os.PathLike[str] | None, annotations: str | None) -> ImageRoots:
        """Roots from the run's settings: ``images`` and the annotations file's path."""
        return cls(
            Path(images) if images else None,
            Path(annotations).parent if annotations else None,
        )


@dataclass(frozen=True)
class ResolvedImage:
    """One image of a record: what the record says and where that leads."""

    number: int  # 1-based: the N of ``<image N>``
    field: str  # the record field it came from
    raw: str  # the path as the record gives it
    path: Path | None  # the resolved path (shown even when it is missing or refused)
    problem: str | None = None  # why it cannot be shown; None when the file is there

    @property
    def label(self) -> str:
        """The path to show: the resolved one, else the record's own words."""
        return str(self.path) if self.path is not None else self.raw

    @property
    def refused(self) -> bool:
        return self.problem is not None and self.problem.startswith("refused")


def _paths_in(value: Any) -> Iterator[str | None]:
    """Path strings in a field's value; None for an entry that holds no path."""
    if isinstance(value, str):
        if value.strip():
            yield value.strip()
    elif isinstance(value, Mapping):
        # The Hugging Face Image feature in JSON: {"path": ..., "bytes": ...}.
        path = value.get("path")
        yield path.strip() if isinstance(path, str) and path.strip() else None
    elif isinstance(value, (list, tuple)):
        for entry in value:
            yield from _paths_in(entry)
    elif value is not None:
        yield None


def image_refs(record: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """(field, path) of every image the record names, in ``<image N>`` order.

    A path named by two fields (a record carrying both ``img_path`` and
    ``image``) counts once; an entry with no usable path keeps its place as None.
    """
    refs: list[tuple[str, str | None]] = []
    seen: set[str] = set()
    for name in IMAGE_FIELDS:
        if name not in record:
            continue
        for path in _paths_in(record[name]):
            if path is not None:
                if path in seen:
                    continue
                seen.add(path)
            refs.append((name, path))
    return refs


def mentioned_images(question: Any) -> list[int]:
    """The N of every ``<image N>`` in the question, in order of first mention."""
    if not isinstance(question, str):
        return []
    found: list[int] = []
    for match in _MENTION.finditer(question):
        number = int(match.group(1))
        if number >= 1 and number not in found:
            found.append(number)
    return found


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _candidates(record: Mapping[str, Any], roots: ImageRoots) -> list[Path]:
    """Roots to try, in order; each keeps the containment of the first (its base)."""
    found: list[Path] = []
    base = roots.images_dir if roots.images_dir is not None else roots.annotations_dir
    if base is None:
        return found
    found.append(base)
    data_root = record.get(DATA_ROOT_FIELD)
    if isinstance(data_root, str) and data_root.strip():
        found.append(base / data_root.strip())
    return found


def resolve_one(raw: str, root: Path, base: Path) -> tuple[Path, str | None]:
    """``raw`` under ``root``: the path, and why it cannot be shown (None if it can).

    ``base`` is the directory nothing may leave (``root`` is it, or a folder in it).
    """
    shown = root / raw
    if os.path.isabs(raw) or raw.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", raw):
        return Path(raw), "refused: an absolute path (paths must be relative to the image root)"
    parts = re.split(r"[\\/]+", raw)
    if ".." in parts:
        return shown, "refused: the path leaves the image root (..)"
    real_base = os.path.realpath(base)
    if not _inside(os.path.realpath(root), real_base):
        return shown, "refused: data_root leaves the image root"
    real = os.path.realpath(shown)
    if not _inside(real, real_base):
        return shown, "refused: a symlink leads out of the image root"
    return shown, file_problem(shown)


def file_problem(path: Path) -> str | None:
    """Why ``path`` is not a file worth decoding (missing, empty, huge...); None if it is."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot read: {exc.strerror or exc}"
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_size == 0:
        return "empty file (0 bytes)"
    if info.st_size > MAX_FILE_BYTES:
        return f"too large to open ({info.st_size / 1024 / 1024:.0f} MB)"
    if not os.access(path, os.R_OK):
        return "cannot read: permission denied"
    return None


def resolve_images(record: Mapping[str, Any], roots: ImageRoots) -> list[ResolvedImage]:
    """Every image of ``record``, resolved against ``roots`` (see the module's docstring)."""
    resolved: list[ResolvedImage] = []
    candidates = _candidates(record, roots)
    for number, (field, raw) in enumerate(image_refs(record), start=1):
        if raw is None:
            # Embedded bytes, or a value that is no text at all (img_path: 5).
            resolved.append(
                ResolvedImage(
                    number,
                    field,
                    "(no path)",
                    None,
                    f"no file path in {field} (embedded data, or not text)",
                )
            )
            continue
        if not candidates:
            resolved.append(
                ResolvedImage(
                    number,
                    field,
                    raw,
                    None,
                    "no image root: give --images DIR (see rome-tui review -h)",
                )
            )
            continue
        base = candidates[0]
        chosen: tuple[Path, str | None] | None = None
        for root in candidates:
            path, problem = resolve_one(raw, root, base)
            if problem is None or problem.startswith("refused"):
                chosen = (path, problem)
                break
            # Missing under every root: report the first place it was looked for.
            chosen = chosen or (path, problem)
        assert chosen is not None
        resolved.append(ResolvedImage(number, field, raw, chosen[0], chosen[1]))
    return resolved
