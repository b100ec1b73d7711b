"""The Summary object computed from graded records, checked against hand counts."""

from __future__ import annotations

import statistics

import pytest
from summary_fixtures import record, synthetic_run, verdict

from scorers.stats import cohen_kappa
from scorers.stats.summary import SummaryOptions, group_by_model, summarise, summarise_model


def test_overall_and_bucket_accuracy_with_counts_and_intervals() -> None:
    records = [record(f"a{i}", 1.0 if i < 3 else 0.0, task="academic") for i in range(4)]
    records += [record(f"d{i}", 1.0 if i < 1 else 0.0, task="diagrams") for i in range(5)]
    records.append(record("r0", None, task="diagrams"))  # rejected: no score
    m = summarise_model("m", records, SummaryOptions())
    assert m.records == 10 and m.ungraded == 1
    assert m.overall.loose.n == 9
    assert m.overall.loose.accuracy == pytest.approx(100 * 4 / 9)
    ci = m.overall.loose.ci95
    assert ci is not None and ci.low < 100 * 4 / 9 < ci.high
    names = [b.name for b in m.buckets]
    assert names == ["academic", "diagrams"]
    academic, diagrams = m.buckets
    assert (academic.loose.n, academic.loose.accuracy) == (4, 75.0)
    assert (diagrams.loose.n, diagrams.loose.accuracy) == (5, 20.0)
    assert m.overall.strict is None  # no record has correct_strict


def test_strict_accuracy_where_correct_strict_exists() -> None:
    records = [
        record("m1", 0.5, task="math", correct_strict=0.0),
        record("m2", 1.0, task="math", correct_strict=1.0),
        record("m3", 0.25, task="math", correct_strict=0.0),
        record("t1", 1.0, task="text"),  # no partial credit: strict = loose
    ]
    m = summarise_model("m", records, SummaryOptions())
    assert m.overall.loose.accuracy == pytest.approx(100 * 2.75 / 4)
    assert m.overall.strict is not None
    assert m.overall.strict.accuracy == pytest.approx(50.0)
    math_bucket = m.buckets[0]
    assert math_bucket.strict is not None and math_bucket.strict.accuracy == pytest.approx(100 / 3)


def test_bucket_field_and_subtype_are_options() -> None:
    records = [
        record("1", 1.0, image_type="Natural", image_subtype="Animal"),
        record("2", 0.0, image_type="Natural", image_subtype="Plant"),
        record("3", 1.0, image_type="Natural", image_subtype="Plant"),
        record("4", 1.0, image_type=""),  # falsy bucket value -> "all", as the reference
    ]
    m = summarise_model("m", records, SummaryOptions(by="image_type", subtype="image_subtype"))
    assert [b.name for b in m.buckets] == ["Natural", "all"]
    natural = m.buckets[0]
    assert {s.name: (s.loose.n, s.loose.accuracy) for s in natural.subbuckets} == {
        "Animal": (1, 100.0),
        "Plant": (2, 50.0),
    }


def test_runs_give_mean_and_sample_std() -> None:
    records = [
        record("1", 0.75, inference_scores=[1, 1, 0, 1]),
        record("2", 0.25, inference_scores="[0, 0, 1, 0]"),  # HF export: JSON text
        record("3", 0.5, inference_scores=[1, 0, 0, 1]),
    ]
    m = summarise_model("m", records, SummaryOptions())
    runs = m.overall.runs
    assert runs is not None and runs.n_runs == 4
    per_run = [100 * 2 / 3, 100 / 3, 100 / 3, 200 / 3]
    assert runs.per_run == pytest.approx(per_run)
    assert runs.mean == pytest.approx(50.0)
    assert runs.std == pytest.approx(statistics.stdev(per_run))


def test_agreement_between_every_pair_of_sources_binarised_at_half() -> None:
    # (rome, strict, judge): judge 0.5 counts as correct, 0.4 as wrong.
    rows = [(1, 1, 1.0), (1, 0, 0.5), (0, 0, 0.4), (0, 0, 1.0), (1, 1, 0.0), (0, 1, 1.0)]
    records = [
        record(
            str(i),
            float(s),
            verdicts=[verdict("rule:rome", r), verdict("rule:strict", s), verdict("judge:rome", j)],
            human=1.0 if i == 0 else (0.0 if i == 3 else None),
        )
        for i, (r, s, j) in enumerate(rows)
    ]
    records[2]["review"]["verdicts"].append(verdict("judge:mathreal", None, error="timeout"))
    m = summarise_model("m", records, SummaryOptions())
    pairs = {(p.a, p.b): p for p in m.agreement}
    assert list(pairs) == [
        ("rule:rome", "rule:strict"),
        ("rule:rome", "judge:rome"),
        ("rule:rome", "human"),
        ("rule:strict", "judge:rome"),
        ("rule:strict", "human"),
        ("judge:rome", "human"),
    ]
    rome_strict = pairs[("rule:rome", "rule:strict")]
    # rome rows 1,1,0,0,1,0 vs strict 1,0,0,0,1,1: 00 x2, 01 x1, 10 x1, 11 x2
    assert rome_strict.confusion == [[2, 1], [1, 2]]
    assert rome_strict.n == 6 and rome_strict.agreement == pytest.approx(400 / 6)
    expected = cohen_kappa([[2, 1], [1, 2]])
    assert rome_strict.kappa == pytest.approx(expected.kappa)
    judge = pairs[("rule:strict", "judge:rome")]
    # strict 1,0,0,0,1,1 vs judge 1,1,0,1,0,1
    assert judge.confusion == [[1, 2], [1, 2]]
    with_human = pairs[("judge:rome", "human")]
    # item 0: judge 1, human 1; item 3: judge 1, human 0
    assert with_human.n == 2 and with_human.confusion == [[0, 0], [1, 1]]
    assert m.judge_failures == {"judge:mathreal": 1}


def test_error_rates_against_human_overrides() -> None:
    records = [
        record(
            "1", 1.0, verdicts=[verdict("rule:strict", 0.0), verdict("judge:x", 1.0)], human=1.0
        ),
        record(
            "2", 0.0, verdicts=[verdict("rule:strict", 0.0), verdict("judge:x", 1.0)], human=0.0
        ),
        record(
            "3", 1.0, verdicts=[verdict("rule:strict", 1.0), verdict("judge:x", 1.0)], human=1.0
        ),
        record("4", 0.0, verdicts=[verdict("rule:strict", 1.0), verdict("judge:x", 0.0)]),
    ]
    m = summarise_model("m", records, SummaryOptions())
    rates = {e.source: e for e in m.error_rates}
    judge = rates["judge:x"]
    assert (judge.n, judge.errors, judge.false_positive, judge.false_negative) == (3, 1, 1, 0)
    assert judge.rate == pytest.approx(100 / 3)
    rule = rates["rule:strict"]
    assert (rule.n, rule.errors, rule.false_negative) == (3, 1, 1)
    # Before overrides the primary rule said 0, 0, 1 (and 0 unreviewed): 25%; after: 50%.
    assert m.overrides.overridden == 3 and m.overrides.changed == 1
    assert m.overrides.before == pytest.approx(25.0)
    assert m.overrides.after == pytest.approx(50.0)


def test_flag_rates_and_heuristic_vs_rubric_agreement() -> None:
    think = {"reason": "<think>maybe 4</think>"}
    rubric = verdict("judge:rubric", None)
    records = [
        record(
            "1",
            1.0,
            flags=[("claims_web_search", "heuristic"), ("claims_web_search", "judge:rubric")],
            **think,
        ),
        record("2", 1.0, flags=[("claims_web_search", "heuristic")], **think),
        record("3", 0.0, flags=[("claims_web_search", "judge:rubric")], **think),
        record("4", 0.0, flags=[], **think),
        record("5", 0.0, flags=[("claims_web_search", "heuristic")], **think),  # rubric did not run
        record("6", 1.0, flags=[("abstained", "heuristic")]),  # no reasoning trace
    ]
    for r in records[:4]:
        r["review"]["verdicts"].append(rubric)
    m = summarise_model("m", records, SummaryOptions())
    flags = {f.kind: f for f in m.flags}
    search = flags["claims_web_search"]
    assert m.with_reasoning == 5
    assert (search.count, search.n, search.heuristic, search.rubric) == (4, 5, 3, 2)
    assert search.rate == pytest.approx(80.0)
    assert search.agreement is not None
    # Over the 4 items the rubric judged: heuristic 1,1,0,0 vs rubric 1,0,1,0.
    assert search.agreement.confusion == [[1, 1], [1, 1]]
    assert search.agreement.kappa == pytest.approx(0.0)
    abstained = flags["abstained"]
    assert (abstained.count, abstained.n) == (1, 6)  # over every item, trace or not
    assert flags["claims_tool_use"].count == 0


def test_tokens_from_usage_in_every_shape() -> None:
    records = [
        record(
            "1",
            1.0,
            usage={
                "completion_tokens": 100,
                "total_tokens": 150,
                "completion_tokens_details": {"reasoning_tokens": 80},
            },
        ),
        record(
            "2",
            0.0,
            usage='{"completion_tokens": 300, "total_tokens": 350, "reasoning_tokens": 200}',
        ),
        record(
            "3",
            1.0,
            usage=[
                {"completion_tokens": 200, "completion_tokens_details": None},
                {"completion_tokens": 400},
            ],
        ),
        record("4", 1.0),  # no usage: left out, not counted as 0
    ]
    m = summarise_model("m", records, SummaryOptions())
    t = m.tokens
    assert t is not None and t.responses == 4
    assert t.completion.mean == pytest.approx(250.0)
    assert t.completion.std == pytest.approx(statistics.stdev([100, 300, 200, 400]))
    assert (t.reasoning.n, t.reasoning.mean) == (2, pytest.approx(140.0))
    assert t.total.mean == pytest.approx(250.0)


def test_leaderboard_pairs_adjacent_models_on_shared_questions() -> None:
    strong = [record(f"q{i}", 1.0 if i < 8 else 0.0) for i in range(10)]
    middle = [record(f"q{i}", 1.0 if i < 5 else 0.0) for i in range(10)] + [record("extra", 1.0)]
    weak = [record(f"q{i}", 1.0 if i in (0, 9) else 0.0) for i in range(4, 10)]
    s = summarise([("weak", weak), ("strong", strong), ("middle", middle)])
    assert s.leaderboard == ["strong", "middle", "weak"]
    first, second = s.comparisons
    assert (first.a, first.b, first.n) == ("strong", "middle", 10)
    assert first.difference == pytest.approx(30.0)  # 8/10 vs 5/10, "extra" not shared
    assert first.ci95 is not None and first.ci95.low <= 30.0 <= first.ci95.high
    assert first.p_value is not None and 0 < first.p_value <= 1
    assert (second.a, second.b, second.n) == ("middle", "weak", 6)
    # On q4..q9 middle has q4 right (1/6), weak q9 right (1/6): no difference.
    assert second.difference == pytest.approx(0.0) and second.p_value == 1.0
    assert s.pooled.records == 27


def test_group_by_model_field_with_fallback_name() -> None:
    rows = [
        record("1", 1.0, model="A"),
        record("2", 0.0),
        record("3", 1.0, model="B"),
        record("4", 1.0, model="A"),
    ]
    groups = group_by_model(rows, "results_dir")
    assert [(name, len(rs)) for name, rs in groups] == [("A", 2), ("results_dir", 1), ("B", 1)]


def test_same_seed_same_summary_and_a_realistic_run() -> None:
    rows = synthetic_run(800, "m", 0.6, seed=1, runs=4)
    one = summarise([("m", rows)], SummaryOptions(seed=3)).to_dict()
    two = summarise([("m", rows)], SummaryOptions(seed=3)).to_dict()
    assert one == two
    other = summarise([("m", rows)], SummaryOptions(seed=4)).to_dict()
    assert other["overall"]["accuracy"] == one["overall"]["accuracy"]
    assert one["runs"]["n_runs"] == 4
    assert set(one["agreement"]) >= {
        "rule:rome vs rule:strict",
        "rule:strict vs human",
        "judge:rome vs human",
    }
    assert one["flags"]["hedged_reasoning_certain_answer"]["heuristic_vs_rubric"]["n"] == 200


def test_ids_prefixed_with_their_model_pair_across_models() -> None:
    a = [record(f"A/q{i}", 1.0, model="A") for i in range(4)]
    b = [record(f"B/q{i}", 1.0 if i < 2 else 0.0, model="B") for i in range(4)]
    b.append(record("C/q9", 1.0, model="B"))  # another model's prefix is kept: not shared
    s = summarise(group_by_model(a + b, "x"))
    (comparison,) = s.comparisons
    assert comparison.n == 4 and comparison.difference == pytest.approx(50.0)


def test_judges_that_do_not_grade_correctness_stay_out_of_agreement() -> None:
    rows = [
        record(
            str(i),
            1.0,
            verdicts=[
                verdict("rule:strict", 1.0),
                verdict("judge:vrc-steps", 0.3),  # reasoning-step quality, not correctness
                verdict("judge:rubric", 1.0),  # behaviour questions
                verdict("judge:my-own", 1.0),  # unknown judges are taken as correctness judges
            ],
            human=1.0,
        )
        for i in range(3)
    ]
    m = summarise_model("m", rows, SummaryOptions())
    assert [(p.a, p.b) for p in m.agreement] == [
        ("rule:strict", "judge:my-own"),
        ("rule:strict", "human"),
        ("judge:my-own", "human"),
    ]
    assert [e.source for e in m.error_rates] == ["rule:strict", "judge:my-own"]


def test_malformed_records_are_summarised_without_crashing() -> None:
    rows: list[dict] = [
        {"question_id": 1, "correct": True, "task": ["a", "list"]},  # unhashable bucket, bool score
        {"correct": "1", "task": {"nested": 1}},  # score as text: ungraded; no question_id
        {"question_id": "x", "correct": 0.5, "review": ["not", "a", "dict"], "usage": "not json"},
        {
            "question_id": "y",
            "correct": 1,
            "review": {
                "verdicts": [None, {"source": 3}, {"source": "judge:j", "score": "high"}],
                "flags": [None, {"kind": 5}],
                "human": {"score": None},
            },
            "usage": [None, {"completion_tokens": "many"}, '{"completion_tokens": 7}'],
            "inference_scores": [1, None, "0"],
        },
        {"question_id": "z", "correct": 0.0, "inference_scores": "[1, 0"},  # broken JSON text
    ]
    m = summarise_model("m", rows, SummaryOptions())
    assert m.records == 5 and m.ungraded == 1
    assert m.overall.loose.n == 4
    assert m.overall.loose.accuracy == pytest.approx(100 * 2.5 / 4)
    assert '["a","list"]' in [b.name for b in m.buckets]
    assert m.tokens is not None and m.tokens.completion.mean == pytest.approx(7.0)
    runs = m.overall.runs
    assert runs is not None and runs.per_run[0] == pytest.approx(100.0)
    assert m.agreement == []


def test_accuracies_agree_with_scores_json() -> None:
    from scorers.io.scores import compute_scores

    rows = synthetic_run(500, "m", 0.5, seed=8)
    rows[3]["correct"] = None  # a rejected answer: left out of both
    rows[5]["correct_strict"] = 0.0
    rows[5]["correct"] = 0.5
    scores = compute_scores(rows, "task")
    m = summarise_model("m", rows, SummaryOptions())
    assert round(m.overall.loose.accuracy or 0.0, 3) == scores["accuracy"]
    for bucket in m.buckets:
        total, count, fraction = scores[bucket.name][:3]
        assert (bucket.loose.n, bucket.loose.total) == (count, pytest.approx(total))
        assert round((bucket.loose.accuracy or 0.0) / 100, 3) == fraction
    assert m.overall.strict is not None
    assert round(m.overall.strict.accuracy or 0.0, 3) == scores["accuracy_strict"]


def test_a_negative_token_count_is_missing() -> None:
    """As NaN (read as null) is: a negative count is no count and no mean sees it."""
    records = [
        record("1", 1.0, usage={"completion_tokens": 100, "total_tokens": 150}),
        record(
            "2", 1.0, usage={"completion_tokens": -5, "total_tokens": -1, "reasoning_tokens": -3}
        ),
    ]
    t = summarise_model("m", records, SummaryOptions()).tokens
    assert t is not None and t.responses == 2
    assert (t.completion.n, t.completion.mean) == (1, pytest.approx(100.0))
    assert (t.total.n, t.reasoning.n) == (1, 0)
