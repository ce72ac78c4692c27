"""Gradient estimation of (non-)smooth functions (paper section 6.3 and the ReLU appendix):
subdifferential boxes, designs, and the estimates of Figs. 4 and 5 with the library's defaults
(the paper-scale pipeline's settings)."""

import warnings

import numpy as np
import pytest

from localbo import gradient_estimation as ge
from localbo.acquisition import gradient_trace
from localbo.gp import GP
from localbo.hyperparameters import FitSettings
from localbo.kernels import make_kernel
from localbo.linalg import JitterWarning
from localbo.seeding import rng_for

# The default method with fewer restarts, so the whole file runs in seconds.
DESIGN = ge.QueryDesignSettings(restarts=2)
FIT = FitSettings(restarts=5)


def estimate(function, x, n, noise_std, seed):
    """One case as the pipeline runs it (`run_case`), with fewer restarts."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", JitterWarning)
        return ge.run_case(function, x, n, noise_std, seed, "matern52", DESIGN, FIT)[2]


def test_subdifferential_boxes():
    x = np.array([0.0, 1.0])
    np.testing.assert_array_equal(
        ge.TEST_FUNCTIONS["quadratic"].subdifferential(x), [[0, 0], [1, 1]]
    )
    np.testing.assert_array_equal(ge.TEST_FUNCTIONS["l1"].subdifferential(x), [[-1, 1], [1, 1]])
    relu = ge.TEST_FUNCTIONS["relu"].subdifferential
    np.testing.assert_array_equal(relu(np.array([0.0, 2.0, -1.0])), [[0, 1], [1, 1], [0, 0]])


def test_subgradient_inequality_holds_on_the_box_corners():
    """f(z) >= f(x) + g.(z - x) for every corner g of the box: the boxes are subgradients."""
    rng = np.random.default_rng(0)
    for name, x in (("l1", np.array([0.0, 1.0])), ("relu", np.array([0.0]))):
        f = ge.TEST_FUNCTIONS[name]
        box = f.subdifferential(x)
        Z = x + rng.normal(size=(200, x.size))
        for corner in np.array(np.meshgrid(*box)).reshape(x.size, -1).T:
            assert np.all(f.value(Z) >= f.value(x[None])[0] + (Z - x) @ corner - 1e-12)


def test_distance_to_box():
    box = np.array([[-1.0, 1.0], [1.0, 1.0]])
    assert ge.distance_to_box(np.array([0.5, 1.0]), box) == 0.0
    assert ge.distance_to_box(np.array([2.0, 0.0]), box) == pytest.approx(np.sqrt(2.0))


def test_paper_estimates_are_found_by_setting():
    assert ge.paper_estimate("l1", np.array([0, 1]), 10) == (-0.031, 1.053)
    assert ge.paper_estimate("relu", np.array([0.0]), 4) == (0.49,)
    assert ge.paper_estimate("relu", np.array([0.0]), 3) is None


def test_design_is_shifted_to_x_and_improves_on_its_start():
    kernel = make_kernel("matern52")
    x = np.array([0.3, -2.0])
    settings = ge.QueryDesignSettings(noise_var=1e-2, restarts=1, start_std=0.1)
    design, restart_values = ge.design_queries("matern52", x, 4, rng_for(1, "d"), settings)
    start = 0.1 * rng_for(1, "d").standard_normal((4, 2))
    assert design.value <= gradient_trace(kernel, np.zeros(2), start, 1e-2)[0]
    # L-BFGS does real work: the trace at least halves from the random start (1.09 -> 0.29)
    assert design.value < 0.5 * gradient_trace(kernel, np.zeros(2), start, 1e-2)[0]
    value = gradient_trace(kernel, x, design.points(x), 1e-2, with_grad=False)[0]
    assert value == pytest.approx(design.value, rel=1e-10)
    np.testing.assert_array_equal(restart_values, [design.value])


def test_a_design_of_no_queries_is_refused():
    with pytest.raises(ValueError, match="n >= 1"):
        ge.design_queries("matern52", np.zeros(2), 0, rng_for(1, "d"))


def test_quadratic_with_five_queries_is_within_0p1_of_the_gradient():
    for seed in (0, 1):
        est = estimate("quadratic", (0.0, 1.0), 5, 0.0, seed)
        assert np.linalg.norm(est.gradient - np.array([0.0, 1.0])) < 0.1, est.gradient


@pytest.mark.parametrize("n", [2, 4])
def test_relu_estimates_are_subgradients(n):
    """Paper appendix: mu'_D(0) always lies in [0, 1] (noise std 0.01); three seeds each."""
    for seed in range(3):
        g = estimate("relu", (0.0,), n, 0.01, seed).gradient[0]
        assert 0.0 <= g <= 1.0, (seed, g)


def test_l1_ten_queries_beat_five():
    """Fig. 4 (b) vs (c): with n = 10 the estimate is closer to [-1, 1] x {1} than with the
    n = 5 queries, on each of four seeds."""
    for seed in range(4):
        five = estimate("l1", (0.0, 1.0), 5, 0.0, seed).error
        ten = estimate("l1", (0.0, 1.0), 10, 0.0, seed).error
        assert ten < five, (seed, five, ten)


def test_posterior_curve_is_the_fitted_gp_around_x():
    est = estimate("relu", (0.0,), 4, 0.01, 0)
    curve = ge.posterior_curve(est, "matern52", 0.35, 9)
    assert curve["grid"][0] == pytest.approx(-0.35) and curve["grid"][-1] == pytest.approx(0.35)
    assert curve["mean"].shape == curve["std"].shape == (9,)
    assert np.all(curve["std"] > 0)
    # the grid's middle point is x itself
    assert curve["mean"][4] == pytest.approx(curve["mean_at_x"], rel=1e-12)
    with pytest.raises(ValueError, match="one-dimensional"):
        ge.posterior_curve(estimate("l1", (0.0, 1.0), 5, 0.0, 0), "matern52", 0.35, 9)


def test_the_curve_and_the_gradients_spread_are_the_fitted_gp_s():
    """Fig. 5's curve is the posterior of the GP with the fitted hyperparameters (built here
    from the kernel, not through `fitted_gp`): its mean, its standard deviation (not the
    variance), its slope at x the estimate; `gradient_std` is the root of grad f's variance."""
    est = estimate("relu", (0.0,), 4, 0.01, 0)
    p = est.fit.params
    kernel = make_kernel("matern52", p.lengthscale, p.outputscale)
    gp = GP(kernel, est.queries, est.observations, p.noise_var, mean=p.mean)
    curve = ge.posterior_curve(est, "matern52", 1e-4, 3)
    mean, var = gp.mean(curve["grid"][:, None]), gp.variance(curve["grid"][:, None])
    np.testing.assert_allclose(curve["mean"], mean, rtol=1e-12)
    np.testing.assert_allclose(curve["std"], np.sqrt(var), rtol=1e-9)
    slope = (curve["mean"][2] - curve["mean"][0]) / 2e-4  # central difference, O(h^2)
    assert slope == pytest.approx(est.gradient[0], abs=1e-5)
    np.testing.assert_allclose(est.gradient_std**2, np.diag(gp.grad_cov(est.x)), rtol=1e-10)
