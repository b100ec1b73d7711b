"""Bootstrap intervals: coverage, the cheap multinomial formulation, paired tests."""

from __future__ import annotations

import numpy as np
import pytest

from scorers.stats import bootstrap_mean_ci, mean_std, paired_bootstrap, resampled_means, rng_for


def test_coverage_of_bernoulli_samples_is_near_95_percent() -> None:
    # 200 seeded replications of a Bernoulli(0.3) sample of 150 items.
    truth, n, hits = 0.3, 150, 0
    data_rng = np.random.default_rng(12345)
    for rep in range(200):
        sample = (data_rng.random(n) < truth).astype(float)
        ci = bootstrap_mean_ci(sample, seed=7, label=f"rep{rep}")
        assert ci is not None and ci.low <= sample.mean() <= ci.high
        hits += ci.low <= truth <= ci.high
    assert 0.91 <= hits / 200 <= 0.985


def test_coverage_with_many_distinct_values_uses_index_resampling() -> None:
    # Continuous scores (more distinct levels than the multinomial path takes).
    data_rng = np.random.default_rng(99)
    hits = 0
    for rep in range(100):
        sample = data_rng.normal(5.0, 2.0, size=600)
        ci = bootstrap_mean_ci(sample, n_resamples=400, seed=1, label=str(rep))
        assert ci is not None
        hits += ci.low <= 5.0 <= ci.high
    assert 0.88 <= hits / 100 <= 1.0


@pytest.mark.parametrize(
    "values",
    [
        [0.0] * 70 + [1.0] * 30,  # binary: one binomial draw per resample
        [0.0] * 40 + [0.5] * 25 + [1.0] * 35,  # partial credit: multinomial
        list(np.linspace(0.0, 1.0, 1000)),  # continuous: index resampling
    ],
)
def test_resampled_means_have_the_bootstrap_distribution(values: list[float]) -> None:
    # The bootstrap mean of n items has mean x-bar and variance (population variance) / n.
    arr = np.asarray(values)
    draws = resampled_means(arr, 20000, np.random.default_rng(3))
    assert draws.mean() == pytest.approx(
        arr.mean(), abs=3 * arr.std() / np.sqrt(arr.size * 20000) + 1e-12
    )
    assert draws.std() == pytest.approx(arr.std() / np.sqrt(arr.size), rel=0.03)


def test_intervals_are_reproducible_and_independent_of_order() -> None:
    # Continuous values, so that different streams give visibly different bounds.
    sample = list(np.linspace(0.0, 1.0, 700) ** 2)
    first = bootstrap_mean_ci(sample, seed=5, label="bucket:a")
    bootstrap_mean_ci([0.0, 1.0, 1.0], seed=5, label="bucket:b")  # another estimate in between
    again = bootstrap_mean_ci(sample, seed=5, label="bucket:a")
    assert first == again
    assert bootstrap_mean_ci(sample, seed=6, label="bucket:a") != first
    assert bootstrap_mean_ci(sample, seed=5, label="bucket:c") != first
    assert rng_for(1, "x").random() == rng_for(1, "x").random()


def test_degenerate_and_bad_samples() -> None:
    assert bootstrap_mean_ci([]) is None
    ci = bootstrap_mean_ci([1.0] * 9)
    assert ci is not None and (ci.low, ci.high) == (1.0, 1.0)
    with pytest.raises(ValueError, match="finite"):
        bootstrap_mean_ci([1.0, float("nan")])
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_mean_ci([1.0, 0.0], n_resamples=0)


def test_interval_width_matches_the_normal_approximation() -> None:
    # n = 400, p = .5: the 95% interval is about +/- 1.96 * sqrt(.25 / 400) = +/- .049.
    ci = bootstrap_mean_ci([1.0] * 200 + [0.0] * 200, n_resamples=20000, seed=0)
    assert ci is not None
    assert ci.low == pytest.approx(0.5 - 0.049, abs=0.004)
    assert ci.high == pytest.approx(0.5 + 0.049, abs=0.004)


def test_paired_difference_by_hand() -> None:
    a = [1, 1, 0, 1, 0, 1, 1, 0, 1, 1]
    b = [0, 1, 0, 0, 0, 1, 0, 0, 1, 1]
    test = paired_bootstrap(a, b, seed=0, label="a-b")
    # Per item a - b: 1, 0, 0, 1, 0, 0, 1, 0, 0, 0 -> mean .3; a = .7, b = .4.
    assert test.n == 10
    assert test.mean_a == pytest.approx(0.7)
    assert test.mean_b == pytest.approx(0.4)
    assert test.difference == pytest.approx(0.3)
    # A resample of the differences is (number of 1s drawn) / 10, so every bound is a tenth.
    assert test.ci.low * 10 == pytest.approx(round(test.ci.low * 10))
    assert 0.0 <= test.ci.low < 0.3 < test.ci.high <= 0.7
    reverse = paired_bootstrap(b, a, seed=0, label="a-b")
    assert reverse.difference == pytest.approx(-0.3)


def test_identical_systems_give_p_one_and_a_zero_interval() -> None:
    scores = [1, 0, 1, 1, 0]
    test = paired_bootstrap(scores, scores)
    assert test.difference == 0.0 and test.p_value == 1.0
    assert (test.ci.low, test.ci.high) == (0.0, 0.0)


def test_pairing_narrows_the_interval_for_shared_difficulty() -> None:
    # System b solves exactly the items a solves, plus 20 more: a constant, clear gain.
    a = np.array([1.0] * 300 + [0.0] * 700)
    b = a.copy()
    b[300:320] = 1.0
    test = paired_bootstrap(b, a, seed=2)
    assert test.difference == pytest.approx(0.02)
    assert test.p_value < 0.01
    independent_a = bootstrap_mean_ci(a, seed=2, label="a")
    independent_b = bootstrap_mean_ci(b, seed=2, label="b")
    assert independent_a is not None and independent_b is not None
    assert independent_b.low < independent_a.high  # the separate intervals overlap
    assert test.ci.low > 0.0  # the paired interval does not include 0


def test_null_p_values_reject_about_five_percent() -> None:
    rng = np.random.default_rng(2024)
    rejections = 0
    for rep in range(200):
        a = (rng.random(120) < 0.6).astype(float)
        b = (rng.random(120) < 0.6).astype(float)
        rejections += paired_bootstrap(a, b, n_resamples=1000, seed=rep).p_value < 0.05
    assert 2 <= rejections <= 22


def test_paired_rejects_unequal_lengths() -> None:
    with pytest.raises(ValueError, match="length"):
        paired_bootstrap([1, 0], [1])
    with pytest.raises(ValueError, match="shared item"):
        paired_bootstrap([], [])


def test_mean_std_by_hand() -> None:
    runs = mean_std([60.0, 62.0, 64.0, 66.0])
    assert runs.mean == 63.0
    assert runs.std == pytest.approx((20.0 / 3.0) ** 0.5)  # squares 9+1+1+9 over n-1
    assert mean_std([60.0, 62.0, 64.0, 66.0], ddof=0).std == pytest.approx(5.0**0.5)
    single = mean_std([70.0])
    assert single.mean == 70.0 and single.std is None
    assert mean_std([]).mean is None
