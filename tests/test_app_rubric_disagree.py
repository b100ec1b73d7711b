"""The review app's queue of items where the heuristic flags and the rubric judge disagree:
the ``flag:`` filter finds them and the detail pane shows both readings of each kind."""

from __future__ import annotations

from pathlib import Path

from app_fixtures import open_run, write_run
from test_flags_rubric_disagree import ALL_NO, OUTPUT_ONLY, PLAIN, SEARCH, item, rubric

from rome_tui.app.app import ReviewApp
from rome_tui.app.widgets.text_view import TextView
from scorers.flags.flagging import recompute_flags
from scorers.records import Verdict


def blocks_text(view: TextView) -> str:
    return "\n".join(block.text for block in view.blocks)


def graded(qid: str, reason: str, rubric_verdict: Verdict | None) -> dict[str, object]:
    record = item(reason, *([rubric_verdict] if rubric_verdict else []))
    record["question_id"] = qid
    record["review"]["verdicts"].insert(
        0, Verdict(source="rule:strict", score=1.0, extracted="12", explanation=None)
    )
    record["review"].update(mode="strict", primary="rule:strict", history=[])
    record["correct"] = 1.0
    recompute_flags(record)
    return record


async def test_the_filter_lists_the_disagreements_and_the_pane_sets_the_readings_side_by_side(
    tmp_path: Path,
) -> None:
    records = [
        graded("agree", SEARCH, rubric({**ALL_NO, 6: "YES"})),
        graded("denied", SEARCH, rubric(ALL_NO)),
        graded("unjudged", SEARCH, None),
        graded("rubric-only", PLAIN, rubric({**ALL_NO, 2: "YES"})),
        graded("low", OUTPUT_ONLY, rubric(ALL_NO)),
    ]
    write_run(tmp_path / "run", records)
    app = ReviewApp(open_run(tmp_path / "run"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.review
        screen.set_filter("flag:heuristic_rubric_disagree")
        await pilot.pause()
        rows = screen.rows
        assert [rows[p].qid for p in screen.table.view] == ["denied", "rubric-only", "low"]
        screen.set_filter("flag:rubric_disagree -is:todo")  # negation and parts still work
        await pilot.pause()
        assert [rows[p].qid for p in screen.table.view] == []

        screen.set_filter("flag:heuristic_rubric_disagree")
        await pilot.pause()
        facts = blocks_text(screen.detail.facts)
        assert "Heuristic vs rubric: claims_web_search" in facts
        assert "heuristic: raised, high confidence" in facts and "“I googled" in facts
        assert "rubric: Q6 Hallu. Search: NO. Because 6." in facts

        await pilot.press("down")
        await pilot.pause()
        facts = blocks_text(screen.detail.facts)
        assert "Heuristic vs rubric: answer_contradicts_reasoning" in facts
        assert "heuristic: not raised" in facts
        assert "rubric: Q2 Incons Ans: YES. Because 2." in facts

        await pilot.press("down")
        await pilot.pause()
        assert "heuristic: raised, low confidence" in blocks_text(screen.detail.facts)
