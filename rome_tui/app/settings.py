"""User settings of the review app, from the rome-tui config file.

``~/.config/rome-tui/config.toml`` (or ``$ROME_TUI_CONFIG``) may hold a
``[keymap]`` table that rebinds keys by binding id, as Textual's keymaps do::

    [keymap]
    next-flagged = "ctrl+n"
    score-0 = "0,z"

The ids are those of ``rome_tui.app.bindings.REGISTRY`` (the help screen lists
them). An ``[images]`` table says how item images are drawn::

    [images]
    renderer = "halfcell"   # auto (default), tgp, sixel, halfcell or none

``$ROME_TUI_IMAGES`` overrides it, for a terminal that misreports itself.
A ``[review]`` table holds the review screen's settings::

    [review]
    advance_after_override = "todo"   # or "always", "never"

The file is read when the app starts, never at import.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from typing import Any, Literal, cast, get_args

from rome_tui.app.bindings import REGISTRY
from scorers.adjudicate.annotator import config_path
from scorers.errors import InputError, UsageError

ImageRenderer = Literal["auto", "tgp", "sixel", "halfcell", "none"]
IMAGE_RENDERERS: tuple[ImageRenderer, ...] = ("auto", "tgp", "sixel", "halfcell", "none")
IMAGES_ENV = "ROME_TUI_IMAGES"


def _load_config() -> dict[str, Any]:
    """The config file as a table; empty when there is no file (or no tomllib: Python 3.10)."""
    path = config_path()
    try:
        data = path.read_bytes()
    except OSError:
        return {}
    try:
        tomllib: Any = importlib.import_module("tomllib")
    except ModuleNotFoundError:  # Python 3.10: the config file needs 3.11's tomllib
        return {}
    try:
        config = tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(str(path), f"invalid TOML: {exc}") from None
    return cast(dict[str, Any], config)


def load_image_renderer() -> ImageRenderer:
    """How images are drawn: $ROME_TUI_IMAGES, else ``[images] renderer``, else auto."""
    value = os.environ.get(IMAGES_ENV, "").strip().lower()
    where = f"${IMAGES_ENV}"
    if not value:
        table = _load_config().get("images", {})
        if not isinstance(table, dict):
            raise InputError(str(config_path()), '[images] must be a table: renderer = "auto"')
        raw = table.get("renderer", "auto")
        value = raw.strip().lower() if isinstance(raw, str) else repr(raw)
        where = f"{config_path()}: [images] renderer"
    if value not in IMAGE_RENDERERS:
        raise UsageError(f"{where} = {value!r}: must be one of {', '.join(IMAGE_RENDERERS)}")
    return value


def load_keymap() -> dict[str, str]:
    """Binding id -> keys from the config file; empty when there is no file or table."""
    path = config_path()
    config = _load_config()
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


# After an override, move the cursor to the next flagged, unreviewed item:
# "todo" while the to-do queue (is:todo) is the filter, "always", or "never".
Advance = Literal["todo", "always", "never"]


@dataclass(frozen=True)
class ReviewSettings:
    advance_after_override: Advance = "todo"


def load_review_settings() -> ReviewSettings:
    """The ``[review]`` table's settings; defaults for what the file leaves out."""
    path = str(config_path())
    table = _load_config().get("review", {})
    if not isinstance(table, dict):
        raise InputError(path, "[review] must be a table of settings")
    unknown = sorted(set(table) - {"advance_after_override"})
    if unknown:
        raise InputError(path, f"[review] {unknown[0]}: no such setting")
    advance = table.get("advance_after_override", "todo")
    if advance not in get_args(Advance):
        choices = ", ".join(f'"{a}"' for a in get_args(Advance))
        raise InputError(path, f"[review] advance_after_override must be one of {choices}")
    return ReviewSettings(advance)
