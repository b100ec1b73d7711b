"""Held-out-style items graded against MathReal's expected scores, and the
25 trial pairs of mathverify_trials.md against plain math-verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorers.evaluate.mathmatch import math_matching

DATA = Path(__file__).parent / "data" / "math"


def _load(name: str) -> list[dict[str, Any]]:
    return json.loads((DATA / name).read_text(encoding="utf-8"))


def _grade(items: list[dict[str, Any]]) -> tuple[int, int, list[str]]:
    """(items within 0.01 of the expected partial score, strict verdicts right, misses)."""
    close = strict_right = 0
    misses: list[str] = []
    for item in items:
        out = math_matching(
            item["response"], answer=item["reference"], question_type=item.get("question_type")
        )
        ok_partial = abs(out.score - item["partial"]) <= 0.01
        ok_strict = out.strict == item["strict"]
        close += ok_partial
        strict_right += ok_strict
        if not (ok_partial and ok_strict):
            misses.append(
                f"{item['id']} {item['rule']}: got {out.score}/{out.strict}, parts {out.parts}"
            )
    return close, strict_right, misses


def test_heldout_style_set_meets_targets() -> None:
    items = _load("heldout.json")
    assert len(items) >= 40
    close, strict_right, misses = _grade(items)
    assert close / len(items) >= 0.90, misses
    assert strict_right / len(items) >= 0.95, misses
    assert not misses  # our own set: every item right


def test_heldout_expected_scores_are_consistent() -> None:
    for item in _load("heldout.json"):
        assert 0.0 <= item["partial"] <= 1.0
        assert item["strict"] == (1.0 if item["partial"] == 1.0 else 0.0), item["id"]


def test_trial_pairs_all_agree_with_mathreal() -> None:
    items = _load("mathverify_trials.json")
    assert len(items) == 25
    close, strict_right, misses = _grade(items)
    assert (close, strict_right) == (25, 25), misses


@pytest.mark.slow
def test_plain_math_verify_misses_trial_pairs_that_we_get() -> None:
    """Plain math-verify ($-wrapped, gold first) agrees on strict verdicts less often."""
    from math_verify import parse, verify

    items = _load("mathverify_trials.json")
    plain_right = 0
    for item in items:
        expected = item["strict"] == 1.0
        got = verify(parse(f"${item['reference']}$"), parse(f"${item['response']}$"))
        plain_right += got == expected
    ours = _grade(items)[1]
    print(
        f"strict agreement on the 25 trial pairs: plain math-verify {plain_right}/25, math_matching {ours}/25"
    )
    assert plain_right < ours == 25
