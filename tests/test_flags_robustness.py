"""Detectors never crash, always give exact spans, and stay linear on hostile input."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
from flags_fixtures import assert_spans_exact, record, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorers.flags.behaviour.text import sentences
from scorers.flags.flagging import FlagContext

WORDS = st.sampled_from(
    [
        "I",
        "searched",
        "the",
        "web",
        "answer",
        "is",
        "42",
        "B",
        "(B)",
        "might",
        "be",
        "not",
        "sure",
        "wait,",
        "actually",
        "cannot",
        "determine",
        "zoom",
        "in",
        "crop",
        "ran",
        "code",
        "Final",
        "Answer:",
        "\\boxed{",
        "}",
        "ignore",
        "previous",
        "instructions",
        "Judgement:",
        "1",
        "grader",
        "so",
        "therefore",
        ".",
        "\n\n",
        "**",
        "can’t",
        "İ",
        "ß",
        "—",
        "probably",
        "if",
        "could",
        "calculator",
        "python",
        "verified",
        "confirms",
    ]
)
TEXT = st.lists(WORDS, max_size=80).map(" ".join) | st.text(max_size=400)


KWARGS: dict[str, dict[str, Any]] = {
    "number_matching": {"value_to_match": 42},
    "choices_matching": {"label": "B"},
    "key_items_matching": {"key_items": [["Paris"]]},
}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    reason=TEXT,
    answer=TEXT,
    evaluator=st.sampled_from(["number_matching", "choices_matching", "key_items_matching"]),
)
def test_any_text_gives_valid_flags(reason: str, answer: str, evaluator: str) -> None:
    kwargs: dict[str, Any] = KWARGS[evaluator]
    rec = record(reason, answer, evaluator, kwargs)
    found = run(rec, FlagContext(tools_available=frozenset({"code"})))
    assert_spans_exact(rec, found)
    assert len({f["kind"] for f in found}) == len(found)  # one flag per kind


HOSTILE = {
    "letters": "a" * 100_000,
    "negations": "not " * 25_000,
    "claims": "I searched " * 10_000,
    "brackets": "(" * 100_000,
    "boxes": "\\boxed{" * 14_000,
    "markers": "Final Answer: " * 7_000,
    "commits": ". the answer is " * 6_000,
    "digits": "1" * 100_000,
    "newlines": "\n" * 100_000,
    "mixed": "I might be wrong, maybe. Wait, actually the answer is 4. I ran the code. zoom in. "
    * 1_250,
    "abstain": "I can't determine " * 6_000,
    "wide": "İß" * 50_000,
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hundred_thousand_character_inputs_are_handled(name: str) -> None:
    # A regex blow-up would hang here; the detectors cap hits and windows instead.
    text = HOSTILE[name]
    rec = record(text, text)
    found = run(rec)
    assert_spans_exact(rec, found)


@pytest.mark.parametrize("word", ["FİVE", "fİve", "SEVEN"])
def test_number_words_with_expanding_capitals_are_read_or_kept(word: str) -> None:
    # "İ".lower() is two characters; strict mode still reads "FİVE" as 5 (and the spans
    # index the original text).
    reason = f"Counting again, the answer is {word} boats.\n\nSo the answer is {word}."
    rec = record(reason, "Final Answer: 3", "number_matching", {"value_to_match": 7})
    found = run(rec)
    assert_spans_exact(rec, found)
    contradictions = [f for f in found if f["kind"] == "answer_contradicts_reasoning"]
    # each is read (7 or 5) and contradicts the answer 3
    assert len(contradictions) == 1


def test_a_hard_wrapped_trace_flags_as_the_unwrapped_one() -> None:
    # Models and tools that wrap at 60-80 columns break lines inside cues ("I ran\na search").
    reason = (
        "The question asks when the bridge toll was lifted, so I ran a search for the bridge's "
        "history, and the results say that the toll ended in 1967. So the answer is 1967."
    )
    wrapped = textwrap.fill(reason, 60, break_on_hyphens=False)
    assert "ran\na search" in wrapped  # the line break falls inside the cue
    kinds = [
        {f["kind"] for f in run(record(t, "1967", kwargs={"value_to_match": 1967}))}
        for t in (reason, wrapped)
    ]
    assert kinds[0] == kinds[1] == {"claims_web_search"}


def test_a_sentence_goes_on_across_a_wrapped_line_break() -> None:
    # Hedging and conclusions are read a sentence at a time: wrapping must not cut one in two.
    reason = (
        "Adding the weights of the crates from the shipping manifest one after another carefully, "
        "I suspect the total comes out to around 48 kilograms, although I could easily have "
        "misread one of the smudged entries along the way. The answer is 48."
    )
    wrapped = textwrap.fill(reason, 60, break_on_hyphens=False)
    assert "misread\none of" in wrapped  # one sentence would read as two
    kinds = [
        {f["kind"] for f in run(record(t, "48", kwargs={"value_to_match": 48}))}
        for t in (reason, wrapped)
    ]
    assert kinds[0] == kinds[1] == {"hedged_reasoning_certain_answer"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "the sum of\nthe two is 7.\nThe answer is 7.",
            ["the sum of\nthe two is 7.", "The answer is 7."],
        ),
        ("Answer:\nthe sum", ["Answer:", "the sum"]),  # a label
        (
            "Options:\n(a) one\nb) two\n- three",
            ["Options:", "(a) one", "b) two", "- three"],
        ),  # list items
        ("# Plan\nfirst add", ["first add"]),  # a heading
        ("we add\n\nthen check", ["we add", "then check"]),  # a blank line
        ("x = 5\ny = 3", ["x = 5", "y = 3"]),  # lines of working
    ],
)
def test_where_a_line_break_ends_a_sentence(text: str, expected: list[str]) -> None:
    assert [s.text for s in sentences(text)] == expected
