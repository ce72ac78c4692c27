"""Cholesky factorization with escalating jitter, the one place the library factors a kernel matrix.

Non-positive-definite failures are the most reported numerical problem of GP libraries (BoTorch
#179, GPyTorch #2047). Everything here is float64; when a plain factorization fails, a jitter of
`initial * mean(diag)` is added to the diagonal and grown tenfold until the factor exists, with a
`JitterWarning` naming the amount. Non-finite input is an error, not a reason to add jitter.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
from scipy.linalg.blas import dtrsm
from scipy.linalg.lapack import dpotrf


class JitterWarning(RuntimeWarning):
    """Jitter was added to the diagonal to make a kernel matrix factorizable."""


def cholesky(
    K: np.ndarray,
    initial: float = 1e-10,
    max_tries: int = 9,
    overwrite: bool = False,
    refill: Callable[[], None] | None = None,
) -> tuple[np.ndarray, float]:
    """Lower Cholesky factor of a symmetric positive semi-definite matrix.

    With `overwrite`, only K's upper triangle is read and the factor is computed in its memory
    (LAPACK's lower potrf on the Fortran view K^T, whose lower triangle that is): no n x n copy,
    which is what lets alpha_trace fill just one triangle (`localbo.gram`). A failed attempt
    destroys that triangle, so the caller passes `refill`, which writes it again. Without
    `overwrite` K is full and left intact.

    Args:
        K: (n, n) symmetric matrix (C-ordered with `overwrite`).
        initial: first relative jitter, multiplied by mean(diag(K)).
        max_tries: number of tenfold escalations after the plain attempt.
        overwrite: factor in place; K is consumed and the returned factor (a view of K) is only
            valid for triangular solves (its upper triangle is not zero).
        refill: with `overwrite`, rewrites K's upper triangle after a failed attempt (required
            for jitter to be tried).

    Returns:
        (L, jitter): (n, n) lower-triangular L with L L^T = K + jitter * I, and the absolute
        jitter added (0.0 when none was needed).

    Raises:
        ValueError: K has non-finite entries.
        np.linalg.LinAlgError: still not factorizable after the last escalation, or an in-place
            factorization failed without `refill`.

    Example:
        >>> L, jitter = cholesky(np.ones((2, 2)))
        >>> jitter > 0
        True
    """
    n = K.shape[0]
    if n == 0:
        return np.zeros((0, 0)), 0.0
    base = np.diagonal(K).copy()
    scale = float(base.mean())
    if not np.isfinite(scale):
        raise ValueError("cholesky: matrix has non-finite entries")
    scale = scale if scale > 0 else 1.0
    jitter = 0.0
    for attempt in range(max_tries + 2):
        if overwrite:
            if attempt > 0:
                if refill is None:
                    raise np.linalg.LinAlgError(
                        "cholesky: in-place factorization failed and there is no refill"
                    )
                refill()
            work = K.T  # Fortran view; its lower triangle is K's upper one
        else:
            work = np.array(K, order="F")
        if attempt > 0:
            if not np.all(np.isfinite(np.tril(work))):
                raise ValueError("cholesky: matrix has non-finite entries")
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
    if not np.all(np.isfinite(np.diagonal(L))):  # a NaN below the diagonal reaches L's diagonal
        raise ValueError("cholesky: matrix has non-finite entries")
    if jitter > 0:
        warnings.warn(
            f"added jitter {jitter:.3g} ({jitter / scale:.1e} of the mean diagonal) "
            f"to factor a {n}x{n} kernel matrix",
            JitterWarning,
            stacklevel=2,
        )
    return L, jitter


def cho_solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Solve (L L^T) X = B for X given the lower factor L; B is (n,) or (n, k).

    Two `solve_lower` calls, so a C-ordered L is not copied either.
    """
    return solve_lower(L, solve_lower(L, B), trans=True)


def solve_lower(L: np.ndarray, B: np.ndarray, trans: bool = False) -> np.ndarray:
    """Solve L X = B, or L^T X = B with `trans`, by substitution; B is (n,) or (n, k).

    BLAS trsm directly: the scipy wrapper's checks cost as much as the solve at n = 500, k = 10.
    A C-ordered L is passed as the upper factor L^T in Fortran order (no copy).
    """
    if B.size == 0:
        return np.zeros(B.shape)
    if L.flags.f_contiguous:
        a, lower, transpose = L, 1, trans
    else:  # L = a^T
        a, lower, transpose = L.T, 0, not trans
    X = dtrsm(1.0, a, B if B.ndim == 2 else B[:, None], lower=lower, trans_a=int(transpose))
    return X if B.ndim == 2 else X[:, 0]


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
    out = np.zeros((n + m, n + m), order="F")  # the layout `cholesky` returns
    out[:n, :n] = L
    out[n:, :n] = B.T
    out[n:, n:] = L22
    return out, jitter
