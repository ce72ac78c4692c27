"""Paired comparisons of two methods on the same paths: each statistic on a small fixed case
whose value is worked out by hand."""

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from localbo.paired_comparison import (
    hodges_lehmann,
    holm,
    median_interval,
    monte_carlo_error,
    paired_summary,
    to_precision,
    wilcoxon_p,
)
from localbo.pipeline.method_comparison import MethodComparisonSettings, compare
from localbo.seeding import rng_for

REPO = Path(__file__).resolve().parents[2]
TOLERANCE = MethodComparisonSettings().tie_tolerance


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


def test_the_hodges_lehmann_estimate_is_the_median_of_walsh_averages():
    """-1, 2, 3: the averages over i <= j are -1, 0.5, 1, 2, 2.5, 3; their median is 1.5."""
    assert hodges_lehmann(np.array([-1.0, 2.0, 3.0])) == 1.5
    assert hodges_lehmann(np.array([4.0])) == 4.0


def test_ties_are_zero_in_every_statistic():
    """Differences within the tolerance do not rank as wins and losses: a method that ties on
    21 paths with differences of -4e-4 to -1e-6 (the side of its wins, as in the gallery at
    d = 1) has the p-value, median and Hodges-Lehmann estimate of the same paths with exact
    zeros."""
    rng = rng_for(3)
    decided = np.concatenate([-rng.uniform(0.05, 3.0, 28), [1.7]])
    tiny = np.concatenate([decided, -rng.uniform(1e-6, 4e-4, 21)])
    exact = np.concatenate([decided, np.zeros(21)])
    a = paired_summary(tiny, TOLERANCE, 0.95, 999, rng_for(4))
    b = paired_summary(exact, TOLERANCE, 0.95, 999, rng_for(4))
    assert a == b
    assert (a.wins, a.ties, a.losses) == (28, 21, 1)
    assert a.p_value == pytest.approx(wilcoxon_p(decided))  # the decided paths' exact test
    # ranked as wins and losses, the 21 tiny differences would have made it far smaller
    assert wilcoxon_p(tiny) < a.p_value / 10


def test_the_same_pattern_of_wins_ties_and_losses_gives_the_same_p_value():
    """The gallery's d = 1 runs: GP-UCB, random search and TuRBO-1 all find the same global
    minimum on 21 of the 50 paths where local BO does (ties), and a lower one on 28; the one
    path where they end higher is the same for all three, so their tests are one test."""
    table = pd.read_csv(REPO / "figures" / "gallery" / "method_comparison-differences.csv")
    d1 = table[(table["d"] == 1) & (table["quantity"] == "returned point")]
    summaries = {
        method: paired_summary(
            d1.loc[d1["method"] == method, "difference"].to_numpy(), TOLERANCE, 0.95, 99, rng_for(5)
        )
        for method in ("gp_ucb", "random_search", "turbo")
    }
    assert {(s.wins, s.ties, s.losses) for s in summaries.values()} == {(28, 21, 1)}
    p_values = [s.p_value for s in summaries.values()]
    assert p_values == pytest.approx([p_values[0]] * 3, rel=1e-12)
    assert p_values[0] < 1e-5


def test_an_interval_ends_monte_carlo_error_is_not_underestimated():
    """Over 30 bootstraps of the same 50 values with other seeds, each end's spread is at most
    twice the median of its estimated Monte Carlo standard errors (the median's resampled
    values have large atoms, where an estimate from order statistics near the quantile reads
    0); the ends are rounded to the decade of theirs."""
    from scipy import stats

    x = rng_for(6).normal(size=50)
    ends: dict[float, list[tuple[float, float]]] = {0.025: [], 0.975: []}
    for seed in range(30):
        result = stats.bootstrap(
            (x,), np.median, n_resamples=9999, method="percentile", rng=rng_for(7, seed)
        )
        interval = result.confidence_interval
        for q, end in zip(ends, (interval.low, interval.high), strict=True):
            ends[q].append((end, monte_carlo_error(result.bootstrap_distribution, q)))
        if seed == 0:
            rounded = median_interval(x, 0.95, 9999, rng_for(7, seed))
            expected = [to_precision(end, error) for end, error in (e[0] for e in ends.values())]
            assert rounded == tuple(expected)
    for q, found in ends.items():
        spread = np.std([end for end, _ in found], ddof=1)
        assert spread <= 2 * np.median([error for _, error in found]), q
    assert to_precision(0.123456, 0.0037) == 0.123


def test_the_table_pairs_each_methods_runs_with_the_baselines_on_the_same_paths():
    """Local BO on paths 0-5, GP-UCB on paths 1-5 (a path missing), TuRBO-1 with its first
    region: each row is the differences on the paths both ran, Holm within each method's
    quantity across d, and every row of fewer than 20 paths flagged small."""
    rows = [("local_bo", i, -1.0 - i, None) for i in range(6)]
    rows += [("gp_ucb", i, -1.0 - i + 0.5 * i, None) for i in range(1, 6)]
    rows += [("turbo", i, -2.0 - i, -0.5 - i) for i in range(6)]
    table = pd.DataFrame(
        [
            {
                "method": m,
                "d": d,
                "sigma": 0.0,
                "path": i,
                "value": v - d,
                "first_region_value": None if f is None else f - d,
            }
            for m, i, v, f in rows
            for d in (1, 2)
        ]
    )
    methods = {name: {"budget": 100, "label": name} for name in ("local_bo", "gp_ucb", "turbo")}
    summary, differences = compare(table, MethodComparisonSettings(pairs={}), methods, 3)
    by = {(r["method"], r["quantity"], r["d"]): r for r in summary}
    gp = by["gp_ucb", "returned point", 1]
    assert gp["paths"] == 5 and gp["median_difference"] == 1.5  # 0.5 i for i = 1..5
    assert gp["hodges_lehmann"] == 1.5  # symmetric differences: the median of Walsh averages
    assert (gp["wins"], gp["ties"], gp["losses"]) == (0, 0, 5)
    assert gp["wilcoxon_p"] == pytest.approx(2 / 32)
    assert by["turbo", "returned point", 1]["median_difference"] == -1.0
    assert by["turbo", "first trust region", 1]["median_difference"] == 0.5
    for method, quantity in {(r["method"], r["quantity"]) for r in summary}:
        family = [by[method, quantity, d] for d in (1, 2)]  # across d
        ps = [r["wilcoxon_p"] for r in family]
        assert [r["holm_p"] for r in family] == pytest.approx(holm(ps))
    assert all(r["small"] for r in summary)  # 5 or 6 paths
    assert len(differences) == 2 * (5 + 6 + 6)
