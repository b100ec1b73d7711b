"""The app's view model without a terminal: rows, filters, sorting, progress, accuracy, text safety."""

from __future__ import annotations

from app_fixtures import make_records

from rome_tui.app.items import (
    Row,
    accuracy,
    as_score,
    build_rows,
    distinct_parts,
    filter_rows,
    parse_query,
    progress,
    sorted_positions,
)
from rome_tui.app.widgets.item_table import ItemTable
from rome_tui.app.widgets.text_view import _chop
from rome_tui.textsafe import one_line, visible
from rome_tui.typed_score import parse_score


def test_scores_from_file_values() -> None:
    assert [as_score(v) for v in (1, 0, "1", "0", 0.5, "0.25", None, "None", "x", True)] == [
        1.0,
        0.0,
        1.0,
        0.0,
        0.5,
        0.25,
        None,
        None,
        None,
        1.0,
    ]


def test_row_fields_come_from_verdicts_and_review() -> None:
    records = make_records(10)
    records[3]["review"]["human"] = {"score": 0.5, "annotator": "a", "reason": "r"}
    records[3]["correct"] = 0.5
    records[4]["review"]["verdicts"][2] = {
        "source": "judge:rome",
        "score": None,
        "error": "timeout",
        "extracted": None,
        "explanation": None,
    }
    rows = build_rows(records)
    assert rows[3].human == 0.5 and rows[3].reviewed and rows[3].overridden
    assert rows[3].machine == records[3]["review"]["verdicts"][1]["score"]  # primary rule:strict
    assert rows[4].judge is None and rows[4].judge_error
    assert rows[0].bucket == "academic" and rows[1].model == "o3"


def test_query_language() -> None:
    rows = build_rows(make_records(60))
    order = list(range(len(rows)))

    def ids(text: str) -> list[str]:
        return [rows[p].qid for p in filter_rows(rows, order, parse_query(text))]

    assert ids("") == [r.qid for r in rows]
    assert ids("q0012") == ["q0012"]
    assert ids("bucket:geo") == [r.qid for r in rows if r.bucket == "geo"]
    assert ids("-bucket:geo") == [r.qid for r in rows if r.bucket != "geo"]
    assert ids("flag:hedged") == [
        r.qid for r in rows if "hedged_reasoning_certain_answer" in r.flags
    ]
    assert ids("is:todo") == [r.qid for r in rows if r.flags and r.human is None]
    assert ids("is:unflagged model:claude") == [
        r.qid for r in rows if not r.flags and r.model == "claude-4"
    ]
    assert ids("score:0 eval:choices") == [
        r.qid for r in rows if r.correct == 0 and r.evaluator == "choices_matching"
    ]
    assert ids("GEMINI academic") == [
        r.qid for r in rows if r.model.startswith("gemini") and r.bucket == "academic"
    ]
    assert (
        parse_query("color:red").errors
        and parse_query("is:maybe").errors
        and parse_query("score:high").errors
    )


def test_sorting_and_reverse() -> None:
    rows = build_rows(make_records(30))
    by_judge = [rows[p].judge for p in sorted_positions(rows, "judge")]
    assert by_judge == sorted(by_judge, key=lambda v: -1 if v is None else v)
    assert sorted_positions(rows, "id", reverse=True)[0] == 29


def test_progress_and_accuracy_before_after() -> None:
    records = make_records(8)
    for r in records:
        r["task"] = "a" if int(r["question_id"][1:]) < 4 else "b"
        r["review"]["verdicts"][1]["score"] = r["correct"] = 0
    records[0]["review"]["human"] = {"score": 1.0}
    records[0]["correct"] = 1.0
    records[5]["review"]["human"] = {"score": 0.5}
    records[5]["correct"] = 0.5
    rows = build_rows(records)
    overall, buckets = accuracy(rows)
    assert (overall.n, overall.before, overall.after) == (8, 0.0, 100 * 1.5 / 8)
    assert [(b.name, b.n, b.before, b.after) for b in buckets] == [
        ("a", 4, 0.0, 25.0),
        ("b", 4, 0.0, 12.5),
    ]
    p = progress(rows)
    assert (p.reviewed, p.overridden, p.total) == (2, 2, 8)


def _mixed_rows() -> list[Row]:
    """Flagged and unflagged items, reviewed and not, scored 0, partly, 1 and not at all."""
    flag = {"kind": "rome_strict_disagree", "source": "verdicts", "evidence": [], "detail": ""}
    plan = [  # (flagged, machine score, human score or None)
        (True, 0, None),  # q0000: to do
        (True, 0, 1.0),  # q0001: flagged, reviewed
        (True, 1, 0.5),  # q0002: flagged, reviewed to a partial score
        (True, 0.5, 0.0),  # q0003: flagged, reviewed to 0
        (False, 0, None),  # q0004: scored 0, nothing to review
        (False, 0.25, None),  # q0005: partial credit from the rule
        (False, 1, 0.75),  # q0006: reviewed without a flag
        (True, 1, None),  # q0007: to do
        (False, None, None),  # q0008: no score at all
    ]
    records = make_records(len(plan))
    for record, (flagged, machine, human) in zip(records, plan, strict=True):
        review = record["review"]
        review["flags"] = [dict(flag)] if flagged else []
        review["verdicts"][1]["score"] = machine
        record["correct"] = machine if human is None else human
        if human is not None:
            review["human"] = {"score": human, "annotator": "ana"}
    return build_rows(records)


def test_partial_and_exact_score_filters() -> None:
    rows = _mixed_rows()
    order = list(range(len(rows)))

    def ids(text: str) -> list[str]:
        return [rows[p].qid for p in filter_rows(rows, order, parse_query(text))]

    # Partial credit is strictly between 0 and 1: a 0 is no partial score.
    assert ids("score:partial") == ["q0002", "q0005", "q0006"]
    assert ids("score:0") == ["q0000", "q0003", "q0004"]
    assert ids("score:1") == ["q0001", "q0007"]
    assert ids("score:none") == ["q0008"]


def test_to_do_counts_only_flagged_items_not_yet_reviewed() -> None:
    rows = _mixed_rows()
    p = progress(rows)
    assert (p.flagged, p.flagged_left, p.reviewed, p.total) == (5, 2, 4, 9)
    assert [r.qid for r in rows if r.needs_review] == ["q0000", "q0007"]
    order = list(range(len(rows)))
    todo = [rows[i].qid for i in filter_rows(rows, order, parse_query("is:todo"))]
    assert todo == ["q0000", "q0007"]


def test_typed_scores() -> None:
    assert [parse_score(t) for t in ("1", "0", "0.5", "1/3", "50%", " 1 ")] == [
        1,
        0,
        0.5,
        1 / 3,
        0.5,
        1,
    ]
    assert [parse_score(t) for t in ("", "2", "-1", "a", "1/0")] == [None] * 5


def test_visible_keeps_offsets_and_drops_controls() -> None:
    text = "a\x1b[31mb\x07c\rd\te\u202ef\x9bg\nh"
    shown = visible(text)
    assert len(shown) == len(text)
    assert "\n" in shown and not any(ch in shown for ch in "\x1b\x07\r\t\u202e\x9b")
    assert shown.startswith("a␛[31mb␇c␍d e")
    assert one_line("x\ny" * 10, 8) == "x⏎yx⏎yx…"


def test_wrapping_is_exact_and_bounded() -> None:
    text = ("word " * 50) + ("z" * 130)
    lines = _chop(text, 0, len(text), 40, True)
    assert "".join(text[a:b] for a, b in lines) == text
    # A line may end in the space after its last word (cropped when drawn), never more.
    assert all(len(text[a:b].rstrip(" ")) <= 40 for a, b in lines)
    wide = "漢字" * 50
    wide_lines = _chop(wide, 0, len(wide), 21, False)
    assert "".join(wide[a:b] for a, b in wide_lines) == wide
    assert all(len(wide[a:b]) * 2 <= 21 for a, b in wide_lines)


def test_wrapping_moves_a_word_rather_than_cutting_it() -> None:
    # At 23 cells "It seems straightforward, but" was cut to "straightforwar" + "d,".
    text = "It seems straightforward, but I'm breaking it down"
    for ascii_only in (True, False):
        shown = [text[a:b].rstrip(" ") for a, b in _chop(text, 0, len(text), 23, ascii_only)]
        assert shown == ["It seems", "straightforward, but", "I'm breaking it down"]
    long_word = "x" * 30 + " end"
    assert [long_word[a:b] for a, b in _chop(long_word, 0, len(long_word), 12, True)] == [
        "x" * 12,
        "x" * 12,
        "x" * 6 + " end",
    ]


def test_table_cells_are_measured_in_terminal_cells() -> None:
    # A CJK or emoji model name counted in characters pushed every later column right.
    from rich.cells import cell_len

    for text in ("模型-😀-测试", "ジオ・バケット名がとても長い", "plain", "géo", ""):
        for width in (6, 7, 8, 14):
            assert cell_len(ItemTable._cell(text, width)) == width + 1, (text, width)
            assert cell_len(ItemTable._cell_tail(text, width)) == width + 1, (text, width)
    assert ItemTable._cell_tail("模型/问题_一二三四五", 8).startswith("…")
    assert ItemTable._cell_tail("模型/问题_一二三四五", 8).rstrip().endswith("五")


def test_model_names_cut_to_the_part_that_tells_them_apart() -> None:
    assert distinct_parts(["gemini-2.5-pro-thinking", "gemini-2.5-flash-thinking"]) == {
        "gemini-2.5-pro-thinking": "…pro…",
        "gemini-2.5-flash-thinking": "…flash…",
    }
    # The start is the one shared with the nearest names; a name sharing nothing stays.
    assert distinct_parts(["gemini-2.5-pro", "gemini-2.5-flash", "claude-opus-4"]) == {
        "gemini-2.5-pro": "…pro",
        "gemini-2.5-flash": "…flash",
        "claude-opus-4": "claude-opus-4",
    }
    parts = distinct_parts(["qwen3-235b-a22b-thinking", "qwen3-235b-a22b-instruct", "qwen3-32b"])
    assert parts == {
        "qwen3-235b-a22b-thinking": "…thinking",
        "qwen3-235b-a22b-instruct": "…instruct",
        "qwen3-32b": "…32b",
    }
    assert distinct_parts(["gpt-5", "gpt-5-high"]) == {"gpt-5": "…5", "gpt-5-high": "…5-high"}
    assert distinct_parts(["only-one"]) == {"only-one": "only-one"}
    assert distinct_parts(["a-x", "a-x"]) == {"a-x": "a-x"}
    assert distinct_parts([]) == {}


def test_qid_filter_is_one_question_across_models() -> None:
    records = make_records(6)
    for i, record in enumerate(records):
        record["model"] = ("m-a", "m-b")[i % 2]
        record["question_id"] = f"{record['model']}/q{i // 2}"
    records.append({**records[0], "question_id": "m-a/q10", "model": "m-a"})  # q1 is not q10
    rows = build_rows(records)
    view = filter_rows(rows, range(len(rows)), parse_query("qid:q1"))
    assert [rows[p].qid for p in view] == ["m-a/q1", "m-b/q1"]
    view = filter_rows(rows, range(len(rows)), parse_query("-qid:q1"))
    assert "m-a/q1" not in [rows[p].qid for p in view] and len(view) == 5
