"""The one registry of key bindings: footer, help screen and command palette read it.

Each entry has an id (so a user keymap can rebind it with ``App.set_keymap``),
the action it runs, a description for the footer and palette, and a tooltip
for the help screen. ``scope`` says which widget or screen owns the binding:
the footer shows a binding only where its owner has focus or is active.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from textual.screen import Screen

Scope = Literal["app", "review", "table", "text", "image"]

SCOPE_TITLES: dict[Scope, str] = {
    "app": "Anywhere",
    "review": "Review screen",
    "table": "Item table",
    "text": "Reasoning and answer panes",
    "image": "Full-screen image view",
}


@dataclass(frozen=True)
class KeySpec:
    id: str
    keys: str
    action: str
    description: str
    tooltip: str
    scope: Scope
    show: bool = True
    key_display: str | None = None
    priority: bool = False
    group: str | None = None  # footer: consecutive keys of one group share a label


REGISTRY: tuple[KeySpec, ...] = (
    KeySpec(
        "help",
        "question_mark",
        "app.help",
        "Help",
        "List every key and what it does",
        "app",
        key_display="?",
    ),
    KeySpec("quit", "q", "app.quit", "Quit", "Leave the app; saved overrides stay saved", "app"),
    KeySpec(
        "summary",
        "t",
        "app.summary",
        "Summary",
        "Accuracy overall and per bucket, before and after overrides",
        "app",
    ),
    KeySpec(
        "filter",
        "slash",
        "filter",
        "Filter",
        "Type to filter: words (also in the question, reference, reasoning, answer), text:T flag:KIND bucket:B eval:E model:M score:0|1|partial|none|0.5 is:todo|reviewed|unreviewed|overridden|flagged|unflagged|stale|conflict; a - before a part negates it; Enter or Esc returns to the table",
        "review",
        key_display="/",
    ),
    KeySpec(
        "back",
        "escape",
        "focus_table",
        "Back to items",
        "Leave the filter (Enter does too) or a text pane and return to the item table",
        "review",
        key_display="Esc",  # shown only away from the table (ReviewScreen.check_action)
    ),
    KeySpec(
        "next-pane",
        "tab",
        "focus_pane(1)",
        "Next pane",
        "Move between the item table and the two text panes (never into the filter: / enters it)",
        "review",
        show=False,
    ),
    KeySpec(
        "prev-pane",
        "shift+tab",
        "focus_pane(-1)",
        "Previous pane",
        "Move between the panes the other way",
        "review",
        show=False,
    ),
    KeySpec(
        "clear-filter",
        "x",
        "clear_filter",
        "Clear filter",
        "Show every item again",
        "review",
        show=False,
    ),
    KeySpec(
        "todo",
        "f",
        "toggle_todo",
        "To do",
        "Show only flagged items nobody has reviewed yet (is:todo)",
        "review",
    ),
    KeySpec(
        "compare",
        "c",
        "compare",
        "Compare",
        "Every model's answer to this question (qid:ID); again: back",
        "review",
        show=False,
    ),
    KeySpec(
        "next-flagged",
        "n",
        "next_flagged",
        "Next",
        "Jump to the next flagged item nobody has reviewed",
        "review",
    ),
    KeySpec(
        "prev-flagged",
        "p",
        "prev_flagged",
        "Prev flagged",
        "Jump to the previous flagged, unreviewed item",
        "review",
        show=False,
    ),
    KeySpec(
        "score-0",
        "0",
        "override('0')",
        "Score 0",
        "Override: mark wrong (asks for a reason)",
        "review",
        group="Score",
    ),
    KeySpec(
        "score-1",
        "1",
        "override('1')",
        "Score 1",
        "Override: mark right (asks for a reason)",
        "review",
        group="Score",
    ),
    KeySpec(
        "score-value",
        "equals_sign",
        "override('')",
        "Score…",
        "Override with a typed score between 0 and 1, for partial credit",
        "review",
        key_display="=",
        group="Score",
    ),
    KeySpec(
        "accept",
        "a",
        "override('keep')",
        "Agree",
        "Record that you checked the item and agree with its current score",
        "review",
    ),
    KeySpec(
        "undo", "u", "undo", "Undo", "Undo the last override (journaled like an override)", "review"
    ),
    KeySpec(
        "redo",
        "U,ctrl+y",
        "redo",
        "Redo",
        "Redo the override undone last",
        "review",
        key_display="U",
    ),
    KeySpec(
        "next-evidence",
        "e",
        "evidence(1)",
        "Evidence",
        "Jump to the next flag evidence or filter word",
        "review",
    ),
    KeySpec(
        "prev-evidence",
        "E",
        "evidence(-1)",
        "Prev evidence",
        "Jump to the previous evidence or filter word",
        "review",
        show=False,
    ),
    KeySpec(
        "sort",
        "s",
        "sort",
        "Sort",
        "Sort by the next column (order, id, model, bucket, evaluator, rule, judge, human, flags)",
        "review",
    ),
    KeySpec("reverse", "r", "reverse", "Reverse", "Reverse the sort order", "review", show=False),
    KeySpec(
        "save",
        "w",
        "save",
        "Write files",
        "Rewrite updated_predictions.json and scores.json now (also done after every override)",
        "review",
        show=False,
    ),
    KeySpec(
        "reload",
        "ctrl+r",
        "reload",
        "Reload",
        "Re-read the files and every journal (after another process changed them), then write both",
        "review",
        show=False,
    ),
    KeySpec(
        "image-pane",
        "i",
        "toggle_image",
        "Image pane",
        "Hide or show the item's image beside the text (kept from item to item)",
        "review",
        show=False,
    ),
    KeySpec(
        "image-view",
        "v",
        "view_image",
        "View image",
        "Show the item's image full screen, with zoom and pan",
        "review",
        show=False,
    ),
    KeySpec(
        "image-next",
        "right_square_bracket",
        "image(1)",
        "Next image",
        "Next image of a multi-image item (<image 2>, <image 3>...)",
        "review",
        show=False,
        key_display="]",
    ),
    KeySpec(
        "image-prev",
        "left_square_bracket",
        "image(-1)",
        "Prev image",
        "Previous image of a multi-image item",
        "review",
        show=False,
        key_display="[",
    ),
    KeySpec(
        "image-open",
        "o",
        "open_image",
        "Open image",
        "Open the image file in the system's image viewer (xdg-open / open)",
        "review",
        show=False,
    ),
    KeySpec("cursor-down", "down,j", "cursor(1)", "Down", "Next item", "table", show=False),
    KeySpec("cursor-up", "up,k", "cursor(-1)", "Up", "Previous item", "table", show=False),
    KeySpec("page-down", "pagedown", "page(1)", "Page down", "Down one page", "table", show=False),
    KeySpec("page-up", "pageup", "page(-1)", "Page up", "Up one page", "table", show=False),
    KeySpec("first", "home,g", "jump(0)", "First", "First item", "table", show=False),
    KeySpec("last", "end,G", "jump(-1)", "Last", "Last item", "table", show=False),
    KeySpec(
        "scroll-down",
        "down,j",
        "scroll_lines(1)",
        "Scroll down",
        "Scroll the text down",
        "text",
        show=False,
    ),
    KeySpec(
        "scroll-up",
        "up,k",
        "scroll_lines(-1)",
        "Scroll up",
        "Scroll the text up",
        "text",
        show=False,
    ),
    KeySpec(
        "text-page-down",
        "pagedown,space",
        "scroll_pages(1)",
        "Page down",
        "Scroll the text down a page",
        "text",
        show=False,
    ),
    KeySpec(
        "text-page-up",
        "pageup,b",
        "scroll_pages(-1)",
        "Page up",
        "Scroll the text up a page",
        "text",
        show=False,
    ),
    KeySpec(
        "text-wrap",
        "z",
        "toggle_wrap",
        "Wrap",
        "Wrap long lines, or keep each line whole and scroll it sideways (a wide table)",
        "text",
        show=False,
    ),
    KeySpec(
        "scroll-left",
        "left,h",
        "scroll_columns(-8)",
        "Scroll left",
        "Scroll unwrapped text left",
        "text",
        show=False,
    ),
    KeySpec(
        "scroll-right",
        "right,l",
        "scroll_columns(8)",
        "Scroll right",
        "Scroll unwrapped text right",
        "text",
        show=False,
    ),
    KeySpec("text-top", "home,g", "scroll_home", "Top", "Start of the text", "text", show=False),
    KeySpec("text-end", "end,G", "scroll_end", "End", "End of the text", "text", show=False),
    KeySpec(
        "view-zoom-in",
        "plus,equals_sign",
        "zoom(1)",
        "Zoom in",
        "Magnify (up to 8x), for small text and far-away signs",
        "image",
        key_display="+",
    ),
    KeySpec("view-zoom-out", "minus", "zoom(-1)", "Zoom out", "Zoom back out", "image"),
    KeySpec("view-fit", "0", "zoom(0)", "Fit", "The whole image again", "image", show=False),
    KeySpec(
        "view-left", "left,h", "pan(-1,0)", "Pan left", "Move the view left", "image", show=False
    ),
    KeySpec(
        "view-right", "right,l", "pan(1,0)", "Pan right", "Move the view right", "image", show=False
    ),
    KeySpec("view-up", "up,k", "pan(0,-1)", "Pan up", "Move the view up", "image", show=False),
    KeySpec(
        "view-down", "down,j", "pan(0,1)", "Pan down", "Move the view down", "image", show=False
    ),
    KeySpec(
        "view-next",
        "right_square_bracket,n",
        "image(1)",
        "Next image",
        "Next image of a multi-image item",
        "image",
        key_display="]",
    ),
    KeySpec(
        "view-prev",
        "left_square_bracket,p",
        "image(-1)",
        "Prev image",
        "Previous image of a multi-image item",
        "image",
        key_display="[",
    ),
    KeySpec(
        "view-open",
        "o",
        "open",
        "Open",
        "Open the file in the system's image viewer",
        "image",
    ),
    KeySpec(
        "view-close",
        "escape,v,q",
        "close",
        "Back",
        "Back to the review screen",
        "image",
        key_display="Esc",
    ),
)


# The footer shows keys in this order and drops what does not fit, so the keys a
# reviewer cannot do without come first (an 80-column terminal shows these).
FOOTER_ORDER: tuple[str, ...] = (
    "filter",
    "next-flagged",
    "score-0",
    "score-1",
    "score-value",
    "next-evidence",
    "undo",
    "summary",
    "help",
    "quit",
)


def _binding(spec: KeySpec) -> Binding:
    return Binding(
        spec.keys,
        spec.action,
        spec.description,
        show=spec.show,
        key_display=spec.key_display,
        priority=spec.priority,
        tooltip=spec.tooltip,
        id=spec.id,
        group=_GROUPS[spec.group] if spec.group else None,
    )


_GROUPS: dict[str, Binding.Group] = {"Score": Binding.Group("Score")}


def bindings(scope: Scope) -> list[BindingType]:
    """Textual bindings of one scope, each with its id, description and tooltip."""
    return [_binding(spec) for spec in REGISTRY if spec.scope == scope]


def screen_bindings(scope: Scope) -> list[BindingType]:
    """A screen's bindings with the app's shown keys repeated, in ``FOOTER_ORDER``.

    Textual's footer lists the focused widget's keys, then the screen's, then
    the app's; repeating the app's keys here (their actions keep the ``app.``
    prefix) lets the footer put help, summary and quit before less used keys.
    """
    specs = [s for s in REGISTRY if s.scope == scope or (s.scope == "app" and s.show)]
    rank = {name: number for number, name in enumerate(FOOTER_ORDER)}
    specs.sort(key=lambda s: rank.get(s.id, len(rank)))  # stable: the rest keep their order
    return [_binding(spec) for spec in specs]


def display_keys(spec: KeySpec, keymap: Mapping[str, str] | None = None) -> str:
    """The keys shown for a binding: the user's keymap's when it rebinds it."""
    rebound = (keymap or {}).get(spec.id)
    if rebound is None and spec.key_display:
        return spec.key_display
    names = {
        "slash": "/",
        "question_mark": "?",
        "equals_sign": "=",
        "pagedown": "PgDn",
        "pageup": "PgUp",
        "plus": "+",
        "minus": "-",
        "left_square_bracket": "[",
        "right_square_bracket": "]",
    }
    keys = rebound if rebound is not None else spec.keys
    return " ".join(names.get(key.strip(), key.strip()) for key in keys.split(","))


# Scopes whose actions the palette can run on the review screen (the widget scopes
# need a focused widget and are left to their keys).
_PALETTE_SCOPES: tuple[Scope, ...] = ("app", "review")


def _palette_specs() -> Iterator[KeySpec]:
    return (spec for spec in REGISTRY if spec.scope in _PALETTE_SCOPES)


class KeyCommands(Provider):
    """Command palette entries made from the registry, runnable by name."""

    def _keymap(self) -> Mapping[str, str]:
        return getattr(self.app, "user_keymap", None) or {}

    def _target(self, spec: KeySpec) -> tuple[Screen[object] | None, str]:
        if spec.action.startswith("app."):
            return None, spec.action.removeprefix("app.")
        return self.screen, spec.action

    async def _run(self, spec: KeySpec) -> None:
        screen, action = self._target(spec)
        if screen is None:
            await self.app.run_action(action)
        elif screen.is_attached:
            await screen.run_action(action)

    def _applies(self, spec: KeySpec) -> bool:
        screen, action = self._target(spec)
        if screen is None:
            return True
        name = action.split("(", 1)[0]
        return hasattr(screen, f"action_{name}")

    async def discover(self) -> Hits:
        for spec in _palette_specs():
            if self._applies(spec):
                yield DiscoveryHit(
                    f"{spec.description} ({display_keys(spec, self._keymap())})",
                    lambda s=spec: self._run(s),
                    help=spec.tooltip,
                )

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for spec in _palette_specs():
            if not self._applies(spec):
                continue
            label = f"{spec.description} ({display_keys(spec, self._keymap())})"
            score = max(matcher.match(label), matcher.match(spec.tooltip) * 0.5)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(label), lambda s=spec: self._run(s), help=spec.tooltip
                )
