"""Exact GP regression with known hyperparameters, and the law of the gradient it implies.

Given data (X, y) with noise variance sigma^2 and a constant prior mean m,

    mu(x)          = m + k(x, X) K^{-1} (y - m),        K = k(X, X) + sigma^2 I
    grad mu(x)     = G(x) K^{-1} (y - m),               G(x) = grad_x k(x, X), (d, n)
    Cov[grad f(x)] = c I - G(x) K^{-1} G(x)^T,          c = prior variance of a partial derivative

(section 2 of the paper). New observations extend the Cholesky factor by a block row, so a BO loop
never refactors the whole matrix.
"""

from __future__ import annotations

import numpy as np

from localbo.kernels import Kernel
from localbo.linalg import append_rows, cho_solve, cholesky, solve_lower


class GP:
    """GP posterior for fixed hyperparameters.

    Args:
        kernel: covariance function.
        X: (n, d) inputs (n may be 0).
        y: (n,) observations.
        noise_var: observation noise variance sigma^2 >= 0 (0 is handled by the jitter helper).
        mean: constant prior mean.

    Example:
        >>> from localbo.kernels import RBF
        >>> gp = GP(RBF(), np.zeros((1, 2)), np.ones(1), noise_var=0.0)
        >>> float(gp.mean(np.zeros((1, 2)))[0])
        1.0
    """

    def __init__(
        self, kernel: Kernel, X: np.ndarray, y: np.ndarray, noise_var: float, mean: float = 0.0
    ) -> None:
        if noise_var < 0:
            raise ValueError(f"noise_var must be >= 0, got {noise_var}")
        self.kernel = kernel
        self.noise_var = float(noise_var)
        self.prior_mean = float(mean)
        self.X = np.asarray(X, dtype=float).reshape(len(y), -1)
        self.y = np.asarray(y, dtype=float).copy()
        K = kernel(self.X, self.X)
        K[np.diag_indices_from(K)] += self.noise_var
        self.L, self.jitter = cholesky(K)
        self._update_weights()

    def _update_weights(self) -> None:
        self.weights = cho_solve(self.L, self.y - self.prior_mean)  # K^{-1} (y - m), (n,)

    def append(self, X_new: np.ndarray, y_new: np.ndarray) -> None:
        """Condition on more observations, extending the factor in O(n^2 m).

        Args:
            X_new: (m, d) inputs. y_new: (m,) observations.
        """
        X_new = np.atleast_2d(X_new)
        K_cross = self.kernel(self.X, X_new)
        K_new = self.kernel(X_new, X_new)
        K_new[np.diag_indices_from(K_new)] += self.noise_var
        self.L, jitter = append_rows(self.L, K_cross, K_new)
        self.jitter = max(self.jitter, jitter)
        self.X = np.vstack([self.X, X_new])
        self.y = np.concatenate([self.y, np.atleast_1d(y_new)])
        self._update_weights()

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
