"""Pilot tests of the review app on real runs on disk, through the real ResultsStore."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from app_fixtures import HOSTILE_ANSWER, hostile_record, make_records, open_run, write_run
from textual.pilot import Pilot

from rome_tui.app.app import ReviewApp
from rome_tui.app.screens.override import OverrideDialog
from rome_tui.app.screens.review import ReviewScreen
from rome_tui.app.widgets.item_table import ItemTable
from rome_tui.app.widgets.text_view import TextView
from scorers.errors import InputError

SIZE = (150, 45)


def review(app: ReviewApp) -> ReviewScreen:
    return app.review


def table(app: ReviewApp) -> ItemTable:
    return app.review.table


def current_qid(app: ReviewApp) -> str:
    row = table(app).current
    assert row is not None
    return row.qid


def current_question(app: ReviewApp) -> str:
    """The selected record's own question_id (rows of a run of several models show
    model/question_id)."""
    row = table(app).current
    assert row is not None
    return str(app.review.store.records[row.index]["question_id"])


def view_text(view: TextView) -> str:
    return "\n".join(view.line_text(y) for y in range(view.line_count))


def blocks_text(view: TextView) -> str:
    return "\n".join(block.text for block in view.blocks)


def screen_lines(widget: Any) -> list[str]:
    return [widget.render_line(y).text for y in range(widget.size.height)]


def status_text(app: ReviewApp) -> str:
    return str(app.review.query_one("#status").render())


def on_disk(directory: Path) -> dict[str, dict[str, Any]]:
    records = orjson.loads((directory / "updated_predictions.json").read_bytes())
    return {r["question_id"]: r for r in records}


async def ready(pilot: Pilot[None]) -> None:
    """The first screen is up and the background index (counts, filters) is built."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*[c if c != " " else "space" for c in text])


async def override(pilot: Pilot[None], key: str, reason: str, score: str | None = None) -> None:
    await pilot.press(key)
    await pilot.pause()
    assert isinstance(pilot.app.screen, OverrideDialog)
    if score is not None:
        score_input = pilot.app.screen.query_one("#override-score")
        score_input.value = ""  # type: ignore[attr-defined]
        score_input.focus()
        await type_text(pilot, score)
        await pilot.press("tab")
    await type_text(pilot, reason)
    await pilot.press("enter")
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    write_run(tmp_path / "run", make_records(40))
    return tmp_path / "run"


async def test_table_lists_every_item_with_counts(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert len(table(app).view) == 40
        lines = screen_lines(table(app))
        assert lines[0].split()[:3] == ["id", "model", "bucket"]
        assert "q0000" in lines[1] and "gemini-2.5-pro" in lines[1]
        flagged = sum(1 for r in review(app).rows if r.flags)
        assert "shown 40/40" in status_text(app)
        assert f"reviewed 0 / flagged {flagged} / total 40" in status_text(app)


async def test_the_table_counts_flags_as_the_detail_pane_numbers_them(tmp_path: Path) -> None:
    # Two sources raising one kind are two flags: the table said "1" beside "Flags (2)".
    records = make_records(4)
    records[0]["review"]["flags"] = [
        {"kind": "rule_judge_disagree", "source": source, "evidence": [], "detail": "rule vs judge"}
        for source in ("judge:rome", "judge:vrc")
    ]
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert "2 rule_judge_disagree" in screen_lines(table(app))[1]
        assert "Flags (2)" in view_text(app.review.detail.facts)
        assert review(app).rows[0].flags == ("rule_judge_disagree",)  # filters match kinds


async def test_a_release_audit_shows_the_published_grade_beside_ours(tmp_path: Path) -> None:
    from release_fixture import write_release

    from scorers.grade.release import release_run

    write_release(str(tmp_path / "release.parquet"))
    run_dir, _ = release_run(tmp_path / "release.parquet")
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        lines = screen_lines(table(app))
        header = lines[0]
        # No judge has run: no column of dashes for one.
        assert header.split()[5:8] == ["strict", "release", "human"]
        row = next(line for line in lines if "model-b/q1" in line)  # published 1, strict 0
        at = header.index("release")
        assert row[header.index("strict") :].split()[:2] == ["0", "1"]
        assert row[at : at + 7].strip() == "1"


async def test_a_run_not_from_a_release_has_no_release_column(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        header = screen_lines(table(app))[0]
        assert "release" not in header and "judge" in header


async def test_navigation_moves_cursor_and_detail(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert current_question(app) == "q0000"
        await pilot.press("down", "down", "j")
        assert current_question(app) == "q0003"
        assert "Question 3:" in view_text(app.review.detail.facts)
        await pilot.press("k")
        assert current_question(app) == "q0002"
        await pilot.press("end")
        assert current_question(app) == "q0039"
        await pilot.press("home")
        assert current_question(app) == "q0000"
        await pilot.press("pagedown")
        assert table(app).cursor > 5


async def test_filter_by_text_and_fields(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        rows = review(app).rows
        await pilot.press("slash")
        await type_text(pilot, "bucket:geo model:o3")
        expected = [r.qid for r in rows if r.bucket == "geo" and r.model == "o3"]
        assert expected and [rows[p].qid for p in table(app).view] == expected
        assert f"shown {len(expected)}/40" in status_text(app)
        await pilot.press("escape")
        assert app.focused is table(app)

        review(app).set_filter("flag:rule_judge")
        want = [r.qid for r in rows if "rule_judge_disagree" in r.flags]
        assert [rows[p].qid for p in table(app).view] == want

        review(app).set_filter("q0001")
        # the id reads model/question_id in this run of several models
        assert [rows[p].qid.rsplit("/", 1)[-1] for p in table(app).view] == ["q0001"]

        review(app).set_filter("eval:number score:1")
        assert all(
            rows[p].evaluator == "number_matching" and rows[p].correct == 1 for p in table(app).view
        )

        review(app).set_filter("nosuchkey:x")
        assert "unknown filter nosuchkey" in status_text(app)

        await pilot.press("x")
        assert len(table(app).view) == 40
        await pilot.press("f")
        assert [rows[p].qid for p in table(app).view] == [r.qid for r in rows if r.flags]


async def test_sort_cycles_columns(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        rows = review(app).rows
        await pilot.press("s", "s", "s")  # order -> id -> model -> bucket
        buckets = [rows[p].bucket for p in table(app).view]
        assert buckets == sorted(buckets)
        await pilot.press("r")
        assert [rows[p].bucket for p in table(app).view] == sorted(buckets, reverse=True)
        assert "sorted by bucket" in screen_lines(table(app))[0]


async def test_next_flagged_queue_skips_reviewed(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        rows = review(app).rows
        todo = [r.qid for r in rows if r.flags]
        await pilot.press("n")
        first = current_qid(app)
        assert first == next(q for q in todo if not q.endswith("q0000"))
        await override(pilot, "1", "checked by hand")
        await pilot.press("home", "n")
        assert current_qid(app) != first  # reviewed items leave the queue
        assert current_qid(app) in todo
        await pilot.press("p")
        assert current_question(app) == "q0000"


async def test_override_requires_reason_and_writes_files(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down")  # q0001
        before = orjson.loads((run_dir / "scores.json").read_bytes())
        await pilot.press("0")
        await ready(pilot)
        assert isinstance(app.screen, OverrideDialog)
        await pilot.press("enter")  # no reason: refused, dialog stays
        assert isinstance(app.screen, OverrideDialog)
        assert "reason is required" in str(app.screen.query_one("#override-error").render())
        await pilot.press("space", "space", "enter")  # spaces alone are no reason either
        assert isinstance(app.screen, OverrideDialog)
        await pilot.press("escape")
        assert not isinstance(app.screen, OverrideDialog)
        assert review(app).rows[1].human is None

        old = review(app).rows[1].correct
        await override(pilot, "=", "half the parts are right", score="0.5")
        row = review(app).rows[1]
        assert row.human == 0.5 and row.correct == 0.5
        assert "files written" in status_text(app)
        assert "human (tester" in view_text(app.review.detail.facts)
        await pilot.press("w")  # rewriting on request says so, not the override's note again
        await ready(pilot)
        assert "files written" in status_text(app) and "q0001" not in status_text(app)

    record = on_disk(run_dir)["q0001"]
    assert record["correct"] == 0.5
    assert record["review"]["human"]["score"] == 0.5
    last = record["review"]["history"][-1]
    assert last["annotator"] == "tester" and last["reason"] == "half the parts are right"
    assert last["old"] == old and last["new"] == 0.5 and last["time"].endswith("Z")
    after = orjson.loads((run_dir / "scores.json").read_bytes())
    assert after != before
    assert list((run_dir / "journal").glob("*.jsonl"))


async def test_agree_asks_what_was_checked_and_keeps_the_score(run_dir: Path) -> None:
    # `a` asked "what the grader missed", the question of an override, not of agreeing.
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down")  # q0001
        old = review(app).rows[1].correct
        await pilot.press("a")
        await ready(pilot)
        dialog = app.screen
        assert isinstance(dialog, OverrideDialog) and dialog.verb.startswith("Agree")
        assert "what you checked" in str(dialog.reason_input.placeholder)
        await pilot.press(*"read it twice", "enter")
        await ready(pilot)
        assert review(app).rows[1].human == old
    assert on_disk(run_dir)["q0001"]["review"]["history"][-1]["reason"] == "read it twice"


async def test_an_override_the_journal_refused_is_not_shown(
    run_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk at the journal append: an error, and the item stays as it was."""
    store = open_run(run_dir)

    def full_disk(entry: object) -> None:
        raise InputError(str(run_dir / "journal"), "cannot write the journal: No space left")

    monkeypatch.setattr(store._writer, "write", full_disk)
    app = ReviewApp(store)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down")  # q0001
        before = review(app).rows[1]
        await override(pilot, "=", "half the parts are right", score="0.5")
        assert any("Override not saved" in str(n.title) for n in app._notifications)
        review(app).rows.refresh(1)  # what a redraw of the row would show
        row = review(app).rows[1]
        assert (row.human, row.correct) == (before.human, before.correct)
        assert "human (tester" not in view_text(app.review.detail.facts)
        assert "in journal" not in status_text(app)
        assert "human" not in store.records[1]["review"] and not store.dirty
    assert "human" not in on_disk(run_dir)["q0001"]["review"]


async def test_undo_and_redo(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down", "down")  # q0002
        old = review(app).rows[2].correct
        assert old is not None
        await override(pilot, "1" if old == 0 else "0", "rule missed it")
        assert review(app).rows[2].human is not None
        await pilot.press("home", "u")
        await app.workers.wait_for_complete()
        await ready(pilot)
        assert review(app).rows[2].human is None
        assert current_question(app) == "q0002"  # undo shows the item it changed
        assert on_disk(run_dir)["q0002"]["correct"] == old
        await pilot.press("U")
        await app.workers.wait_for_complete()
        await ready(pilot)
        assert review(app).rows[2].human == 1 - old
        assert on_disk(run_dir)["q0002"]["correct"] == 1 - old
        await pilot.press("u", "u")
        await ready(pilot)
        assert any("Nothing to undo" in str(n.message) for n in app._notifications)


async def test_reopen_shows_every_override(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down")
        await override(pilot, "1", "first")
        await pilot.press("down")
        await override(pilot, "0", "second")
    app.store.close()  # type: ignore[attr-defined]

    again = ReviewApp(open_run(run_dir))
    async with again.run_test(size=SIZE) as pilot:
        await ready(pilot)
        rows = review(again).rows
        assert rows[1].human == 1 and rows[2].human == 0
        assert "reviewed 2 /" in status_text(again)
        assert screen_lines(table(again))[2].startswith("✓")


async def test_journal_replayed_after_crash_before_write_back(run_dir: Path) -> None:
    original = on_disk(run_dir)["q0005"]["correct"]
    store = open_run(run_dir)
    store.override("q0005", 0.25, "crash test")  # journaled and fsynced...
    store.close()  # ...but the process "dies" before any write-back
    assert on_disk(run_dir)["q0005"].get("review", {}).get("human") is None

    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        row = review(app).rows[5]
        assert row.human == 0.25 and row.correct == 0.25
        review(app).set_filter("is:reviewed")
        await ready(pilot)
        assert [review(app).rows[p].qid.rsplit("/", 1)[-1] for p in table(app).view] == ["q0005"]
        assert "crash test" in view_text(app.review.detail.facts)
        await app.workers.wait_for_complete()
        # Opening wrote the replayed override into the files too.
        assert on_disk(run_dir)["q0005"]["correct"] == 0.25
        assert on_disk(run_dir)["q0005"]["review"]["human"]["reason"] == "crash test"
        await pilot.press("u")  # and it can be undone like any other
        await app.workers.wait_for_complete()
    assert on_disk(run_dir)["q0005"]["correct"] == original


async def test_refuses_to_clobber_a_concurrent_change(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await ready(pilot)
        # Another process rewrites the results while the app is open.
        records = list(on_disk(run_dir).values())
        records[0]["correct"] = 0.75
        theirs = orjson.dumps(records)
        (run_dir / "updated_predictions.json").write_bytes(theirs)

        await pilot.press("down")
        await override(pilot, "1", "mine")
        assert review(app).conflict is not None
        assert "NOT WRITTEN" in status_text(app)
        assert any("Files changed on disk" in n.title for n in app._notifications)
        # The override itself is safe in the journal.
        assert review(app).rows[1].human == 1
    assert (run_dir / "updated_predictions.json").read_bytes() == theirs
    journal = b"".join(p.read_bytes() for p in (run_dir / "journal").glob("*.jsonl"))
    assert b'"reason":"mine"' in journal


async def test_markup_and_escapes_are_shown_literally(tmp_path: Path) -> None:
    records = make_records(5)
    records.insert(1, hostile_record())
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("down")
        assert current_question(app).startswith("[bold]q-markup")
        row_line = screen_lines(table(app))[2]
        assert "[bold]q-markup[/bold]␛[2J" in row_line
        assert "[link=x]m[/li…" in row_line
        facts = blocks_text(app.review.detail.facts)
        assert HOSTILE_ANSWER.replace("\x1b", "␛").replace("\x07", "␇").replace("\r", "␍") in facts
        assert "[/] ␛[5mblink␛[0m [bold]judge[/bold]" in facts
        reasoning = blocks_text(app.review.detail.reasoning)
        assert reasoning.startswith("[red]not red[/red] xxx")
        assert reasoning.endswith("x␛[H␛[2J after the long line")
        first, second = screen_lines(app.review.detail.reasoning)[:2]
        # Drawn as typed; the long word starts the next line rather than being cut after "] ".
        assert first.startswith("[red]not red[/red]") and second.startswith("xxx")
        for widget in (table(app), app.review.detail.reasoning, app.review.detail.facts):
            for line in screen_lines(widget):
                assert not any(ch in line for ch in "\x1b\x07\r\x9b")
        # The hostile id also goes through the override dialog, a notification and the status bar.
        await override(pilot, "1", "[bold]reason[/] [link=x]")
        assert "[bold]q-mark" in status_text(app)  # shown literally (truncated to fit)
        await pilot.press("e")  # no evidence: a notification naming nothing from the record
        await ready(pilot)
    record = on_disk(tmp_path / "run")["[bold]q-markup[/bold]\x1b[2J"]
    assert record["review"]["human"]["reason"] == "[bold]reason[/] [link=x]"


async def test_evidence_key_scrolls_to_flagged_span(tmp_path: Path) -> None:
    records = make_records(8)
    # A 120 KB trace of short paragraphs (blank lines between), evidence at its end.
    long = "Step one. Step two.\n\n" * 6000
    hedge = "I guess it is B."
    records[0]["reason"] = long + hedge
    start = len(long)
    records[0]["review"]["flags"] = [
        {
            "kind": "hedged_reasoning_certain_answer",
            "source": "heuristic",
            "evidence": [
                {"field": "reasoning", "start": start, "end": start + len(hedge), "text": hedge}
            ],
        }
    ]
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        reasoning = app.review.detail.reasoning
        assert reasoning.scroll_y == 0
        await pilot.press("e")
        await ready(pilot)
        assert reasoning.scroll_y > 100
        visible = "".join(screen_lines(reasoning))
        assert "I guess it is B." in visible


async def test_a_filter_word_deep_in_a_long_trace_is_highlighted_and_reached_by_e(
    tmp_path: Path,
) -> None:
    records = make_records(8)
    # A 40 KB trace with the searched word near its end, and a flag's evidence at its start.
    long = "Step one. Step two.\n\n" * 2000
    records[0]["reason"] = "I guess so. " + long + "Then I checked the Almanac: 42."
    records[0]["review"]["flags"] = [
        {
            "kind": "hedged_reasoning_certain_answer",
            "source": "heuristic",
            "evidence": [{"field": "reasoning", "start": 0, "end": 11, "text": "I guess so."}],
        }
    ]
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("slash")
        await type_text(pilot, "text:almanac")
        await pilot.press("enter")
        await ready(pilot)
        assert current_qid(app).endswith("q0000")
        detail = app.review.detail
        reasoning = detail.reasoning
        marks = reasoning.blocks[0].marks
        word = next(m for m in marks if m.start > 11)
        assert reasoning.blocks[0].text[word.start : word.end] == "Almanac"
        assert word.style == reasoning.style_of("match") != reasoning.style_of("evidence")
        await pilot.press("e")  # the flag's evidence first
        await ready(pilot)
        assert reasoning.scroll_y == 0
        await pilot.press("e")  # then the filter word, 4,000 lines down
        await ready(pilot)
        assert reasoning.scroll_y > 1000
        assert "Almanac" in "".join(screen_lines(reasoning))
        assert word.style == reasoning.style_of("current")
        await pilot.press("x")  # no filter: no word highlighted, evidence alone
        await ready(pilot)
        assert [m.start for m in detail.reasoning.blocks[0].marks] == [0]


async def test_models_of_similar_names_are_told_apart_at_80_columns(tmp_path: Path) -> None:
    records = make_records(6)
    for i, record in enumerate(records):
        model = ("gemini-2.5-pro-thinking", "gemini-2.5-flash-thinking")[i % 2]
        record["model"] = model
        record["question_id"] = f"{model}/q{i // 2}"
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        rows = screen_lines(table(app))[1:3]
        assert "…pro…" in rows[0] and "…flash…" in rows[1]  # not "gemini-…" twice
        facts = app.review.detail.facts
        assert facts.blocks[0].text == "gemini-2.5-pro-thinking/q0"  # the full item id
        await pilot.press("down")
        await ready(pilot)
        assert facts.blocks[0].text == "gemini-2.5-flash-thinking/q0"
        await pilot.press("slash")  # a filter of the reviewer's own
        await type_text(pilot, "-is:overridden")
        await pilot.press("enter")
        await ready(pilot)
        mine, here = review(app).query_text, current_qid(app)
        await pilot.press("c")  # every model's answer to q0, the cursor kept on this one
        await ready(pilot)
        assert review(app).query_text == "qid:q0"
        assert [r.qid for r in (review(app).rows[p] for p in table(app).view)] == [
            "gemini-2.5-pro-thinking/q0",
            "gemini-2.5-flash-thinking/q0",
        ]
        assert current_qid(app) == here
        await pilot.press("c")  # back to the reviewer's filter
        await ready(pilot)
        assert review(app).query_text == mine


async def test_a_run_of_one_unnamed_model_has_no_model_column(tmp_path: Path) -> None:
    """Predictions without a model (the README's example) showed a column of blanks at
    80 columns, where the ids were cut to '…n_diagrams_2'."""
    records = make_records(4)
    for i, record in enumerate(records):
        del record["model"]
        record["question_id"] = f"question_diagrams_{i}"
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        lines = screen_lines(table(app))
        assert lines[0].split()[:2] == ["id", "bucket"]
        assert "question_diagrams_0" in lines[1]


async def test_a_wide_terminal_shows_long_ids_whole(tmp_path: Path) -> None:
    """At 200 columns ids were cut at 32 cells ('…ni-2.5-pro/question_academic_11')
    beside a flags column of ninety blanks; at 80 they still give way to the scores."""
    records = make_records(4)
    for i, record in enumerate(records):
        record["model"] = "gemini-2.5-pro"
        record["question_id"] = f"gemini-2.5-pro/question_academic_{i + 10}"
    write_run(tmp_path / "run", records)
    for size, whole in (((200, 50), True), ((80, 24), False)):
        app = ReviewApp(open_run(tmp_path / "run"))
        async with app.run_test(size=size) as pilot:
            await ready(pilot)
            lines = screen_lines(table(app))
            assert ("gemini-2.5-pro/question_academic_10" in lines[1]) is whole, lines[1]
            assert "strict" in lines[0] and "human" in lines[0]


async def test_z_keeps_a_wide_table_whole_and_scrolls_it_sideways(tmp_path: Path) -> None:
    records = make_records(4)
    row = "| " + " | ".join(f"{10000 + i}" for i in range(14)) + " |"
    records[0]["answer"] = records[0]["raw_answer"] = f"Table:\n\n{row}\n{row}\n\nAnswer: B"
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        facts = app.review.detail.facts
        wrapped = facts.line_count
        assert not any(facts.line_text(y) == row for y in range(wrapped))  # cut cell by cell
        await pilot.press("tab", "tab")  # the answer's pane
        assert app.focused is facts
        await pilot.press("z")
        await ready(pilot)
        assert facts.line_count < wrapped
        assert any(facts.line_text(y) == row for y in range(facts.line_count))
        await pilot.press("right", "l")
        await ready(pilot)
        assert facts.scroll_x == 16
        assert "10013 |" not in "".join(screen_lines(facts))
        await pilot.press(*["l"] * 10)
        await ready(pilot)
        assert "10013 |" in "".join(screen_lines(facts))  # the table's last column
        await pilot.press("shift+tab", "shift+tab", "down")  # the next item: still unwrapped
        await ready(pilot)
        assert not facts.wrap and facts.scroll_x == 0
        await pilot.press("tab", "tab", "z")
        await ready(pilot)
        assert facts.wrap and facts.scroll_x == 0


async def test_a_filter_that_showed_nothing_on_the_way_keeps_the_reviewers_place(
    run_dir: Path,
) -> None:
    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press(*["down"] * 7)
        await ready(pilot)
        here = current_qid(app)
        await pilot.press("slash")
        await type_text(pilot, "zzz")  # matches nothing
        await ready(pilot)
        assert table(app).current is None
        await pilot.press("backspace", "backspace", "backspace", "enter")
        await ready(pilot)
        assert current_qid(app) == here  # not the first row
        await pilot.press("slash")
        await type_text(pilot, "-is:x")  # "-" alone shows nothing on the way
        await pilot.press("enter")
        await ready(pilot)
        await pilot.press("x")
        await ready(pilot)
        assert current_qid(app) == here


async def test_review_filter_opens_with_the_filter_in_force(run_dir: Path) -> None:
    # `judge` prints `rome-tui review RUN --filter flag:rule_judge_disagree`.
    app = ReviewApp(open_run(run_dir), query="is:todo")
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        assert app.review.filter_input.value == "is:todo"
        shown = [review(app).rows[p] for p in table(app).view]
        assert shown and all(row.needs_review for row in shown)
        assert len(shown) < len(review(app).rows)
        await pilot.press("f")  # the queue key toggles it off, as if typed
        await ready(pilot)
        assert len(table(app).view) == len(review(app).rows)


async def test_help_summary_and_palette_come_from_the_registry(run_dir: Path) -> None:
    from rome_tui.app.bindings import REGISTRY

    app = ReviewApp(open_run(run_dir))
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("question_mark")
        await ready(pilot)
        help_text = "\n".join(screen_lines(app.screen.query_one("Static")))
        for spec in REGISTRY:
            assert spec.description in help_text
        await pilot.press("escape")
        await pilot.press("t")
        await ready(pilot)
        summary = "\n".join(screen_lines(app.screen.query_one("#summary-table")))
        assert "overall" in summary and "geo" in summary
        await pilot.press("escape")
        await pilot.press("ctrl+p")
        await ready(pilot)
        await type_text(pilot, "next flagged")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await ready(pilot)
        assert current_qid(app) != "q0000"
        assert current_qid(app) in [r.qid for r in review(app).rows if r.flags]


async def test_reload_after_a_conflict_merges_both_reviewers(run_dir: Path) -> None:
    app = ReviewApp(open_run(run_dir, annotator="alice"))
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await ready(pilot)
        # Bob, in another process, adjudicates q0003 and writes the files.
        bob = open_run(run_dir, annotator="bob")
        bob.override("q0003", 0.5, "bob: half right")
        bob.write_back()
        bob.close()

        await pilot.press("down")  # q0001
        await override(pilot, "0", "alice: wrong")
        assert review(app).conflict is not None
        assert on_disk(run_dir)["q0001"]["review"].get("human") is None  # Bob's file kept

        await pilot.press("ctrl+r")
        await ready(pilot)
        assert review(app).conflict is None
        assert "files written: reloaded" in status_text(app)
        assert review(app).rows[1].human == 0 and review(app).rows[3].human == 0.5
        assert current_question(app) == "q0001"
    files = on_disk(run_dir)
    assert files["q0001"]["review"]["human"]["annotator"] == "alice"
    assert files["q0003"]["review"]["human"]["annotator"] == "bob"
    assert files["q0001"]["correct"] == 0 and files["q0003"]["correct"] == 0.5


async def test_keymap_from_config_rebinds_by_id(
    run_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rome_tui.app.settings import load_keymap
    from scorers.errors import InputError

    config = tmp_path / "config.toml"
    monkeypatch.setenv("ROME_TUI_CONFIG", str(config))
    assert load_keymap() == {}
    config.write_text('[keymap]\nnext-flagged = "ctrl+n"\n')
    keymap = load_keymap()
    assert keymap == {"next-flagged": "ctrl+n"}

    app = ReviewApp(open_run(run_dir), keymap=keymap)
    async with app.run_test(size=SIZE) as pilot:
        await ready(pilot)
        await pilot.press("ctrl+n")
        assert current_qid(app) == next(r.qid for r in review(app).rows[1:] if r.flags)

    config.write_text('[keymap]\nno-such-binding = "x"\n')
    with pytest.raises(InputError, match="no-such-binding: no binding has this id"):
        load_keymap()
