"""Central finite differences, the reference every analytic gradient is checked against."""

from collections.abc import Callable

import numpy as np


def central_difference(
    f: Callable[[np.ndarray], float], x: np.ndarray, h: float = 1e-6
) -> np.ndarray:
    """Gradient of a scalar function of an array by central differences; same shape as x."""
    grad = np.zeros_like(x, dtype=float)
    for idx in np.ndindex(x.shape):
        xp, xm = x.copy(), x.copy()
        xp[idx] += h
        xm[idx] -= h
        grad[idx] = (f(xp) - f(xm)) / (2 * h)
    return grad


def assert_gradient_close(analytic: np.ndarray, numeric: np.ndarray, rtol: float = 1e-6) -> None:
    """Relative agreement in the max norm, scaled by the larger of the two gradients."""
    scale = max(np.max(np.abs(analytic)), np.max(np.abs(numeric)), 1e-12)
    err = np.max(np.abs(analytic - numeric)) / scale
    assert err < rtol, f"relative gradient error {err:.2e} >= {rtol:.0e}"
