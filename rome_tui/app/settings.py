"""User settings of the review app, from the rome-tui config file.

``~/.config/rome-tui/config.toml`` (or ``$ROME_TUI_CONFIG``) may hold a
``[keymap]`` table that rebinds keys by binding id, as Textual's keymaps do::

    [keymap]
    next-flagged = "ctrl+n"
    score-0 = "0,z"

The ids are those of ``rome_tui.app.bindings.REGISTRY`` (the help screen lists
them). The file is read when the app starts, never at import.
"""

from __future__ import annotations

import importlib
from typing import Any

from rome_tui.app.bindings import REGISTRY
from scorers.adjudicate.annotator import config_path
from scorers.errors import InputError


def load_keymap() -> dict[str, str]:
    """Binding id -> keys from the config file; empty when there is no file or table."""
    path = config_path()
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    try:
        tomllib: Any = importlib.import_module("tomllib")
    except ModuleNotFoundError:  # Python 3.10: keymaps need 3.11's tomllib
        return {}
    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"invalid TOML: {exc}") from None
    keymap = config.get("keymap", {})
    if not isinstance(keymap, dict):
        raise InputError(str(path), '[keymap] must be a table of binding id = "keys"')
    known = {spec.id for spec in REGISTRY}
    for name, keys in keymap.items():
        if name not in known:
            raise InputError(
                str(path), f"[keymap] {name}: no binding has this id (see ? in the app)"
            )
        if not isinstance(keys, str) or not keys.strip():
            raise InputError(str(path), f"[keymap] {name}: keys must be a non-empty string")
    return {name: keys.strip() for name, keys in keymap.items()}
