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
from scipy.linalg.lapack import dpotrf

from localbo.blas import solve_triangular


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

    L may be any square view with a unit stride (a C- or F-ordered factor, or the leading block of
    a larger buffer): BLAS reads it in place (`localbo.blas`), without the copy scipy's wrappers
    make of a non-contiguous matrix.
    """
    return solve_triangular(L, B, lower=True, trans=trans)


def pack_lower(A: np.ndarray) -> np.ndarray:
    """The lower triangle of an (n, n) view, its columns one after the other: (n (n + 1) / 2,)."""
    n = A.shape[0]
    return np.concatenate([A[j:n, j] for j in range(n)]) if n > 0 else np.zeros(0)


def unpack_lower(packed: np.ndarray, A: np.ndarray) -> None:
    """Write a `pack_lower` record into the lower triangle of the (n, n) view A, bit for bit."""
    n, start = A.shape[0], 0
    for j in range(n):
        A[j:n, j] = packed[start : start + n - j]
        start += n - j
