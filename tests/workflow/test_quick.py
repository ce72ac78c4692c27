"""The quick run shows what config/quick.yaml's comments say each of its figures shows.

One run of the quick config, the session's (`quick` in conftest.py); each test reads one
figure's tables and checks its "shows:" statement, so that a later shrink of a quick section
that loses what the figure is for fails.
"""

import re

import pandas as pd
import pytest

from tests.workflow.helpers import QUICK

pytestmark = pytest.mark.workflow


def table(results, name: str) -> pd.DataFrame:
    return pd.read_csv(results / f"{name}.csv")


def test_every_section_of_the_quick_config_says_what_it_shows():
    """Each section's comment has a statement, and each statement a test here."""
    text = QUICK.read_text()
    for section in re.findall(r"((?:^#.*\n)+)^\w+:$", text, re.M):
        assert re.search(r"shows?:", section), section
    said = re.findall(r"shows?:", text)
    tests = [name for name in globals() if name.startswith("test_quick_")]
    assert len(tests) == len(said)


def test_quick_fig1_local_bo_falls_with_d_below_gp_ucb_and_random_search(quick):
    runs = table(quick, "fig1/local_solutions")
    medians = runs[runs["sigma"] == 0].groupby(["method", "d"])["value"].median()
    local = medians["local_bo"]
    assert local.is_monotonic_decreasing and len(local) >= 3
    assert medians["gp_ucb", 20] > local[20] and medians["random_search", 20] > local[20]
    assert medians["turbo", 5] < local[5]


def test_quick_method_comparison_random_search_loses_every_path_at_d_20(quick):
    rows = table(quick, "method_comparison/summary")
    rows = rows[(rows["d"] == 20) & (rows["quantity"] == "returned point")]
    (row,) = rows[rows["method"] == "random_search"].itertuples()
    assert row.paths > 0 and row.losses == row.paths
    assert "gp_ucb" not in set(rows["method"])


def test_quick_rbf_error_lemma_3_holds(quick):
    points = table(quick, "rbf_error/error_function")
    bounded = points[points["lambert_bound"].notna()]
    assert len(bounded) > 0 and (bounded["lambert_bound"] >= bounded["estimate"]).all()


def test_quick_fig2_falls_with_b_grows_with_d_below_the_bound(quick):
    points = table(quick, "fig2/error_function")
    for sigma, panel in points[points["panel"] == "a"].groupby("sigma"):
        assert panel.sort_values("b")["estimate"].is_monotonic_decreasing, sigma
    for sigma, panel in points[points["panel"] == "b"].groupby("sigma"):
        assert panel.sort_values("d")["estimate"].is_monotonic_increasing, sigma
    assert (points["estimate"] <= points["bound"]).all()


def test_quick_fig3_restarts_lower_the_best_value(quick):
    best = table(quick, "fig3/best_after_restarts").sort_values("restarts")
    assert best["median"].is_monotonic_decreasing
    assert best["median"].iloc[-1] < best["median"].iloc[0]


def test_quick_figs_4_and_5_bear_out_the_papers_claims(quick):
    """The ReLU's estimate lies in [0, 1] in every draw; n = 10 beats n = 5 on the l1 norm in
    most (with noise 0.01, in 95 % of our draws at paper scale and 83 % of the paper code's)."""
    rows = table(quick, "paper_comparison")
    claims = rows[rows["rule"] == "share"]
    inside = claims["quantity"].str.contains("in the subdifferential")
    assert len(claims) == 6 and inside.sum() == 4 and (claims[inside]["share"] == 1.0).all()
    assert (claims[~inside]["share"] > 0.5).all()


def test_quick_rates_noiseless_falls_fastest_and_the_constant_batch_plateaus(quick):
    slopes = table(quick, "rates/slopes").set_index("schedule")["slope_median"]
    noisy = slopes.drop("d_plus_1")
    assert slopes["d_plus_1"] < noisy.min()
    assert abs(slopes["constant"]) < 1e-6
    assert slopes["d_t2"] < -0.1 and slopes["d_log2_t"] < -0.1


def test_quick_landscape_ranks_local_bo_among_minima_some_on_the_boundary(quick):
    summary = table(quick, "landscape/summary")
    local = summary[summary["method"] == "local_bo"]
    population = summary[summary["method"] == "population"]
    assert local["median_percentile"].between(0, 100).all()
    assert (population["boundary_share"] > 0).all()


def test_quick_sensitivity_judges_every_setting_on_its_row(quick):
    study = table(quick, "sensitivity/table")
    for explains in ("fig3_best_of_1", "fig1_median"):
        choices = set(study.loc[study["explains"] == explains, "choice"])
        assert {"ours", "num_features"} <= choices, explains
    assert "minimizer" in set(study["choice"]) and "design" in set(study["choice"])
