"""alpha_trace (paper eq. 2): definition, analytic gradient, numerics."""

import warnings

import numpy as np
import pytest

from localbo.acquisition import gradient_trace, value_variance
from localbo.gp import GP
from localbo.linalg import JitterWarning
from tests.unit.finite_differences import assert_gradient_close, central_difference


@pytest.mark.parametrize("with_data", [False, True], ids=["no-data", "with-data"])
@pytest.mark.parametrize("blocked", [False, True], ids=["one-block", "blocks-of-8-rows"])
def test_gradient_in_design_matches_finite_differences(kernel, with_data, blocked, monkeypatch):
    if blocked:  # the matrices of localbo.gram in several row blocks, as at large b
        monkeypatch.setattr("localbo.gram.BLOCK_ELEMENTS", 1)
    rng = np.random.default_rng(13)
    d, b = 3, 6 + 15 * blocked
    x = rng.normal(size=d)
    Z = x + 0.7 * kernel.lengthscale * rng.normal(size=(b, d))
    X_data = rng.normal(size=(4 + 5 * blocked, d)) if with_data else None
    value, grad = gradient_trace(kernel, x, Z, 0.05, X_data)
    fd = central_difference(lambda z: gradient_trace(kernel, x, z, 0.05, X_data, False)[0], Z)
    assert_gradient_close(grad, fd)
    assert value == gradient_trace(kernel, x, Z, 0.05, X_data, with_grad=False)[0]


@pytest.mark.parametrize("noise", ["per-point", "small"])
def test_gradient_matches_finite_differences_at_the_pipelines_noise(kernel, noise):
    """Local BO's data window passes a (n + b,) noise vector (repeats observed m times count
    once with noise / m); the noiseless runs a small nugget, where the factor is least stable."""
    rng = np.random.default_rng(16)
    d, b, n = 3, 6, 5
    x = rng.normal(size=d)
    Z = x + 0.7 * kernel.lengthscale * rng.normal(size=(b, d))
    X_data = rng.normal(size=(n, d))
    noise_var = rng.uniform(1e-6, 0.1, n + b) if noise == "per-point" else 1e-6
    _, grad = gradient_trace(kernel, x, Z, noise_var, X_data)
    fd = central_difference(lambda z: gradient_trace(kernel, x, z, noise_var, X_data, False)[0], Z)
    assert_gradient_close(grad, fd)


def test_value_is_trace_of_gp_gradient_covariance(kernel):
    rng = np.random.default_rng(14)
    x, Z, X = rng.normal(size=2), rng.normal(size=(5, 2)), rng.normal(size=(3, 2))
    value, _ = gradient_trace(kernel, x, Z, 0.1, X)
    gp = GP(kernel, np.vstack([X, Z]), np.zeros(8), noise_var=0.1)
    assert value == pytest.approx(np.trace(gp.grad_cov(x)), rel=1e-10)


def test_no_information_far_away_and_full_prior_trace(kernel):
    x = np.zeros(4)
    far = np.full((3, 4), 1e3)
    value, grad = gradient_trace(kernel, x, far, 0.1)
    assert value == pytest.approx(4 * kernel.grad_grad_diag())
    np.testing.assert_allclose(grad, 0.0, atol=1e-12)


def test_per_point_noise_equals_repeated_points(kernel):
    """m noisy copies of a point carry the same information as one with noise / m."""
    x = np.zeros(2)
    P = np.array([[0.3, 0.0], [-0.3, 0.0], [0.0, 0.3]])
    repeated = gradient_trace(kernel, x, np.repeat(P, 4, axis=0), 0.2, with_grad=False)[0]
    merged = gradient_trace(kernel, x, P, np.full(3, 0.2 / 4), with_grad=False)[0]
    assert repeated == pytest.approx(merged, rel=1e-9)


def test_near_singular_designs_stay_finite():
    rng = np.random.default_rng(15)
    from localbo.kernels import RBF, Matern52

    for case in range(300):
        kernel = (RBF(), Matern52())[case % 2]
        x = rng.normal(size=3)
        Z = np.repeat(x + 0.1 * rng.normal(size=(2, 3)), 3, axis=0)
        Z[-1] = Z[0] + 1e-9
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", JitterWarning)
            value, grad = gradient_trace(kernel, x, Z, 0.0)
        assert np.isfinite(value) and np.all(np.isfinite(grad))
        assert -1e-6 <= value <= 3 * kernel.grad_grad_diag() + 1e-9


@pytest.mark.parametrize("noise_var", [2e-4, 0.3])
def test_value_variance_gradient_matches_finite_differences(kernel, noise_var):
    rng = np.random.default_rng(17)
    x = rng.normal(size=3)
    Z = x + 0.6 * kernel.lengthscale * rng.normal(size=(7, 3))
    value, grad = value_variance(kernel, x, Z, noise_var)
    fd = central_difference(lambda z: value_variance(kernel, x, z, noise_var, False)[0], Z)
    assert_gradient_close(grad, fd)
    assert value == value_variance(kernel, x, Z, noise_var, with_grad=False)[0]


def test_value_variance_is_the_gp_s_posterior_variance_and_the_joint_trace_adds_it(kernel):
    """v(Z) is the fitted GP's variance of f(x); with alpha_trace it is the trace of the joint
    posterior covariance of (f(x), grad f(x)), the paper code's criterion with no data."""
    rng = np.random.default_rng(18)
    x, Z = rng.normal(size=2), rng.normal(size=(5, 2))
    gp = GP(kernel, Z, np.zeros(5), noise_var=0.01)
    value, _ = value_variance(kernel, x, Z, 0.01)
    assert value == pytest.approx(gp.variance(x[None])[0], rel=1e-10)
    joint = value + gradient_trace(kernel, x, Z, 0.01)[0]
    assert joint == pytest.approx(gp.variance(x[None])[0] + np.trace(gp.grad_cov(x)), rel=1e-10)
