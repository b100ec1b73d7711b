"""What the summary reports about judges: VRC-Bench's Steps score, partial-credit agreement,
panel agreement, fallback parses, and buckets too small for an interval."""

from __future__ import annotations

import pytest
from summary_fixtures import record, verdict

from rome_tui.render.tablespec import all_tables
from scorers.judges.parsing import VRC_METRICS
from scorers.stats import weighted_kappa
from scorers.stats.summary import SummaryOptions, summarise


def steps_verdict(value: float) -> dict[str, object]:
    metrics = dict.fromkeys(VRC_METRICS, value)
    metrics["Missing Step"] = value - 1  # the mean is value - 0.1
    return verdict("judge:vrc-steps", round((value - 0.1) / 10, 4), metrics=metrics)


def test_vrc_steps_score_and_per_metric_means() -> None:
    records = [
        record(f"q{i}", 1.0, verdicts=[verdict("rule:strict", 1.0), steps_verdict(v)])
        for i, v in enumerate([8.0, 6.0, 7.0, 9.0, 10.0, 5.0])
    ]
    summary = summarise([("m", records)], SummaryOptions(n_resamples=200))
    steps = summary.models[0].vrc_steps
    assert steps is not None and steps.n == 6
    assert steps.steps.accuracy == pytest.approx(74.0)  # mean of 7.9, 5.9, ... times 10
    assert steps.metrics["Hallucination"] == pytest.approx(7.5)
    assert steps.metrics["Missing Step"] == pytest.approx(6.5)
    table = next(t for t in all_tables(summary) if t.key == "vrc_steps")
    assert table.rows[0][:3] == ["m", "6", "74.00"] and "Missing Step" in table.columns
    assert summary.to_dict()["vrc_steps"]["steps"] == pytest.approx(74.0)


def test_agreement_keeps_partial_credit() -> None:
    # The judge gives 0.5 where the rule says 1: cut at 0.5 that is full agreement.
    records = [
        record(
            f"q{i}",
            rule,
            verdicts=[verdict("rule:strict", rule), verdict("judge:mathreal", judged)],
        )
        for i, (rule, judged) in enumerate(
            [(1.0, 1.0), (1.0, 0.5), (0.0, 0.0), (1.0, 0.5), (0.0, 0.5), (0.0, 0.0)]
        )
    ]
    summary = summarise([("m", records)], SummaryOptions(n_resamples=200))
    (pair,) = summary.models[0].agreement
    assert pair.partial == 3
    assert pair.levels == [[2, 1, 0], [0, 0, 0], [0, 2, 1]]
    assert pair.weighted_kappa == pytest.approx(weighted_kappa(pair.levels))
    assert pair.weighted_kappa is not None and pair.weighted_kappa < (pair.kappa or 0)
    table = next(t for t in all_tables(summary) if t.key == "agreement")
    assert "Weighted κ" in table.columns and "partial" in table.note


def test_panel_members_get_fleiss_kappa_and_stay_out_of_pairwise_agreement() -> None:
    records = []
    for i in range(8):
        votes = {"a": 1.0, "b": 1.0 if i % 2 else 0.0, "c": 1.0 if i % 4 else 0.0}
        verdicts = [verdict("rule:strict", 1.0), verdict("judge:rome", 1.0 if i % 2 else 0.0)]
        verdicts += [verdict(f"judge:rome@{m}", s) for m, s in votes.items()]
        records.append(record(f"q{i}", 1.0, verdicts=verdicts))
    summary = summarise([("m", records)], SummaryOptions(n_resamples=200))
    (panel,) = summary.models[0].panels
    assert panel.judge == "judge:rome" and panel.members == ["a", "b", "c"] and panel.n == 8
    assert panel.fleiss_kappa is not None and -1 <= panel.fleiss_kappa < 0.5
    assert {(p.a, p.b) for p in summary.models[0].agreement} == {("rule:strict", "judge:rome")}
    assert any(t.key == "judge_panels" for t in all_tables(summary))


def test_fallback_parses_are_counted_and_small_buckets_say_so() -> None:
    records = [
        record(
            f"q{i}",
            1.0,
            task="big" if i < 6 else "tiny",
            flags=[("judge_parse_fallback", "judge:mathreal")] if i < 2 else None,
        )
        for i in range(8)
    ]
    summary = summarise([("m", records)], SummaryOptions(n_resamples=200))
    rate = next(f for f in summary.models[0].flags if f.kind == "judge_parse_fallback")
    assert rate.count == 2
    tables = {t.key: t for t in all_tables(summary)}
    assert ["judge_parse_fallback", "2"] in tables["other_flags"].rows
    rows = {row[0]: row for row in tables["buckets"].rows}
    assert rows["tiny"][3] == "n<5" and rows["big"][3].startswith("[")
    assert "not be meaningful" in tables["buckets"].note
    buckets = summary.to_dict()["buckets"]
    assert "not meaningful" in buckets["tiny"]["ci95_note"] and "ci95_note" not in buckets["big"]
