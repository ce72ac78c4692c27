"""Paired comparisons of two methods on the same paths: each statistic on a small fixed case
whose value is worked out by hand."""

import math

import numpy as np
import pandas as pd
import pytest

from localbo.paired_comparison import holm, median_interval, paired_summary, wilcoxon_p
from localbo.pipeline.method_comparison import MethodComparisonSettings, compare
from localbo.seeding import rng_for


def test_wilcoxons_exact_p_values_are_the_counts_of_sign_patterns():
    # n = 5, all positive: W- = 0 in 1 of the 2^5 sign patterns, twice for two sides
    assert wilcoxon_p(np.array([1.0, 2.0, 3.0, 4.0, 5.0])) == pytest.approx(2 / 32)
    # n = 4, ranks 1 (negative), 2, 3, 4: W- = 1; W- <= 1 in 2 of 16 patterns, two-sided 4 / 16
    assert wilcoxon_p(np.array([-1.0, 2.0, 3.0, 4.0])) == pytest.approx(4 / 16)
    # an exact zero is dropped first (zero_method "wilcox"): the n = 4 case again
    assert wilcoxon_p(np.array([0.0, -1.0, 2.0, 3.0, 4.0])) == pytest.approx(4 / 16)
    assert math.isnan(wilcoxon_p(np.zeros(3)))


def test_the_bootstrap_interval_is_the_medians_resampling_distribution():
    """Two points: a resample's median is 0, 0.5 or 1 with probabilities 1/4, 1/2, 1/4, so the
    2.5 % and 97.5 % quantiles are 0 and 1. Three points 0, 0, 1: the median is 1 with
    probability 7/27 (two or three ones), so the interval is (0, 1); and 0, 0, 0, 0, 1, 1: the
    median is 1 with probability P(Bin(6, 1/3) >= 4) = 73/729 = 0.1, 0.5 with P(= 3) = 0.22,
    the 97.5 % quantile is 1."""
    rng = rng_for(1, "bootstrap test")
    assert median_interval(np.array([0.0, 1.0]), 0.95, 9999, rng) == (0.0, 1.0)
    assert median_interval(np.array([0.0, 0.0, 1.0]), 0.95, 9999, rng) == (0.0, 1.0)
    assert median_interval(np.array([0.0, 0.0, 0.0, 0.0, 1.0, 1.0]), 0.95, 9999, rng) == (0.0, 1.0)
    # one value: no spread
    assert median_interval(np.array([3.0, 3.0, 3.0]), 0.95, 9999, rng) == (3.0, 3.0)


def test_holm_multiplies_the_k_th_smallest_p_by_the_k_left_and_keeps_the_order():
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5, 0.001]) == pytest.approx([0.5, 0.002])
    assert holm([0.9, 0.8]) == [1.0, 1.0]  # 2 x 0.8 capped at 1, and never below an earlier


def test_wins_ties_and_losses_count_the_tolerance_as_a_tie():
    diff = np.array([-0.5, -0.0005, 0.0, 0.001, 0.2])
    summary = paired_summary(diff, 1e-3, 0.95, 999, rng_for(2))
    assert (summary.wins, summary.ties, summary.losses) == (1, 3, 1)
    assert summary.median == 0.0 and summary.paths == 5


def test_the_table_pairs_each_methods_runs_with_the_baselines_on_the_same_paths():
    """Local BO on paths 0-5, GP-UCB on paths 1-5 (a path missing), TuRBO-1 with its first
    region: each row is the differences on the paths both ran, Holm over the whole table."""
    rows = [("local_bo", i, -1.0 - i, None) for i in range(6)]
    rows += [("gp_ucb", i, -1.0 - i + 0.5 * i, None) for i in range(1, 6)]
    rows += [("turbo", i, -2.0 - i, -0.5 - i) for i in range(6)]
    table = pd.DataFrame(
        [
            {"method": m, "d": 1, "sigma": 0.0, "path": i, "value": v, "first_region_value": f}
            for m, i, v, f in rows
        ]
    )
    methods = {name: {"budget": 100, "label": name} for name in ("local_bo", "gp_ucb", "turbo")}
    summary, differences = compare(table, MethodComparisonSettings(pairs={}), methods, 3)
    by = {(r["method"], r["quantity"]): r for r in summary}
    gp = by["gp_ucb", "returned point"]
    assert gp["paths"] == 5 and gp["median_difference"] == 1.5  # 0.5 i for i = 1..5
    assert (gp["wins"], gp["ties"], gp["losses"]) == (0, 0, 5)
    assert gp["wilcoxon_p"] == pytest.approx(2 / 32)
    assert by["turbo", "returned point"]["median_difference"] == -1.0
    assert by["turbo", "first region"]["median_difference"] == 0.5
    ps = [r["wilcoxon_p"] for r in summary]
    assert [r["holm_p"] for r in summary] == pytest.approx(holm(ps))
    assert len(differences) == 5 + 6 + 6
