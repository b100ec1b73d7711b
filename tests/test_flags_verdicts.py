"""Flags from comparing verdicts: a rule and a judge half a point or more apart disagree."""

from __future__ import annotations

from typing import Any

import pytest

from scorers.flags.flagging import FlagContext, recompute_flags


def graded(rule: Any, judge: Any, judge_source: str = "judge:rome") -> dict[str, Any]:
    return {
        "question_id": "q1",
        "response": "Karlův most, Prague",
        "review": {
            "primary": "rule:strict",
            "verdicts": [
                {"source": "rule:rome", "score": rule},
                {"source": "rule:strict", "score": rule},
                {"source": judge_source, "score": judge},
            ],
            "flags": [],
        },
    }


def kinds(record: dict[str, Any]) -> set[str]:
    return {f["kind"] for f in recompute_flags(record, FlagContext())}


@pytest.mark.parametrize(
    ("rule", "judge"), [(0.5, 1), (1, 0.5), (0.5, 0), (0, 1), (1.0, 0.0), (True, 0)]
)
def test_scores_half_a_point_apart_disagree(rule: Any, judge: Any) -> None:
    assert "rule_judge_disagree" in kinds(graded(rule, judge))


@pytest.mark.parametrize(
    ("rule", "judge"), [(1, 1), (0.5, 0.5), (0.75, 1), (0, 0.25), (1, None), (1, float("nan"))]
)
def test_scores_closer_than_half_a_point_agree(rule: Any, judge: Any) -> None:
    assert "rule_judge_disagree" not in kinds(graded(rule, judge))


def test_rubric_scores_are_not_compared_with_the_rule() -> None:
    assert "rule_judge_disagree" not in kinds(graded(0.5, 1, "judge:rubric"))


def test_a_flag_of_an_unknown_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    # The kinds are checked once over every detector's flags; an unknown one still raises.
    from scorers.flags import flagging

    def bogus(record: Any, texts: Any, ctx: Any) -> list[dict[str, Any]]:
        return [{"kind": "made_up", "source": "test", "evidence": [], "detail": ""}]

    monkeypatch.setattr(
        flagging, "detectors", lambda: (*flagging._imported(("scorers.flags.verdicts",)), bogus)
    )
    with pytest.raises(ValueError, match="made_up"):
        recompute_flags(graded(1, 1), FlagContext())
