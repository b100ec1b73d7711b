"""The help screen, drawn from the binding registry."""

from __future__ import annotations

from collections.abc import Mapping

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from rome_tui.app.bindings import REGISTRY, SCOPE_TITLES, display_keys
from rome_tui.app.items import FILTER_KEYS


def help_table(keymap: Mapping[str, str] | None = None) -> Table:
    """Every binding by scope, with the keys the user's keymap gives it."""
    table = Table(box=None, expand=True, show_header=False, padding=(0, 1))
    table.add_column("key", style="bold", no_wrap=True, width=14)
    table.add_column("what", ratio=1)
    for scope, title in SCOPE_TITLES.items():
        table.add_row("", Text(title, style="bold underline"))
        for spec in REGISTRY:
            if spec.scope == scope:
                what = Text(f"{spec.description}: {spec.tooltip} ")
                what.append(f"[{spec.id}]", style="dim")
                table.add_row(Text(display_keys(spec, keymap)), what)
        table.add_row("", "")
    table.add_row("", Text("Filter words", style="bold underline"))
    for key, meaning in FILTER_KEYS.items():
        table.add_row(Text(f"{key}:"), Text(meaning))
    table.add_row(Text("-key:value"), Text("negates a filter, e.g. -flag:judge_error"))
    table.add_row(
        Text("words"),
        Text(
            "match id, model, bucket, evaluator, flag kinds, or the question, reference, "
            "reasoning or answer (any case)"
        ),
    )
    table.add_row(
        Text("/ Enter Esc"),
        Text(
            "/ enters the filter; Enter or Esc returns to the table. Tab never enters it: "
            "in the filter, keys type text"
        ),
    )
    table.add_row(
        Text("ctrl+p"),
        Text("command palette: every command above, plus filters by flag, bucket, model"),
    )
    table.add_row(
        Text("[id]"),
        Text(
            'rebinds a key in ~/.config/rome-tui/config.toml: [keymap] next-flagged = "ctrl+n"',
            style="dim",
        ),
    )
    return table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%; max-width: 110; height: 90%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    """
    BINDINGS = [
        Binding(
            "escape,question_mark,q",
            "close",
            "Close",
            id="help-close",
            tooltip="Back to the review",
        ),
    ]

    def __init__(self, keymap: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.keymap = keymap

    def compose(self) -> ComposeResult:
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            scroll.border_subtitle = (
                "↑↓ PgUp PgDn scroll · Esc closes"  # the footer below is the review screen's
            )
            yield Static(help_table(self.keymap))

    def action_close(self) -> None:
        self.dismiss(None)
