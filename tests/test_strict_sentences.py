"""strict's sentence split (``commit.sentences``): where a sentence ends, and the
count test that reads no further than it needs."""

from __future__ import annotations

import re

import pytest

from scorers.evaluate.strict.commit import _SENTENCE_END, more_sentences_than, sentences


def _split_whole(text: str) -> list[str]:
    """The split as one regex makes it (the definition ``sentences`` follows line by line)."""
    return [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]


TEXTS = [
    "",
    "Plain words without a stop",
    "It is 4. The other is 5.",
    "Paris is on the Seine. Lyon is not!  Is Nice? (Maybe.) 'Yes.' [Sure.]",
    "1. C 2. A 3. B",
    "See St. Petersburg and Mt. Fuji. Then Dr. Who vs. Mr. Smith.",
    "Mrs. Jones met Ms. Lee at Ste. Anne.\tThen 12. went on",
    "First line\n\nSecond line.\nThird. Fourth\n",
    "U.S. policy. 1.5 metres. Done..  Again",
    "x.\n5. A\nSt. B. C",
    "Ends here.   \t",
    "\u00a0. A b. c d. E",
]


@pytest.mark.parametrize("text", TEXTS)
def test_sentences_follow_the_whole_split(text: str) -> None:
    assert sentences(text) == _split_whole(text)


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_more_sentences_than_counts_as_the_split(text: str, count: int) -> None:
    assert more_sentences_than(text, count) == (len(sentences(text)) > count)


def test_a_stop_after_a_lone_digit_or_an_abbreviation_ends_nothing() -> None:
    assert sentences("Step 2. Add St. Louis. Then stop.") == [
        "Step 2. Add St. Louis.",
        "Then stop.",
    ]
    assert re.search(r"\n", " ".join(sentences("a\nb"))) is None
