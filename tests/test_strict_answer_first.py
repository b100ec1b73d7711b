"""An answer without a marker that states its number in its first sentence,
restating the question, then tells more about it: the first sentence's number
is the answer, the later ones details. Worded unlike the blind batches."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

N = "number_matching"
LIGHTHOUSE = "How tall is the Tower of Hercules lighthouse?"
FERRY = "How many passengers did the 1987 ferry carry on its last crossing?"
PAINTINGS = "How many paintings did the museum lend in 2019?"

CASES: list[Reading] = [
    # the first sentence answers; the rest are details with numbers of their own
    (
        N,
        {"value_to_match": 55},
        "The Tower of Hercules lighthouse is 55 metres tall. It was built in the 1st century "
        "and restored in 1791, and its light reaches 24 nautical miles.",
        LIGHTHOUSE,
        1,
        False,
    ),
    # the question's own number in the first sentence is passed over
    (
        N,
        {"value_to_match": 412},
        "The 1987 ferry carried 412 passengers on its last crossing. Its crew numbered 36.",
        FERRY,
        1,
        False,
    ),
    (
        N,
        {"value_to_match": 36},
        "The 1987 ferry carried 412 passengers on its last crossing. Its crew numbered 36.",
        FERRY,
        0,
        False,
    ),
    # a later sentence that concludes is read as before: the result worked towards
    (
        N,
        {"value_to_match": 30},
        "The museum lent 12 paintings in 2019 to Lyon. Another 18 went to Turin, so 30 in all.",
        PAINTINGS,
        1,
        False,
    ),
    # in another language, the question's names tell the sentence that restates it
    (
        N,
        {"value_to_match": 58},
        "Die Brücke von Tancarville misst 58 Meter. Sie wurde 1959 eröffnet und 1999 erneuert.",
        "Wie hoch ist der Pfeiler der Brücke von Tancarville über der Seine?",
        1,
        False,
    ),
    # a first sentence that does not restate the question is no answer of its own
    (
        N,
        {"value_to_match": 44},
        "Records are patchy before 1990. The museum's ledger lists 44 loans that year.",
        PAINTINGS,
        1,
        False,
    ),
]


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c[1]['value_to_match']}|{c[2][:30]}" for c in CASES]
)
def test_answered_first(case: Reading) -> None:
    assert_reading(*case)
