"""Designs: the points whose observations estimate a gradient, and how they are optimized.

A design Z of b points around x is scored by alpha_trace(x, Z | D) (eq. 2 of the paper), the trace
of the posterior covariance of grad f(x) after observing Z. Three users share the code here:

* local BO (`localbo.methods.local_bo`) picks a design around every iterate;
* the error function (`localbo.error_function`) is the least trace any design of b points buys;
* gradient estimation of non-smooth functions (`localbo.gradient_estimation`) designs n queries.

The finite-differencing designs of appendix B (central: +-h e_i; forward: the origin and h e_i,
each point repeated round-robin) are the starting points of every design optimization, with the
step h optimized exactly. Repeated noisy observations of one point are equivalent to one
observation with the noise variance divided by the count, so a `Design` stores unique offsets and
their counts.

References:
    the paper, eq. (2), Lemma 2 and appendix B; Mueller et al. (2021), GIBO.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from localbo.acquisition import gradient_trace
from localbo.io import load_npz, save_npz
from localbo.kernels import Kernel

if TYPE_CHECKING:
    from scipy.optimize import OptimizeResult

log = logging.getLogger(__name__)

DESIGN_KINDS = ("central", "forward")
# L-BFGS-B settings of every design optimization (memory, relative decrease, projected gradient)
LBFGS_OPTIONS = {"maxcor": 20, "ftol": 1e-13, "gtol": 1e-10}


@dataclass(frozen=True)
class Design:
    """A design relative to the point x: unique offsets and how often each is evaluated.

    Attributes:
        offsets: (p, d) unique points relative to x (row 0 is the zero offset when x itself is
            part of the design).
        counts: (p,) evaluations per offset; their sum is the batch size.
        value: alpha_trace(x, x + offsets | D) with noise variance noise_var / counts.
        includes_center: whether row 0 is x itself, pinned there (a design without the flag may
            still have a zero offset that its optimizer is free to move).
    """

    offsets: np.ndarray
    counts: np.ndarray
    value: float
    includes_center: bool

    @property
    def size(self) -> int:
        return int(self.counts.sum())

    def points(self, x: np.ndarray) -> np.ndarray:
        """(p, d) unique points around x."""
        return x[None, :] + self.offsets

    def save(self, path: str | Path) -> None:
        save_npz(
            path,
            offsets=self.offsets,
            counts=self.counts,
            value=self.value,
            includes_center=self.includes_center,
        )

    @classmethod
    def load(cls, path: str | Path) -> Design:
        data = load_npz(path)
        return cls(
            data["offsets"], data["counts"], float(data["value"]), bool(data["includes_center"])
        )


# --- finite-differencing designs (appendix B) --------------------------------------------------


def differencing_design(kind: str, d: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Unique points of a differencing design with unit step, and how often each is repeated.

    "central": the 2d points +-e_i, the b evaluations dealt round-robin over (axis, sign), so
    b = 2md gives m copies of each (Lemma D.3). "forward": the origin and the d points e_i, dealt
    round-robin over those d + 1 points, so b = (d + 1) m gives m copies of each (Lemma D.5).

    Returns:
        (P, counts): (p, d) unique points (those with a positive count) and (p,) counts summing
        to b. Scale P by h to get the design with step h.
    """
    if kind == "central":
        P = np.vstack([np.eye(d), -np.eye(d)])
        slot = np.arange(b) // 2 % d + d * (np.arange(b) % 2)
    elif kind == "forward":
        P = np.vstack([np.zeros((1, d)), np.eye(d)])
        slot = np.arange(b) % (d + 1)
    else:
        raise ValueError(f"unknown design kind {kind!r}; known: {DESIGN_KINDS}")
    counts = np.bincount(slot, minlength=P.shape[0])
    keep = counts > 0
    return P[keep], counts[keep]


def expand_design(P: np.ndarray, counts: np.ndarray, h: float) -> np.ndarray:
    """The (b, d) design with each unique point of step h repeated counts times."""
    return np.repeat(h * P, counts, axis=0)


@dataclass(frozen=True)
class DesignValue:
    """A differencing design with its step optimized: the exact trace and the step."""

    kind: str
    value: float
    step: float

    def expanded(self, d: int, b: int) -> np.ndarray:
        """The (b, d) design with this step."""
        P, counts = differencing_design(self.kind, d, b)
        return expand_design(P, counts, self.step)


def differencing_design_value(
    kernel: Kernel, kind: str, d: int, b: int, noise_var: float
) -> DesignValue:
    """Exact alpha_trace(0, Z) of a differencing design, minimized over the step h.

    The trace is computed on at most 2d unique points whatever b is (repeats divide the noise).
    """
    from scipy.optimize import minimize_scalar

    P, counts = differencing_design(kind, d, b)
    origin = np.zeros(d)
    noise = noise_var / counts

    def trace_at(log_h: float) -> float:
        return gradient_trace(kernel, origin, np.exp(log_h) * P, noise, with_grad=False)[0]

    ell = np.log(kernel.lengthscale)
    grid = ell + np.linspace(np.log(1e-4), np.log(3.0), 41)
    values = [trace_at(g) for g in grid]
    i = int(np.argmin(values))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    res = minimize_scalar(trace_at, bounds=(lo, hi), method="bounded", options={"xatol": 1e-6})
    best_log_h, best = (res.x, res.fun) if res.fun < values[i] else (grid[i], values[i])
    return DesignValue(kind=kind, value=float(best), step=float(np.exp(best_log_h)))


def best_differencing_design(
    kernel: Kernel, d: int, b: int, noise_var: float, kinds: tuple[str, ...] = DESIGN_KINDS
) -> list[DesignValue]:
    """The differencing designs of `kinds` with optimized steps, the least trace first."""
    designs = [differencing_design_value(kernel, kind, d, b, noise_var) for kind in kinds]
    return sorted(designs, key=lambda dv: dv.value)


# --- L-BFGS over a whole design ----------------------------------------------------------------


@dataclass(frozen=True)
class TraceRun:
    """One L-BFGS run on alpha_trace(x, Z | D): final design and value, trace per iteration."""

    design: np.ndarray
    value: float
    trace: np.ndarray
    evaluations: int


def minimize_trace(
    kernel: Kernel,
    Z0: np.ndarray,
    noise_var: float,
    max_iterations: int,
    x: np.ndarray | None = None,
    X_data: np.ndarray | None = None,
    noise_data: np.ndarray | None = None,
) -> TraceRun:
    """Minimize alpha_trace(x, Z | D) over the (b, d) design Z by L-BFGS from Z0.

    With the defaults (x the origin, no data) this is the objective of the error function; local
    BO passes its iterate and earlier data. The returned value is never above the starting
    value. Progress is logged every 25 iterations so long jobs show where they are.

    Args:
        kernel: the GP's kernel. Z0: (b, d) start. noise_var: noise variance of each point of Z.
        max_iterations: L-BFGS iteration cap.
        x: (d,) point whose gradient is estimated (default: the origin).
        X_data: (n, d) data inputs D (None: no data). noise_data: (n,) their noise variances.
    """
    from scipy.optimize import minimize

    b, d = Z0.shape
    x = np.zeros(d) if x is None else x
    noise = noise_var if X_data is None else np.concatenate([noise_data, np.full(b, noise_var)])
    evaluations = 0
    trace: list[float] = []  # L-BFGS-B's first evaluation is the start: trace[0]

    def objective(z: np.ndarray) -> tuple[float, np.ndarray]:
        nonlocal evaluations
        evaluations += 1
        value, grad = gradient_trace(kernel, x, z.reshape(b, d), noise, X_data)
        if not trace:
            trace.append(value)
        return value, grad.ravel()

    if Z0.size == 0:  # nothing to move, and L-BFGS-B would report 0 for an empty x
        value = objective(Z0.ravel())[0]
        return TraceRun(design=Z0.copy(), value=value, trace=np.asarray(trace), evaluations=1)

    def record(intermediate_result: OptimizeResult) -> None:
        trace.append(float(intermediate_result.fun))
        if len(trace) % 25 == 0:
            log.info("iteration %d trace %.6g", len(trace) - 1, trace[-1])

    res = minimize(
        objective,
        Z0.ravel(),
        jac=True,
        method="L-BFGS-B",
        callback=record,
        options={"maxiter": max_iterations, **LBFGS_OPTIONS},
    )
    if res.fun < trace[0]:
        design, value = res.x.reshape(b, d), float(res.fun)
    else:
        design, value = Z0.copy(), trace[0]
    return TraceRun(design=design, value=value, trace=np.asarray(trace), evaluations=evaluations)


# --- the design of one gradient estimate -------------------------------------------------------


def optimal_design(
    kernel: Kernel,
    d: int,
    b: int,
    noise_var: float,
    include_center: bool,
    rng: np.random.Generator,
    max_iterations: int,
    optimize_max_b: int,
    perturbation: float,
    center: np.ndarray | None = None,
) -> Design:
    """The design of b evaluations minimizing alpha_trace(x, Z | {}) (offsets around x).

    Starts from the best finite-differencing design with optimal step (forward differences if
    the center is part of the design, else the better of central and forward), jitters it to
    break ties between repeated points, and refines all non-center points by L-BFGS when
    b <= optimize_max_b. The result is never worse than the start.

    Args:
        kernel: stationary kernel. d: dimension. b: evaluations in the batch (with the center).
        noise_var: observation noise variance (with the nugget).
        include_center: the iterate is evaluated as one of the b points (sigma = 0 driver).
        rng: stream for the jitter.
        max_iterations: L-BFGS iterations (0 keeps the differencing design).
        optimize_max_b: larger batches keep the differencing design (an L-BFGS over b x d
            variables costs O(b^3) per step).
        perturbation: jitter of the start, relative to the differencing step.
        center: (d,) the point x whose gradient is estimated (default: the origin). For a
            stationary kernel the offsets do not depend on it, which local BO's design cache
            exploits; the argument exists to test exactly that.
    """
    kinds = ("forward",) if include_center else DESIGN_KINDS
    best = best_differencing_design(kernel, d, b, noise_var, kinds)[0]
    unit, counts = differencing_design(best.kind, d, b)
    start = Design(best.step * unit, counts, best.value, include_center)
    if b > optimize_max_b or max_iterations == 0:
        return start
    x = np.zeros(d) if center is None else np.asarray(center, dtype=float)
    if include_center:  # forward design: row 0 is the origin
        center_count = int(counts[0])
        Z0 = expand_design(unit[1:], counts[1:], best.step)
        X_data, noise_data = x[None, :], np.array([noise_var / center_count])
    else:
        Z0, X_data, noise_data = expand_design(unit, counts, best.step), None, None
    Z0 = x + Z0 + perturbation * best.step * rng.standard_normal(Z0.shape)
    run = minimize_trace(kernel, Z0, noise_var, max_iterations, x, X_data, noise_data)
    if run.value >= best.value:
        return start
    Z = run.design - x
    if include_center:
        offsets = np.vstack([np.zeros((1, d)), Z])
        new_counts = np.concatenate([[center_count], np.ones(len(Z), dtype=int)])
    else:
        offsets, new_counts = Z, np.ones(len(Z), dtype=int)
    return Design(offsets, new_counts, run.value, include_center)


def single_points(Z: np.ndarray, value: float) -> Design:
    """A design of the (n, d) offsets Z, each evaluated once, around x (not containing x)."""
    return Design(Z, np.ones(len(Z), dtype=int), value, includes_center=False)
