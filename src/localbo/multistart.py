"""Maximize an acquisition over a box: the best of uniform raw points, refined by L-BFGS-B.

The search MPD's and MinUCB's samplers share: `raw_samples` uniform points in [lower, upper],
the `restarts` best of them each refined by its own L-BFGS-B run with the analytic gradient,
and the best point seen (a raw point or a refined one, clipped to the box) returned. Both
reference codes call botorch's `optimize_acqf` instead, which refines its starts jointly, one
L-BFGS-B on the sum of their values (docs/methods.md says what that changes).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np


class Acquisition(Protocol):
    """What `maximize` needs of an acquisition."""

    def values(self, Z: np.ndarray) -> np.ndarray:
        """The acquisition at (m, d) points; returns (m,)."""
        ...

    def __call__(self, z: np.ndarray) -> tuple[float, np.ndarray]:
        """Its value at a (d,) point and its (d,) gradient."""
        ...


def maximize(
    acquisition: Acquisition,
    lower: np.ndarray,
    upper: np.ndarray,
    rng: np.random.Generator,
    restarts: int,
    raw_samples: int,
    max_iterations: int | None = None,
) -> np.ndarray:
    """The (d,) point of [lower, upper] with the largest acquisition found.

    Args:
        acquisition: `values` at a batch, value and gradient at a point.
        lower, upper: (d,) the box. rng: the stream of the raw points (one (raw_samples, d)
            uniform draw). restarts: the raw points refined. raw_samples: the raw points.
        max_iterations: L-BFGS-B's cap on a refinement's iterations (None: scipy's default).
    """
    from scipy.optimize import Bounds, minimize

    raw = lower + (upper - lower) * rng.random((raw_samples, len(lower)))
    values = acquisition.values(raw)
    best_z, best_value = raw[np.argmax(values)], float(values.max())

    def negated(z: np.ndarray) -> tuple[float, np.ndarray]:
        value, gradient = acquisition(z)
        return -value, -gradient

    bounds = Bounds(lower, upper)  # made once, not from a list of pairs in every run
    options = {} if max_iterations is None else {"options": {"maxiter": max_iterations}}
    for i in np.argsort(-values, kind="stable")[:restarts]:
        res = minimize(
            negated,
            raw[i],
            jac=True,
            method="L-BFGS-B",
            bounds=bounds,
            **options,
        )
        if -res.fun > best_value:
            best_z, best_value = np.clip(res.x, lower, upper), float(-res.fun)
    return best_z
