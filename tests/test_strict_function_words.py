"""A capitalised word of English's closed classes (a pronoun, a determiner, a
preposition, a conjunction, an auxiliary) opens a sentence and is never a name:
it raises no doubt that the answer names something the data does not know."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

from scorers.evaluate.strict.answer_names import name_of

K = "key_items_matching"

CASES: list[Reading] = [
    # a known other place, sure, whatever opens the sentence
    (K, {"key_items": [["Lisbon"]]}, "We flew to Porto.", None, 0, False),
    (K, {"key_items": [["Lisbon"]]}, "Those trams run in Porto.", None, 0, False),
    (K, {"key_items": [["Lisbon"]]}, "Through Porto.", None, 0, False),
    (K, {"key_items": [["Lisbon"]]}, "She lives in Lisbon.", None, 1, False),
    # a capital before "to" or a verb opens a sentence too ("Impossible to say")
    (K, {"key_items": [["Lisbon"]]}, "Impossible to say from this.", None, 0, False),
    (K, {"key_items": [["Lisbon"]]}, "Cannot be told from the photo.", None, 0, False),
    # a name the data does not know stays unsure, after a function word too
    (K, {"key_items": [["Lisbon"]]}, "Probably Vellamora.", None, 0, True),
    (K, {"key_items": [["Lisbon"]]}, "In Vellamora.", None, 0, True),
]


@pytest.mark.parametrize("case", CASES, ids=[c[2] for c in CASES])
def test_function_words_are_no_names(case: Reading) -> None:
    assert_reading(*case)


@pytest.mark.parametrize(
    ("written", "name"),
    [
        ("They", None),
        ("Whose", None),
        ("Among", None),
        ("In Vellamora", "vellamora"),
        ("The Hague", "hague"),
        ("US", "us"),  # capitals: a country's code, not the pronoun
        ("Will Ferrell", "will ferrell"),
    ],
)
def test_name_of(written: str, name: str | None) -> None:
    assert name_of(written) == name
