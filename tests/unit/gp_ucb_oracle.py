"""The GP-UCB acquisition as it was before its speedups: every candidate's variance by a dense
triangular solve, every LCB evaluation by a full `cho_solve`. The equality tests of
`test_gp_ucb.py` run GP-UCB with these and with the library's and compare the chosen points."""

import math

import numpy as np

from localbo.gp import GP
from localbo.linalg import cho_solve


def dense_lcb_values(gp: GP, C: np.ndarray, sqrt_beta: float, keep: int | None = None):
    """lcb at (m, d) candidates, every one exact; `keep` is accepted and ignored."""
    mean, var = gp.mean_and_variance(C)
    return mean - sqrt_beta * np.sqrt(var)


def dense_lcb_value_and_gradient(x: np.ndarray, gp: GP, sqrt_beta: float):
    kx = gp.kernel(x[None, :], gp.X)[0]
    G = gp.kernel.grad_x(x, gp.X)
    a = cho_solve(gp.L, kx)
    var = max(gp.kernel.outputscale - float(kx @ a), 1e-300)
    sd = math.sqrt(var)
    value = gp.prior_mean + float(kx @ gp.weights) - sqrt_beta * sd
    grad = G @ gp.weights + sqrt_beta * (G @ a) / sd
    return value, grad
