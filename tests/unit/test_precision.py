"""The kept precision matrix: bordering, the BLAS products it rests on, and when the GP drops it."""

import logging

import numpy as np
import pytest

from localbo.blas import symmetric_product, symmetric_rank_one_update
from localbo.gp import GP
from localbo.kernels import RBF
from localbo.linalg import pack_lower, unpack_lower
from localbo.methods.gp_ucb.lower_confidence_bound import LowerConfidenceBound
from localbo.precision import Precision
from localbo.seeding import rng_for
from tests.unit.finite_differences import assert_gradient_close, central_difference


def full(P: np.ndarray) -> np.ndarray:
    """The symmetric matrix whose lower triangle the (n, n) view P holds."""
    lower = np.tril(P)
    return lower + np.tril(lower, -1).T


@pytest.mark.parametrize("order", ["C", "F"])
def test_symmetric_product_and_update_read_only_the_lower_triangle_of_a_larger_buffer(order):
    rng = rng_for(60, "blas", order)
    A = rng.standard_normal((6, 6))
    A = A + A.T
    buffer = np.full((9, 9), np.nan, order=order)
    buffer[:6, :6] = np.tril(A) + np.triu(np.full((6, 6), np.nan), 1)  # no upper triangle
    x = rng.standard_normal(6)
    np.testing.assert_allclose(symmetric_product(buffer[:6, :6], x), A @ x, rtol=1e-14)
    symmetric_rank_one_update(buffer[:6, :6], 0.5, x)
    np.testing.assert_allclose(full(buffer[:6, :6]), A + 0.5 * np.outer(x, x), rtol=1e-14)
    assert np.isnan(buffer[6:]).all() and np.isnan(buffer[:, 6:]).all()  # outside the view
    with pytest.raises(ValueError, match="6 entries"):
        symmetric_product(buffer[:6, :6], x[:5])


def test_a_packed_triangle_comes_back_bit_for_bit():
    A = rng_for(61, "pack").standard_normal((5, 5))
    B = np.zeros((5, 5))
    unpack_lower(pack_lower(A), B)
    np.testing.assert_array_equal(B, np.tril(A))
    assert pack_lower(A).shape == (15,)


def test_bordering_one_point_at_a_time_keeps_the_inverse_of_the_growing_matrix():
    """At d = 10 (GP-UCB's well-conditioned case) 300 points join one by one, through two buffer
    growths; P stays the inverse of the factor's matrix to 1e-12."""
    rng = rng_for(62, "border")
    X = rng.uniform(-5, 5, (301, 10))
    gp = GP(RBF(), X[:1], np.zeros(1), 1e-8, capacity=100, keep_precision=True)
    for x in X[1:]:
        gp.append(x[None, :], np.zeros(1))
    assert gp.precision is not None and gp.precision.n == gp.n == 301
    K = gp.kernel(X, X) + 1e-8 * np.eye(301)
    np.testing.assert_allclose(full(gp.precision.P) @ K, np.eye(301), atol=1e-12)
    copy = Precision.from_packed(gp.precision.packed(), gp.n, 400)
    np.testing.assert_array_equal(np.tril(copy.P), np.tril(gp.precision.P))


def test_a_near_singular_matrix_drops_the_precision_and_the_factor_serves_alone(caplog):
    """At d = 1, points 1e-4 apart (noise 1e-8): P's rounding grows with 1/lambda_min, so its
    Schur complement leaves the factor's and the GP drops it; from then on the lcb is the
    factor's, bit for bit."""
    rng = rng_for(63, "drop")
    X = np.concatenate([rng.uniform(-5, 5, 10), 1e-4 * rng.standard_normal(60)])[:, None]
    y = np.sin(X[:, 0])
    kept = GP(RBF(), X[:1], y[:1], 1e-8, keep_precision=True)
    plain = GP(RBF(), X[:1], y[:1], 1e-8)
    with caplog.at_level(logging.INFO, logger="localbo.gp"):
        for i in range(1, len(X)):
            kept.append(X[i : i + 1], y[i : i + 1])
            plain.append(X[i : i + 1], y[i : i + 1])
    assert kept.precision is None
    assert "the kept inverse leaves at n = " in caplog.text
    x = np.array([2e-4])
    assert LowerConfidenceBound(kept, 3.0)(x)[0] == LowerConfidenceBound(plain, 3.0)(x)[0]
    np.testing.assert_array_equal(
        LowerConfidenceBound(kept, 3.0)(x)[1], LowerConfidenceBound(plain, 3.0)(x)[1]
    )


def test_several_points_at_once_drop_the_precision():
    rng = rng_for(64, "block")
    gp = GP(RBF(), rng.uniform(-5, 5, (3, 10)), np.zeros(3), 1e-8, keep_precision=True)
    gp.append(rng.uniform(-5, 5, (2, 10)), np.zeros(2))
    assert gp.precision is None


def test_the_lcb_through_the_precision_is_the_factors_and_its_gradient_the_finite_differences():
    """A GP like GP-UCB's at d = 10 (uniform points and a cluster): value and gradient through P
    equal the factor's to 1e-10 at points near the data and among it, and the gradient matches
    central differences."""
    rng = rng_for(65, "lcb")
    X = np.vstack([rng.uniform(-5, 5, (100, 10)), 0.5 * rng.standard_normal((100, 10))])
    y = rng.standard_normal(200)
    kept = GP(RBF(), X[:1], y[:1], 1e-8, capacity=200, keep_precision=True)
    for i in range(1, 200):
        kept.append(X[i : i + 1], y[i : i + 1])
    plain = GP(RBF(), X, y, 1e-8)
    assert kept.precision is not None
    for x in (0.3 * rng.standard_normal(10), X[150] + 0.05 * rng.standard_normal(10)):
        value, grad = LowerConfidenceBound(kept, 4.0)(x)
        plain_value, plain_grad = LowerConfidenceBound(plain, 4.0)(x)
        assert value == pytest.approx(plain_value, rel=1e-10)
        np.testing.assert_allclose(grad, plain_grad, rtol=1e-8, atol=1e-10 * np.abs(grad).max())
        fd = central_difference(lambda z: LowerConfidenceBound(kept, 4.0)(z)[0], x)
        assert_gradient_close(grad, fd, rtol=1e-6)
