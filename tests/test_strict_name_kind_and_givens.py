"""Two readings of an answer's sentence structure:

- a key name ending in a word for its kind ("... Desert", "... Volcano") is named when
  the answer writes an adjective of the name between ("the Namib Coastal Desert")
  or says of the name what kind it is ("Kilauea is an active shield volcano"); a
  person's name, another known place and a name coordinated with others are not;
- without a marker, the concluding sentence's number is the one the question asks:
  not a number the question gives, restated after the result ("... 7 days to walk
  the 140 km"), nor one of a breakdown after the number that carries the thing the
  question counts ("31 bones, in 3 groups: 8 ..., 6 ...").

Worded unlike the blind batches (docs/strict-mode.md)."""

from __future__ import annotations

import pytest

from scorers.evaluate import strict


def _keys(answer: str, key: str, question: str = "") -> float:
    return strict.evaluate("key_items_matching", {"key_items": [[key]]}, answer, question).score


@pytest.mark.parametrize(
    ("answer", "key", "score"),
    [
        # another word of the name between the name and its kind
        ("Fog from the Atlantic waters the Namib Coastal Desert.", "Namib Desert", 1),
        # the kind said of the name (copula, apposition)
        ("Kilauea is an active shield volcano on Hawaii's Big Island.", "Kilauea Volcano", 1),
        ("Look at Etosha, the great salt pan of northern Namibia.", "Etosha Pan", 1),
        # controls: a name between that is another thing, coordination, negation
        ("The Colorado Plateau lies north of the canyon.", "Colorado Canyon", 0),
        ("Kilauea and three other volcanoes sit on the island.", "Kilauea Volcano", 0),
        (
            "The guide said that Kilauea is not a volcano to climb in sandals, so the group"
            " went to the beach instead.",
            "Kilauea Volcano",
            0,
        ),
        # another name's noun between, a place for a kind
        ("They hiked in the Blue Ridge Mountains.", "Blue Mountains", 0),
        ("It lies in South Central Africa.", "South Africa", 0),
        ("It is officially the United Mexican States.", "United States", 0),
        # a person's name with a middle name is another person
        ("It was signed by John Quincy Adams.", "John Adams", 0),
    ],
)
def test_name_with_its_kind(answer: str, key: str, score: float) -> None:
    assert _keys(answer, key) == score


def _number(answer: str, value: float, question: str) -> tuple[float, bool]:
    outcome = strict.evaluate("number_matching", {"value_to_match": value}, answer, question)
    return outcome.score, outcome.uncertain is None


@pytest.mark.parametrize(
    ("answer", "value", "question", "score"),
    [
        # the given restated after the result
        (
            "Each day the pilgrims cover 20 km of the route.\nDividing the whole route by the"
            " daily distance, 140 / 20 gives us 7.\nIn conclusion, the pilgrims will be walking"
            " for 7 days to complete the full 140 km.",
            7,
            "Pilgrims walk 20 km per day on a route of 140 km. How long will the walk take?",
            1,
        ),
        # the thing counted, then its breakdown
        (
            "A bird's wing has 31 bones, which include 3 groups: 8 are in the hand, 6 are in"
            " the forearm, and 17 are elsewhere.",
            31,
            "How many bones does a bird's wing have?",
            1,
        ),
        # a date's day and year are no amount
        (
            "The composer was 64 when she died in Lyon on 12 October 1931, after a long illness.",
            64,
            "How old was the composer when she died?",
            1,
        ),
        (
            "Le pont mesurait 412 mètres lors de son inauguration le 3 juin 1898.",
            412,
            "How long was the bridge when it opened?",
            1,
        ),
        ("She was born on 2 May 1950 and died aged 71.", 71, "How old was she when she died?", 1),
        # controls: a date asked ("When"), which the date holds; a year asked; a result
        # that is itself a given number, a breakdown with no count
        (
            "The bridge opened on 12 May 1937, and traffic crossed at once.",
            1937,
            "When did the bridge open?",
            1,
        ),
        (
            "The treaty was signed by 12 delegates on 4 March 1801.",
            1801,
            "In which year was the treaty signed?",
            1,
        ),
        (
            "He started with 12 marbles and gave none away, so he still has 12.",
            12,
            "Tom has 12 marbles and gives 3 to Ann, who gives them back. How many marbles"
            " does Tom have?",
            1,
        ),
        (
            "Of the 4 legs of the relay, 2 are run by Ann, and the other 2 by Ben.",
            2,
            "How many legs does Ann run in the relay?",
            1,
        ),
    ],
)
def test_number_the_question_asks(answer: str, value: float, question: str, score: float) -> None:
    assert _number(answer, value, question) == (score, True)  # read, and sure
