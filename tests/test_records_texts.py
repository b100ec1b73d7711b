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
from scorers.io.results import RunSettings
from scorers.records import (
    content_hash,
    final_answer,
    has_reasoning,
    response_texts,
    split_think,
    strip_think_tags,
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
