"""A place key inside a longer place name of another place does not count, however
the longer name is written: with an apostrophe ("de l'Ouest"), hyphens
("États-Unis"), or many words. Named on its own as well, the key counts."""

from __future__ import annotations

import pytest

from scorers.evaluate import strict
from scorers.evaluate.strict import names
from scorers.evaluate.strict.phrases import Answer

INSIDE = [
    # an apostrophe in the longer name (Western Europe in French)
    ("Europe", "Nous parlons ici de l'Europe de l'Ouest."),
    # six words around a one-word key
    ("Georgia", "The penguins nest on South Georgia and the South Sandwich Islands."),
    # hyphens and four words before the key
    ("États-Unis", "Le colis part pour les Îles Vierges des États-Unis demain."),
]

ON_ITS_OWN = [
    ("Europe", "L'Europe de l'Ouest est en Europe, bien sûr."),
    (
        "Georgia",
        "Tbilisi is in Georgia; South Georgia and the South Sandwich Islands lie far away.",
    ),
    ("États-Unis", "Les Îles Vierges des États-Unis appartiennent aux États-Unis."),
]


@pytest.mark.parametrize(("key", "text"), INSIDE)
def test_a_key_inside_a_longer_place_name_is_not_named(key: str, text: str) -> None:
    assert not Answer(text).contains(key)


@pytest.mark.parametrize(("key", "text"), ON_ITS_OWN)
def test_a_key_also_named_on_its_own_is_named(key: str, text: str) -> None:
    assert Answer(text).contains(key)


def test_verdicts() -> None:
    kwargs = {"key_items": [["Georgia"]]}
    wrong = strict.evaluate(
        "key_items_matching", kwargs, "Final Answer: South Georgia and the South Sandwich Islands"
    )
    assert wrong.score == 0
    right = strict.evaluate(
        "key_items_matching", kwargs, "Final Answer: Georgia (its capital is Tbilisi)"
    )
    assert right.score == 1


def test_hyphenated_names_read_as_the_answer_spells_them() -> None:
    # The answer's hyphens are spaces; the data keeps them.
    assert names.as_written("guinea bissau") == "guinea-bissau"
    assert names.as_written("no such place") == "no such place"
    assert "sandwich" in names.name_words()
    assert names.longest_name() >= 6  # "south georgia and the south sandwich islands"
