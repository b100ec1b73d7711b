"""What a new reviewer runs into: focus, narrow terminals, the detail pane's order,
the queue's end, the run being edited, and text search."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_fixtures import make_records, open_run, write_run
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import Footer, Input

from rome_tui.app.app import ReviewApp
from rome_tui.app.items import TextIndex, filter_rows, make_row, parse_query
from rome_tui.app.settings import ReviewSettings
from rome_tui.app.status import Counts, short_path, status_line
from rome_tui.app.widgets.text_view import TextView


def status_text(app: ReviewApp) -> str:
    return str(app.review.query_one("#status").render())


def current_qid(app: ReviewApp) -> str:
    row = app.review.table.current
    assert row is not None
    return row.qid


def visible(view: TextView) -> str:
    return "\n".join(view.render_line(y).text for y in range(view.size.height))


async def ready(pilot: Pilot[None]) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    write_run(tmp_path / "run", make_records(40))
    return tmp_path / "run"


# --- Tab never enters the filter ----------------------------------------------------------


async def test_tab_cycles_the_table_and_text_panes_not_the_filter(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(150, 45)) as pilot:
        await ready(pilot)
        screen = app.review
        seen = []
        for _ in range(6):
            await pilot.press("tab")
            seen.append(screen.focused)
        assert not any(isinstance(w, Input) for w in seen)
        assert set(seen) == {screen.table, screen.detail.reasoning, screen.detail.facts}
        await pilot.press("shift+tab")
        assert not isinstance(screen.focused, Input)
        # Command keys stay commands: ? opens help instead of filtering the table away.
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        assert screen.filter_input.value == ""
        await pilot.press("escape")
        # The filter is entered with / and left with Enter or Esc.
        await pilot.press("slash", "q", "0", "0", "0", "1")
        assert screen.focused is screen.filter_input and screen.filter_input.value == "q0001"
        await pilot.press("enter")
        assert screen.focused is screen.table
        await pilot.press("slash", "escape")
        assert screen.focused is screen.table


async def test_help_says_how_to_enter_and_leave_the_filter(run_dir: Path) -> None:
    from rome_tui.app.screens.help import help_table

    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(150, 45)):
        from rich.console import Console

        console = Console(width=120, record=True)
        console.print(help_table())
        text = console.export_text()
        assert "Tab never enters it" in text and "Enter or Esc" in text
        assert "Next pane" in text


# --- 80x24: the state and keys that matter stay on screen ----------------------------------


@pytest.mark.parametrize("width", [60, 78, 100, 140, 198])
def test_status_line_keeps_save_state_accuracy_and_run_at_any_width(width: int) -> None:
    counts = Counts(240, 240, 4, 141, 137, 61.67, 60.83)
    run = "~/.local/share/rome-tui/demo"
    line = status_line(width, run, "alice", counts, Text("all saved"))
    text = line.plain
    assert line.cell_len <= width
    assert "all saved" in text and "137 to do" in text
    assert "61.7→60.8%" in text or "61.67→60.83%" in text
    assert "rome-tui/demo" in text


@pytest.mark.parametrize(
    ("width", "shown", "note"),
    [
        (80, 136, "all saved"),  # a filter on: the annotator went first
        (80, 240, "✓ files written: gemini-2.5-pro/question_geo_8 = 0"),
        (100, 136, "✓ files written: gemini-2.5-pro/question_geo_8 = 0"),
    ],
)
def test_status_line_keeps_the_annotator_at_80_columns(width: int, shown: int, note: str) -> None:
    counts = Counts(shown, 240, 4, 140, 136, 61.67, 61.88)
    run = "/home/someone/.local/share/rome-tui/demo"
    line = status_line(width, run, "alice", counts, Text(note))
    assert line.cell_len <= width
    assert "· alice" in line.plain and "tui/demo" in line.plain and "136 to do" in line.plain


def test_status_line_says_a_save_failed_even_when_narrow() -> None:
    counts = Counts(7, 240, 4, 141, 137, 61.67, 60.83)
    note = Text("files NOT written (journal kept): PermissionError: [Errno 13] denied")
    text = status_line(80, "/data/runs/gemini-2.5-pro", "alice", counts, note).plain
    assert "files NOT written" in text and "7/240" in text and "gemini-2.5-pro" in text


def test_short_path_keeps_the_end() -> None:
    assert short_path("/a/b/run", 20) == "/a/b/run"
    assert short_path("/home/someone/data/rome-tui/demo", 16) == "…/rome-tui/demo"


async def test_at_80x24_the_footer_keeps_undo_help_quit_and_summary(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        footer = app.review.query_one(Footer)
        keys = [key for key in footer.query("FooterKey") if key.region.right <= 80]
        shown = {key.key for key in keys if key.region.width > 0}  # type: ignore[attr-defined]
        assert {"u", "question_mark", "q", "t", "slash", "n", "e"} <= shown, shown
        # No key cut at the edge (a lone "f" whose "To do" fell past column 80).
        drawn = [k for k in footer.query("FooterKey") if k.display and k.region.width]
        assert drawn and all(k.region.right <= 80 for k in drawn)
        status = status_text(app)
        assert "all saved" in status and "acc " in status and "to do" in status


async def test_at_80x24_no_footer_key_is_cut_under_a_dialog(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("t")  # the summary opens over the review screen and its footer
        await pilot.pause()
        footer = app.review.query_one(Footer)
        drawn = [k for k in footer.query("FooterKey") if k.display and k.region.width]
        assert drawn and all(k.region.right <= 80 for k in drawn), [
            (k.key, k.region)
            for k in drawn  # type: ignore[attr-defined]
        ]


async def test_at_80x24_a_filter_error_and_the_sort_column_are_on_screen(run_dir: Path) -> None:
    # The error used to be appended past the status line's 80 cells, so a mistyped
    # filter silently showed every item; the sort said "sor…" in the flags title.
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"is:bogus")
        assert "bad value for is: bogus" in status_text(app)
        assert "saved" in status_text(app)  # the save state stays beside it
        await pilot.press("enter", "x", "s", "s", "s", "r")  # order -> id -> model -> bucket
        header = app.review.table.render_line(0).text
        assert "↓" in header.split("evaluat")[0]
        assert app.review.table.virtual_size.width <= app.review.table.size.width


async def test_slash_refines_the_filter_in_force(run_dir: Path) -> None:
    # `/` selected the whole filter, so in the to-do queue (`f`) the first key typed
    # replaced is:todo: "/ geo" showed every geo item, reviewed and unflagged ones too.
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        line = app.review.filter_input
        await pilot.press("f", "slash", *"bucket:geo")
        assert line.value == "is:todo bucket:geo"
        await pilot.press("enter")
        await ready(pilot)
        assert app.review.query_text.split() == ["is:todo", "bucket:geo"]
        await pilot.press("slash")  # again: the cursor at the end, nothing doubled
        assert line.value == "is:todo bucket:geo " and line.cursor_position == len(line.value)
        await pilot.press("escape", "x", "slash", *"geo")
        assert line.value == "geo"  # an empty filter gets no leading space


async def test_warnings_from_opening_the_run_are_shown_in_the_app(run_dir: Path) -> None:
    # They went to stderr before the app took the screen, so a torn journal line or
    # records set aside as malformed were seen only after quitting, if at all.
    journal = run_dir / "journal"
    journal.mkdir(exist_ok=True)
    (journal / "other.jsonl").write_bytes(b'{"v":1,"id":"x","op":"se')
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        shown = [n for n in app._notifications if n.title == "Read with warnings"]
        assert len(shown) == 1 and "other.jsonl:1: incomplete last line" in shown[0].message


async def test_in_the_filter_the_footer_says_esc_goes_back(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)

        def footer_keys() -> set[str]:
            return {key.key for key in app.review.query_one(Footer).query("FooterKey")}  # type: ignore[attr-defined]

        assert "escape" not in footer_keys()  # on the table Esc has nowhere to go
        await pilot.press("slash")
        await pilot.pause()
        assert "escape" in footer_keys()
        await pilot.press("escape")
        await pilot.pause()
        assert "escape" not in footer_keys()


async def test_an_empty_view_says_why_and_keeps_the_table_free_of_a_scrollbar(
    run_dir: Path,
) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        table = app.review.table
        await pilot.press("slash", *"zzzq", "enter")
        await pilot.pause()
        assert "No item matches the filter 'zzzq'" in visible(app.review.detail.reasoning)
        assert "x clears it" in visible(app.review.detail.reasoning)
        await pilot.press("x")
        await pilot.pause()
        # The scrollbar came back with the rows: the columns fit the width beside it.
        assert table.virtual_size.width <= table.scrollable_content_region.width


async def test_status_bar_names_the_run_being_edited(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(200, 50)) as pilot:
        await ready(pilot)
        assert str(run_dir) in status_text(app) or str(run_dir).replace(
            str(Path.home()), "~"
        ) in status_text(app)


# --- the detail pane: question first; evidence brings its flag into view --------------------


async def test_question_first_and_evidence_jump_shows_its_flag(tmp_path: Path) -> None:
    records = make_records(4)
    long = "Step one. Step two.\n\n" * 400
    hedge = "I guess it is B."
    records[0]["reason"] = long + hedge
    records[0]["raw_answer"] = records[0]["answer"] = "Answer: B\n" + "More words.\n" * 80
    start = len(long)
    flags: list[dict[str, Any]] = [
        {"kind": "rome_strict_disagree", "source": "verdicts", "evidence": [], "detail": "x"}
    ] * 12
    flags = [
        *flags,
        {
            "kind": "hedged_reasoning_certain_answer",
            "source": "heuristic",
            "evidence": [
                {"field": "reasoning", "start": start, "end": start + len(hedge), "text": hedge}
            ],
            "detail": "hedge at the end",
        },
    ]
    records[0]["review"]["flags"] = flags
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(120, 30)) as pilot:
        await ready(pilot)
        facts = app.review.detail.facts
        assert facts.blocks[0].text.endswith("q0000")  # the item, then its question
        assert facts.blocks[1].text == "Question"
        await pilot.press("e")
        await ready(pilot)
        assert "I guess it is B." in visible(app.review.detail.reasoning)
        assert "[13] hedged_reasoning_certain_answer" in visible(facts)


# --- the queue: its end is announced; an override moves on ----------------------------------


async def test_next_at_the_end_of_the_queue_says_it_wrapped(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(150, 45), notifications=True) as pilot:
        await ready(pilot)
        rows = app.review.rows
        queue = [r.index for r in rows if r.needs_review]
        assert len(queue) >= 2
        table = app.review.table
        table.cursor = table.position_of(queue[0]) or 0
        await pilot.press("n")
        assert table.current is not None and table.current.index == queue[1]
        assert not any("wrapped" in n.message for n in app._notifications)
        table.cursor = table.position_of(queue[-1]) or 0
        await pilot.press("n")
        assert table.current.index == queue[0]
        assert any("End of queue, wrapped" in n.message for n in app._notifications)
        await pilot.press("p")  # back past the first: from the start, to the last
        assert table.current.index == queue[-1]
        assert any("Start of queue, wrapped to the last" in n.message for n in app._notifications)


async def test_next_on_the_only_item_of_the_queue_says_so(run_dir: Path) -> None:
    """`c` on a flagged item, then `n`: it said "End of queue, wrapped to the first" and
    stayed on the same item."""
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(150, 45), notifications=True) as pilot:
        await ready(pilot)
        table = app.review.table
        first = next(r for r in app.review.rows if r.needs_review)
        table.cursor = table.position_of(first.index) or 0
        await pilot.press("slash", *f"qid:{first.qid}", "enter")
        await ready(pilot)
        assert len(table.view) == 1
        await pilot.press("n")
        messages = [n.message for n in app._notifications]
        assert "This is the only flagged, unreviewed item in this view." in messages
        assert not any("wrapped" in m for m in messages)


async def override(pilot: Pilot[None], key: str, reason: str) -> None:
    await pilot.press(key)
    await pilot.pause()
    await pilot.press(*[c if c != " " else "space" for c in reason], "enter")
    await ready(pilot)


@pytest.mark.parametrize(
    ("advance", "todo", "moves"),
    [("todo", True, True), ("todo", False, False), ("always", False, True), ("never", True, False)],
)
async def test_an_override_moves_to_the_next_item_of_the_queue(
    run_dir: Path, advance: Any, todo: bool, moves: bool
) -> None:
    app = ReviewApp(open_run(run_dir), settings=ReviewSettings(advance_after_override=advance))
    async with app.run_test(size=(150, 45)) as pilot:
        await ready(pilot)
        if todo:
            await pilot.press("f")
        queue = [r.qid for r in app.review.rows if r.needs_review]
        table = app.review.table
        table.cursor = table.position_of(app.review.store.index_of(queue[0])) or 0
        await pilot.pause()
        first = current_qid(app)
        assert first == queue[0]
        await override(pilot, "1", "checked")
        assert app.review.rows[app.review.store.index_of(first)].human == 1.0
        assert (current_qid(app) == queue[1]) == moves
        assert (current_qid(app) == first) == (not moves)


def test_settings_file_sets_advance_after_override(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rome_tui.app.settings import load_review_settings as load_settings
    from scorers.errors import InputError

    config = tmp_path / "config.toml"
    monkeypatch.setenv("ROME_TUI_CONFIG", str(config))
    assert load_settings().advance_after_override == "todo"
    config.write_text('[review]\nadvance_after_override = "never"\n')
    assert load_settings().advance_after_override == "never"
    config.write_text('[review]\nadvance_after_override = "sometimes"\n')
    with pytest.raises(InputError, match="advance_after_override"):
        load_settings()


# --- text search -----------------------------------------------------------------------------


def _records() -> list[dict[str, Any]]:
    records = make_records(6)
    records[1]["question"] = "Where was this photo taken?"
    records[1]["reference"] = "Sagrada Familia, Barcelona"
    records[2]["reason"] = "The spires look like the SAGRADA família to me."
    records[3]["raw_answer"] = records[3]["answer"] = "Final answer: sagrada"
    records[4]["question"] = "Which city? (Barcelona)"
    return records


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("Sagrada", [1, 2, 3]),
        ("text:sagrada", [1, 2, 3]),
        ("-text:sagrada", [0, 4, 5]),
        ("text:barcelona", [1, 4]),
        ("família", [2]),
        ('"sagrada familia"', [1]),
        ("sagrada text:barcelona", [1]),
        ("q0005", [5]),  # ids still match
    ],
)
def test_text_search_reads_question_reference_reasoning_and_answer(
    query: str, want: list[int]
) -> None:
    records = _records()
    rows = [make_row(i, r) for i, r in enumerate(records)]
    got = filter_rows(rows, range(len(rows)), parse_query(query), TextIndex(records))
    assert got == want


def test_text_index_narrows_a_growing_word_and_matches_a_full_scan() -> None:
    records = make_records(300)
    for i, r in enumerate(records):
        r["reason"] += f" token{i % 37}x"
    index, fresh = TextIndex(records), None
    for typed in ("t", "to", "tok", "token", "token1", "token12", "token12x"):
        fresh = TextIndex(records)
        assert index.matching(typed) == fresh.matching(typed)
    assert fresh is not None and len(fresh.matching("token12x")) == len(
        [i for i in range(300) if i % 37 == 12]
    )


@pytest.mark.parametrize("in_worker", [False, True])
async def test_filter_finds_words_in_the_texts_in_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, in_worker: bool
) -> None:
    from rome_tui.app.screens.review import ReviewScreen

    if in_worker:  # as a large run does: the search runs in a worker, the filter follows
        monkeypatch.setattr(ReviewScreen, "SYNC_TEXT_SEARCH", 0)
    write_run(tmp_path / "run", _records())
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(150, 45)) as pilot:
        await ready(pilot)
        await pilot.press("slash", *"Sagrada")
        await ready(pilot)
        await ready(pilot)
        assert "searching" not in status_text(app)
        # record positions: ids read model/question_id in a run of several models
        assert list(app.review.table.view) == [1, 2, 3]
