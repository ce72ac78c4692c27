"""GP-UCB as it was before its speedups, kept whole as the oracle of the equality checks.

Every candidate's variance by a dense triangular solve, every LCB evaluation by a full
`cho_solve`, a factor that is copied into a new (n + 1) x (n + 1) array at each observation and
weights re-solved from y, all through scipy's BLAS wrappers: the implementation of the commit
before issue 10's speedups (d5cb203 and earlier), frozen here. It shares with the library only
what the speedups did not touch: the kernel, the box, the objective, beta_t, the candidate draws
and the refinement loop (`minimize_lcb`, given the dense acquisition `DenseLCB`).
`tests/unit/test_gp_ucb.py` and `bench/bench_gp_ucb_exact.py` run it beside `gp_ucb`.
"""

import math

import numpy as np
from scipy.linalg.blas import dtrsm

from localbo.gp import GP
from localbo.kernels import Kernel
from localbo.linalg import cholesky
from localbo.methods.gp_ucb import GPUCBSettings, keeps_inverse, minimize_lcb
from localbo.objective import Box, NoisyObjective


def _solve_lower(L: np.ndarray, B: np.ndarray, trans: bool = False) -> np.ndarray:
    if B.size == 0:
        return np.zeros(B.shape)
    a, lower, transpose = (L, 1, trans) if L.flags.f_contiguous else (L.T, 0, not trans)
    X = dtrsm(1.0, a, B if B.ndim == 2 else B[:, None], lower=lower, trans_a=int(transpose))
    return X if B.ndim == 2 else X[:, 0]


def _cho_solve(L: np.ndarray, B: np.ndarray) -> np.ndarray:
    return _solve_lower(L, _solve_lower(L, B), trans=True)


class DenseGP:
    """The GP of GP-UCB before the speedups: a fresh factor array per observation."""

    def __init__(self, kernel: Kernel, X: np.ndarray, y: np.ndarray, noise_var: float) -> None:
        self.kernel, self.noise_var, self.prior_mean = kernel, noise_var, 0.0
        self.X, self.y = X.copy(), y.copy()
        K = kernel(X, X)
        K[np.diag_indices_from(K)] += noise_var
        self.L, self.jitter = cholesky(K)
        self.weights = _cho_solve(self.L, self.y)

    def append(self, x: np.ndarray, y: np.ndarray) -> None:
        n = len(self.y)
        K_cross = self.kernel(self.X, x)
        K_new = self.kernel(x, x) + self.noise_var
        B = _solve_lower(self.L, K_cross)
        L22, jitter = cholesky(K_new - B.T @ B)
        out = np.zeros((n + 1, n + 1), order="F")
        out[:n, :n], out[n:, :n], out[n:, n:] = self.L, B.T, L22
        self.L, self.jitter = out, max(self.jitter, jitter)
        self.X, self.y = np.vstack([self.X, x]), np.concatenate([self.y, y])
        self.weights = _cho_solve(self.L, self.y)


def dense_lcb_values(gp, C: np.ndarray, sqrt_beta: float, keep: int | None = None) -> np.ndarray:
    """lcb at (m, d) candidates, every one solved; `keep` is accepted and ignored."""
    Kc = gp.kernel(C, gp.X)
    V = _solve_lower(gp.L, Kc.T)
    variance = np.maximum(gp.kernel.outputscale - np.sum(V**2, axis=0), 0.0)
    return gp.prior_mean + Kc @ gp.weights - sqrt_beta * np.sqrt(variance)


def dense_lcb_value_and_gradient(x: np.ndarray, gp, sqrt_beta: float):
    """lcb at a (d,) point and its gradient, by a full `cho_solve`."""
    kx = gp.kernel(x[None, :], gp.X)[0]
    G = gp.kernel.grad_x(x, gp.X)
    a = _cho_solve(gp.L, kx)
    sd = math.sqrt(max(gp.kernel.outputscale - float(kx @ a), 1e-300))
    value = gp.prior_mean + float(kx @ gp.weights) - sqrt_beta * sd
    return value, G @ gp.weights + sqrt_beta * (G @ a) / sd


class DenseLCB:
    """The acquisition before the speedups, for `localbo.methods.gp_ucb.minimize_lcb`: every
    candidate solved, every evaluation a full `cho_solve`."""

    def __init__(self, gp, sqrt_beta: float) -> None:
        self.gp, self.sqrt_beta = gp, sqrt_beta

    def values(self, C: np.ndarray, keep: int | None = None) -> np.ndarray:
        return dense_lcb_values(self.gp, C, self.sqrt_beta)

    def __call__(self, x: np.ndarray):
        return dense_lcb_value_and_gradient(x, self.gp, self.sqrt_beta)


def dense_minimize_lcb(gp, box, incumbent, sqrt_beta, rng, settings) -> np.ndarray:
    """The oracle's step: the same candidates and refinement loop, its own acquisition."""
    return minimize_lcb(gp, box, incumbent, sqrt_beta, rng, settings, acquisition=DenseLCB)


def oracle_gp_ucb(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: GPUCBSettings | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The chosen (budget, d) points and their (budget,) observations of the oracle's run."""
    settings = settings or GPUCBSettings()
    d = x0.shape[0]
    x = box.project(np.array(x0, dtype=float))
    gp = DenseGP(
        kernel, x[None, :], objective(x[None, :]), objective.sigma**2 + settings.min_noise_var
    )
    best, t = 0, 1
    while objective.remaining > 0:
        t += 1
        sqrt_beta = math.sqrt(settings.beta(t, d, box.width))
        x = dense_minimize_lcb(gp, box, gp.X[best], sqrt_beta, rng, settings)
        y = objective(x[None, :])
        gp.append(x[None, :], y)
        if y[0] < gp.y[best]:
            best = len(gp.y) - 1
    return gp.X, gp.y


class OneUlpGP(DenseGP):
    """The oracle's GP with its weights one ulp off (times 1 + 2^-52): the null comparison,
    how far the oracle's own choices move under a rounding difference."""

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.weights = self.weights * (1.0 + 2.0**-52)

    def append(self, x: np.ndarray, y: np.ndarray) -> None:
        super().append(x, y)
        self.weights = self.weights * (1.0 + 2.0**-52)


def replay(
    X: np.ndarray,
    y: np.ndarray,
    kernel: Kernel,
    box: Box,
    rng: np.random.Generator,
    noise_var: float,
    settings: GPUCBSettings | None = None,
    null: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The library's choice at every step of a recorded oracle run, on the oracle's own data.

    One rounding difference makes two low-noise GP-UCB runs different runs within a few steps
    (the LCB has many near-equal local minima), so the library is compared with the oracle
    step by step: at step t both have the oracle's first t points, and `rng` (seeded as the
    oracle's was) draws the same candidates, since each step draws a fixed number.

    Args:
        X: (T, d) the oracle's points, X[0] the start. y: (T,) its observations.
        noise_var: sigma^2 + the nugget, as the run used.
        null: replay the oracle itself with its weights one ulp off (`OneUlpGP`) instead.

    Returns:
        ((T - 1, d) the choices for X[1:], (T - 1,) the oracle's dense lcb at that choice minus
        at its own: the size of the near-tie where they differ).
    """
    settings = settings or GPUCBSettings()
    d = X.shape[1]
    if null:
        gp, choose = OneUlpGP(kernel, X[:1], y[:1], noise_var), dense_minimize_lcb
    else:
        gp = GP(kernel, X[:1], y[:1], noise_var, capacity=len(y), keep_precision=keeps_inverse(d))
        choose = minimize_lcb
    dense = DenseGP(kernel, X[:1], y[:1], noise_var)
    choices, gaps, best = np.empty((len(y) - 1, d)), np.empty(len(y) - 1), 0
    for t in range(1, len(y)):
        sqrt_beta = math.sqrt(settings.beta(t + 1, d, box.width))
        choices[t - 1] = choose(gp, box, X[best], sqrt_beta, rng, settings)
        gaps[t - 1] = (
            dense_lcb_value_and_gradient(choices[t - 1], dense, sqrt_beta)[0]
            - dense_lcb_value_and_gradient(X[t], dense, sqrt_beta)[0]
        )
        gp.append(X[t : t + 1], y[t : t + 1])
        dense.append(X[t : t + 1], y[t : t + 1])
        if y[t] < y[best]:
            best = t
    return choices, gaps
