"""Local BO (Algorithm 1): schedules, designs and their cache, the gradient estimate, both
drivers, budgets and reproducibility."""

import dataclasses
from collections import deque

import numpy as np
import pytest

from localbo.acquisition import gradient_trace
from localbo.designs import optimal_design
from localbo.gp import GP
from localbo.kernels import RBF
from localbo.methods.local_bo import (
    DesignCache,
    LocalBOSettings,
    batch_size,
    design_gradient_weights,
    local_bo,
    noiseless_design,
    posterior_gradient_mean,
    run_noiseless_local_bo,
    run_noisy,
)
from localbo.methods.local_bo import noisy as local_bo_noisy
from localbo.methods.local_bo.gradients import observe_gradient
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


@pytest.mark.parametrize(
    ("minimizer", "options", "tolerance"),
    [("lbfgs", {}, 1e-4), ("gradient", {"step": 0.5}, 1e-3)],
)
def test_the_other_step_rules_find_the_minimum_of_a_quadratic_within_budget(
    minimizer, options, tolerance
):
    """The sensitivity study's L-BFGS and gradient steps take the same estimates as BFGS: on a
    quadratic (eigenvalues 0.5-2, step 0.5 below 2 / L) both converge, d + 1 evaluations a
    call, and stop at the budget when it is too small."""
    f = Quadratic([0.4, -0.3, 0.2], [1.0, 2.0, 0.5])
    design = noiseless_design(RBF(), 3, rng_for(11, "design"), LocalBOSettings())
    res = run_noiseless_local_bo(f, RBF(), np.zeros(3), 2000, design, None, None,
                                 minimizer, **options)  # fmt: skip
    assert res.value < tolerance and res.info["stop"] == "converged"
    assert res.evaluations <= 2000 and res.evaluations % 4 == 0
    short = run_noiseless_local_bo(f, RBF(), np.zeros(3), 10, design, None, None,
                                   minimizer, **options)  # fmt: skip
    assert short.evaluations == 8 and short.info["stop"] == "budget"


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


@pytest.mark.parametrize(
    ("rule", "step"), [("normalized", np.array([0.6, -0.8])), ("fixed", np.array([3.0, -4.0]))]
)
def test_a_noisy_step_is_its_rules_step_projected_onto_the_box(monkeypatch, rule, step):
    """With a scripted gradient estimate g = (3, -4) every step: x_{t+1} = proj(x_t - eta u),
    u = g / ||g|| (normalized) or g (fixed), until the iterate sits on the box's corner."""
    real = local_bo_noisy.observe_gradient

    def scripted(*args, **kwargs):
        batch, _ = real(*args, **kwargs)  # spends the batch's evaluations
        return batch, np.array([3.0, -4.0])

    monkeypatch.setattr(local_bo_noisy, "observe_gradient", scripted)
    objective = NoisyObjective(Quadratic([0.0, 0.0], [1.0, 1.0]), 0.1, 100, rng_for(80))
    box, eta = Box(-1.0, 1.0, 2), 0.05
    settings = LocalBOSettings(step_rule=rule, step_size=eta, design_max_iterations=20)
    designs = DesignCache(RBF(), 2, 0.01 + 1e-6, False, rng_for(81), settings)
    result = run_noisy(objective, RBF(), np.zeros(2), box, settings, designs)
    iterates = result.trace.arrays()["iterates"]
    expected = np.clip(-eta * step * np.arange(len(iterates))[:, None], -1.0, 1.0)
    np.testing.assert_allclose(iterates, expected, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(result.x, [-1.0, 1.0])  # the corner the steps head for


@pytest.mark.parametrize(
    ("rule", "step", "share"), [("normalized", 0.25, 0.25), ("fixed", 0.5, 0.05)]
)
def test_noisy_local_bo_descends_a_quadratic(rule, step, share):
    """At sigma = 0.1 the GP's gradient estimates lead down a quadratic (f(0) = 0.75, L = 2)
    from x = 0: the final f is below `share` of f(0). Over seeds 0-4 the worst final f was 0.20
    f(0) with GIBO's normalized step 0.25 (a walk of fixed length about the minimum) and 0.027
    f(0) with the fixed step 1 / L. Two points per coordinate (b = 2d): at b = d = 2 the
    trace-optimal design is a central difference along one axis and the other never moves."""
    f = Quadratic([1.0, -0.5], [1.0, 2.0])
    objective = NoisyObjective(f, 0.1, 400, rng_for(82, rule, 0))
    settings = LocalBOSettings(
        step_rule=rule, step_size=step, batch_factor=2.0, design_max_iterations=20
    )
    result = local_bo(objective, RBF(), np.zeros(2), Box(-5, 5, 2), rng_for(83, 0), settings)
    assert f(result.x)[0] < share * f(np.zeros(2))[0]


def test_with_a_data_window_the_gradient_is_the_gp_on_every_batch_in_it():
    """data_window = 2: each estimate is grad mu(x) of the GP conditioned on this batch and the
    two before it, and the re-optimized design is no worse given them than the cached one."""
    kernel, d, noise_var = RBF(), 2, 0.01
    f = FourierSamplePath.draw(kernel, d, 256, rng_for(84, "path"))
    objective = NoisyObjective(f, 0.1, 200, rng_for(84, "noise"))
    settings = LocalBOSettings(data_window=2, design_max_iterations=30)
    designs = DesignCache(kernel, d, noise_var, False, rng_for(85), settings)
    past, batches = deque(maxlen=2), []
    for x in (np.zeros(d), np.array([0.1, 0.0]), np.array([0.2, -0.1]), np.array([0.3, 0.0])):
        cached = designs.get(d)
        before = [*past]
        batch, grad = observe_gradient(
            objective, kernel, x, cached, designs.weights(d), noise_var, past, settings
        )
        batches.append(batch)
        window = [*before, batch]
        X = np.vstack([b.X for b in window])
        y = np.concatenate([b.y for b in window])
        assert np.all(np.concatenate([b.noise for b in window]) == noise_var)  # no copies
        np.testing.assert_allclose(grad, GP(kernel, X, y, noise_var).grad_mean(x), atol=1e-10)
        if before:
            X_past = np.vstack([b.X for b in before])
            noise = np.full(len(X_past) + d, noise_var)
            fresh = gradient_trace(kernel, x, batch.X, noise, X_past, with_grad=False)[0]
            stale = gradient_trace(kernel, x, cached.points(x), noise, X_past, with_grad=False)[0]
            assert fresh <= stale + 1e-12
            assert not np.allclose(batch.X, cached.points(x))  # it was re-optimized
    assert len(past) == 2 and past[-1] is batches[-1]
