"""GSM8K's ``#### N`` line is read as a final-answer marker, by strict mode and math prose
alike (``scorers/evaluate/answer_line.py``): a later one replaces an earlier stated answer,
and a level-four Markdown heading that opens with a number is no answer line.

Worded unlike the blind batches (docs/strict-mode.md, "Where the answer is"; docs/math.md).
"""

from __future__ import annotations

import pytest

from scorers.evaluate import strict
from scorers.evaluate.answer_line import answer_line
from scorers.evaluate.mathmatch import math_matching

# An answer that states one value in prose, then closes with the format's line.
RESTATED = (
    "The baker fills 14 trays of 12 rolls, which is 168 rolls.\n"
    "She gives away 30, so the answer is 138.\n\n#### 138"
)
# The prose commits to one value and the closing line to another: the line is the answer.
OVERRULED = (
    "Each crate holds 9 melons and there are 7 crates. Answer: 63.\n\n"
    "Hmm, one crate arrived half full, so 63 - 4 = 59.\n#### 59"
)
# A Markdown heading of level four that opens with a number names a part.
HEADING = (
    "#### 1) Cost of the paint\n"
    "Three tins at $18 each cost $54.\n\n"
    "#### 2) Cost of the brushes\n"
    "Two brushes at $6 each: the answer is $12."
)


@pytest.mark.parametrize(
    ("answer", "value", "score"),
    [
        (RESTATED, 138, 1),
        (OVERRULED, 59, 1),
        (OVERRULED, 63, 0),
        (HEADING, 12, 1),
        (HEADING, 2, 0),
        ("Total distance: 3.5 + 4.25 = 7.75 km.\n####7.75", 7.75, 1),
        ("The shop loses money: revenue minus costs is -1,250.\n#### -1,250", -1250, 1),
    ],
)
def test_strict_reads_the_answer_line(answer: str, value: float, score: int) -> None:
    outcome = strict.evaluate("number_matching", {"value_to_match": value}, answer, None)
    assert (outcome.score, outcome.uncertain) == (score, None), outcome


@pytest.mark.parametrize(
    ("answer", "reference", "score"),
    [
        (RESTATED, "138", 1),
        (OVERRULED, "59", 1),
        (OVERRULED, "63", 0),
        (HEADING, "12", 1),
    ],
)
def test_math_reads_the_answer_line(answer: str, reference: str, score: float) -> None:
    assert math_matching(answer, answer=reference).score == score


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("So 5.\n#### 5", "5"),
        ("So 5.\n  ####  $1,200.\nThanks", "$1,200."),
        ("#### 4 apples", None),  # a heading, or a value with a unit the format never writes
        ("#### Step 2\nAdd 3.", None),
        ("Answer: 4 #### 4", None),  # not on a line of its own
        ("no hashes at all", None),
    ],
)
def test_answer_line(text: str, found: str | None) -> None:
    at = answer_line(text)
    assert (text[at[1] :].split("\n")[0].strip() if at else None) == found


def test_only_lines_after_the_given_offset() -> None:
    text = "#### 3\nAnswer: 4"
    assert answer_line(text, text.index("Answer")) is None
    assert answer_line(text) == (0, 5)
