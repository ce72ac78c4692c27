"""Exact GP regression with known hyperparameters, and the law of the gradient it implies.

Given data (X, y) with noise variance sigma^2 and a constant prior mean m,

    mu(x)          = m + k(x, X) K^{-1} (y - m),        K = k(X, X) + sigma^2 I
    grad mu(x)     = G(x) K^{-1} (y - m),               G(x) = grad_x k(x, X), (d, n)
    Cov[grad f(x)] = c I - G(x) K^{-1} G(x)^T,          c = prior variance of a partial derivative

(section 2 of the paper). New observations extend the Cholesky factor by a block row, so a BO loop
never refactors the whole matrix, nor copies it (the factor lives in a buffer with spare room).
A GP may also keep the precision matrix K^{-1} beside the factor (`localbo.precision`), for a loop
that needs K^{-1} k(X, x) at many points per observation (GP-UCB's refinement).
"""

from __future__ import annotations

import logging

import numpy as np

from localbo.kernels import Kernel
from localbo.linalg import cholesky, pack_lower, solve_lower, unpack_lower
from localbo.precision import Precision, agrees_with_factor

log = logging.getLogger(__name__)


class GP:
    """GP posterior for fixed hyperparameters.

    The factor, the inputs and z = L^{-1} (y - m) live in buffers with room for `capacity`
    points; `append` writes the new rows into them, so a BO loop neither refactors nor copies
    the old factor (`localbo.blas` solves with the buffer's leading block in place). The weights
    K^{-1} (y - m) = L^{-T} z then cost one triangular solve, when first asked for after an append.

    Args:
        kernel: covariance function.
        X: (n, d) inputs, n >= 1.
        y: (n,) observations.
        noise_var: observation noise variance sigma^2 >= 0 (0 is handled by the jitter helper).
        mean: constant prior mean.
        capacity: points the buffers hold before they grow (doubling); at least n.
        keep_precision: also keep P = K^{-1} (`precision`), bordered at each one-point append
            while it agrees with the factor (see `append`).

    Raises:
        ValueError: X is not (n, d) with n = len(y) >= 1, or noise_var < 0.

    Example:
        >>> from localbo.kernels import RBF
        >>> gp = GP(RBF(), np.zeros((1, 2)), np.ones(1), noise_var=0.0)
        >>> float(gp.mean(np.zeros((1, 2)))[0])
        1.0
    """

    def __init__(
        self,
        kernel: Kernel,
        X: np.ndarray,
        y: np.ndarray,
        noise_var: float,
        mean: float = 0.0,
        capacity: int = 0,
        keep_precision: bool = False,
    ) -> None:
        if noise_var < 0:
            raise ValueError(f"noise_var must be >= 0, got {noise_var}")
        self.kernel = kernel
        self.noise_var = float(noise_var)
        self.prior_mean = float(mean)
        y = np.asarray(y, dtype=float).reshape(-1)
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[0] != len(y) or len(y) == 0:
            raise ValueError(f"X must be (n, d) with n = len(y) >= 1, got {X.shape} and {len(y)}")
        self.n = len(y)
        self._allocate(max(capacity, self.n, 1), X.shape[1])
        self._X[: self.n], self._y[: self.n] = X, y
        K = kernel(X, X)
        K[np.diag_indices_from(K)] += self.noise_var
        L, self.jitter = cholesky(K)
        self._L[: self.n, : self.n] = L
        self._z[: self.n] = solve_lower(L, y - self.prior_mean)
        self._weights: np.ndarray | None = None
        self.precision = Precision(L, self._L.shape[0]) if keep_precision else None

    def _allocate(self, capacity: int, d: int) -> None:
        self._L = np.zeros((capacity, capacity), order="F")
        self._X, self._y, self._z = np.empty((capacity, d)), np.empty(capacity), np.empty(capacity)

    def _grow(self, needed: int) -> None:
        L, X, y, z, n = self.L, self.X, self.y, self._z[: self.n], self.n
        self._allocate(max(needed, 2 * self._L.shape[0]), X.shape[1])
        self._L[:n, :n], self._X[:n], self._y[:n], self._z[:n] = L, X, y, z
        if self.precision is not None:
            self.precision.grow(self._L.shape[0])

    @property
    def L(self) -> np.ndarray:
        """(n, n) lower Cholesky factor of K + noise_var I plus a diagonal jitter (each entry at
        most `jitter`: an append adds its own block's), a view of the buffer."""
        return self._L[: self.n, : self.n]

    @property
    def X(self) -> np.ndarray:
        """(n, d) inputs (a view)."""
        return self._X[: self.n]

    @property
    def y(self) -> np.ndarray:
        """(n,) observations (a view)."""
        return self._y[: self.n]

    @property
    def weights(self) -> np.ndarray:
        """(n,) K^{-1} (y - m)."""
        if self._weights is None:
            self._weights = solve_lower(self.L, self._z[: self.n], trans=True)
        return self._weights

    def append(self, X_new: np.ndarray, y_new: np.ndarray) -> None:
        """Condition on more observations, extending the factor in O(n^2 m).

        With L L^T = K, the new block row is B^T = (L^{-1} K_cross)^T and the factor L22 of the
        Schur complement K_new - B^T B; z gains L22^{-1} (y_new - m - B^T z). A kept precision is
        bordered with the factor's pivot when one point joins and its own Schur complement
        K_new - K_cross^T P K_cross agrees with that pivot (`agrees_with_factor`); otherwise, or
        when the pivot needed jitter or more points join at once, it is dropped for good.

        Args:
            X_new: (m, d) inputs. y_new: (m,) observations.
        """
        X_new = np.atleast_2d(np.asarray(X_new, dtype=float))
        y_new = np.atleast_1d(np.asarray(y_new, dtype=float))
        n, m = self.n, len(y_new)
        if n + m > self._L.shape[0]:
            self._grow(n + m)
        K_cross = self.kernel(self.X, X_new)
        K_new = self.kernel(X_new, X_new)
        K_new[np.diag_indices_from(K_new)] += self.noise_var
        B = solve_lower(self.L, K_cross)  # (n, m)
        S = K_new - B.T @ B
        L22, jitter = cholesky(0.5 * (S + S.T))
        z = self._z[:n]
        self._z[n : n + m] = solve_lower(L22, y_new - self.prior_mean - B.T @ z)
        if self.precision is not None:
            self.precision = self._bordered(self.precision, K_cross, K_new, L22, jitter)
        self._L[n : n + m, :n], self._L[n : n + m, n : n + m] = B.T, L22
        self._X[n : n + m], self._y[n : n + m] = X_new, y_new
        self.n = n + m
        self.jitter = max(self.jitter, jitter)
        self._weights = None

    @staticmethod
    def _bordered(
        precision: Precision, K_cross: np.ndarray, K_new: np.ndarray, L22: np.ndarray, jitter: float
    ) -> Precision | None:
        """The kept precision bordered with one new point, or None when it is dropped (`append`)."""
        kappa, n = float(K_new[0, 0]), precision.n
        if len(K_new) == 1 and jitter == 0.0:
            b = precision.times(K_cross[:, 0])
            c_factor = float(L22[0, 0]) ** 2
            c_precision = kappa - float(K_cross[:, 0] @ b)
            if agrees_with_factor(c_precision, c_factor, n, kappa):
                precision.append(b, c_factor)
                return precision
            log.info(
                "the kept inverse leaves at n = %d: its Schur complement is %.3g off the "
                "factor's %.3g; the factor serves alone from here",
                n,
                c_precision - c_factor,
                c_factor,
            )
        return None

    def state(self) -> dict[str, np.ndarray]:
        """What `GP.from_state` rebuilds this posterior from, bit for bit: X (n, d), y (n,),
        z (n,), the factor's columns packed one after the other (n (n + 1) / 2,), the jitter,
        the buffers' capacity and the kept precision, packed alike, if there is one (a
        checkpoint of a long run)."""
        n = self.n
        precision = {} if self.precision is None else {"gp_P": self.precision.packed()}
        return {
            **precision,
            "gp_X": self.X.copy(),
            "gp_y": self.y.copy(),
            "gp_z": self._z[:n].copy(),
            "gp_L": pack_lower(self.L),
            "gp_jitter": np.array(self.jitter),
            "gp_capacity": np.array(self._L.shape[0]),
        }

    @classmethod
    def from_state(
        cls, kernel: Kernel, state: dict[str, np.ndarray], noise_var: float, mean: float = 0.0
    ) -> GP:
        """The posterior `GP.state` recorded, with the same kernel, noise and prior mean; its
        factor is the recorded one, not refactored."""
        gp = cls.__new__(cls)
        gp.kernel, gp.noise_var, gp.prior_mean = kernel, float(noise_var), float(mean)
        X = state["gp_X"]
        gp.n = n = len(X)
        gp._allocate(int(state["gp_capacity"]), X.shape[1])
        gp._X[:n], gp._y[:n], gp._z[:n] = X, state["gp_y"], state["gp_z"]
        unpack_lower(state["gp_L"], gp._L[:n, :n])
        gp.jitter = float(state["gp_jitter"])
        gp._weights = None
        gp.precision = (
            Precision.from_packed(state["gp_P"], n, gp._L.shape[0]) if "gp_P" in state else None
        )
        return gp

    def mean(self, Xs: np.ndarray) -> np.ndarray:
        """Posterior mean at (m, d) points; returns (m,)."""
        return self.prior_mean + self.kernel(Xs, self.X) @ self.weights

    def variance(self, Xs: np.ndarray) -> np.ndarray:
        """Posterior variance of f (noise excluded) at (m, d) points; returns (m,)."""
        return self.mean_and_variance(Xs)[1]

    def mean_and_variance(self, Xs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior mean and variance at (m, d) points from one cross-covariance; (m,) each."""
        Kc = self.kernel(Xs, self.X)  # (m, n)
        V = solve_lower(self.L, Kc.T)
        variance = np.maximum(self.kernel.outputscale - np.sum(V**2, axis=0), 0.0)
        return self.prior_mean + Kc @ self.weights, variance

    def grad_mean(self, x: np.ndarray) -> np.ndarray:
        """Posterior mean of grad f(x) at a (d,) point; returns (d,)."""
        return self.kernel.grad_x(x, self.X) @ self.weights

    def grad_cov(self, x: np.ndarray) -> np.ndarray:
        """Posterior covariance of grad f(x) at a (d,) point; returns (d, d)."""
        V = solve_lower(self.L, self.kernel.grad_x(x, self.X).T)  # (n, d)
        return self.kernel.grad_grad(x.shape[0]) - V.T @ V
