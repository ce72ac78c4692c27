"""TuRBO-1: the trust region's moves on scripted outcomes, the pathwise Thompson draw against the
exact posterior, convergence on a quadratic, restarts and the first region's solution."""

import math

import numpy as np
import pytest

import localbo.methods.turbo
from localbo.gp import GP
from localbo.kernels import RBF
from localbo.methods.turbo import (
    TrustRegion,
    TuRBOSettings,
    region_candidates,
    thompson_values,
    turbo,
)
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit import turbo_oracle
from tests.unit.quadratic import Quadratic


def test_the_region_doubles_after_three_successes_halves_after_the_failure_tolerance():
    settings = TuRBOSettings()
    region = TrustRegion(0.8, settings, failure_tolerance=4)
    for improved, length in [(True, 0.8), (True, 0.8), (True, 1.6), (True, 1.6), (True, 1.6)]:
        region.update(improved)
        assert region.length == length
    region.update(True)  # the third in a row again: capped at length_max
    assert region.length == 1.6
    for _ in range(3):
        region.update(False)
    region.update(True)  # a success resets the failure count
    for _ in range(3):
        region.update(False)
    assert region.length == 1.6
    region.update(False)  # the fourth failure in a row
    assert (region.length, region.failures, region.successes) == (0.8, 0, 0)
    region.update(True)
    region.update(False)  # a failure resets the success count
    region.update(True)
    region.update(True)
    assert region.length == 0.8


def test_the_region_collapses_below_the_smallest_side_after_enough_failures():
    settings = TuRBOSettings()
    region = TrustRegion(0.8, settings, failure_tolerance=5)
    halvings = math.ceil(math.log2(0.8 / settings.length_min))  # 0.8 / 2^7 = 0.00625 < 2^-7
    for step in range(5 * halvings):
        assert not region.collapsed, step
        region.update(False)
    assert region.collapsed and region.length == 0.8 / 2**halvings


def test_candidates_stay_in_the_region_and_move_at_least_one_coordinate():
    rng = rng_for(60)
    center = np.array([0.5, -0.2, 0.1, 0.0, 0.3])
    lower, upper = center - 0.1, center + 0.1
    C = region_candidates(center, lower, upper, 3000, prob=0.2, rng=rng)
    assert C.shape == (3000, 5)
    assert np.all(lower <= C) and np.all(upper >= C)
    moved = center != C
    assert moved.any(axis=1).all()
    # each coordinate moves with probability 0.2, and a candidate that moved none moves one at
    # random: p = 0.2 + 0.8^5 / 5; within 5 binomial standard errors over the 15 000 entries
    p = 0.2 + 0.8**5 / 5
    assert abs(moved.mean() - p) < 5 * math.sqrt(p * (1 - p) / moved.size)


DRAWS = 4000


def pathwise_case():
    """A GP with a nonzero mean, non-unit hyperparameters and noise; 3 points (near the data,
    among it, far from it); the exact posterior mean and covariance there."""
    rng = rng_for(61)
    kernel = RBF(0.7, 1.8)
    X = rng.uniform(-1, 1, (6, 2))
    gp = GP(kernel, X, np.sin(3 * X[:, 0]) + X[:, 1], noise_var=0.01, mean=0.4)
    C = np.array([[0.0, 0.0], [0.5, 0.5], [2.0, -1.0]])
    V = np.linalg.solve(gp.L, kernel(C, gp.X).T)
    return gp, C, gp.mean(C), kernel(C, C) - V.T @ V


def far_off_entries(gp, C, mean, cov, seed):
    """(mean, covariance) entries of DRAWS draws more than 5 Monte Carlo standard errors of
    Gaussian draws from the exact ones (the mean's sqrt(S_ii / N), the covariance's
    sqrt((S_ii S_jj + S_ij^2) / N)), so small variances near the data count at their scale."""
    rng = rng_for(seed)
    draws = np.array([thompson_values(gp, C, rng, 1024) for _ in range(DRAWS)])
    var = np.diag(cov)
    mean_off = np.abs(draws.mean(axis=0) - mean) > 5 * np.sqrt(var / DRAWS)
    cov_off = np.abs(np.cov(draws.T) - cov) > 5 * np.sqrt((np.outer(var, var) + cov**2) / DRAWS)
    return mean_off.sum(), cov_off.sum()


def test_the_pathwise_draw_has_the_exact_posterior_mean_and_covariance():
    """Each draw has its own random features, so the random-feature prior's error averages out
    over draws; every entry is within its 5 standard errors."""
    assert far_off_entries(*pathwise_case(), seed=61) == (0, 0)


@pytest.mark.parametrize("eps_var", [0.0, 0.03])
def test_the_check_of_the_draw_catches_a_wrong_noise_term(eps_var):
    """The check above can fail: with the GP factored at noise 0.01 but eps drawn at variance 0
    or 0.03 (left out, or scaled wrong), the variances near the data leave their 5 standard
    errors."""
    gp, C, mean, cov = pathwise_case()
    gp.noise_var = eps_var  # thompson_values reads it for eps only; the factor keeps 0.01
    assert far_off_entries(gp, C, mean, cov, seed=61)[1] > 0


def test_turbo_converges_on_a_small_quadratic():
    f = Quadratic([0.3, -0.2], [1.0, 2.0])
    objective = NoisyObjective(f, 0.0, 150)
    result = turbo(objective, RBF(0.5), np.zeros(2), Box(-1, 1, 2), rng_for(62))
    assert result.evaluations == 150
    assert result.value < 1e-4


def test_a_long_run_restarts_and_reports_its_first_region_and_its_trace():
    """d = 2, 400 evaluations on a sample path: regions collapse and restart; the first region's
    value is the trace's last record before the first restart, and the restarts beat it here;
    the trace has the region at every record."""
    path = FourierSamplePath.draw(RBF(), 2, 256, rng_for(63, "path"))
    objective = NoisyObjective(path, 0.0, 400)
    result = turbo(objective, RBF(), np.zeros(2), Box(-5, 5, 2), rng_for(64))
    assert result.evaluations == 400
    assert result.info["restarts"] >= 1
    trace = result.trace.arrays()
    first_region = trace["restarts"] == 0
    assert result.info["first_region_value"] == trace["values"][first_region][-1]
    assert result.value < result.info["first_region_value"] - 0.1  # -1.98 against -1.74
    k = len(trace["evaluations"])
    assert trace["tr_length"].shape == (k,) and trace["tr_center"].shape == (k, 2)
    assert (
        np.all(np.diff(trace["restarts"]) >= 0) and trace["restarts"][-1] == result.info["restarts"]
    )
    assert np.all(trace["tr_length"] <= TuRBOSettings().length_max)
    assert trace["evaluations"][0] == 4  # the first design: x0 and 2d - 1 = 3 LHS points


@pytest.mark.slow
@pytest.mark.parametrize("d", [3, 12])
def test_a_run_chooses_the_points_of_the_draw_before_its_speedups(monkeypatch, d):
    """The Thompson draw's prior values through the half-angle tangent and its kernel rows in
    Gram form move the draw by rounding only: a run chooses the same points as with np.cos and
    cdist (`tests/unit/turbo_oracle.py`), through restarts (d = 3) and candidates far from the
    data (d = 12)."""
    path = FourierSamplePath.draw(RBF(), d, 256, rng_for(67, "path", d))

    def trace() -> dict[str, np.ndarray]:
        objective = NoisyObjective(path, 0.0, 300)
        return turbo(objective, RBF(), np.zeros(d), Box(-5, 5, d), rng_for(68, d)).trace.arrays()

    library = trace()
    monkeypatch.setattr(localbo.methods.turbo, "thompson_values", turbo_oracle.thompson_values)
    oracle = trace()
    assert library.keys() == oracle.keys()
    for name in oracle:
        np.testing.assert_array_equal(library[name], oracle[name], err_msg=name)


@pytest.mark.parametrize("budget", [1, 3, 17])
def test_the_budget_is_spent_exactly_even_inside_a_design(budget):
    path = FourierSamplePath.draw(RBF(), 2, 64, rng_for(65, "path"))
    objective = NoisyObjective(path, 0.1, budget, rng_for(65, "noise"))
    result = turbo(objective, RBF(), np.zeros(2), Box(-5, 5, 2), rng_for(66))
    assert result.evaluations == budget


def test_every_thompson_draw_uses_the_configured_feature_count(monkeypatch):
    """`thompson_features` reaches each step's draw (a run at another count differs)."""
    counts = []

    def counting(gp, C, rng, num_features):
        counts.append(num_features)
        return thompson_values(gp, C, rng, num_features)

    monkeypatch.setattr(localbo.methods.turbo, "thompson_values", counting)
    path = FourierSamplePath.draw(RBF(), 2, 64, rng_for(69, "path"))
    objective = NoisyObjective(path, 0.0, 30)
    settings = TuRBOSettings(thompson_features=37)
    turbo(objective, RBF(), np.zeros(2), Box(-5, 5, 2), rng_for(70), settings)
    assert counts == [37] * (30 - settings.design_size(2))
