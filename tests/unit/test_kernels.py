"""Kernel values and derivatives: closed forms against definitions and finite differences."""

from functools import partial

import numpy as np
import pytest

from localbo.kernels import RBF, Kernel, Matern52, make_kernel
from tests.unit.finite_differences import assert_gradient_close, central_difference


def test_known_values():
    r = np.array([0.0, 1.0, 2.0])
    np.testing.assert_allclose(RBF().value(r), np.exp(-0.5 * r**2))
    s5 = np.sqrt(5.0)
    np.testing.assert_allclose(Matern52().value(r), (1 + s5 * r + 5 * r**2 / 3) * np.exp(-s5 * r))


def test_matrix_is_symmetric_with_outputscale_diagonal(kernel):
    X = np.random.default_rng(0).normal(size=(7, 3))
    K = kernel(X, X)
    np.testing.assert_allclose(K, K.T)
    np.testing.assert_allclose(np.diag(K), kernel.outputscale)
    assert np.linalg.eigvalsh(K).min() > -1e-10


def test_profiles_are_derivatives_of_the_value(kernel):
    r = np.linspace(0.05, 3.0, 17)
    h = 1e-6
    slope_fd = (kernel.value(r + h) - kernel.value(r - h)) / (2 * h) / r
    np.testing.assert_allclose(kernel.slope(r), slope_fd, rtol=1e-6)
    curve_fd = (kernel.slope(r + h) - kernel.slope(r - h)) / (2 * h) / r
    np.testing.assert_allclose(kernel.curve(r), curve_fd, rtol=1e-6)
    value, slope = kernel.value_and_slope(r)
    np.testing.assert_allclose(value, kernel.value(r))
    np.testing.assert_allclose(slope, kernel.slope(r))


def test_fused_profiles_of_t_match_the_generic_ones(kernel):
    """Each kernel's fused in-place profiles against the base class's value_and_slope path,
    including t = 0, rounding just below 0 and a strided output for the kernel entries."""
    t = np.concatenate([[0.0, -1e-17, 1e-300], np.linspace(1e-9, 40.0, 39)]).reshape(3, 14)
    outputs = []
    for profiles in (kernel.profiles_of_t, partial(Kernel.profiles_of_t, kernel)):
        value = np.full((3, 20), np.nan)[:, 3:17]  # strided, like a block of K
        slope, work = np.empty_like(t), np.empty_like(t)
        profiles(t.copy(), value, slope, work)
        outputs.append((value, slope))
    (value, slope), (value_ref, slope_ref) = outputs
    np.testing.assert_allclose(value, value_ref, rtol=1e-14, atol=1e-16)
    np.testing.assert_allclose(slope, slope_ref, rtol=1e-14, atol=1e-16)
    r = np.sqrt(np.abs(t) / kernel.gram_scale)
    np.testing.assert_allclose(
        value,
        kernel(np.zeros((1, 1)), r.reshape(-1, 1) * kernel.lengthscale).reshape(3, 14),
        rtol=1e-14,
    )


def test_grad_x_matches_finite_differences(kernel):
    rng = np.random.default_rng(1)
    x, Z = rng.normal(size=3), rng.normal(size=(5, 3))
    G = kernel.grad_x(x, Z)
    for j in range(5):
        fd = central_difference(lambda v, j=j: kernel(v[None], Z[j : j + 1])[0, 0], x)
        assert_gradient_close(G[:, j], fd)


def test_grad_grad_is_mixed_second_derivative(kernel):
    """d/dx_i d/dx'_j k(x, x') at x = x' by nested central differences, every (i, j): the
    diagonal and the off-diagonal (zero for a stationary isotropic kernel)."""
    x, h = np.array([0.3, -0.2]), 1e-4
    e = np.eye(2)
    for i in range(2):
        for j in range(2):
            mixed = (
                kernel((x + h * e[i])[None], (x + h * e[j])[None])
                - kernel((x + h * e[i])[None], (x - h * e[j])[None])
                - kernel((x - h * e[i])[None], (x + h * e[j])[None])
                + kernel((x - h * e[i])[None], (x - h * e[j])[None])
            )[0, 0] / (4 * h * h)
            assert mixed == pytest.approx(kernel.grad_grad(2)[i, j], rel=1e-5, abs=1e-7)


def test_make_kernel_rejects_unknown_names_and_bad_parameters():
    assert isinstance(make_kernel("matern52"), Matern52)
    with pytest.raises(ValueError, match="unknown kernel"):
        make_kernel("periodic")
    with pytest.raises(ValueError, match="positive"):
        RBF(lengthscale=0.0)
