"""A date written day, month, comma, year ("4 March, 1999") is one whole date, as a
key and in an answer, like "March 4, 1999"."""

from __future__ import annotations

import pytest
from strict_fixtures import Reading, assert_reading

from scorers.evaluate.strict.dates import key_date

K = "key_items_matching"
CASES: list[Reading] = [
    (
        K,
        {"key_items": [["4 March, 1999"]]},
        "The treaty was signed on March 4, 1999.",
        None,
        1,
        False,
    ),
    (K, {"key_items": [["4 March, 1999"]]}, "It was signed on 4.3.1999.", None, 1, False),
    (K, {"key_items": [["4 March 1999"]]}, "Signed 4 March, 1999, in Geneva.", None, 1, False),
    (
        K,
        {"key_items": [["4 March, 1999"]]},
        "The treaty was signed on March 14, 1999.",
        None,
        0,
        False,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[2] for c in CASES])
def test_day_month_comma_year(case: Reading) -> None:
    assert_reading(*case)


def test_the_key_is_one_date() -> None:
    assert key_date("4 March, 1999") == (1999, 3, 4)
