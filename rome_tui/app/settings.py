"""User settings of the review app, from the rome-tui config file.

``~/.config/rome-tui/config.toml`` (or ``$ROME_TUI_CONFIG``) may hold a
``[keymap]`` table that rebinds keys by binding id, as Textual's keymaps do::

    [keymap]
    next-flagged = "ctrl+n"
    score-0 = "0,m"

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

import os
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rome_tui.app.bindings import REGISTRY, SCOPE_TITLES, KeySpec, Scope
from scorers.adjudicate.annotator import config_path, read_config
from scorers.errors import InputError, UsageError

ImageRenderer = Literal["auto", "tgp", "sixel", "halfcell", "none"]
IMAGE_RENDERERS: tuple[ImageRenderer, ...] = ("auto", "tgp", "sixel", "halfcell", "none")
IMAGES_ENV = "ROME_TUI_IMAGES"


def _load_config() -> dict[str, Any]:
    """The config file as a table; empty when there is no file."""
    return read_config(config_path()) or {}


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
    """Binding id -> keys from the config file; empty when there is no file or table.

    Two ids the file binds to one key where both can be live at once (an item
    table key and a review screen key, say) are an InputError: neither is the
    obvious winner. A key the file takes from a built-in binding is allowed, as
    Textual's keymaps intend, and reported by :func:`keymap_warnings`.
    """
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
    rebound = {name: keys.strip() for name, keys in keymap.items()}
    for clash in key_clashes(rebound):
        if clash.both_configured:
            raise InputError(
                str(path),
                f"[keymap] {clash.spec.id} and {clash.other.id} are both bound to "
                f"{clash.key!r} ({clash.spec.description} / {clash.other.description}): "
                "give one of them another key",
            )
    return rebound


# Bindings of these scopes are live at the same time: the app's everywhere, the
# review screen's with whichever of its widgets has focus. The item table and the
# text panes never have focus together, and the full-screen image view has only
# its own keys and the app's.
_LIVE_TOGETHER = {
    frozenset({"review", "table"}),
    frozenset({"review", "text"}),
}


def _live_together(a: Scope, b: Scope) -> bool:
    return a == b or "app" in (a, b) or frozenset({a, b}) in _LIVE_TOGETHER


@dataclass(frozen=True)
class KeyClash:
    key: str
    spec: KeySpec  # a binding the config file rebinds
    other: KeySpec  # another live at the same time with the same key
    both_configured: bool
    # The binding the key runs where both are live: the more specific scope's; on one
    # screen or widget, the keymap's (Textual drops the other's key). None: both
    # configured there, which load_keymap refuses.
    runs: KeySpec | None


def _keys(spec: KeySpec, keymap: dict[str, str]) -> set[str]:
    """The keys a binding answers to: the keymap's replace its own (Textual's rule)."""
    return {k.strip() for k in keymap.get(spec.id, spec.keys).split(",") if k.strip()}


# Which binding a key reaches first: the focused widget's, then its screen's, then
# the app's. The app's shown keys are repeated on the review screen
# (bindings.screen_bindings), so there they rank with the screen's.
_WIDGET_SCOPES = ("table", "text")


# Textual's own app keys, with priority: they are taken before any binding of ours.
_TEXTUAL_KEYS = (
    KeySpec("ctrl+q", "ctrl+q", "quit", "Quit", "Textual's quit", "app", priority=True),
    KeySpec("ctrl+p", "ctrl+p", "command_palette", "Command palette", "", "app", priority=True),
)


def _rank(spec: KeySpec, beside: KeySpec) -> int:
    if spec.priority:
        return 3
    if spec.scope in _WIDGET_SCOPES:
        return 2
    if spec.scope != "app":
        return 1
    return 1 if spec.show and beside.scope != "image" else 0


def key_clashes(keymap: dict[str, str]) -> list[KeyClash]:
    """Every key a configured binding shares with another binding live at the same time."""
    clashes = []
    for spec in REGISTRY:
        if spec.id not in keymap:
            continue
        mine = _keys(spec, keymap)
        for other in REGISTRY + _TEXTUAL_KEYS:
            if other.id == spec.id or not _live_together(spec.scope, other.scope):
                continue
            both = other.id in keymap
            if both and other.id < spec.id:
                continue  # reported once, from the first id
            mine_rank, other_rank = _rank(spec, other), _rank(other, spec)
            runs = (
                (spec if mine_rank > other_rank else other)
                if mine_rank != other_rank
                else (None if both else spec)
            )
            # A key both have by default is shared on purpose (q quits, but closes
            # the full-screen image view): only what the keymap adds is a clash.
            built_in = _keys(spec, {}) & _keys(other, {})
            for key in sorted(mine & _keys(other, keymap) - built_in):
                clashes.append(KeyClash(key, spec, other, both, runs))
    return clashes


def _named(spec: KeySpec) -> str:
    return f"{spec.id} ({spec.description}, {SCOPE_TITLES[spec.scope].lower()})"


def keymap_warnings(keymap: dict[str, str]) -> list[str]:
    """A key the config file gives a binding that another binding also has, one line
    each, naming the file, the key and both bindings, and which of them gets it."""
    path = config_path()
    lines = []
    for c in key_clashes(keymap):
        if c.both_configured:
            continue  # load_keymap refuses these
        head = f"{path}: [keymap] {c.spec.id} = {c.key!r} ({c.spec.description})"
        if c.other in _TEXTUAL_KEYS:
            if c.spec.action.removeprefix("app.") == c.other.action:
                continue  # the same thing either way (quit = "ctrl+q")
            lines.append(
                f"{head}: Textual's {c.other.description.lower()} takes {c.key!r} first, "
                f"everywhere, so it never runs {c.spec.id}"
            )
        elif c.runs is c.other:
            where = SCOPE_TITLES[c.other.scope].lower()
            lines.append(f"{head}: in the {where}, {c.key!r} runs {c.other.id} instead")
        elif c.spec.scope != c.other.scope and c.other.scope == "app":
            where = SCOPE_TITLES[c.spec.scope].lower()
            lines.append(f"{head}: in the {where}, {c.key!r} no longer runs {_named(c.other)}")
        else:
            left = sorted(_keys(c.other, {}) - {c.key})
            if left:
                keeps = ", ".join(left)
            elif c.other.scope in ("app", "review"):
                keeps = "no key (the command palette, ctrl+p, still runs it)"
            else:
                keeps = "no key"
            lines.append(f"{head} takes it from {_named(c.other)}, which keeps {keeps}")
    return lines


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
