"""Text search through the word index: every answer equals a plain scan of the texts."""

from __future__ import annotations

from typing import Any

import pytest
from app_fixtures import make_records

from rome_tui.app.items import TextIndex, filter_rows, make_row, parse_query, record_text


def _scan(records: list[dict[str, Any]], word: str) -> frozenset[int]:
    """What the index must answer: the records whose casefolded texts contain ``word``."""
    folded = word.casefold()
    return frozenset(i for i, r in enumerate(records) if folded in record_text(r).casefold())


def _filter(records: list[dict[str, Any]], query: str, index: TextIndex | None = None) -> list[int]:
    rows = [make_row(i, r) for i, r in enumerate(records)]
    return filter_rows(rows, range(len(rows)), parse_query(query), index or TextIndex(records))


def _records() -> list[dict[str, Any]]:
    records = make_records(8)
    for r in records:
        r["question"], r["reference"] = "What is shown?", "B"
        r["reason"] = r["answer"] = r["raw_answer"] = "plain"
    records[0]["question"] = "Where was this photo taken? The sign reads Hauptstraße."
    records[0]["reason"] = "The spires look like the Sagrada Família."
    records[1]["reference"] = "Barcelona"
    records[1]["reason"] = "A church: the sagrada família, I think."
    records[2]["reason"] = "I read STRASSE on the sign"
    records[3]["answer"] = records[3]["raw_answer"] = "Final answer: Barcelona, x=5"
    records[4]["reason"] = "the word ends in foo"  # the answer "plain" follows
    records[5]["question"] = "bar starts this record"  # after record 4's texts
    return records


def test_words_in_different_fields_must_all_be_there() -> None:
    records = _records()
    assert _filter(records, "sagrada barcelona") == [1]  # reasoning and reference
    assert _filter(records, "photo sagrada") == [0]  # question and reasoning
    assert _filter(records, "text:photo text:barcelona") == []


@pytest.mark.parametrize("query", ["SAGRADA", "sagrada", "SaGrAdA", "text:SAGRADA"])
def test_case_does_not_matter(query: str) -> None:
    assert _filter(_records(), query) == [0, 1]


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("STRASSE", [0, 2]),  # ß casefolds to ss
        ("straße", [0, 2]),
        ("hauptstrasse", [0]),
        ("FAMÍLIA", [0, 1]),
        ("familia", []),  # accents are kept: í is not i
        ('"sagrada família"', [0, 1]),
    ],
)
def test_non_ascii_words_are_casefolded(query: str, want: list[int]) -> None:
    assert _filter(_records(), query) == want


def test_a_word_typed_letter_by_letter_matches_a_scan_at_every_letter() -> None:
    records = make_records(300)
    for i, r in enumerate(records):
        r["reason"] += f" Token{i % 37}x straße{i % 5}"
    index = TextIndex(records)
    for word in ("token12x", "strasse3", "STRAßE3"):
        for end in range(1, len(word) + 1):
            assert index.matching(word[:end]) == _scan(records, word[:end]), word[:end]
    assert len(index.matching("token12x") or ()) == len([i for i in range(300) if i % 37 == 12])


@pytest.mark.parametrize(
    ("query", "want"),
    [
        ("-text:sagrada", [2, 3, 4, 5, 6, 7]),
        ("-text:SAGRADA -text:strasse", [3, 4, 5, 6, 7]),
        ("barcelona -text:família", [3]),
        ("text:plain -text:barcelona", [0, 2, 4, 5, 6, 7]),
    ],
)
def test_negated_words_leave_the_records_holding_them_out(query: str, want: list[int]) -> None:
    assert _filter(_records(), query) == want


@pytest.mark.parametrize("query", ["foobar", "plainbar", '"foo plain"', '"plain bar"', "fooplain"])
def test_no_match_runs_across_records_or_fields(query: str) -> None:
    # Record 4's texts end "...foo" / "plain" and record 5's start "bar": neither the
    # join between records nor the one between a record's fields is text.
    assert _filter(_records(), query) == []


@pytest.mark.parametrize(
    "word", ["x=5", "answer: barcelona", "taken?", "?", "família,", "i think", "foo\nplain"]
)
def test_words_with_punctuation_or_spaces_match_a_scan(word: str) -> None:
    records = _records()
    assert TextIndex(records).matching(word) == _scan(records, word)


def test_a_cancelled_build_resumes_and_answers_as_a_fresh_one() -> None:
    records = make_records(3000)
    index, calls = TextIndex(records), 0

    def cancelled() -> bool:
        nonlocal calls
        calls += 1
        return calls == 2  # stops after the first 1,024 records

    assert index.build(cancelled) is False and not index.ready
    assert index.matching("q") == TextIndex(records).matching("q") == _scan(records, "q")
    assert index.ready
