"""Cohen's kappa and confusion matrices against values worked out by hand."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from scorers.stats import cohen_kappa, confusion_matrix

Z95 = NormalDist().inv_cdf(0.975)


def test_kappa_of_the_textbook_two_by_two_table() -> None:
    # The worked example of Cohen's kappa on Wikipedia: two readers, 50 proposals,
    # yes/yes 20, yes/no 5, no/yes 10, no/no 15. p_o = 35/50, p_e = .5*.6 + .5*.4.
    result = cohen_kappa([[20, 5], [10, 15]])
    assert result.n == 50
    assert result.observed == pytest.approx(0.7)
    assert result.expected == pytest.approx(0.5)
    assert result.kappa == pytest.approx(0.4)
    # Fleiss-Cohen-Everitt variance, term by term (rows .5/.5, columns .6/.4):
    diagonal = 0.4 * (1 - 1.1 * 0.6) ** 2 + 0.3 * (1 - 0.9 * 0.6) ** 2  # 0.10972
    off = 0.36 * (0.1 * (0.6 + 0.5) ** 2 + 0.2 * (0.4 + 0.5) ** 2)  # 0.10188
    var = (diagonal + off - (0.4 - 0.5 * 0.6) ** 2) / (50 * 0.25)  # 0.016128
    assert var == pytest.approx(0.016128)
    assert result.se == pytest.approx(math.sqrt(0.016128))
    assert result.ci is not None
    assert result.ci.low == pytest.approx(0.4 - Z95 * math.sqrt(0.016128))
    assert result.ci.high == pytest.approx(0.4 + Z95 * math.sqrt(0.016128))
    assert (round(result.ci.low, 3), round(result.ci.high, 3)) == (0.151, 0.649)


def test_kappa_of_fleiss_three_category_diagnosis_table() -> None:
    # Fleiss, Cohen & Everitt's diagnosis example (100 patients, 3 categories):
    # p_o = .89, p_e = .8*.8 + .1*.05 + .1*.15 = .66, kappa = .23/.34.
    table = [[75, 1, 4], [5, 4, 1], [0, 0, 10]]
    result = cohen_kappa(table)
    assert result.observed == pytest.approx(0.89)
    assert result.expected == pytest.approx(0.66)
    assert result.kappa == pytest.approx(0.23 / 0.34)
    k = 0.23 / 0.34
    rows, cols = [0.8, 0.1, 0.1], [0.8, 0.05, 0.15]
    p = [[c / 100 for c in row] for row in table]
    diagonal = sum(p[i][i] * (1 - (rows[i] + cols[i]) * (1 - k)) ** 2 for i in range(3))
    off = sum(p[i][j] * (cols[i] + rows[j]) ** 2 for i in range(3) for j in range(3) if i != j)
    var = (diagonal + (1 - k) ** 2 * off - (k - 0.66 * (1 - k)) ** 2) / (100 * 0.34**2)
    assert result.se == pytest.approx(math.sqrt(var))
    # statsmodels' cohens_kappa (an independent implementation) gives se 0.08770 here.
    assert result.se == pytest.approx(0.08770, abs=5e-6)


def test_perfect_and_chance_agreement() -> None:
    perfect = cohen_kappa([[30, 0], [0, 20]])
    assert perfect.kappa == pytest.approx(1.0)
    assert perfect.ci is not None and perfect.ci.high == pytest.approx(1.0)
    # Independent raters with these margins: every cell = row share * column share.
    chance = cohen_kappa([[24, 16], [36, 24]])
    assert chance.kappa == pytest.approx(0.0, abs=1e-12)
    assert chance.ci is not None and chance.ci.low < 0 < chance.ci.high


def test_kappa_is_undefined_when_both_raters_give_one_label() -> None:
    result = cohen_kappa([[0, 0], [0, 12]])
    assert result.observed == 1.0
    assert result.kappa is None and result.ci is None


def test_confusion_matrix_counts_rows_by_first_rater() -> None:
    a = [1, 1, 0, 0, 1, 0]
    b = [1, 0, 0, 1, 1, 1]
    assert confusion_matrix(a, b, [0, 1]) == [[1, 2], [1, 2]]
    with pytest.raises(ValueError, match="label 2"):
        confusion_matrix([2], [0], [0, 1])
    with pytest.raises(ValueError, match="different numbers"):
        confusion_matrix([0, 1], [0], [0, 1])


def test_non_square_table_is_rejected() -> None:
    with pytest.raises(ValueError, match="square"):
        cohen_kappa([[1, 2, 3], [4, 5, 6]])
