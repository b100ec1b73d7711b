"""Where a record's reasoning ends and its answer starts, and its content hash.

The tag handling is written for speed (it looks at the ends of a text before
searching it); these properties hold it to the plain definition: one wrapping
``<think>``/``</think>`` pair is dropped when only whitespace lies outside it.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from scorers.evaluate import rome, strict
from scorers.evaluate.mathmatch.extract import extract_answer
from scorers.grade.grader import Grader
from scorers.io.run_settings import RunSettings
from scorers.records import (
    content_hash,
    final_answer,
    final_answer_text,
    has_reasoning,
    raw_response,
    response_texts,
    review_of,
    set_verdict,
    split_think,
    strip_think_tags,
    verdict_of,
)

PIECES = st.sampled_from(["<think>", "</think>", " ", "\n", "\u3000", "x", "Final Answer: B", "<"])
TEXTS = st.lists(st.one_of(PIECES, st.text(max_size=4)), max_size=12).map("".join)


def plain_strip(text: str) -> str:
    """The definition: search the whole text for each tag."""
    lo, hi = 0, len(text)
    start = text.find("<think>")
    if start != -1 and (start == 0 or text[:start].isspace()):
        lo = start + len("<think>")
    end = text.rfind("</think>", lo, hi)
    if end != -1:
        after = end + len("</think>")
        if after == hi or text[after:hi].isspace():
            hi = end
    return text[lo:hi]


@settings(max_examples=400)
@given(TEXTS)
def test_strip_think_tags_is_the_plain_definition(text: str) -> None:
    assert strip_think_tags(text) == plain_strip(text)


@settings(max_examples=400)
@given(TEXTS)
def test_split_think_cuts_at_the_first_closing_tag(text: str) -> None:
    reasoning, answer = split_think(text)
    cut = text.find("</think>")
    if cut == -1:
        assert (reasoning, answer) == ("", text)
    else:
        assert answer == text[cut + len("</think>") :]
        assert reasoning == plain_strip(text[: cut + len("</think>")])


def test_tags_at_the_ends_and_behind_whitespace() -> None:
    assert strip_think_tags("<think>a</think>") == "a"
    assert strip_think_tags("  \n<think>a</think>\n ") == "a"
    assert strip_think_tags("x<think>a</think>") == "x<think>a"
    assert strip_think_tags("<think>a</think>x") == "a</think>x"
    assert strip_think_tags("<think></think>") == ""
    assert strip_think_tags("</think>") == ""
    assert split_think("<think>why</think>Final Answer: B") == ("why", "Final Answer: B")


REASONING_FIELD = st.sampled_from(["reason", "reasoning_content", "reasoning"])


@settings(max_examples=300)
@given(TEXTS, st.dictionaries(REASONING_FIELD, st.one_of(st.none(), TEXTS), max_size=2))
def test_has_reasoning_reads_response_texts(answer: str, fields: dict[str, Any]) -> None:
    """The summary's "has a reasoning" is the app's and the flags' reasoning, not blank."""
    record = {"answer": answer, **fields}
    assert has_reasoning(record) == bool(response_texts(record).reasoning.strip())
    assert response_texts(record).answer == final_answer(answer)


# A model that closes its thinking twice: everything after the first tag is the
# final answer, which the text after the last tag would miss.
TWICE_CLOSED = "<think>draft: \\boxed{3}</think>So \\boxed{4}\n</think>\nFinal Answer: 4"


def test_every_reader_grades_the_text_after_the_first_closing_tag() -> None:
    final = final_answer(TWICE_CLOSED)
    assert final == "So \\boxed{4}\n</think>\nFinal Answer: 4"
    assert response_texts({"answer": TWICE_CLOSED}).answer == final
    # math_matching: the boxes after the first tag, not the text after the last.
    assert extract_answer(TWICE_CLOSED) == ("4", "boxed")
    assert extract_answer("<think>\\boxed{3}</think>\\boxed{4}</think>Hmm.") == ("4", "boxed")
    # Case matters, as in the production harness: "</THINK>" closes nothing.
    assert final_answer("<THINK>a</THINK>B") == "<THINK>a</THINK>B"
    # strict mode splits once, whether given the whole response or the grader's.
    graded = strict.evaluate("number_matching", {"value_to_match": 4}, "<think>3</think>4</think>")
    assert graded.score == 1
    # rome mode grades the whole response, as the reference does.
    assert rome.judged_text(TWICE_CLOSED) == TWICE_CLOSED


def test_the_grader_splits_once() -> None:
    """Both rule verdicts of strict mode and math read ``final_answer`` of the response."""
    grader = Grader(RunSettings(mode="strict"))
    number = {"evaluator": "number_matching", "evaluator_kwargs": {"value_to_match": 4}}
    _, strict_v, _ = grader.rule_verdicts(number, "<think>3</think>Final Answer: 4</think>")
    assert strict_v["score"] == 1
    math = {"evaluator": "math_matching", "evaluator_kwargs": {"answer": "4"}}
    _, math_v, _ = grader.rule_verdicts(math, "<think>\\boxed{3}</think>\\boxed{4}</think>Hmm.")
    assert math_v["score"] == 1


def _hash_with_every_option(record: dict[str, Any]) -> str:
    payload = orjson.dumps(
        [
            record["answer"],
            record.get("reference"),
            record.get("evaluator"),
            record.get("evaluator_kwargs"),
        ],
        option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS,
        default=str,
    )
    return hashlib.sha256(payload).hexdigest()[:16]


def test_content_hash_is_unchanged_by_the_fast_path() -> None:
    """Stored hashes stay valid: the same bytes are hashed whether or not a key
    needs OPT_NON_STR_KEYS."""
    plain = {
        "answer": "Final Answer: 12",
        "reference": 12,
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value": 12, "b": [1, {"z": 1, "a": 2}]},
    }
    odd_keys = dict(plain, evaluator_kwargs={1: "one", "two": 2})
    for record in (plain, odd_keys):
        assert content_hash(record) == _hash_with_every_option(record)
    assert content_hash(plain) != content_hash(odd_keys)


def test_the_original_response_is_read_once_graded() -> None:
    """``raw_answer`` (the response before grading rewrote ``answer``) wins over ``answer``."""
    record = {"answer": "C", "raw_answer": "<think>so B</think>Final Answer: B"}
    assert response_texts(record) == ("so B", "Final Answer: B")
    assert final_answer_text(record) == "Final Answer: B"
    assert response_texts({"answer": "<think>a</think>b"}) == ("a", "b")
    assert response_texts({}) == ("", "")


def test_each_run_of_a_multi_run_record() -> None:
    runs = {f"inference_{i}": f"<think>r{i}</think>a{i}" for i in (10, 2, 0, 1)}
    record = {"answer": runs, "reason": ["", "why 1"]}
    # Runs in numeric order: inference_2 before inference_10.
    assert [raw_response(record, run) for run in range(4)] == [
        "<think>r0</think>a0",
        "<think>r1</think>a1",
        "<think>r2</think>a2",
        "<think>r10</think>a10",
    ]
    assert raw_response(record, 4) is None
    assert response_texts(record) == ("r0", "a0")  # a blank reason falls back to the think block
    assert response_texts(record, 1) == ("why 1", "a1")  # per-run reasoning fields
    assert response_texts(record, 3) == ("r10", "a10")
    assert response_texts(record, 4) == ("", "")
    assert [final_answer_text(record, run) for run in range(4)] == ["a0", "a1", "a2", "a10"]
    # Once graded, the runs are kept as a list in raw_answer.
    graded = {
        "answer": {"inference_0": "x", "inference_1": "y"},
        "raw_answer": ["x", "<think>t</think>y"],
    }
    assert response_texts(graded, 1) == ("t", "y") and raw_response(graded, 2) is None
    assert has_reasoning(graded, 1) and not has_reasoning(graded, 0)
    # Other JSON values are one response, read as the grader grades them: their JSON text.
    assert (
        response_texts({"answer": {"k": 1, "inference_0": "x"}}).answer
        == '{"k":1,"inference_0":"x"}'
    )
    assert response_texts({"answer": []}).answer == "[]"
    assert response_texts({"answer": 12}).answer == "12"


def test_reasoning_fields_in_order_and_their_tags() -> None:
    raw = "<think>inline</think>B"
    assert (
        response_texts({"answer": raw, "reasoning_content": "rc", "reasoning": "r"}).reasoning
        == "rc"
    )
    assert response_texts({"answer": raw, "reason": " \n", "reasoning": "r"}).reasoning == "r"
    assert response_texts({"answer": raw, "reason": "<think>x</think>"}).reasoning == "x"
    # A field holding only an empty think block leaves the reasoning to the answer.
    assert response_texts({"answer": raw, "reason": "<think></think>"}).reasoning == "inline"
    assert not has_reasoning({"answer": "<think> \n</think>B"})
    assert has_reasoning({"answer": "B", "reason": "because"})


def test_one_verdict_per_source_and_a_review_made_on_demand() -> None:
    record: dict[str, Any] = {"review": "not a dict"}
    review = review_of(record)
    assert record["review"] is review
    assert review == {"version": 1, "verdicts": [], "flags": [], "history": []}
    first = {"source": "rule:rome", "score": 0.0, "extracted": "A", "explanation": None}
    other = {"source": "judge:rome", "score": 1.0, "extracted": None, "explanation": "ok"}
    again = {"source": "rule:rome", "score": 1.0, "extracted": "B", "explanation": None}
    for verdict in (first, other, again):
        set_verdict(record, verdict)  # type: ignore[arg-type]
    assert record["review"]["verdicts"] == [again, other]
    assert verdict_of(record, "rule:rome") is again
    assert verdict_of(record, "judge:x") is None and verdict_of({}, "rule:rome") is None
    assert review_of(record) is review


def test_content_hash_follows_what_is_graded() -> None:
    base = {
        "answer": "<think>t</think>Final Answer: 4",
        "reference": "4",
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": 4},
    }
    digest = content_hash(base)
    assert len(digest) == 16
    # The reasoning and the record's other fields are not what a verdict is about.
    assert content_hash({**base, "answer": "<think>other</think>Final Answer: 4", "x": 1}) == digest
    assert content_hash(base, "Final Answer: 4") == digest
    # The kwargs as HF exports write them (a JSON string) are the same kwargs.
    assert content_hash({**base, "evaluator_kwargs": '{"value_to_match": 4}'}) == digest
    for key, value in (
        ("answer", "Final Answer: 5"),
        ("reference", "5"),
        ("evaluator", "key_items_matching"),
        ("evaluator_kwargs", {"value_to_match": 5}),
    ):
        assert content_hash({**base, key: value}) != digest, key


def test_a_graded_record_shows_the_text_that_was_graded() -> None:
    """The grader and response_texts read runs and other JSON values alike."""
    grader = Grader(RunSettings(mode="strict"))
    gt = {
        "question_id": "q",
        "evaluator": "number_matching",
        "evaluator_kwargs": {"value_to_match": 4},
    }
    one = grader.grade_record({"question_id": "q", "answer": {"value": 4}}, gt)
    assert response_texts(one).answer == '{"value":4}'
    runs = {"inference_1": "<think>b</think>4", "inference_0": "<think>a</think>3"}
    graded = grader.grade_record({"question_id": "q", "answer": runs}, gt)
    assert [response_texts(graded, run) for run in (0, 1)] == [("a", "3"), ("b", "4")]
