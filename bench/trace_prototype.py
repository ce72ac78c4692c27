"""Prototype of a faster `localbo.acquisition.gradient_trace` (X_data = None, Matern-5/2 or RBF),
and a stage-by-stage timer of the library version. Bench only: src/ is not touched.

Differences from the library (same math, same numbers to ~1e-13):

1. K is built in place in the cdist output buffer: no division by a unit lengthscale, no
   multiplication by a unit outputscale, and the Matern profiles computed with in-place ufuncs
   (2 b x b buffers instead of ~6 fresh temporaries, so no page faults on fresh 8 b^2-byte arrays).
2. The Cholesky is LAPACK dpotrf called in place on the F-ordered view K.T (K is symmetric):
   no copy of K and no zeroing of the upper triangle (`clean=0`); potrf touches only the lower
   triangle, so after a failure the matrix is restored from the untouched upper triangle and
   retried with jitter (the library's escalation schedule, not shown here).
3. A = (W W^T) * slope_R is reduced with one GEMM against [S, 1] (row sums and A S in one pass).
"""

from __future__ import annotations

import time

import numpy as np
import scipy.linalg as sla
from scipy.linalg.lapack import dpotrf
from scipy.spatial.distance import cdist

from localbo.kernels import RBF, SQRT5, Kernel, Matern52
from localbo.linalg import cholesky, solve_lower


def _profiles_inplace(kernel: Kernel, R: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, slope) of the kernel's profile, value written into R's buffer."""
    if isinstance(kernel, Matern52):
        E = np.multiply(R, -SQRT5)
        np.exp(E, out=E)  # e = exp(-sqrt5 r)
        T = np.multiply(R, SQRT5)
        T += 1.0
        T *= E  # (1 + sqrt5 r) e
        R *= R
        R *= E
        del E
        R *= 5.0 / 3.0
        R += T  # value = (1 + sqrt5 r + 5/3 r^2) e
        T *= -5.0 / 3.0  # slope
        return R, T
    if isinstance(kernel, RBF):
        R *= R
        R *= -0.5
        np.exp(R, out=R)
        return R, -R
    v, s = kernel.value_and_slope(R)
    return v, s


def gradient_trace_fast(kernel: Kernel, x: np.ndarray, Z: np.ndarray, noise_var: float):
    d = x.shape[0]
    S = Z
    ell2 = kernel.lengthscale**2
    scale = kernel.outputscale / ell2

    R = cdist(S, S)
    if kernel.lengthscale != 1.0:
        R /= kernel.lengthscale
    K, slope_R = _profiles_inplace(kernel, R)
    if kernel.outputscale != 1.0:
        K *= kernel.outputscale
    K.flat[:: K.shape[0] + 1] += noise_var
    # in-place Cholesky on the Fortran view; lower factor in the lower triangle of K.T
    Lf, info = dpotrf(K.T, lower=1, overwrite_a=1, clean=0)
    if info != 0:
        raise np.linalg.LinAlgError("prototype: not positive definite (library would add jitter)")

    U = x[None, :] - S
    r = np.sqrt(np.sum(U**2, axis=1)) / kernel.lengthscale
    slope_r = kernel.slope(r)
    Gt = scale * slope_r[:, None] * U
    V = sla.solve_triangular(Lf, Gt, lower=True, check_finite=False)
    value = d * kernel.grad_grad_diag() - float(np.sum(V**2))
    W = sla.solve_triangular(Lf, V, lower=True, trans="T", check_finite=False)
    del Lf, K, R
    A = W @ W.T
    A *= slope_R
    del slope_R
    S1 = np.empty((S.shape[0], d + 1))
    S1[:, :d] = S
    S1[:, d] = 1.0
    AS1 = A @ S1
    grad_design = (kernel.curve(r) * np.sum(U * W, axis=1) / ell2)[:, None] * U
    grad_design += slope_r[:, None] * W
    grad_data = AS1[:, d : d + 1] * S - AS1[:, :d]
    return value, 2.0 * scale * (grad_design + grad_data)


def stage_times(kernel: Kernel, x: np.ndarray, Z: np.ndarray, noise_var: float) -> dict:
    """Wall seconds of each stage of the library's gradient_trace (same code, timers between)."""
    t = {}
    c = time.perf_counter
    t0 = c()
    d = x.shape[0]
    S = Z
    ell2 = kernel.lengthscale**2
    scale = kernel.outputscale / ell2
    R = kernel.distance(S, S)
    t["distance (cdist, /l)"] = c() - t0
    t0 = c()
    K, slope_R = kernel.value_and_slope(R)
    del R
    K *= kernel.outputscale
    K[np.diag_indices_from(K)] += noise_var
    t["kernel profiles, *s2, +noise"] = c() - t0
    t0 = c()
    L, _ = cholesky(K)
    del K
    t["cholesky (checks, copy, potrf, clean)"] = c() - t0
    t0 = c()
    U = x[None, :] - S
    r = np.sqrt(np.sum(U**2, axis=1)) / kernel.lengthscale
    slope_r = kernel.slope(r)
    Gt = scale * slope_r[:, None] * U
    V = solve_lower(L, Gt)
    value = d * kernel.grad_grad_diag() - float(np.sum(V**2))
    W = sla.solve_triangular(L, V, lower=True, trans="T", check_finite=False)
    del L, V
    t["two triangular solves (d rhs)"] = c() - t0
    t0 = c()
    A = W @ W.T
    t["A = W W^T"] = c() - t0
    t0 = c()
    A *= slope_R
    del slope_R
    t["A *= slope_R"] = c() - t0
    t0 = c()
    Us, Ws = U, W
    grad_design = (kernel.curve(r) * np.sum(Us * Ws, axis=1) / ell2)[:, None] * Us
    grad_design += slope_r[:, None] * Ws
    grad_data = np.sum(A, axis=1)[:, None] * S - A @ S
    _ = (value, 2.0 * scale * (grad_design + grad_data))
    t["row sums + A S + rest"] = c() - t0
    return t
