"""Hand-labelled hard cases: strict must agree with the careful-human label on all.

rome mode's agreement is reported (``-rP`` shows it), not asserted beyond being
below strict's: it is the reference, quirks included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorers.errors import EvaluatorError
from scorers.evaluate import rome, strict

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "strict" / "hard_cases.json").read_text(encoding="utf-8")
)


def test_the_set_is_large_and_covers_every_evaluator() -> None:
    assert len(CASES) >= 60
    assert {c["evaluator"] for c in CASES} == set(strict.EVALUATORS)
    assert {c["label"] for c in CASES} >= {0, 1}


@pytest.mark.parametrize("case", CASES, ids=[f"{i}-{c['evaluator']}" for i, c in enumerate(CASES)])
def test_strict_matches_the_human_label(case: dict[str, Any]) -> None:
    outcome = strict.evaluate(case["evaluator"], case["kwargs"], case["answer"])
    assert outcome.score == case["label"], (case["note"], outcome)


def test_rome_agreement_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    right = 0
    for case in CASES:
        try:
            score = rome.evaluate(case["evaluator"], case["kwargs"], case["answer"]).score
        except EvaluatorError:
            score = None
        right += score == case["label"]
    with capsys.disabled():
        print(f"\nhard cases: strict {len(CASES)}/{len(CASES)}, rome {right}/{len(CASES)}")
    assert right < len(CASES)
