"""alpha_trace(0, Z | {}) written the way a GPyTorch user would, for benchmarking `localbo`.

    alpha_trace(x, Z) = tr( grad k(x, x) grad^T - G (K + s^2 I)^{-1} G^T ),
    K = k(Z, Z),  G = grad_x k(x, Z)  (d, b).

* K comes from `gpytorch.kernels.MaternKernel(nu=2.5)` (unit lengthscale; unit outputscale, so no
  ScaleKernel), densified with `.to_dense()`.
* G comes from GPyTorch's gradient-aware kernel `Matern52KernelGrad` evaluated between x and Z:
  it returns the (d + 1, b (d + 1)) joint covariance of [f(x), grad f(x)] with [f(z_j), grad f(z_j)]
  in perfect-shuffle order, of which the rows 1..d and every (d + 1)-th column are G. (Evaluating
  the gradient kernel on Z x Z would be a (b (d + 1))^2 matrix, which no user would do here.)
* The noise is added to the diagonal, the matrix is factored with `linear_operator`'s
  `psd_safe_cholesky` (what GPyTorch itself calls), V = L^{-1} G^T by a triangular solve, and
  value = d * c - ||V||_F^2 with c = 5/3, the prior variance of a partial derivative.
* The gradient in Z is torch autograd through all of it (Cholesky backward included).

Everything is float64 on the CPU. `GPyTorchTrace` returns a numpy (value, grad) pair so that
the same scipy L-BFGS-B driver (`lbfgs_scipy`, the options of
`localbo.designs.minimize_trace`) can run either implementation from the same start: a
like-for-like comparison of the objective, not of two optimizers. `lbfgs_torch` is the pure torch
alternative (torch.optim.LBFGS with strong Wolfe line search), for reference only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import torch
from gpytorch.kernels import Matern52KernelGrad, MaternKernel
from linear_operator.utils.cholesky import psd_safe_cholesky
from scipy.optimize import minimize

from localbo.designs import LBFGS_OPTIONS

DTYPE = torch.float64
FIVE_THIRDS = 5.0 / 3.0


def make_kernels() -> tuple[MaternKernel, Matern52KernelGrad]:
    """Unit-lengthscale Matern-5/2 kernel and its gradient-aware twin, float64, eval mode."""
    k = MaternKernel(nu=2.5).to(DTYPE)
    kg = Matern52KernelGrad().to(DTYPE)
    for kern in (k, kg):
        kern.lengthscale = 1.0
        kern.eval()
        for p in kern.parameters():
            p.requires_grad_(False)
    return k, kg


def trace_torch(
    k: MaternKernel, kg: Matern52KernelGrad, x: torch.Tensor, Z: torch.Tensor, noise_var: float
) -> torch.Tensor:
    """alpha_trace(x, Z | {}) as a differentiable torch scalar. x: (d,), Z: (b, d)."""
    b, d = Z.shape
    K = k(Z, Z).to_dense()
    K = K + noise_var * torch.eye(b, dtype=Z.dtype)
    cross = kg(x[None, :], Z).to_dense()  # (d + 1, b (d + 1)), perfect-shuffle order
    G = cross[1:, 0 :: d + 1]  # cov(grad f(x), f(Z)): (d, b)
    L = psd_safe_cholesky(K)
    V = torch.linalg.solve_triangular(L, G.T, upper=False)
    return d * FIVE_THIRDS - (V * V).sum()


class GPyTorchTrace:
    """Callable numpy objective: z (b * d,) -> (value, grad (b * d,))."""

    def __init__(self, d: int, b: int, noise_var: float):
        self.k, self.kg = make_kernels()
        self.x = torch.zeros(d, dtype=DTYPE)
        self.shape = (b, d)
        self.noise_var = noise_var

    def __call__(self, z: np.ndarray) -> tuple[float, np.ndarray]:
        Z = torch.tensor(z.reshape(self.shape), dtype=DTYPE, requires_grad=True)
        value = trace_torch(self.k, self.kg, self.x, Z, self.noise_var)
        (grad,) = torch.autograd.grad(value, Z)
        return float(value.detach()), grad.numpy().ravel()


def localbo_objective(kernel, d: int, b: int, noise_var: float) -> Callable:
    """The library's `gradient_trace` wrapped like `GPyTorchTrace` (numpy in, numpy out)."""
    from localbo.acquisition import gradient_trace

    origin = np.zeros(d)

    def objective(z: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = gradient_trace(kernel, origin, z.reshape(b, d), noise_var)
        return value, grad.ravel()

    return objective


@dataclass
class LBFGSRun:
    value: float
    start_value: float
    iterations: int
    evaluations: int
    seconds: float


def lbfgs_scipy(objective: Callable, Z0: np.ndarray, max_iterations: int) -> LBFGSRun:
    """scipy L-BFGS-B with exactly the options of `localbo.designs.minimize_trace`, the
    start's value taken from L-BFGS-B's first evaluation as there."""
    t0 = time.perf_counter()
    values: list[float] = []
    iterations = 0

    def recorded(z: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = objective(z)
        values.append(value)
        return value, grad

    def count(_):
        nonlocal iterations
        iterations += 1

    res = minimize(
        recorded,
        Z0.ravel(),
        jac=True,
        method="L-BFGS-B",
        callback=count,
        options={"maxiter": max_iterations, **LBFGS_OPTIONS},
    )
    return LBFGSRun(
        value=min(float(res.fun), values[0]),
        start_value=values[0],
        iterations=iterations,
        evaluations=res.nfev,
        seconds=time.perf_counter() - t0,
    )


def lbfgs_torch(d: int, b: int, noise_var: float, Z0: np.ndarray, max_iterations: int) -> LBFGSRun:
    """torch.optim.LBFGS (history 20, strong Wolfe) on the same objective, for reference."""
    k, kg = make_kernels()
    x = torch.zeros(d, dtype=DTYPE)
    Z = torch.tensor(Z0, dtype=DTYPE, requires_grad=True)
    opt = torch.optim.LBFGS(
        [Z],
        lr=1.0,
        max_iter=max_iterations,
        history_size=20,
        tolerance_grad=1e-9,
        tolerance_change=1e-12,
        line_search_fn="strong_wolfe",
    )
    evaluations = 0

    def closure():
        nonlocal evaluations
        evaluations += 1
        opt.zero_grad()
        value = trace_torch(k, kg, x, Z, noise_var)
        value.backward()
        return value

    t0 = time.perf_counter()
    with torch.no_grad():
        start_value = float(trace_torch(k, kg, x, Z, noise_var))
    opt.step(closure)
    with torch.no_grad():
        final = float(trace_torch(k, kg, x, Z, noise_var))
    state = opt.state[opt._params[0]]
    return LBFGSRun(
        value=min(final, start_value),
        start_value=start_value,
        iterations=int(state.get("n_iter", 0)),
        evaluations=evaluations + 2,
        seconds=time.perf_counter() - t0,
    )
