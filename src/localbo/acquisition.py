"""The GIBO acquisition alpha_trace (eq. 2 of the paper) with its analytic gradient in the design.

    alpha_trace(x, Z | D) = tr( grad k_{D u Z}(x, x) grad^T )
                          = d * c - tr( G K^{-1} G^T ),

where S = [X_D; Z] stacks the data inputs and the candidate design, K = k(S, S) + diag(noise),
G = grad_x k(x, S) is (d, N) and c = -s2 * slope(0) / l**2 is the prior variance of each partial
derivative. With W = K^{-1} G^T (N, d) and P = W W^T,

    d alpha / d z_j = 2 s2 / l^2 * [ curve_j (u_j . w_j) u_j / l^2 + slope_j w_j ]
                      + 2 s2 / l^2 * sum_l P_jl slope(R_jl) (z_j - z_l),

with u_j = x - z_j, R the scaled distances within S, and slope/curve the kernel's radial profiles
(see `localbo.kernels`). Only d right-hand sides are solved; K^{-1} is never formed, and of the
symmetric N x N matrices K, slope(R) and A = P o slope(R) only one triangle is computed, in
cache-sized blocks (`localbo.gram`).

References:
    Mueller et al. (2021), Local policy search with Bayesian optimization (GIBO);
    the paper, eq. (2) and eq. (3).
"""

from __future__ import annotations

import numpy as np

from localbo.gram import UpperBlocks, fill_kernel_and_slope, hadamard_gram_product
from localbo.kernels import Kernel
from localbo.linalg import cho_solve, cholesky, solve_lower


def gradient_trace(
    kernel: Kernel,
    x: np.ndarray,
    Z: np.ndarray,
    noise_var: float | np.ndarray,
    X_data: np.ndarray | None = None,
    with_grad: bool = True,
) -> tuple[float, np.ndarray | None]:
    """alpha_trace(x, Z | D) and its gradient in Z.

    Args:
        kernel: the GP's kernel (known hyperparameters).
        x: (d,) point whose gradient is estimated.
        Z: (b, d) candidate design.
        noise_var: observation noise variance, a scalar or a (n + b,) vector over [X_data; Z]
            (a repeated point observed m times is one point with noise_var / m).
        X_data: (n, d) inputs already in the data set D, or None for D empty.
        with_grad: also return the gradient.

    Returns:
        (value, grad): the trace (float) and its (b, d) gradient in Z (None if not asked).

    Example:
        >>> from localbo.kernels import RBF
        >>> value, grad = gradient_trace(RBF(), np.zeros(2), np.eye(2), 0.01)
        >>> grad.shape
        (2, 2)
    """
    d = x.shape[0]
    S = Z if X_data is None or len(X_data) == 0 else np.vstack([X_data, Z])
    n, n0 = S.shape[0], S.shape[0] - Z.shape[0]
    ell2 = kernel.lengthscale**2
    scale = kernel.outputscale / ell2

    U = x[None, :] - S  # (N, d); centred at x, as the Gram-form distances want
    K, slope_R = np.empty((n, n)), UpperBlocks.empty(n)  # K: upper triangle only

    def fill_kernel_matrix() -> None:
        fill_kernel_and_slope(kernel, U, noise_var, K, slope_R)

    fill_kernel_matrix()
    L, _ = cholesky(K, overwrite=True, refill=fill_kernel_matrix)  # only triangular solves below

    r = np.sqrt(np.sum(U**2, axis=1)) / kernel.lengthscale
    slope_r = kernel.slope(r)
    Gt = scale * slope_r[:, None] * U  # (N, d) = G^T
    V = solve_lower(L, Gt)
    value = d * kernel.grad_grad_diag() - float(np.sum(V**2))
    if not with_grad:
        return value, None
    W = solve_lower(L, V, trans=True)  # K^{-1} G^T
    del L, V
    S1 = np.empty((n, d + 1))  # [S, 1]: A S and the row sums of A in one product
    S1[:, :d], S1[:, d] = S, 1.0
    AS1 = hadamard_gram_product(W, slope_R, S1)[n0:]  # A = (W W^T) o slope(R)
    Zs, Us, Ws = S[n0:], U[n0:], W[n0:]
    grad_design = (kernel.curve(r[n0:]) * np.sum(Us * Ws, axis=1) / ell2)[:, None] * Us
    grad_design += slope_r[n0:, None] * Ws
    grad_data = AS1[:, d:] * Zs - AS1[:, :d]
    return value, 2.0 * scale * (grad_design + grad_data)


def value_variance(
    kernel: Kernel, x: np.ndarray, Z: np.ndarray, noise_var: float, with_grad: bool = True
) -> tuple[float, np.ndarray | None]:
    """The posterior variance of f(x) after observing the design Z (no other data), and its
    gradient in Z.

        v(Z) = s2 - k^T K^{-1} k,   k = k(Z, x) (b,),  K = k(Z, Z) + noise_var I,
        d v / d z_j = -2 a_j s2 / l^2 [ slope(r_j) (z_j - x) - sum_l a_l slope(R_jl) (z_j - z_l) ]

    with a = K^{-1} k. Added to alpha_trace(x, Z | {}) it is the trace of the joint posterior
    covariance of (f(x), grad f(x)): the criterion the paper's code minimizes for a design with
    no data (`localbo.gradient_estimation`, criterion "joint"). Dense: for designs of a few
    points.

    Args:
        kernel: the GP's kernel. x: (d,) point. Z: (b, d) design. noise_var: its noise variance.
        with_grad: also return the gradient.

    Returns:
        (value, grad): the variance and its (b, d) gradient in Z (None if not asked).

    Example:
        >>> from localbo.kernels import Matern52
        >>> value, grad = value_variance(Matern52(), np.zeros(2), np.zeros((1, 2)), 1.0)
        >>> round(value, 12), grad.shape
        (0.5, (1, 2))
    """
    R = kernel.distance(Z, Z)
    K, slope_R = kernel.value_and_slope(R)
    K *= kernel.outputscale
    K[np.diag_indices_from(K)] += noise_var
    U = Z - x[None, :]  # (b, d)
    r = np.sqrt(np.sum(U**2, axis=1)) / kernel.lengthscale
    k_x, slope_r = kernel.value_and_slope(r)
    k_x = kernel.outputscale * k_x
    L, _ = cholesky(K)
    a = cho_solve(L, k_x)
    value = kernel.outputscale - float(k_x @ a)
    if not with_grad:
        return value, None
    A = a[:, None] * a[None, :] * slope_R  # a_j a_l slope(R_jl)
    within = A.sum(axis=1)[:, None] * Z - A @ Z  # sum_l a_j a_l slope(R_jl) (z_j - z_l)
    scale = 2.0 * kernel.outputscale / kernel.lengthscale**2
    return value, -scale * ((a * slope_r)[:, None] * U - within)
