"""The review screen: item table, filter, detail pane, overrides and write-back."""

from __future__ import annotations

import threading
import time
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import get_current_worker

from rome_tui.app.backend import ReviewStore, bucket_field, run_location
from rome_tui.app.bindings import screen_bindings
from rome_tui.app.items import (
    SORT_KEYS,
    Accuracy,
    LazyRows,
    Progress,
    TextIndex,
    accuracy,
    filter_rows,
    parse_query,
    progress,
    sorted_positions,
)
from rome_tui.app.messages import (
    IndexReady,
    TextsSearched,
    WriteBackConflict,
    WriteBackDone,
    WriteBackFailed,
)
from rome_tui.app.palette import FilterCommands
from rome_tui.app.screens.image import ImageScreen, open_image
from rome_tui.app.screens.override import OverrideDialog, OverrideRequest
from rome_tui.app.settings import ReviewSettings
from rome_tui.app.status import Counts, status_line
from rome_tui.app.widgets.detail import DetailPane
from rome_tui.app.widgets.footer import FittedFooter
from rome_tui.app.widgets.image_pane import image_options
from rome_tui.app.widgets.item_table import ItemTable
from rome_tui.textsafe import one_line
from scorers.errors import ConflictError, RomeTuiError


class ReviewScreen(Screen[None]):
    BINDINGS = screen_bindings("review")
    COMMANDS = {FilterCommands}
    AUTO_FOCUS = "#items"

    def __init__(
        self, store: ReviewStore, settings: ReviewSettings | None = None, *, query: str = ""
    ) -> None:
        super().__init__()
        self.store = store
        self.settings = settings or ReviewSettings()
        self.bucket_field = bucket_field(store)
        self.location = run_location(store)  # shown in the status bar: the run being edited
        self.baseline = store.baseline_score
        self.rows = LazyRows(store.records, self.bucket_field, self.baseline)
        self.texts = TextIndex(store.records)
        self.searching = False  # a text search runs in a worker; the table shows the last view
        self.indexed = False  # every row built (in a worker); counts shown once it is
        self._changed_while_indexing: set[int] = set()
        self.sort_key = "order"
        self.sort_reverse = False
        self.order: list[int] = list(range(len(self.rows)))
        self.query_text = ""
        self.save_note = (
            Text("journal ahead of files: w writes them", style="yellow")
            if store.dirty
            else Text("all saved", style="dim")
        )
        self.conflict: str | None = None
        self.last_change = ""
        self._stats_cache: tuple[Progress, Accuracy] | None = None
        self._write_lock = threading.Lock()
        self._shown_index: int | None = None
        self._shown_words: tuple[str, ...] = ()  # the filter words highlighted in it
        self._before_compare = ""  # the filter c replaced, restored by c again
        self._last_item: int | None = None  # the item the reviewer last moved to
        self._compare_part: str | None = None
        self._initial_query = query

    # --- layout -----------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Input(
            id="filter",
            # `/` refines the filter in force (`f`'s is:todo included) rather than
            # replacing it on the first key; `x` clears it.
            select_on_focus=False,
            placeholder="/ filter: words  text:T  flag:KIND  bucket:B  eval:E  model:M  score:0|1|partial  is:todo|reviewed|overridden",
        )
        yield ItemTable(id="items")
        yield DetailPane(id="detail")
        yield FittedFooter(ordered=True)

    @property
    def table(self) -> ItemTable:
        return self.query_one("#items", ItemTable)

    @property
    def detail(self) -> DetailPane:
        return self.query_one("#detail", DetailPane)

    @property
    def filter_input(self) -> Input:
        return self.query_one("#filter", Input)

    def on_mount(self) -> None:
        self.table.set_view(self.rows, list(self.order))
        if self._initial_query.strip():  # review --filter, as if typed after /
            self.set_filter(self._initial_query.strip())
        self.update_status()
        self.call_after_refresh(self.build_index)  # after the first paint: it competes for the GIL
        if self.store.dirty:
            # The journal replayed overrides the files do not have yet (a crash
            # before the last rewrite): bring the files up to date.
            self.write_back()

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def build_index(self) -> None:
        # Off the UI thread: the first screen needs only the visible rows.
        worker = get_current_worker()
        if self.rows.build_all(lambda: worker.is_cancelled):
            self.post_message(IndexReady())

    @on(IndexReady)
    def index_ready(self) -> None:
        # A row refreshed by an override while the worker ran may have been
        # overwritten by the worker's older copy: make those again.
        for index in self._changed_while_indexing:
            self.rows.refresh(index)
        self._changed_while_indexing.clear()
        self.indexed = True
        self._stats_cache = None
        self.table.refresh()
        self.update_status()

    # --- status -----------------------------------------------------------------------

    def _stats(self) -> tuple[Progress, Accuracy]:
        # O(items): computed again only after a record changed, not per keystroke.
        if self._stats_cache is None:
            self._stats_cache = (progress(self.rows), accuracy(self.rows)[0])
        return self._stats_cache

    STATUS_SHORTEST = 50  # cells of the status line's shortest wording with a short path

    def update_status(self) -> None:
        status = self.query_one("#status", Static)
        width = (status.size.width or self.app.size.width) - 2  # its padding
        counts: Counts | None = None
        if self.indexed or self.query_text != "" or self.sort_key != "order":
            p, overall = self._stats()
            counts = Counts(
                len(self.table.view),
                p.total,
                p.reviewed,
                p.flagged,
                p.flagged_left,
                overall.before,
                overall.after,
            )
        save = self.save_note
        if self.conflict is not None:
            save = Text("NOT WRITTEN: files changed on disk (ctrl+r merges)", style="bold red")
        query = parse_query(self.query_text)
        # A filter error is the news while typing: it gets room beside the status line's
        # shortest wording (which still says what is to do and whether it is saved).
        error = Text("  " + "; ".join(query.errors), style="bold red") if query.errors else Text()
        room = max(0, min(error.cell_len, width - self.STATUS_SHORTEST))
        line = status_line(
            width - room, self.location, self.store.annotator, counts, save if counts else None
        )
        error.truncate(max(0, width - line.cell_len), overflow="ellipsis")
        line.append_text(error)
        if self.searching:
            line.append(" · searching…", style="bold")
        status.update(line)

    def on_resize(self) -> None:
        # Narrow terminals keep the footer for the review keys (ctrl+p still works).
        self.query_one(Footer).show_command_palette = self.app.size.width >= 100
        self.update_status()

    # --- filter and sort --------------------------------------------------------------

    # Runs this small search their texts on the UI thread; larger ones in a worker,
    # so typing in the filter never waits for a scan of every trace.
    SYNC_TEXT_SEARCH = 5_000

    def apply_view(self, keep_index: int | None = None) -> None:
        if keep_index is None:
            # The item the reviewer last moved to, not where a view put the cursor: a
            # filter typed a letter at a time passes through views without that item
            # ("-" of "-is:x", "zz" of "zzz"), and it comes back when it matches again.
            keep_index = self._last_item
        query = parse_query(self.query_text)
        pending = [w for w in query.text_words if not self.texts.cached(w)]
        if pending and len(self.rows) > self.SYNC_TEXT_SEARCH:
            self.searching = True
            self.update_status()
            self.search_texts(self.query_text, pending)
            return  # the table keeps its rows until the words are found
        self.searching = False
        view = filter_rows(self.rows, self.order, query, self.texts)
        cursor = 0
        if keep_index is not None:
            for position, pos in enumerate(view):
                if pos == keep_index:
                    cursor = position
                    break
        self.table.sort_key = self.sort_key
        self.table.sort_reverse = self.sort_reverse
        self.table.set_view(self.rows, view, cursor)
        self.refresh_bindings()  # item keys are greyed out in the footer when the view is empty
        self.update_status()
        self.sync_detail()  # the same item stays, with the new filter words highlighted

    @work(thread=True, exclusive=True, group="text-search", name="text-search", exit_on_error=False)
    def search_texts(self, query: str, words: list[str]) -> None:
        worker = get_current_worker()
        for word in words:
            # Remembered: the UI thread's filter then answers at once.
            if self.texts.matching(word, lambda: worker.is_cancelled) is None:
                return  # typed over: a newer search runs
        self.post_message(TextsSearched(query))

    @on(TextsSearched)
    def texts_searched(self, message: TextsSearched) -> None:
        if message.query == self.query_text:  # not typed over since
            self.apply_view()

    @on(Input.Changed, "#filter")
    def filter_changed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self.apply_view()

    @on(Input.Submitted, "#filter")
    def filter_submitted(self) -> None:
        self.set_focus(self.table)

    def set_filter(self, text: str) -> None:
        self.filter_input.value = text  # fires Input.Changed, which filters
        self.query_text = text
        self.apply_view()

    # Focus moves synchronously (Screen.set_focus, not Widget.focus, which is
    # deferred): keys typed right after "/" must land in the filter.
    def action_filter(self) -> None:
        line = self.filter_input
        if line.value and not line.value.endswith(" "):
            line.value += " "  # the next word is a new part, not the last one's tail
        line.cursor_position = len(line.value)
        self.set_focus(line)
        if not self.texts.ready:
            self.index_texts()  # while the first word is typed, not at its first letter

    @work(thread=True, exclusive=True, group="text-index", name="text-index", exit_on_error=False)
    def index_texts(self) -> None:
        # Built only once somebody filters: a run nobody searches pays no memory for it.
        worker = get_current_worker()
        self.texts.build(lambda: worker.is_cancelled)

    def action_focus_table(self) -> None:
        self.set_focus(self.table)

    def action_focus_pane(self, step: int) -> None:
        """Tab: the table and the two text panes in turn. The filter is left out of the
        cycle: once in it, command keys type text, so it is entered only with /."""
        panes = [self.table, self.detail.reasoning, self.detail.facts]
        focused = self.focused
        at = panes.index(focused) if focused in panes else (-1 if step > 0 else 0)
        self.set_focus(panes[(at + step) % len(panes)])

    def action_clear_filter(self) -> None:
        self.set_filter("")

    def action_compare(self) -> None:
        """Every model's answer to the current item's question; again: the filter before."""
        if self._compare_part is not None and self.query_text.strip() == self._compare_part:
            self.set_filter(self._before_compare)
            self._compare_part = None
            return
        row = self.table.current
        if row is None:
            return
        text = row.qid  # model/question_id in a run of several models (the demo's too)
        if row.model and text.startswith(f"{row.model}/"):
            text = text[len(row.model) + 1 :]
        if not text:
            self.notify("This item has no question_id to compare by.")
            return
        part = f'qid:"{text}"' if any(c.isspace() or c == '"' for c in text) else f"qid:{text}"
        self._before_compare, self._compare_part = self.query_text, part
        self.set_filter(part)
        shown = len(self.table.view)
        self.notify(
            f"{shown} answer{'s' if shown != 1 else ''} to {text}; c again: back to your filter.",
            markup=False,
        )

    def action_toggle_todo(self) -> None:
        words = self.query_text.split()
        if "is:todo" in words:
            words.remove("is:todo")
        else:
            words.append("is:todo")
        self.set_filter(" ".join(words))

    def action_sort(self) -> None:
        keys = list(SORT_KEYS)
        self.sort_key = keys[(keys.index(self.sort_key) + 1) % len(keys)]
        self._resort()

    def action_reverse(self) -> None:
        self.sort_reverse = not self.sort_reverse
        self._resort()

    def _resort(self) -> None:
        self.order = sorted_positions(self.rows, self.sort_key, self.sort_reverse)
        self.apply_view()

    # --- navigation -------------------------------------------------------------------

    @on(ItemTable.CursorMoved)
    def cursor_moved(self, event: ItemTable.CursorMoved) -> None:
        current = self.table.current
        if not event.by_view and current is not None:
            self._last_item = current.index
        elif self._last_item is None and current is not None:
            self._last_item = current.index  # the first view: its first row
        self.sync_detail()

    def _empty_view_note(self) -> str:
        """What an empty table means, and the key out of it."""
        if not self.rows:
            return "This run has no items."
        if self.query_text.split() == ["is:todo"]:
            return (
                "Nothing to do: no flagged item is waiting for review.\n\n"
                "f leaves the to-do queue; x clears the filter."
            )
        return (
            f"No item matches the filter {self.query_text.strip()!r}.\n\nx clears it; / edits it."
        )

    def sync_detail(self) -> None:
        """Show the current row's record (keys may arrive before the cursor message)."""
        row = self.table.current
        if row is None:
            self._shown_index = None
            self.detail.clear(self._empty_view_note())
            return
        words = self._search_words()
        if row.index != self._shown_index or words != self._shown_words:
            self._shown_index, self._shown_words = row.index, words
            self.detail.show(self.store.records[row.index], words)

    def _search_words(self) -> tuple[str, ...]:
        """The filter's words searched in the texts (not the negated ones): highlighted."""
        query = parse_query(self.query_text)
        return (*query.text, *(word for word, negate in query.in_texts if not negate))

    def _step_flagged(self, step: int) -> None:
        view = self.table.view
        if not view:
            return
        start = self.table.cursor
        for offset in range(1, len(view) + 1):
            position = (start + step * offset) % len(view)
            if self.rows[view[position]].needs_review:
                self.table.cursor = position
                if position == start:  # "wrapped to the first" while staying put
                    self.notify("This is the only flagged, unreviewed item in this view.")
                elif (position < start) if step > 0 else (position > start):
                    end, where = ("End", "first") if step > 0 else ("Start", "last")
                    self.notify(f"{end} of queue, wrapped to the {where} flagged, unreviewed item.")
                return
        self.notify("No flagged, unreviewed item left in this view.", title="Queue empty")

    def _advance_after_override(self) -> None:
        """Move on to the next item of the queue, as the settings say."""
        mode = self.settings.advance_after_override
        in_queue = "is:todo" in self.query_text.split()
        if mode == "always" or (mode == "todo" and in_queue):
            self._step_flagged(1)

    def action_next_flagged(self) -> None:
        self._step_flagged(1)

    def action_prev_flagged(self) -> None:
        self._step_flagged(-1)

    def action_evidence(self, step: int) -> None:
        self.sync_detail()
        spot = self.detail.jump(step)
        if spot is None:
            self.notify("No flag evidence or filter word in this item.")

    # --- images -----------------------------------------------------------------------

    def action_toggle_image(self) -> None:
        self.detail.image.toggle()

    def action_view_image(self) -> None:
        pane = self.detail.image
        images = pane.resolve_now()
        if not images:
            self.notify("This item names no image.")
            return
        self.app.push_screen(ImageScreen(images, pane.index, image_options(self)))

    def action_image(self, step: int) -> None:
        pane = self.detail.image
        if not pane.step(step):
            self.notify("This item has one image." if pane.count else "This item names no image.")

    def action_open_image(self) -> None:
        pane = self.detail.image
        images = pane.resolve_now()
        open_image(self, images[pane.index] if pane.index < len(images) else None)

    # --- overrides --------------------------------------------------------------------

    def action_override(self, preset: str) -> None:
        row = self.table.current
        if row is None:
            return
        score: float | None
        if preset == "keep":
            score = row.correct
        elif preset == "":
            score = None
        else:
            score = float(preset)
        verb = "Agree with the score of" if preset == "keep" else "Override"
        dialog = OverrideDialog(row.qid, row.correct, score, self.store.annotator, verb)
        index = row.index
        self.app.push_screen(dialog, lambda result: self._apply_override(index, result))

    def _apply_override(self, index: int, request: OverrideRequest | None) -> None:
        if request is None:
            return
        qid = self.rows[index].qid
        try:
            self.store.override(qid, request.score, request.reason)
        except (RomeTuiError, ValueError, OSError) as exc:
            self.notify(str(exc), title="Override not saved", severity="error", markup=False)
            return
        self.last_change = f"{one_line(qid, 30)} = {request.score:g}"
        self.save_note = Text(f"✓ in journal: {self.last_change}", style="green")
        self._record_changed(index)
        self.write_back()
        current = self.table.current
        if current is not None and current.index == index:
            self._advance_after_override()

    def _entry_index(self, entry: Any) -> int | None:
        qid = entry.get("question_id") if isinstance(entry, dict) else None
        if qid is None:
            return None
        try:
            return self.store.index_of(str(qid))
        except (KeyError, ValueError):
            return None

    def action_undo(self) -> None:
        self._undo_redo("undo")

    def action_redo(self) -> None:
        self._undo_redo("redo")

    def _undo_redo(self, op: str) -> None:
        try:
            entry = self.store.undo() if op == "undo" else self.store.redo()
        except (RomeTuiError, OSError) as exc:
            self.notify(str(exc), title=f"{op} failed", severity="error", markup=False)
            return
        if entry is None:
            self.notify(f"Nothing to {op}.")
            return
        index = self._entry_index(entry)
        qid = one_line(str(entry.get("question_id")), 30)
        self.last_change = f"{op} {qid}"
        self.save_note = Text(f"✓ in journal: {self.last_change}", style="green")
        if index is not None:
            self._record_changed(index)
            position = self.table.position_of(index)
            if position is not None:
                self.table.cursor = position
        else:
            self.update_status()
        self.write_back()

    def _record_changed(self, index: int) -> None:
        self.rows.refresh(index)
        if not self.indexed:
            self._changed_while_indexing.add(index)
        self._stats_cache = None
        self.table.refresh()
        current = self.table.current
        if current is not None and current.index == index:
            self.detail.show(self.store.records[index], self._shown_words)
        self.update_status()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Item actions are greyed out in the footer when the filter shows nothing.
        if action in ("override", "evidence", "next_flagged", "prev_flagged"):
            return self.is_mounted and self.table.current is not None
        if action == "focus_table":  # in the filter the footer says how to get out of it
            return self.is_mounted and self.focused is not self.table
        return True

    def action_reload(self) -> None:
        """Re-read files and journals: the way out of a conflict without quitting."""
        keep = self.table.current.index if self.table.current is not None else None
        try:
            self.store.reload()
        except (RomeTuiError, OSError) as exc:
            self.notify(str(exc), title="Reload failed", severity="error", markup=False)
            return
        self.baseline = self.store.baseline_score
        self.rows = LazyRows(self.store.records, self.bucket_field, self.baseline)
        self.texts = TextIndex(self.store.records)
        self.indexed = False
        self._changed_while_indexing.clear()
        self._stats_cache = None
        self._shown_index = None
        self.conflict = None
        self.order = sorted_positions(self.rows, self.sort_key, self.sort_reverse)
        # What the note says once the files are written: "✓ files written: reloaded".
        self.last_change = "reloaded"
        self.save_note = Text("reloaded: files and journals merged", style="green")
        self.apply_view(keep_index=keep)
        self.build_index()
        self.write_back()

    # --- write-back -------------------------------------------------------------------

    def action_save(self) -> None:
        # The note then reads "✓ files written", not the last override's, so `w` shows.
        self.last_change = ""
        self.save_note = Text("writing files…", style="dim")
        self.update_status()
        self.write_back()

    @work(thread=True, exclusive=True, group="write-back", exit_on_error=False)
    def write_back(self) -> None:
        # The lock serialises rewrites: a newer worker waits for an older one still
        # writing, then writes the newer state.
        with self._write_lock:
            started = time.perf_counter()
            try:
                self.store.write_back()
            except ConflictError as exc:
                self.post_message(WriteBackConflict(str(exc)))
                return
            except Exception as exc:  # reported in the UI; the journal still has the override
                self.post_message(WriteBackFailed(f"{type(exc).__name__}: {exc}"))
                return
            self.post_message(WriteBackDone(time.perf_counter() - started))

    @on(WriteBackDone)
    def write_back_done(self, message: WriteBackDone) -> None:
        # The state first: a narrow status line cuts the item's id, not the news.
        self.save_note = Text(f"✓ files written: {self.last_change}".rstrip(": "), style="green")
        self.update_status()

    @on(WriteBackConflict)
    def write_back_conflict(self, message: WriteBackConflict) -> None:
        self.conflict = message.detail
        self.update_status()
        self.notify(
            f"{message.detail}\nctrl+r reloads here and writes the merge.",
            title="Files changed on disk",
            severity="error",
            timeout=30,
            markup=False,
        )

    @on(WriteBackFailed)
    def write_back_failed(self, message: WriteBackFailed) -> None:
        self.save_note = Text(
            "files NOT written (journal kept): " + one_line(message.detail, 80), style="bold red"
        )
        self.update_status()
        self.notify(message.detail, title="Write-back failed", severity="error", markup=False)
