"""The override dialog: a score and a required reason, returned with ``dismiss``."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from rome_tui.typed_score import parse_score
from scorers.errors import UsageError
from scorers.review import valid_reason


@dataclass(frozen=True)
class OverrideRequest:
    score: float
    reason: str


class FieldInput(Input):
    """An Input that remembers its value at the moment Enter reached it.

    Textual runs the Enter binding only after the key has bubbled back to the
    app, by which time keys typed right after Enter may be in the value.
    """

    value_at_enter: str | None = None

    def on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            self.value_at_enter = self.value


def field_value(field: Input, submitting: bool) -> str:
    """The value to save: as it was at Enter for the field Enter was pressed in."""
    if submitting and isinstance(field, FieldInput) and field.value_at_enter is not None:
        return field.value_at_enter
    return field.value


class OverrideDialog(ModalScreen[OverrideRequest | None]):
    DEFAULT_CSS = """
    OverrideDialog { align: center middle; }
    OverrideDialog > Vertical {
        width: 72; height: auto; padding: 1 2;
        border: thick $accent; background: $surface;
    }
    OverrideDialog Label { margin-top: 1; }
    OverrideDialog #override-error { color: $error; height: auto; }
    OverrideDialog #override-title { text-style: bold; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="override-cancel", tooltip="Close without saving"),
    ]
    AUTO_FOCUS = "#override-reason"

    def __init__(
        self,
        question_id: str,
        current: float | None,
        score: float | None,
        annotator: str,
        verb: str = "Override",
    ) -> None:
        super().__init__()
        self.verb = verb
        self.question_id = question_id
        self.current = current
        self.preset = score
        self.annotator = annotator

    def compose(self) -> ComposeResult:
        with Vertical():
            title = Text(f"{self.verb} ")
            title.append(self.question_id, style="bold")
            yield Static(title, id="override-title")
            current = "none" if self.current is None else f"{self.current:g}"
            yield Static(Text(f"current score {current} · annotator {self.annotator}"))
            yield Label("Score (0 to 1; 0.5, 1/2 and 50% work)")
            preset = "" if self.preset is None else f"{self.preset:g}"
            yield FieldInput(preset, id="override-score", placeholder="e.g. 0.5")
            yield Label("Reason (required)")
            # Agreeing settles a flag, so its reason says what was checked, not what was missed.
            agree = self.verb.startswith("Agree")
            placeholder = (
                "why the score stands: what you checked"
                if agree
                else "why this score: what the grader missed"
            )
            yield FieldInput(id="override-reason", placeholder=placeholder)
            yield Static("", id="override-error")
            yield Static(Text("Enter saves · Escape cancels", style="dim"))

    @property
    def score_input(self) -> Input:
        return self.query_one("#override-score", Input)

    @property
    def reason_input(self) -> Input:
        return self.query_one("#override-reason", Input)

    def on_mount(self) -> None:
        if self.preset is None:
            self.query_one("#override-score", Input).focus()

    def _error(self, message: str) -> None:
        self.query_one("#override-error", Static).update(Text(message))

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        from_input = event.input.id
        score_text = field_value(self.score_input, from_input == "override-score")
        score = parse_score(score_text)
        if score is None:
            self._error(f"score must be a number from 0 to 1, got {score_text!r}")
            self.query_one("#override-score", Input).focus()
            return
        try:  # the store's rule: a blank or whitespace-only reason is no reason
            reason = valid_reason(field_value(self.reason_input, from_input == "override-reason"))
        except UsageError:
            if from_input == "override-score":
                self.query_one("#override-reason", Input).focus()
            else:
                self._error("a reason is required (spaces alone are not one)")
            return
        self.dismiss(OverrideRequest(score, reason))

    def action_cancel(self) -> None:
        self.dismiss(None)
