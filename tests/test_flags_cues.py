"""The cue engine: where a cue may start, and offsets kept through lowering."""

from __future__ import annotations

import re

from scorers.flags.behaviour import cues


def test_the_negation_of_a_contraction_opens_a_cue() -> None:
    # "n't" starts a cue inside "wasn't", though no word boundary precedes it.
    found = cues.pattern("decline").search("The photo wasn't enough detail to tell.")
    assert found is not None and found.group(0).startswith("n't")
    assert re.search(r"\bn't", "wasn't") is None


def test_composed_cue_regexes_open_at_a_contraction_too() -> None:
    # The plain regexes the detectors compose (negators, hypothesis) read "n't" the same way.
    negators = cues.regex("hedge_negators")
    assert negators.search("It ISN'T obvious") is not None
    assert negators.search("the knot is tight") is None
    assert cues.regex("hypothetical").search("we haven't any tool") is not None


def test_lowering_keeps_offsets_for_expanding_capitals() -> None:
    text = "İSTANBUL, maybe"
    assert len(cues.lowered(text)) == len(text)
    hit = cues.pattern("hedge_strong").search(text)
    assert hit is not None and text[hit.start() : hit.end()] == "maybe"
