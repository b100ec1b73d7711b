"""Who is adjudicating: the annotator name recorded with every override.

Resolution order: an explicit option, then ``$ROME_TUI_ANNOTATOR``, then
``annotator = "..."`` in ``~/.config/rome-tui/config.toml`` (``$XDG_CONFIG_HOME``
honoured), then the login name. The config file is read only when a name is
needed, never at import.
"""

from __future__ import annotations

import getpass
import os
import re
import sys
from pathlib import Path
from typing import Any

from scorers.errors import InputError

ENV_VAR = "ROME_TUI_ANNOTATOR"
CONFIG_ENV_VAR = "ROME_TUI_CONFIG"

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def config_path() -> Path:
    explicit = os.environ.get(CONFIG_ENV_VAR)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "rome-tui" / "config.toml"


def _load_toml(data: bytes, path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # the same parser, published as tomli before it joined the standard library
        import tomli as tomllib  # type: ignore[import-not-found,no-redef,unused-ignore]
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"invalid TOML: {exc}") from None


def read_config(path: Path) -> dict[str, Any] | None:
    """The settings in the config file at ``path`` (``config_path()``), or None when it cannot
    be read; invalid TOML is an InputError naming it. The one reader of the file: the
    annotator's name, the judge's prices (``judges/cost.py``) and the app's keymap and image
    settings (``rome_tui/app/settings.py``) all come from it."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    return _load_toml(data, path)


def configured_annotator() -> str | None:
    path = config_path()
    config = read_config(path)
    value = None if config is None else config.get("annotator")
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip():
        raise InputError(str(path), "`annotator` must be a non-empty string")
    return value.strip()


def login_name() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no USER/LOGNAME and no passwd entry (some containers)
        return "unknown"


def resolve_annotator(option: str | None = None) -> str:
    """The annotator name: option, environment, config file, login name."""
    for candidate in (option, os.environ.get(ENV_VAR)):
        if candidate is not None and candidate.strip():
            return candidate.strip()
    return configured_annotator() or login_name()


def file_stem(annotator: str) -> str:
    """A file-name-safe stem for the annotator's journal.

    Names that had to be changed get a short hash so that "a b" and "a_b"
    never share a journal file; so do names too long for a file name (most file
    systems stop at 255 bytes, and the journal adds ".jsonl").
    """
    safe = _UNSAFE.sub("_", annotator).strip("._") or "annotator"
    if safe != annotator or len(safe.encode()) > 200:
        import hashlib

        safe = f"{safe[:60]}-{hashlib.sha256(annotator.encode()).hexdigest()[:8]}"
    return safe
