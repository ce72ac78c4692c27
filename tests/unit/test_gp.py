"""The GP posterior against brute-force conditioning of the joint Gaussian (paper section 2)."""

import warnings

import numpy as np
import pytest

from localbo.gp import GP
from localbo.kernels import RBF
from localbo.linalg import JitterWarning
from tests.unit.finite_differences import assert_gradient_close, central_difference


def joint_gradient_posterior(kernel, X, y, noise_var, x, mean):
    """Condition [y; grad f(x)] ~ N([m; 0], [[K + s2 I, C^T], [C, c I]]) by dense linear algebra,
    with the cross-covariance C built from finite differences of k, not from the library."""
    d, h = x.shape[0], 1e-6
    C = np.stack(
        [
            (kernel((x + h * e)[None], X) - kernel((x - h * e)[None], X))[0] / (2 * h)
            for e in np.eye(d)
        ]
    )  # (d, n)
    K = kernel(X, X) + noise_var * np.eye(len(X))
    prior = kernel.grad_grad(d)
    mean_post = C @ np.linalg.solve(K, y - mean)
    cov_post = prior - C @ np.linalg.solve(K, C.T)
    return mean_post, cov_post


def test_gradient_posterior_matches_joint_gaussian(kernel):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(12, 3))
    y = rng.normal(size=12)
    x = rng.normal(size=3) * 0.5
    gp = GP(kernel, X, y, noise_var=0.05, mean=0.3)
    mean_ref, cov_ref = joint_gradient_posterior(kernel, X, y, 0.05, x, 0.3)
    np.testing.assert_allclose(gp.grad_mean(x), mean_ref, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(gp.grad_cov(x), cov_ref, rtol=1e-6, atol=1e-8)


def test_grad_mean_is_gradient_of_mean(kernel):
    rng = np.random.default_rng(5)
    X, y = rng.normal(size=(8, 2)), rng.normal(size=8)
    gp = GP(kernel, X, y, noise_var=0.01)
    x = rng.normal(size=2)
    fd = central_difference(lambda v: gp.mean(v[None])[0], x)
    assert_gradient_close(gp.grad_mean(x), fd)


def test_append_equals_conditioning_on_everything(kernel):
    rng = np.random.default_rng(6)
    X, y = rng.normal(size=(10, 2)), rng.normal(size=10)
    gp = GP(kernel, X[:4], y[:4], noise_var=0.02, capacity=5)
    gp.append(X[4:7], y[4:7])  # beyond the capacity: the buffers grow
    gp.append(X[7:], y[7:])
    full = GP(kernel, X, y, noise_var=0.02)
    np.testing.assert_allclose(gp.L, full.L, atol=1e-12)
    Xs = rng.normal(size=(5, 2))
    np.testing.assert_allclose(gp.mean(Xs), full.mean(Xs), atol=1e-10)
    np.testing.assert_allclose(gp.variance(Xs), full.variance(Xs), atol=1e-10)
    np.testing.assert_allclose(gp.weights, np.linalg.solve(full.L @ full.L.T, y), atol=1e-10)
    np.testing.assert_array_equal(gp.X, X)


def test_noiseless_duplicates_stay_finite_and_interpolate(kernel):
    X = np.array([[0.0, 0.0], [0.0, 0.0], [1e-9, 0.0], [1.0, 1.0]])
    y = np.array([1.0, 1.0, 1.0, -1.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gp = GP(kernel, X, y, noise_var=0.0)
    assert any(issubclass(w.category, JitterWarning) for w in caught)
    assert np.all(np.isfinite(gp.grad_cov(np.zeros(2))))
    np.testing.assert_allclose(gp.mean(X[[0, 3]]), [1.0, -1.0], atol=1e-8)


@pytest.mark.parametrize(
    ("X", "y"),
    [(np.zeros((4, 2)), np.zeros(8)), (np.zeros(3), np.zeros(3)), (np.zeros((0, 2)), [])],
)
def test_inputs_that_are_not_one_row_per_observation_are_refused(X, y):
    with pytest.raises(ValueError, match="X must be"):
        GP(RBF(), X, y, 0.1)
