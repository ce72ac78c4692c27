"""The gradient estimate of one local-BO step: evaluate a design around x, return grad mu_D(x).

For a stationary kernel and no data reused from earlier iterations, alpha_trace(x, x + Z' | {})
does not depend on x, so the optimal offsets Z' are computed once per batch size and translated to
each iterate (`DesignCache`, an exact shortcut), and so is the linear map from the observations to
grad mu_D(x) (`design_gradient_weights`). With `data_window > 0` the previous batches enter D and
the design is re-optimized at every iteration, starting from the cached one.

Repeated points: for large batches the design is a finite-differencing design (appendix B) with
each point repeated m times. Every copy is a separate noisy evaluation; the GP sees one point with
the mean observation and noise variance sigma^2 / m, which is the same posterior.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

from localbo.designs import Design, minimize_trace, optimal_design
from localbo.kernels import Kernel
from localbo.linalg import cho_solve, cholesky
from localbo.methods.local_bo.settings import LocalBOSettings
from localbo.objective import NoisyObjective


@dataclass
class DesignCache:
    """Optimal designs by batch size for one (kernel, d, noise): computed once, then translated.

    Valid because alpha_trace(x, x + Z' | {}) does not depend on x for a stationary kernel.
    """

    kernel: Kernel
    d: int
    noise_var: float
    include_center: bool
    rng: np.random.Generator
    settings: LocalBOSettings
    designs: dict[int, Design] = field(default_factory=dict)
    gradient_maps: dict[int, np.ndarray] = field(default_factory=dict)

    def get(self, b: int) -> Design:
        if b not in self.designs:
            self.designs[b] = optimal_design(
                self.kernel,
                self.d,
                b,
                self.noise_var,
                self.include_center,
                self.rng,
                **self.settings.design_options(),
            )
        return self.designs[b]

    def weights(self, b: int) -> np.ndarray:
        """The gradient map of the design of b evaluations (`design_gradient_weights`)."""
        if b not in self.gradient_maps:
            self.gradient_maps[b] = design_gradient_weights(
                self.kernel, self.get(b), self.noise_var
            )
        return self.gradient_maps[b]


def gradient_weights(kernel: Kernel, x: np.ndarray, X: np.ndarray, noise: np.ndarray) -> np.ndarray:
    """The linear map from observations to grad mu_D(x) of the zero-mean GP on inputs X.

    Args:
        x: (d,) point. X: (n, d) inputs. noise: (n,) noise variances.

    Returns:
        (d, n) matrix W = G(x) K^{-1} with grad mu_D(x) = W y. For a design of fixed offsets
        around x it does not depend on x (stationary kernel), so a run computes it once.
    """
    K = kernel(X, X)
    K[np.diag_indices_from(K)] += noise
    L, _ = cholesky(K)
    return cho_solve(L, kernel.grad_x(x, X).T).T


def design_gradient_weights(kernel: Kernel, design: Design, noise_var: float) -> np.ndarray:
    """`gradient_weights` of a design's unique points (noise_var / count each) around any x."""
    origin = np.zeros(design.offsets.shape[1])
    return gradient_weights(kernel, origin, design.offsets, noise_var / design.counts)


def posterior_gradient_mean(
    kernel: Kernel, x: np.ndarray, X: np.ndarray, y: np.ndarray, noise: np.ndarray
) -> np.ndarray:
    """grad mu_D(x) of the zero-mean GP given (X, y) with per-point noise variances.

    Args:
        x: (d,) point. X: (n, d) inputs. y: (n,) observations. noise: (n,) noise variances.

    Returns:
        (d,) posterior mean of grad f(x).
    """
    return gradient_weights(kernel, x, X, noise) @ y


@dataclass
class Batch:
    """One evaluated design: unique points, mean observation and noise variance of each."""

    X: np.ndarray
    y: np.ndarray
    noise: np.ndarray


def evaluate_design(
    objective: NoisyObjective, x: np.ndarray, design: Design, noise_var: float
) -> Batch:
    """Evaluate every copy of every design point around x (design.size evaluations)."""
    y_mean = objective.observe_design(x, design.offsets, design.counts)
    return Batch(design.points(x), y_mean, noise_var / design.counts)


def _stack(batches: list[Batch]) -> Batch:
    return Batch(
        np.vstack([b.X for b in batches]),
        np.concatenate([b.y for b in batches]),
        np.concatenate([b.noise for b in batches]),
    )


def _design_with_data(
    kernel: Kernel,
    x: np.ndarray,
    design: Design,
    noise_var: float,
    past: Batch,
    settings: LocalBOSettings,
) -> Design:
    """Re-optimize the cached design at x given earlier batches (data_window > 0)."""
    if design.size > settings.design_optimize_max_b or np.any(
        design.counts[design.includes_center :] > 1
    ):
        return design
    first = 1 if design.includes_center else 0
    X_data, noise_data = past.X, past.noise
    if design.includes_center:
        X_data = np.vstack([X_data, x[None, :]])
        noise_data = np.concatenate([noise_data, [noise_var / design.counts[0]]])
    run = minimize_trace(
        kernel,
        x[None, :] + design.offsets[first:],
        noise_var,
        settings.design_max_iterations,
        x,
        X_data,
        noise_data,
    )
    Z, value = run.design, run.value
    return Design(
        np.vstack([design.offsets[:first], Z - x]), design.counts, value, design.includes_center
    )


def observe_gradient(
    objective: NoisyObjective,
    kernel: Kernel,
    x: np.ndarray,
    design: Design,
    weights: np.ndarray,
    noise_var: float,
    past: deque[Batch],
    settings: LocalBOSettings,
) -> tuple[Batch, np.ndarray]:
    """One step of Algorithm 1 before the move: evaluate a design around x, estimate grad f(x).

    Without earlier data the estimate is `weights @ y`, the design's precomputed gradient map
    (`design_gradient_weights`). With earlier batches in `past` (data_window > 0) the design is
    re-optimized given them and the GP is conditioned on everything.

    Returns:
        (batch, grad): the evaluated batch and the (d,) posterior mean of grad f(x).
    """
    if past:
        design = _design_with_data(kernel, x, design, noise_var, _stack(list(past)), settings)
        batch = evaluate_design(objective, x, design, noise_var)
        data = _stack([*past, batch])
        grad = posterior_gradient_mean(kernel, x, data.X, data.y, data.noise)
    else:
        batch = evaluate_design(objective, x, design, noise_var)
        grad = weights @ batch.y
    if settings.data_window > 0:
        past.append(batch)
    return batch, grad
