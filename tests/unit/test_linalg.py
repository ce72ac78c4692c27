"""The Cholesky helper on near-singular matrices, and factor extension."""

import warnings

import numpy as np
import pytest

from localbo.kernels import RBF, Matern52
from localbo.linalg import JitterWarning, cholesky, solve_lower


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
    """Duplicate points, sigma = 0, points 1e-9 apart: factor always exists and is finite, and
    the first jitter, 1e-10 of the mean diagonal, always suffices for these small matrices (a
    larger first jitter or escalation would blur every sigma = 0 GP)."""
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
            K = kernel(X, X)
            L, jitter = cholesky(K)
        assert np.all(np.isfinite(L))
        assert jitter <= 1e-10 * np.mean(np.diag(K))


@pytest.mark.parametrize("singular", [False, True], ids=["definite", "singular"])
def test_in_place_factor_equals_the_copying_one(singular):
    rng = np.random.default_rng(4)
    X = rng.normal(size=(8, 2))
    if singular:
        X[3] = X[0]
    K = Matern52()(X, X) + (0.0 if singular else 0.01) * np.eye(8)
    upper = np.triu_indices(8)

    def refill():
        work[upper] = K[upper]

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", JitterWarning)
        L_copy, jitter_copy = cholesky(K)
        work = np.full((8, 8), np.nan)  # the strictly lower triangle is never read
        refill()
        L_inplace, jitter_inplace = cholesky(work, overwrite=True, refill=refill)
    assert np.shares_memory(L_inplace, work)
    assert jitter_inplace == jitter_copy and (jitter_copy > 0) == singular
    np.testing.assert_allclose(np.tril(L_inplace), L_copy, atol=1e-12)


def test_in_place_failure_needs_a_refill_and_non_finite_entries_are_errors():
    with pytest.raises(np.linalg.LinAlgError, match="no refill"):
        cholesky(np.ones((3, 3)), overwrite=True)
    K = np.eye(3)
    K[0, 2] = np.inf  # in the upper triangle, which the in-place factorization reads
    with pytest.raises(ValueError, match="non-finite"):
        cholesky(K.copy(), overwrite=True, refill=lambda: None)
    K[0, 2] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        cholesky(K, overwrite=True, refill=lambda: None)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("spare", [0, 5], ids=["whole", "leading-block"])
def test_solve_lower_in_both_memory_orders_and_in_a_larger_buffer(order, spare):
    """BLAS reads the factor in place: C or F order, alone or the leading block of a buffer
    (the GP's), with the upper triangle and the spare room full of garbage it must not read."""
    rng = np.random.default_rng(5)
    L = np.tril(rng.normal(size=(7, 7))) + 4 * np.eye(7)
    buffer = np.array(rng.normal(size=(7 + spare, 7 + spare)), order=order)
    buffer[:7, :7] = L + np.triu(rng.normal(size=(7, 7)), 1)
    view = buffer[:7, :7]
    B = rng.normal(size=(7, 3))
    for trans, M in ((False, L), (True, L.T)):
        expected = np.linalg.solve(M, B)
        np.testing.assert_allclose(solve_lower(view, B, trans), expected, rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(
            solve_lower(view, B[:, 0], trans), expected[:, 0], rtol=1e-13, atol=1e-14
        )
    assert solve_lower(view, np.zeros((7, 0))).shape == (7, 0)
    with pytest.raises(ValueError, match="unit stride"):
        solve_lower(buffer[::2, ::2][:3, :3], B[:3])
