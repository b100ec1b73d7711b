"""Data derived from installed packages, built once per machine instead of once per process.

Strict mode indexes GeoNames cities, CLDR territory names and multiplier words,
and loads a language identifier: seconds of work that every grading process
repeated (``rome-tui grade`` runs two), against an orjson floor of about two
seconds for 100,000 realistic records. :func:`disk_cached` keeps the built value
in a pickle under the user's cache directory (``$ROME_TUI_CACHE_DIR``, else
``$XDG_CACHE_HOME/rome-tui``, else ``~/.cache/rome-tui``), named by a hash of the
source file of the function that builds it and of the versions of the packages
it reads: changing either builds it again. Writes are atomic; a cache that
cannot be read or written is rebuilt in memory, never an error.
``ROME_TUI_CACHE_DIR=off`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable
from functools import wraps
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


def cache_dir() -> Path | None:
    """Where derived data is kept; None when turned off."""
    configured = os.environ.get("ROME_TUI_CACHE_DIR")
    if configured is not None:
        return None if configured.strip().lower() in ("", "off", "0", "none") else Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rome-tui"


def _key(func: Callable[..., Any], packages: tuple[str, ...]) -> str:
    digest = hashlib.sha256()
    module = sys.modules.get(func.__module__)
    source = getattr(module, "__file__", None)
    try:
        digest.update(Path(source).read_bytes() if source else func.__qualname__.encode())
    except OSError:
        digest.update(func.__qualname__.encode())
    digest.update(f"{sys.version_info[:2]}".encode())
    for package in packages:
        try:
            version = metadata.version(package)
        except metadata.PackageNotFoundError:
            version = "?"
        digest.update(f"{package}={version};".encode())
    return digest.hexdigest()[:20]


def disk_cached(*packages: str) -> Callable[[Callable[[], T]], Callable[[], T]]:
    """Cache a function of no arguments in this process and on disk (see module doc).

    ``packages`` are the distributions whose data the function reads.
    """

    def decorate(func: Callable[[], T]) -> Callable[[], T]:
        held: list[T] = []

        @wraps(func)
        def cached() -> T:
            if held:
                return held[0]
            value = _load_or_build(func, packages)
            held.append(value)
            return value

        return cached

    return decorate


def _load_or_build(func: Callable[[], T], packages: tuple[str, ...]) -> T:
    folder = cache_dir()
    if folder is None:
        return func()
    path = folder / f"{func.__module__}.{func.__qualname__}-{_key(func, packages)}.pickle"
    try:
        with open(path, "rb") as f:
            value: T = pickle.load(f)
        return value
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError, ValueError):
        pass
    value = func()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=path.name, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass  # an unwritable or full cache: the value is still good
    return value
