"""The review app: one screen of items, modals for overrides, help and the summary."""

from __future__ import annotations

import os

from textual.app import App

from rome_tui.app.backend import ReviewStore, run_name
from rome_tui.app.bindings import KeyCommands, bindings
from rome_tui.app.images import ImageOptions, store_image_roots
from rome_tui.app.screens.help import HelpScreen
from rome_tui.app.screens.review import ReviewScreen
from rome_tui.app.screens.summary import SummaryScreen
from rome_tui.app.settings import ReviewSettings, keymap_warnings
from rome_tui.app.terminal import HUNG_UP, hung_up, is_terminal
from rome_tui.textsafe import one_line


class ReviewApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "rome-tui review"
    BINDINGS = bindings("app")
    COMMANDS = App.COMMANDS | {KeyCommands}

    def __init__(
        self,
        store: ReviewStore,
        *,
        keymap: dict[str, str] | None = None,
        images: ImageOptions | None = None,
        settings: ReviewSettings | None = None,
        query: str = "",
    ) -> None:
        super().__init__()
        self.store = store
        self.user_keymap = keymap or {}
        # Half-cells by default: they draw in any terminal and in tests' screenshots.
        self.image_options = images or ImageOptions("halfcell", store_image_roots(store))
        self.review = ReviewScreen(store, settings or ReviewSettings(), query=query)

    def on_mount(self) -> None:
        if self.user_keymap:
            self.set_keymap(self.user_keymap)  # rebinds by binding id (rome_tui.app.settings)
            for warning in keymap_warnings(self.user_keymap):
                self.notify(warning, title="Keymap", severity="warning", timeout=10)
        self.push_screen(self.review)
        if self.store.warnings:
            # Printed to stderr before the app opened, where the app's screen hides them
            # (a torn journal line, records set aside as malformed): said here too.
            shown = [one_line(w, 200) for w in self.store.warnings[:3]]
            more = len(self.store.warnings) - len(shown)
            if more:
                shown.append(f"… and {more} more, printed to the terminal before the app opened")
            self.notify(
                "\n".join(shown),
                title="Read with warnings",
                severity="warning",
                timeout=15,
                markup=False,
            )
        if not self.is_headless and is_terminal():
            self.set_interval(1.0, self._exit_if_hung_up, name="terminal watch")

    def _exit_if_hung_up(self) -> None:
        if not hung_up():
            return
        if any(worker.is_running for worker in self.workers):
            return  # let a write-back land; asked again in a second
        # Not App.exit: restoring a terminal that is gone blocks Textual's shutdown
        # for good. Every override is in the journal already, and the lock goes with
        # the process.
        os._exit(HUNG_UP)

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.user_keymap))

    def action_summary(self) -> None:
        if not isinstance(self.screen, SummaryScreen):
            review = self.review
            fallback = run_name(self.store) or "model"
            self.push_screen(
                SummaryScreen(review.rows, self.store.records, review.bucket_field, fallback)
            )
