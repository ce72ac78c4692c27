"""The Cholesky helper on near-singular matrices, and factor extension."""

import warnings

import numpy as np
import pytest

from localbo.kernels import RBF, Matern52
from localbo.linalg import JitterWarning, append_rows, cholesky


def test_well_conditioned_matrix_gets_no_jitter():
    A = np.array([[2.0, 0.5], [0.5, 1.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        L, jitter = cholesky(A)
    assert jitter == 0.0
    np.testing.assert_allclose(L @ L.T, A)


def test_singular_matrix_gets_jitter_and_a_warning():
    K = np.ones((3, 3))
    with pytest.warns(JitterWarning, match="added jitter"):
        L, jitter = cholesky(K)
    assert jitter > 0
    np.testing.assert_allclose(L @ L.T, K + jitter * np.eye(3), atol=1e-12)
    np.testing.assert_array_equal(K, np.ones((3, 3)))  # the input is left as it was


def test_non_finite_input_is_an_error():
    with pytest.raises(ValueError, match="non-finite"):
        cholesky(np.array([[1.0, np.nan], [np.nan, 1.0]]))


def test_thousands_of_near_singular_designs_never_fail():
    """Duplicate points, sigma = 0, points 1e-9 apart: factor always exists and is finite."""
    rng = np.random.default_rng(2)
    for case in range(2000):
        kernel = (RBF(), Matern52())[case % 2]
        n, d = rng.integers(2, 12), rng.integers(1, 4)
        X = rng.normal(size=(n, d))
        kind = case % 3
        if kind == 0:
            X[1:] = X[0]
        elif kind == 1:
            X[1] = X[0] + 1e-9 * rng.normal(size=d)
        else:
            X = np.repeat(X[: n // 2 + 1], 2, axis=0)[:n]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", JitterWarning)
            L, jitter = cholesky(kernel(X, X))
        assert np.all(np.isfinite(L))
        assert jitter < 1e-2


def test_append_rows_equals_fresh_factor():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9, 2))
    K = Matern52()(X, X) + 0.01 * np.eye(9)
    L_old, _ = cholesky(K[:6, :6])
    L_new, jitter = append_rows(L_old, K[:6, 6:], K[6:, 6:])
    assert jitter == 0.0
    np.testing.assert_allclose(L_new, cholesky(K)[0], atol=1e-12)
