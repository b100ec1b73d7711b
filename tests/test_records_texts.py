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

from scorers.records import content_hash, split_think, strip_think_tags

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
