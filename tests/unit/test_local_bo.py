"""Local BO (Algorithm 1): schedules, designs and their cache, the gradient estimate, both
drivers, budgets and reproducibility."""

import dataclasses

import numpy as np
import pytest

from localbo.designs import optimal_design
from localbo.gp import GP
from localbo.kernels import RBF
from localbo.local_bo import (
    LocalBOSettings,
    batch_size,
    design_gradient_weights,
    local_bo,
    posterior_gradient_mean,
    run_noiseless_local_bo,
)
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.quadratic import Quadratic


def test_batch_schedules():
    assert [batch_size("constant", 4, t) for t in (1, 5)] == [4, 4]
    assert [batch_size("d_t", 4, t) for t in (1, 3)] == [4, 12]
    assert [batch_size("d_t2", 4, t) for t in (1, 3)] == [4, 36]
    assert batch_size("d_log2_t", 4, 1) == 4  # floored at d
    assert batch_size("d_log2_t", 4, 100) == int(np.ceil(4 * np.log(100) ** 2))
    assert batch_size("constant", 3, 1, factor=0.5) == 2
    with pytest.raises(ValueError, match="schedule"):
        LocalBOSettings(schedule="d_t3")


def test_posterior_gradient_mean_equals_the_gp():
    kernel = RBF(0.8, 1.5)
    rng = rng_for(10, "gp")
    X, y, x = rng.normal(size=(9, 3)), rng.normal(size=9), rng.normal(size=3)
    expected = GP(kernel, X, y, noise_var=0.03).grad_mean(x)
    got = posterior_gradient_mean(kernel, x, X, y, np.full(9, 0.03))
    np.testing.assert_allclose(got, expected, rtol=1e-10)


def test_design_gradient_map_is_the_posterior_gradient_anywhere():
    """The precomputed map of a fixed design gives grad mu_D(x) at every x (stationarity)."""
    kernel, settings = RBF(0.8, 1.5), LocalBOSettings(design_max_iterations=20)
    design = optimal_design(kernel, 3, 4, 0.01, True, rng_for(12, "d"), **settings.design_options())
    weights = design_gradient_weights(kernel, design, 0.01)
    rng = rng_for(13, "y")
    for _ in range(3):
        x, y = rng.normal(size=3) * 4, rng.normal(size=design.offsets.shape[0])
        expected = posterior_gradient_mean(kernel, x, design.points(x), y, 0.01 / design.counts)
        np.testing.assert_allclose(weights @ y, expected, rtol=1e-8, atol=1e-10)


def test_a_design_with_repeated_points_is_the_gp_on_every_evaluation():
    """A batch larger than optimize_max_b keeps the differencing design, whose points repeat
    (counts above 1, merged as one point at noise / count): its gradient map applied to the
    points' mean observations is grad mu of the GP on all b evaluations, each point repeated."""
    kernel, settings = RBF(0.8, 1.5), LocalBOSettings(design_max_iterations=20)
    options = {**settings.design_options(), "optimize_max_b": 2}
    design = optimal_design(kernel, 3, 9, 0.01, True, rng_for(14, "d"), **options)
    assert design.counts.max() > 1 and design.counts.sum() == 9
    weights = design_gradient_weights(kernel, design, 0.01)
    rng = rng_for(15, "y")
    x = rng.normal(size=3)
    raw = rng.normal(size=9)  # one observation per evaluation
    groups = np.repeat(np.arange(len(design.counts)), design.counts)
    means = np.bincount(groups, weights=raw) / design.counts
    every = GP(kernel, design.points(x)[groups], raw, noise_var=0.01)
    np.testing.assert_allclose(weights @ means, every.grad_mean(x), rtol=1e-8, atol=1e-10)


def test_noiseless_local_bo_finds_the_minimum_of_a_quadratic():
    f = Quadratic([0.4, -0.3, 0.2], [1.0, 2.0, 0.5])
    res = run_noiseless_local_bo(f, RBF(), np.zeros(3), 2000, rng=rng_for(11, "design"))
    assert np.linalg.norm(f.gradient(np.zeros(3))) > 0.5
    assert res.gradient_norm < 1e-2
    assert res.value < 1e-4
    assert res.evaluations <= 2000 and res.evaluations % 4 == 0  # d + 1 per call


def test_noiseless_local_bo_reaches_a_stationary_point_of_a_sample_path():
    kernel, d = RBF(), 4
    f = FourierSamplePath.draw(kernel, d, 1024, rng_for(12, "path"))
    res = run_noiseless_local_bo(f, kernel, np.zeros(d), 3000, rng=rng_for(12, "design"))
    start_norm = np.linalg.norm(f.gradient(np.zeros((1, d))))
    assert res.gradient_norm < 2e-2 < start_norm
    assert res.value < f(np.zeros((1, d)))[0] - 0.5
    assert res.trace.arrays()["values"][-1] == res.value


def _run(sigma, budget, seed=13, **overrides):
    kernel, d = RBF(), 3
    f = FourierSamplePath.draw(kernel, d, 256, rng_for(seed, "path"))
    obj = NoisyObjective(f, sigma, budget, rng_for(seed, "noise"))
    settings = LocalBOSettings(design_max_iterations=50, **overrides)
    return local_bo(obj, kernel, np.zeros(d), Box(-5, 5, d), rng_for(seed, "opt"), settings)


@pytest.mark.parametrize(
    "overrides",
    [{}, {"schedule": "d_t", "step_rule": "fixed", "step_size": 0.5}, {"data_window": 2}],
    ids=["constant-normalized", "linear-fixed", "window"],
)
def test_noisy_local_bo_spends_exactly_its_budget_and_is_reproducible(overrides):
    a, b = _run(0.1, 97, **overrides), _run(0.1, 97, **overrides)
    assert a.evaluations == 97 == a.trace.arrays()["evaluations"][-1]
    np.testing.assert_array_equal(a.x, b.x)
    assert a.value == b.value
    assert np.all(np.abs(a.x) <= 5)
    assert _run(0.1, 97, seed=14, **overrides).value != a.value


def test_noiseless_local_bo_never_exceeds_its_budget_and_is_reproducible():
    for budget in (5, 41, 200):
        a, b = _run(0.0, budget), _run(0.0, budget)
        assert a.evaluations <= budget
        assert a.info["stop"] != "budget" or budget - a.evaluations < 4
        np.testing.assert_array_equal(a.x, b.x)


@pytest.mark.parametrize(
    ("sigma", "unread"),
    [
        (0.0, {"schedule": "d_t", "batch_factor": 2.0, "step_rule": "fixed", "step_size": 0.7}),
        (0.1, {"bfgs_gtol": 1e-2}),
    ],
)
def test_a_run_does_not_read_the_knobs_its_jobs_leave_out_of_their_params(sigma, unread):
    """Fig. 1's, Fig. 3's and the rates jobs hold only `read_at(sigma)` in their params: the
    other knobs must not change a run."""
    every = {f.name for f in dataclasses.fields(LocalBOSettings)}
    assert set(unread) == every - set(LocalBOSettings().read_at(sigma))
    a, b = _run(sigma, 60), _run(sigma, 60, **unread)
    np.testing.assert_array_equal(a.x, b.x)
    assert a.evaluations == b.evaluations
