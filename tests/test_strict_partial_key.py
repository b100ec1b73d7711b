"""Strict mode's doubts over how an answer relates to the key as a whole: a
one-sentence answer graded 0 that names part of a key item of several words is
unsure; an answer that states the key first and then goes on about it is sure,
whatever names follow. Each with cases it must not mark. The wordings are this
file's own."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

from scorers.evaluate.strict.doubt import partial_key

K = "key_items_matching"
L = "location_matching"

CASES: list[Reading] = [
    # Half or more of a key item's own words, not all: whether the part names the
    # whole only a reader knows. Unsure, graded 0.
    (
        K,
        {"key_items": [["Kunsthistorisches Museum Wien"]]},
        "The Kunsthistorisches Museum.",
        None,
        0,
        True,
    ),
    (
        K,
        {"key_items": [["Royal Shakespeare Company"]]},
        "It was staged by the Shakespeare Company.",
        None,
        0,
        True,
    ),
    (K, {"key_items": [["pyroclastic flow"]]}, "a pyroclastic surge", None, 0, True),
    # ... in a list, for the item it names only in part
    (
        K,
        {"key_items": [["sandstone"], ["shale"], ["glacial till"]]},
        "sandstone, shale and glacial deposits",
        None,
        0,
        True,
    ),
    # ... a place's candidate named in part
    (
        L,
        {"location_fine_grained": ["Lake Titicaca"], "location_coarse_grained": ["Altiplano"]},
        "A high lake, by the look of the reeds.",
        None,
        0,
        True,
    ),
    # Sure: the whole key (the rule grades it), or less than half of its own words.
    (
        K,
        {"key_items": [["Royal Shakespeare Company"]]},
        "The Royal Shakespeare Company.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["Ministry of Agriculture and Rural Affairs"]]},
        "She headed the Ministry of Finance under two governments.",
        None,
        0,
        False,
    ),
    # ... a name's word written as a common word ("a watch maker" names no "Watch Co.")
    (
        K,
        {"key_items": [["Geneva Watch Company"]]},
        "A watch company founded in Zurich.",
        None,
        0,
        False,
    ),
    # ... another place the data knows that shares a word with the key
    (K, {"key_items": [["North Macedonia"]]}, "North Korea.", None, 0, False),
    # ... a date or a number (a shared month or year is no part of the same day)
    (K, {"key_items": [["9 November 1989"]]}, "In November 1991.", None, 0, False),
    # ... an answer of several sentences shares words with a key as often by chance
    (
        K,
        {"key_items": [["Kunsthistorisches Museum Wien"]]},
        "It hangs in a museum. The Kunsthistorisches Museum lent it to Madrid in 2019.",
        None,
        0,
        False,
    ),
    # An answer that states the key first, then goes on about it: the names after it
    # are no rival. Sure.
    (
        K,
        {"key_items": [["Ljubljana"]]},
        "The capital is Ljubljana. Its old town sits below a castle on the Sava.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["Hedy Lamarr"]]},
        "Hedy Lamarr co-invented it in 1941. Together with George Antheil she patented it.",
        None,
        1,
        False,
    ),
    # ... the words of a passing belief read at a word's start: "nor" is not in
    # "honored", "many" not in "Germany"
    (
        K,
        {"key_items": [["March 3, 2019"]]},
        "The poet was honored with a plaque on March 3, 2019. The plaque hangs in Boston.",
        None,
        1,
        False,
    ),
    (
        K,
        {"key_items": [["Leipzig"]]},
        "Leipzig, in Germany. Bach worked there at St. Thomas.",
        None,
        1,
        False,
    ),
    # ... unsure still when the first sentence holds the key as a passing belief or
    # the last one turns
    (
        K,
        {"key_items": [["March 3, 2019"]]},
        "The plaque was first planned for March 3, 2019. The plaque hangs in Boston.",
        None,
        1,
        True,
    ),
    (
        K,
        {"key_items": [["Ljubljana"]]},
        "Ljubljana might be it. The signs are in Croatian, so Zagreb.",
        None,
        1,
        True,
    ),
    (
        K,
        {"key_items": [["Ljubljana"]]},
        "The capital is Ljubljana. However, the photo shows Zagreb.",
        None,
        1,
        True,
    ),
]


@pytest.mark.parametrize(("evaluator", "kwargs", "answer", "question", "score", "unsure"), CASES)
def test_partial_key_and_answered_first(
    evaluator: str, kwargs: dict, answer: str, question: str | None, score: float, unsure: bool
) -> None:
    assert_reading(evaluator, kwargs, answer, question, score, unsure)


def test_the_reason_names_the_part_and_the_key() -> None:
    why = partial_key(
        K, {"key_items": [["Royal Shakespeare Company"]]}, "The Shakespeare Company.", "x"
    )
    assert (
        why
        == "names 'shakespeare company' of the key 'Royal Shakespeare Company' but not all of it"
    )
