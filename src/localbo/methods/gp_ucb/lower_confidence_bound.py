"""The lower confidence bound GP-UCB minimizes, and the screen that scores candidates exactly.

    lcb(x) = mu(x) - sqrt(beta) s(x),   grad lcb(x) = G(x) w + sqrt(beta) G(x) K^{-1} k(X, x) / s(x)

on a fixed exact GP (`localbo.gp.GP`), with G(x) = grad_x k(x, X) (d, n) and w = K^{-1} (y - m).
Scoring a step's candidates skips what provably cannot change the result: rows that leave the
prior's lcb to the bit, and solves of candidates a lower bound on their lcb rules out of the best
few. `localbo.methods.gp_ucb` runs the loop around it.
"""

from __future__ import annotations

import math

import numpy as np

from localbo.gp import GP
from localbo.kernels import Kernel
from localbo.linalg import solve_lower

# A kernel row k with ||k||^2 <= PRIOR_ROWS * s * noise_var leaves the prior variance s unchanged
# to the bit: k^T (K + noise_var I)^{-1} k <= ||k||^2 / lambda_min, lambda_min >= noise_var (halved
# here against the factor's rounding), so the subtracted term is at most 2^-59 s, below half an ulp
# of s, and s - (that term) rounds to s. Uniform candidates in d >= 10 have rows of about 1e-70.
PRIOR_ROWS = 2.0**-60
# The lcb bound that prunes candidates: their variance conditioned on their BOUND_POINTS nearest
# data points only (`_variance_bound`).
BOUND_POINTS = 4
# The bound's second form, for when the first leaves more than TIGHTEN_ABOVE candidates to solve
# after a batch (d = 1, where each candidate's nearest points are one cluster's duplicates): the
# variance conditioned on SHARED_POINTS data points spread over the data (`spread_points`), the
# same set for every candidate of the step (`_shared_variance_bound`). Forming it costs about one
# solve.
SHARED_POINTS = 32
TIGHTEN_ABOVE = 8
# The shift eps_M = PIVOT_SHIFT s of both forms' Cholesky pivots, past their rounding.
PIVOT_SHIFT = 1e-12


def with_solve_slack(pivot: np.ndarray, s: float) -> np.ndarray:
    """A bound's (k,) shifted pivots, widened by the slack the full solve's rounding needs and
    capped at the prior variance s."""
    return np.minimum(pivot * (1.0 + 1e-9) + PIVOT_SHIFT * s, s)


def at_prior_variance(rows_squared: np.ndarray, gp: GP) -> np.ndarray:
    """Which squared kernel-row norms leave the posterior variance at the prior's, bit for bit."""
    return rows_squared <= PRIOR_ROWS * gp.kernel.outputscale * gp.noise_var


def nearest_squared_distances(C: np.ndarray, X: np.ndarray) -> np.ndarray:
    """A lower bound on min_i ||c - x_i||^2 for each of (m, d) candidates C; returns (m,).

    Gram form, min_i (||x_i||^2 - 2 c . x_i) + ||c||^2, one matrix product instead of m n
    distances; less the product's rounding bound, (d + 8) eps (||c||^2 + max ||x_i||^2) doubled.
    """
    X_sq = np.einsum("ij,ij->i", X, X)
    C_sq = np.einsum("ij,ij->i", C, C)
    P = C @ X.T  # (m, n)
    P *= -2.0
    P += X_sq
    slack = 2.0 * (C.shape[1] + 8) * np.finfo(float).eps * (C_sq + X_sq.max())
    return np.maximum(P.min(axis=1) + C_sq - slack, 0.0)


def spread_points(kernel: Kernel, X: np.ndarray, count: int) -> np.ndarray:
    """Indices of up to `count` rows of (n, d) X, each the one the points before it explain least.

    A greedy pivoted Cholesky of k(X, X): the next point is the one of largest residual variance
    given the points chosen, so the set covers the data rather than one cluster of it; it stops
    early when every residual is below 1e-12 of the outputscale. O(n count (count + d)).
    """
    n, s = len(X), kernel.outputscale
    residual = np.full(n, s)
    rows = np.empty((min(count, n), n))  # rows of the partial factor, one per chosen point
    chosen: list[int] = []
    for j in range(len(rows)):
        p = int(residual.argmax())
        if residual[p] <= 1e-12 * s:
            break
        column = kernel(X[p][None, :], X)[0] - rows[:j, p] @ rows[:j]
        rows[j] = column / math.sqrt(residual[p])
        residual -= rows[j] ** 2
        residual[p] = 0.0
        chosen.append(p)
    return np.array(chosen, dtype=int)


class LowerConfidenceBound:
    """lcb(x) = mu(x) - sqrt(beta) s(x) of one step, for minimization, on a GP that stays fixed.

    `values` scores candidates, `__call__` gives a point's value and analytic gradient

        grad lcb(x) = G(x) w + sqrt(beta) G(x) K^{-1} k(X, x) / s(x),     w = K^{-1} (y - m),

    G(x) = grad_x k(x, X) (d, n). Both compute exactly what solving every candidate and every
    point would, only not where the result is known without the solve:
    - a candidate whose kernel row is provably negligible (`nearest_squared_distances`, then
      `at_prior_variance` and a bound on its mean) has the prior's lcb; its row is not formed;
    - the variance uses v = L^{-1} k(X, x), s(x)^2 = s - v.v, and K^{-1} k = L^{-T} v; a
      candidate's v is kept, so the first L-BFGS-B evaluation of a refinement started there
      costs one backward solve. Where the GP keeps its precision P (`localbo.precision`), a
      point's K^{-1} k = P k and s(x)^2 = s - k.(P k) take one pass over P instead.

    Args:
        gp: the posterior (its factor and weights).
        sqrt_beta: sqrt(beta_t).
    """

    def __init__(self, gp: GP, sqrt_beta: float) -> None:
        self.gp, self.sqrt_beta = gp, sqrt_beta
        self.weights = gp.weights
        self.prior = gp.prior_mean - sqrt_beta * math.sqrt(gp.kernel.outputscale)
        self._solved: dict[bytes, tuple[np.ndarray, np.ndarray, float]] = {}
        self._shared: tuple[np.ndarray, np.ndarray | None] | None = None  # (S, its factor)

    def values(self, C: np.ndarray, keep: int | None = None) -> np.ndarray:
        """lcb at (m, d) candidates; returns (m,).

        With `keep`, the candidates whose row is not negligible are taken in the order of a lower
        bound on their lcb (`_variance_bound`; once per step, where it leaves many to solve, the
        larger of it and `_shared_variance_bound`'s), and solved only while that bound can still
        beat the `keep`-th least exact value; the rest are +inf. The `keep` least values, and
        which candidates have them, are then those of solving every candidate (each to the
        rounding of the batch it is solved in: BLAS's trsm may round a column differently
        beside other columns).
        """
        gp, kernel = self.gp, self.gp.kernel
        s = kernel.outputscale
        lcb = np.full(len(C), self.prior)
        near = np.flatnonzero(~self._negligible(C))
        Kc = kernel(C[near], gp.X)  # (k, n)
        mean = gp.prior_mean + Kc @ self.weights
        lcb[near] = mean - self.sqrt_beta * math.sqrt(s)  # exact where the variance is the prior's
        moving = np.flatnonzero(~at_prior_variance(np.einsum("ij,ij->i", Kc, Kc), gp))
        if keep is None or moving.size == 0:
            self._solve(C, near[moving], Kc[moving], mean[moving], lcb)
            return lcb
        upper = self._variance_bound(Kc[moving])
        bound = mean[moving] - self.sqrt_beta * np.sqrt(upper)
        by_bound = np.argsort(bound, kind="stable")
        pending, bound = moving[by_bound], bound[by_bound]
        lcb[near[pending]] = np.inf
        start, size = 0, keep  # batches double: the threshold tightens between them
        tightened = False
        while start < pending.size:
            known = lcb[np.isfinite(lcb)]
            if known.size >= keep:
                threshold = np.partition(known, keep - 1)[keep - 1]
                stop = int(np.searchsorted(bound, threshold, side="right"))
                if stop - start > TIGHTEN_ABOVE and not tightened:
                    tightened = True  # the larger of two lower bounds, once per step
                    rest = pending[start:]
                    shared = self._shared_variance_bound(Kc[rest])
                    tighter = np.maximum(
                        bound[start:], mean[rest] - self.sqrt_beta * np.sqrt(shared)
                    )
                    order = np.argsort(tighter, kind="stable")
                    pending[start:], bound[start:] = rest[order], tighter[order]
                    stop = int(np.searchsorted(bound, threshold, side="right"))
                if stop <= start:
                    break
                stop = min(stop, start + size)
            else:
                stop = start + keep - known.size
            batch = pending[start:stop]
            self._solve(C, near[batch], Kc[batch], mean[batch], lcb)
            start, size = stop, 2 * size
        return lcb

    def _variance_bound(self, Kc: np.ndarray) -> np.ndarray:
        """(k,) upper bounds on the posterior variance of candidates with (k, n) kernel rows.

        The variance conditioned on the BOUND_POINTS data points of largest covariance (the
        kernels here are non-negative) only:
        conditioning on more data never raises a variance, and the noise used, the nugget plus
        the factor's largest jitter, is at least each point's. It is the last pivot of the
        Cholesky factor of the joint covariance M of (y_S, f(x)), factored as M + eps_M I with
        eps_M = 1e-12 s: that shift exceeds the backward error of the factorization and of M's
        entries (about (q + 1)^2 2^-52 s), so, the Schur complement being monotone in M, the
        computed pivot is not below the exact one. Then the slack the full solve's rounding needs.
        """
        gp, s = self.gp, self.gp.kernel.outputscale
        k, q = len(Kc), min(BOUND_POINTS, gp.n)
        idx, rest, rows = np.empty((k, q), dtype=int), Kc.copy(), np.arange(k)
        for j in range(q):  # q argmax passes: much faster than argpartition for small q
            idx[:, j] = rest.argmax(axis=1)
            rest[rows, idx[:, j]] = -np.inf
        X_S = gp.X[idx]  # (k, q, d)
        r = np.linalg.norm(X_S[:, :, None, :] - X_S[:, None, :, :], axis=3)  # (k, q, q)
        M = np.empty((k, q + 1, q + 1))
        M[:, :q, :q] = s * gp.kernel.value(r / gp.kernel.lengthscale)
        M[:, :q, q] = M[:, q, :q] = np.take_along_axis(Kc, idx, axis=1)
        M[:, q, q] = s
        diagonal = np.arange(q + 1)
        M[:, diagonal, diagonal] += PIVOT_SHIFT * s
        M[:, diagonal[:q], diagonal[:q]] += gp.noise_var + gp.jitter
        try:
            pivot = np.linalg.cholesky(M)[:, q, q] ** 2
        except np.linalg.LinAlgError:  # not seen (M + eps_M I is definite): the trivial bound
            pivot = np.full(k, s)
        return with_solve_slack(pivot, s)

    def _shared_variance_bound(self, Kc: np.ndarray) -> np.ndarray:
        """(k,) upper bounds on the posterior variance of candidates with (k, n) kernel rows.

        The variance conditioned on the step's `spread_points` S only (r <= SHARED_POINTS of
        them), by the argument of `_variance_bound`: it is the last pivot of the Cholesky factor of
        the joint covariance of (y_S, f(x)) shifted by eps_M = 1e-12 s, which exceeds the
        factorization's backward error (r + 1)^2 2^-52 s for r <= 66; here K_SS + noise is
        factored once per step and each candidate's last row is one forward solve with it.
        """
        gp, s = self.gp, self.gp.kernel.outputscale
        if self._shared is None:
            S = spread_points(gp.kernel, gp.X, SHARED_POINTS)
            M = gp.kernel(gp.X[S], gp.X[S])
            M[np.diag_indices_from(M)] += PIVOT_SHIFT * s + gp.noise_var + gp.jitter
            try:
                self._shared = (S, np.linalg.cholesky(M))
            except np.linalg.LinAlgError:  # not seen (M is shifted past definite): no bound
                self._shared = (S, None)
        S, L_S = self._shared
        if L_S is None or S.size == 0:
            return np.full(len(Kc), s)
        W = solve_lower(L_S, Kc[:, S].T)  # (r, k)
        pivot = np.maximum(s + PIVOT_SHIFT * s - np.sum(W**2, axis=0), 0.0)
        return with_solve_slack(pivot, s)

    def _negligible(self, C: np.ndarray) -> np.ndarray:
        """(m,) flags: the candidate's kernel row k is provably so small that its variance is
        the prior's to the bit and |k . w| < 2^-60 sqrt(beta s), below the rounding of lcb."""
        gp, kernel = self.gp, self.gp.kernel
        weights_norm = float(np.linalg.norm(self.weights))

        def negligible(r: np.ndarray) -> np.ndarray:  # rows with all scaled distances >= r
            row_norm = math.sqrt(gp.n) * kernel.outputscale * kernel.value(r)  # >= ||k||
            return at_prior_variance(row_norm**2, gp) & (
                row_norm * weights_norm <= 2.0**-60 * self.sqrt_beta * math.sqrt(kernel.outputscale)
            )

        extent = np.maximum(C.max(axis=0), gp.X.max(axis=0)) - np.minimum(
            C.min(axis=0), gp.X.min(axis=0)
        )  # no copy of X
        if not negligible(np.array([np.linalg.norm(extent) / kernel.lengthscale]))[0]:
            return np.zeros(len(C), dtype=bool)  # no two points are far enough apart (low d)
        return negligible(np.sqrt(nearest_squared_distances(C, gp.X)) / kernel.lengthscale)

    def _solve(
        self, C: np.ndarray, index: np.ndarray, Kc: np.ndarray, mean: np.ndarray, lcb: np.ndarray
    ) -> None:
        """Writes lcb[index] from the (k, n) rows by one forward solve, keeping each v."""
        if index.size == 0:
            return
        V = solve_lower(self.gp.L, Kc.T)  # (n, k)
        variance = np.maximum(self.gp.kernel.outputscale - np.sum(V**2, axis=0), 0.0)
        lcb[index] = mean - self.sqrt_beta * np.sqrt(variance)
        for j, i in enumerate(index):
            self._solved[C[i].tobytes()] = (Kc[j], V[:, j], float(variance[j]))

    def __call__(self, x: np.ndarray) -> tuple[float, np.ndarray]:
        """lcb at a (d,) point and its (d,) gradient (analytic).

        Where the kernel row is negligible (`at_prior_variance`) the value is the dense one to the
        bit and the solve is skipped; the gradient then drops sqrt(beta) G K^{-1} k / s(x), at
        most sqrt(beta) ||G|| ||k|| / noise_var. That is not always below the rounding of the
        mean's gradient G K^{-1} y (not where y is near 0 around the point): that such points are
        refined to the same chosen points is checked against the oracle (tests/unit/test_gp_ucb.py
        and bench/bench_gp_ucb_exact.py), not proved.
        """
        gp = self.gp
        record = self._solved.get(x.tobytes())
        kx = gp.kernel(x[None, :], gp.X)[0] if record is None else record[0]  # (n,)
        G = gp.kernel.grad_x(x, gp.X)  # (d, n)
        mean, mean_grad = gp.prior_mean + float(kx @ self.weights), G @ self.weights
        if record is None and at_prior_variance(np.array(kx @ kx), gp):
            return mean - self.sqrt_beta * math.sqrt(gp.kernel.outputscale), mean_grad
        if gp.precision is not None:  # one pass over P instead of two over the factor
            a = gp.precision.times(kx)  # K^{-1} k
            variance = gp.kernel.outputscale - float(kx @ a) if record is None else record[2]
        else:
            v = solve_lower(gp.L, kx) if record is None else record[1]
            variance = gp.kernel.outputscale - float(v @ v) if record is None else record[2]
            a = solve_lower(gp.L, v, trans=True)
        sd = math.sqrt(max(variance, 1e-300))
        return mean - self.sqrt_beta * sd, mean_grad + self.sqrt_beta * (G @ a) / sd
