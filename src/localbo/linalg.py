"""Cholesky factorization with escalating jitter, the one place the library factors a kernel matrix.

Non-positive-definite failures are the most reported numerical problem of GP libraries (BoTorch
#179, GPyTorch #2047). Everything here is float64; when a plain factorization fails, a jitter of
`initial * mean(diag)` is added to the diagonal and grown tenfold until the factor exists, with a
`JitterWarning` naming the amount. Non-finite input is an error, not a reason to add jitter.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.linalg as sla
from scipy.linalg.lapack import dpotrf


class JitterWarning(RuntimeWarning):
    """Jitter was added to the diagonal to make a kernel matrix factorizable."""


def cholesky(
    K: np.ndarray, initial: float = 1e-10, max_tries: int = 9, overwrite: bool = False
) -> tuple[np.ndarray, float]:
    """Lower Cholesky factor of a symmetric positive semi-definite matrix.

    LAPACK's potrf runs on the Fortran-ordered view K^T, which for a symmetric C-ordered K is K
    itself: with `overwrite` the factor is computed in K's memory (no n x n copy, the upper
    triangle left as it was), otherwise in a copy whose upper triangle is zeroed.

    Args:
        K: (n, n) symmetric matrix.
        initial: first relative jitter, multiplied by mean(diag(K)).
        max_tries: number of tenfold escalations after the plain attempt.
        overwrite: factor in place. K is then consumed, and the returned factor is only valid
            for triangular solves (its upper triangle is not zero).

    Returns:
        (L, jitter): (n, n) lower-triangular L with L L^T = K + jitter * I, and the absolute
        jitter added (0.0 when none was needed).

    Raises:
        ValueError: K has non-finite entries.
        np.linalg.LinAlgError: still not factorizable after the last escalation.

    Example:
        >>> L, jitter = cholesky(np.ones((2, 2)))
        >>> jitter > 0
        True
    """
    n = K.shape[0]
    if n == 0:
        return np.zeros((0, 0)), 0.0
    base = np.diagonal(K).copy()
    if not np.all(np.isfinite(base)) or not np.isfinite(K.sum()):
        raise ValueError("cholesky: matrix has non-finite entries")
    scale = float(np.mean(base)) if np.mean(base) > 0 else 1.0
    lower = np.tril_indices(n, -1)
    jitter = 0.0
    for attempt in range(max_tries + 2):
        if overwrite:
            work = K.T
            if attempt > 0:  # potrf read and wrote only the lower triangle: restore it
                work[lower] = work[lower[1], lower[0]]
        else:
            work = np.array(K, order="F")
        work[np.diag_indices(n)] = base + jitter
        L, info = dpotrf(work, lower=1, overwrite_a=1, clean=int(not overwrite))
        if info == 0:
            break
        if info < 0:
            raise ValueError(f"cholesky: LAPACK potrf argument {-info} is invalid")
        jitter = initial * scale if jitter == 0.0 else 10.0 * jitter
    else:
        raise np.linalg.LinAlgError(
            f"cholesky: not positive definite even with jitter {jitter / 10:.3g}"
        )
    if jitter > 0:
        warnings.warn(
            f"added jitter {jitter:.3g} ({jitter / scale:.1e} of the mean diagonal) "
            f"to factor a {n}x{n} kernel matrix",
            JitterWarning,
            stacklevel=2,
        )
    return L, jitter


def cho_solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Solve (L L^T) X = B for X given the lower factor L; B is (n,) or (n, k)."""
    return sla.cho_solve((L, True), B, check_finite=False)


def solve_lower(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Solve L X = B by forward substitution; B is (n,) or (n, k)."""
    return sla.solve_triangular(L, B, lower=True, check_finite=False)


def append_rows(L: np.ndarray, K_cross: np.ndarray, K_new: np.ndarray) -> tuple[np.ndarray, float]:
    """Extend a Cholesky factor by new rows without refactoring the old block.

    Given L L^T = K_old, return the factor of [[K_old, K_cross], [K_cross^T, K_new]].

    Args:
        L: (n, n) lower factor of the old matrix.
        K_cross: (n, m) covariance between old and new points.
        K_new: (m, m) covariance of the new points (noise included).

    Returns:
        ((n + m, n + m) lower factor, jitter added to the new diagonal block).
    """
    n, m = K_cross.shape
    B = solve_lower(L, K_cross)  # (n, m)
    S = K_new - B.T @ B
    S = 0.5 * (S + S.T)
    L22, jitter = cholesky(S)
    out = np.zeros((n + m, n + m))
    out[:n, :n] = L
    out[n:, :n] = B.T
    out[n:, n:] = L22
    return out, jitter
