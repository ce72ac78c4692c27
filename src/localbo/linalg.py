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


class JitterWarning(RuntimeWarning):
    """Jitter was added to the diagonal to make a kernel matrix factorizable."""


def cholesky(K: np.ndarray, initial: float = 1e-10, max_tries: int = 9) -> tuple[np.ndarray, float]:
    """Lower Cholesky factor of a symmetric positive semi-definite matrix.

    Args:
        K: (n, n) symmetric matrix.
        initial: first relative jitter, multiplied by mean(diag(K)).
        max_tries: number of tenfold escalations after the plain attempt.

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
    if K.shape[0] == 0:
        return np.zeros((0, 0)), 0.0
    if not np.all(np.isfinite(np.diagonal(K))) or not np.isfinite(K.sum()):
        raise ValueError("cholesky: matrix has non-finite entries")
    try:
        return sla.cholesky(K, lower=True, check_finite=False), 0.0
    except np.linalg.LinAlgError:
        pass
    scale = float(np.mean(np.diagonal(K)))
    scale = scale if scale > 0 else 1.0
    diag = np.arange(K.shape[0])
    base = np.diagonal(K).copy()
    jitter = initial * scale
    for _ in range(max_tries + 1):
        K[diag, diag] = base + jitter
        try:
            L = sla.cholesky(K, lower=True, check_finite=False)
        except np.linalg.LinAlgError:
            jitter *= 10.0
            continue
        finally:
            K[diag, diag] = base
        warnings.warn(
            f"added jitter {jitter:.3g} ({jitter / scale:.1e} of the mean diagonal) "
            f"to factor a {K.shape[0]}x{K.shape[0]} kernel matrix",
            JitterWarning,
            stacklevel=2,
        )
        return L, jitter
    raise np.linalg.LinAlgError(
        f"cholesky: not positive definite even with jitter {jitter / 10:.3g}"
    )


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
