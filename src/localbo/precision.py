"""The precision matrix P = (K + sigma^2 I)^{-1} of an exact GP, kept beside its Cholesky factor.

A GP-UCB refinement asks for K^{-1} k(X, x) at every point its L-BFGS-B evaluates, dozens per
step (the gradient of the posterior variance; `localbo.methods.gp_ucb.lower_confidence_bound`;
`bench/floors.py` counts them). Through the factor that is two triangular
solves, two passes over the n x n triangle; through P it is one symmetric product, one pass
(`bench/gp_ucb_kept_inverse.py` times both on the same steps). P grows by bordering
when a point joins: with b = P k, k = k(X, x_new), and the new pivot c of the factor (the Schur
complement kappa - k^T K^{-1} k, kappa = k(x_new, x_new) + sigma^2),

    P_new = [[P + b b^T / c, -b / c],
             [-b^T / c,       1 / c]],

O(n^2) per point, in a buffer with room for the run (like the factor's, `localbo.gp.GP`).

P is as exact as the factor only while K is well conditioned: its rounding grows with
1/lambda_min(K). GP-UCB's data at d = 10 keep lambda_min near 0.5 (P is kept through whole runs
at d = 5 and 10); at d = 1 they cluster and K is near singular within a dozen points. So the GP
checks P at every new point (`GP.append`): kappa - k^T P k must equal the factor's pivot to
within `agrees_with_factor`'s rounding allowance, or P is dropped for the rest of the run (adding
points never raises lambda_min) and the factor does the work again.
"""

from __future__ import annotations

import numpy as np

from localbo.blas import symmetric_product, symmetric_rank_one_update
from localbo.linalg import pack_lower, solve_lower, unpack_lower

# Two correct roundings of a posterior variance from n data may differ by about n eps kappa
# (a sum of n products); P is kept while its Schur complement is within this many of those.
AGREEMENT_ULPS = 8


def agrees_with_factor(c_precision: float, c_factor: float, n: int, kappa: float) -> bool:
    """Whether a Schur complement through P is the factor's, to the rounding of n-term sums."""
    return abs(c_precision - c_factor) <= AGREEMENT_ULPS * max(n, 1) * np.finfo(float).eps * kappa


def _buffer(points: int) -> np.ndarray:
    """A zeroed (points, points) Fortran-ordered buffer for P (at least 1 x 1)."""
    return np.zeros((max(points, 1),) * 2, order="F")


class Precision:
    """P = (K + sigma^2 I)^{-1} for the n points of a GP, in a (capacity, capacity) buffer of which
    the leading block's lower triangle holds P.

    Args:
        L: (n, n) lower Cholesky factor of K + sigma^2 I (any leading dimension).
        capacity: points the buffer holds before it grows; at least n.
    """

    def __init__(self, L: np.ndarray, capacity: int) -> None:
        self.n = n = L.shape[0]
        self._P = _buffer(max(capacity, n))
        inverse_factor = solve_lower(L, np.eye(n))  # L^{-1}
        self._P[:n, :n] = inverse_factor.T @ inverse_factor

    @property
    def P(self) -> np.ndarray:
        """(n, n) view whose lower triangle is P (the upper one is not kept)."""
        return self._P[: self.n, : self.n]

    def times(self, v: np.ndarray) -> np.ndarray:
        """P v for (n,) v; returns (n,)."""
        return symmetric_product(self.P, v)

    def append(self, b: np.ndarray, c: float) -> None:
        """Border P with a new point, given b = P k(X, x_new) (n,) and the new pivot c > 0."""
        n = self.n
        if n + 1 > self._P.shape[0]:
            self.grow(n + 1)
        symmetric_rank_one_update(self.P, 1.0 / c, b)
        self._P[n, :n] = -b / c
        self._P[n, n] = 1.0 / c
        self.n = n + 1

    def grow(self, needed: int) -> None:
        """Move P into a buffer of at least `needed` (and twice the old) points."""
        P, n = self.P, self.n
        self._P = _buffer(max(needed, 2 * self._P.shape[0]))
        self._P[:n, :n] = P

    def packed(self) -> np.ndarray:
        """The lower triangle's columns one after the other, (n (n + 1) / 2,) (a checkpoint)."""
        return pack_lower(self.P)

    @classmethod
    def from_packed(cls, packed: np.ndarray, n: int, capacity: int) -> Precision:
        """The P `packed` recorded, bit for bit, in a buffer of `capacity` points."""
        precision = cls.__new__(cls)
        precision.n = n
        precision._P = _buffer(max(capacity, n))
        unpack_lower(packed, precision.P)
        return precision
