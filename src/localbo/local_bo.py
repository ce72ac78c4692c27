"""Local Bayesian optimization: Algorithm 1 of the paper (GIBO with a batch-size schedule).

Each iteration t picks a design Z (b_t points) around the iterate x_t by minimizing
alpha_trace(x_t, Z | D) (eq. 2) with L-BFGS and the analytic gradient of
`localbo.acquisition.gradient_trace`, evaluates it, conditions the GP (known hyperparameters, the
kernel of the path, zero prior mean) and estimates the gradient by the posterior mean
grad mu_D(x_t). Two drivers use that estimate:

* sigma = 0 (`run_noiseless`): as in the paper, the estimates are passed to BFGS. One BFGS call
  at x costs b = d + 1 evaluations: x itself (whose exact value is the function value BFGS
  needs) and d design points chosen by minimizing alpha_trace(x, Z | {x}). By Lemma 2 of the
  paper E_{d,k,0}(d + 1) = 0, so the gradient is (up to the nugget) exact.
* sigma > 0 (`run_noisy`): projected gradient steps x_{t+1} = proj_X(x_t - eta_t g_t) on a box
  with a batch schedule b_t in {constant, d log^2 t, d t, d t^2} (section 5 of the paper) and
  either the fixed step g_t = grad mu or GIBO's normalized step g_t = grad mu / ||grad mu||.

Design cache (an exact shortcut): for a stationary kernel and no data reused from earlier
iterations, alpha_trace(x, x + Z' | {}) does not depend on x, so the optimal offsets Z' are
computed once per batch size and translated to each iterate. With `data_window > 0` the previous
batches enter D and the design is re-optimized at every iteration, starting from the cached one.

Repeated points: for large batches the design is a finite-differencing design (appendix D) with
each point repeated m times. Every copy is a separate noisy evaluation; the GP sees one point with
the mean observation and noise variance sigma^2 / m, which is the same posterior.

References:
    Mueller, von Rohr & Trimpe (2021), Local policy search with Bayesian optimization (GIBO);
    the paper: Algorithm 1, eq. (2), Lemma 2, section 5 (batch schedules), appendix D.
"""

from __future__ import annotations

import math
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from localbo.error_function import (
    DESIGN_KINDS,
    differencing_design,
    differencing_design_value,
    expand_design,
    minimize_trace,
)
from localbo.io import load_npz, save_npz
from localbo.kernels import Kernel
from localbo.linalg import cho_solve, cholesky
from localbo.objective import (
    Box,
    BudgetExhausted,
    NoisyObjective,
    OptimizationResult,
    Trace,
    finish,
)
from localbo.sample_paths import FourierSamplePath

BATCH_SCHEDULES = ("constant", "d_log2_t", "d_t", "d_t2")
STEP_RULES = ("fixed", "normalized")


@dataclass(frozen=True)
class LocalBOSettings:
    """Knobs of local BO (the pipeline's `fig1.local_bo` config section).

    Attributes:
        min_noise_var: nugget added to sigma^2 (keeps sigma = 0 factorizable).
        design_max_iterations: L-BFGS iterations when optimizing a design.
        design_optimize_max_b: batches larger than this use the best differencing design with
            optimal step, unoptimized (an L-BFGS over b x d variables would cost O(b^3) per step).
        design_perturbation: jitter of the design optimizer's start, relative to the step.
        bfgs_gtol: BFGS stops when the estimated gradient norm is below this (sigma = 0).
        schedule: batch schedule for sigma > 0, one of BATCH_SCHEDULES.
        batch_factor: b_t = ceil(batch_factor * d * g(t)), g = 1, max(1, ln^2 t), t, t^2.
        step_rule: "fixed" (eta * grad mu) or "normalized" (eta * grad mu / ||grad mu||, GIBO).
        step_size: eta.
        data_window: number of previous batches kept in the GP (0: each gradient from its own
            batch only, the design then comes from the cache).
    """

    min_noise_var: float = 1e-10
    design_max_iterations: int = 200
    design_optimize_max_b: int = 200
    design_perturbation: float = 0.1
    bfgs_gtol: float = 1e-6
    schedule: str = "constant"
    batch_factor: float = 1.0
    step_rule: str = "normalized"
    step_size: float = 0.25
    data_window: int = 0

    def __post_init__(self) -> None:
        if self.schedule not in BATCH_SCHEDULES:
            raise ValueError(f"unknown schedule {self.schedule!r}; known: {BATCH_SCHEDULES}")
        if self.step_rule not in STEP_RULES:
            raise ValueError(f"unknown step rule {self.step_rule!r}; known: {STEP_RULES}")


def batch_size(schedule: str, d: int, t: int, factor: float = 1.0) -> int:
    """b_t of a schedule at iteration t >= 1: ceil(factor * d * g(t)) and at least 1.

    g(t) = 1 ("constant"), max(1, ln^2 t) ("d_log2_t", floored so b_1 > 0), t ("d_t"),
    t^2 ("d_t2").
    """
    growth = {
        "constant": 1.0,
        "d_log2_t": max(1.0, math.log(t) ** 2),
        "d_t": float(t),
        "d_t2": float(t) ** 2,
    }[schedule]
    return max(1, math.ceil(factor * d * growth - 1e-9))


# --- designs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Design:
    """A design relative to the iterate: unique offsets and how often each is evaluated.

    Attributes:
        offsets: (p, d) unique points relative to x (row 0 is the zero offset when the iterate
            itself is part of the design).
        counts: (p,) evaluations per offset; their sum is the batch size.
        value: alpha_trace(x, x + offsets | {}) with noise variance noise_var / counts.
        includes_center: whether row 0 is x itself.
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


def optimal_design(
    kernel: Kernel,
    d: int,
    b: int,
    noise_var: float,
    include_center: bool,
    rng: np.random.Generator,
    settings: LocalBOSettings,
    center: np.ndarray | None = None,
) -> Design:
    """The design of b evaluations minimizing alpha_trace(x, Z | {}) (offsets around x).

    Starts from the best finite-differencing design with optimal step (forward differences if
    the center is part of the design, else the better of central and forward), jitters it to
    break ties between repeated points, and refines all non-center points by L-BFGS when
    b <= settings.design_optimize_max_b. The result is never worse than the start.

    Args:
        kernel: stationary kernel. d: dimension. b: evaluations in the batch (with the center).
        noise_var: observation noise variance (with the nugget).
        include_center: the iterate is evaluated as one of the b points (sigma = 0 driver).
        rng: stream for the jitter.
        settings: `LocalBOSettings`.
        center: (d,) the point x whose gradient is estimated (default: the origin). For a
            stationary kernel the offsets do not depend on it, which `DesignCache` exploits;
            the argument exists to test exactly that.
    """
    kinds = ("forward",) if include_center else DESIGN_KINDS
    best = min(
        (differencing_design_value(kernel, kind, d, b, noise_var) for kind in kinds),
        key=lambda dv: dv.value,
    )
    unit, counts = differencing_design(best.kind, d, b)
    P = best.step * unit
    start = Design(P, counts, best.value, include_center)
    if b > settings.design_optimize_max_b or settings.design_max_iterations == 0:
        return start
    x = np.zeros(d) if center is None else np.asarray(center, dtype=float)
    if include_center:  # forward design: row 0 is the origin
        center_count = int(counts[0])
        Z0 = expand_design(unit[1:], counts[1:], best.step)
        X_data, noise_data = x[None, :], np.array([noise_var / center_count])
    else:
        Z0, X_data, noise_data = expand_design(unit, counts, best.step), None, None
    Z0 = x + Z0 + settings.design_perturbation * best.step * rng.standard_normal(Z0.shape)
    run = minimize_trace(
        kernel, Z0, noise_var, settings.design_max_iterations, x, X_data, noise_data
    )
    Z, value = run.design, run.value
    if value >= best.value:
        return start
    Z = Z - x
    if include_center:
        offsets = np.vstack([np.zeros((1, d)), Z])
        new_counts = np.concatenate([[center_count], np.ones(len(Z), dtype=int)])
    else:
        offsets, new_counts = Z, np.ones(len(Z), dtype=int)
    return Design(offsets, new_counts, value, include_center)


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
                self.kernel, self.d, b, self.noise_var, self.include_center, self.rng, self.settings
            )
        return self.designs[b]

    def weights(self, b: int) -> np.ndarray:
        """The gradient map of the design of b evaluations (`design_gradient_weights`)."""
        if b not in self.gradient_maps:
            self.gradient_maps[b] = design_gradient_weights(
                self.kernel, self.get(b), self.noise_var
            )
        return self.gradient_maps[b]


# --- the gradient estimate ---------------------------------------------------------------------


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


def estimate_gradient(
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


# --- drivers -----------------------------------------------------------------------------------


def run_noiseless(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    settings: LocalBOSettings,
    design: Design,
) -> OptimizationResult:
    """Local BO with sigma = 0: BFGS driven by GP gradient estimates.

    Each BFGS call at x evaluates the design around x (b = design.size evaluations, x itself
    included), returns the exact f(x) and grad mu_D(x). The run stops when BFGS converges
    (estimated gradient norm below settings.bfgs_gtol, or no further decrease) or when the
    remaining budget cannot pay for one more call. Returned point: the evaluated iterate with the
    least value (observations are exact, so this is known to the optimizer).

    Args:
        objective: the noiseless objective (budget counted).
        kernel: kernel of the GP model (known hyperparameters).
        x0: (d,) start.
        settings: `LocalBOSettings` (min_noise_var, bfgs_gtol, data_window).
        design: a design that includes the center, e.g. from `DesignCache.get(d + 1)`.
    """
    if not design.includes_center:
        raise ValueError("the noiseless driver needs a design that includes the iterate")
    start_time = time.perf_counter()
    noise_var = objective.sigma**2 + settings.min_noise_var
    trace = Trace()
    trace.record(objective, x0)
    best = {"value": np.inf, "x": np.array(x0, dtype=float)}
    past: deque[Batch] = deque(maxlen=settings.data_window)
    weights = design_gradient_weights(kernel, design, noise_var)
    calls = 0

    def value_and_estimate(x: np.ndarray) -> tuple[float, np.ndarray]:
        nonlocal calls
        if objective.remaining < design.size:
            raise BudgetExhausted("budget cannot pay for another gradient")
        batch, grad = estimate_gradient(
            objective, kernel, x, design, weights, noise_var, past, settings
        )
        calls += 1
        value = float(batch.y[0])
        if value < best["value"]:
            best["value"], best["x"] = value, np.array(x, dtype=float)
        return value, grad

    def record(xk: np.ndarray) -> None:
        trace.record(objective, xk)

    try:
        res = minimize(
            value_and_estimate,
            np.array(x0, dtype=float),
            jac=True,
            method="BFGS",
            callback=record,
            options={"gtol": settings.bfgs_gtol, "maxiter": 10 * objective.budget + 10},
        )
        stop = "converged" if res.success else "bfgs: " + str(res.message)
    except BudgetExhausted:
        stop = "budget"
    x_final = best["x"]
    trace.record(objective, x_final)
    return finish(objective, x_final, trace, start_time, iterations=calls, stop=stop)


def run_noisy(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    settings: LocalBOSettings,
    designs: DesignCache,
) -> OptimizationResult:
    """Local BO with projected gradient steps (Algorithm 1 with a projection, paper eq. 4).

    Iterates until the budget is spent; the last batch is cut to the remaining budget. Returned
    point: the final iterate (the optimizer cannot see true values).

    Args:
        objective: the noisy objective. kernel: GP kernel (known hyperparameters).
        x0: (d,) start. box: the domain of the projection.
        settings: `LocalBOSettings` (schedule, batch_factor, step_rule, step_size, data_window).
        designs: cache of optimal designs without the center (its noise variance is the
            objective's sigma^2 plus the nugget).
    """
    start_time = time.perf_counter()
    d = x0.shape[0]
    noise_var = designs.noise_var
    x = box.project(np.array(x0, dtype=float))
    trace = Trace()
    trace.record(objective, x)
    past: deque[Batch] = deque(maxlen=settings.data_window)
    t = 0
    while objective.remaining > 0:
        t += 1
        b = min(batch_size(settings.schedule, d, t, settings.batch_factor), objective.remaining)
        _, g = estimate_gradient(
            objective, kernel, x, designs.get(b), designs.weights(b), noise_var, past, settings
        )
        if settings.step_rule == "normalized":
            norm = float(np.linalg.norm(g))
            g = g / norm if norm > 0 else g
        x = box.project(x - settings.step_size * g)
        trace.record(objective, x)
    return finish(objective, x, trace, start_time, iterations=t, stop="budget")


def local_bo(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: LocalBOSettings,
) -> OptimizationResult:
    """Algorithm 1: the BFGS driver for sigma = 0, projected gradient steps for sigma > 0.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's, hyperparameters known).
        x0: (d,) start. box: domain (used by the sigma > 0 projection).
        rng: the optimizer's own stream (design-optimizer jitter), not the noise stream.
        settings: `LocalBOSettings`.
    """
    d = x0.shape[0]
    noise_var = objective.sigma**2 + settings.min_noise_var
    noiseless = objective.sigma == 0
    cache = DesignCache(kernel, d, noise_var, noiseless, rng, settings)
    if noiseless:
        return run_noiseless(objective, kernel, x0, settings, cache.get(d + 1))
    return run_noisy(objective, kernel, x0, box, settings, cache)


def run_noiseless_local_bo(
    path: FourierSamplePath,
    kernel: Kernel,
    x0: np.ndarray,
    budget: int,
    design: Design | None = None,
    settings: LocalBOSettings | None = None,
    rng: np.random.Generator | None = None,
) -> OptimizationResult:
    """One noiseless local-BO run from x0 on a sample path (the building block of Figs. 1, 3).

    For many restarts on one path, compute the design once with
    `optimal_design(kernel, d, d + 1, settings.min_noise_var, True, rng, settings)` and pass it:
    it does not depend on the start.

    Args:
        path: the objective f. kernel: the GP model's kernel. x0: (d,) start.
        budget: evaluations allowed.
        design: design around the iterate including it (None: optimized here, needs rng).
        settings: `LocalBOSettings` (None: defaults).
        rng: stream for the design optimizer's jitter (only used when design is None).

    Example:
        >>> from localbo.kernels import RBF
        >>> from localbo.seeding import rng_for
        >>> f = FourierSamplePath.draw(RBF(), 2, 256, rng_for(0, "doc"))
        >>> res = run_noiseless_local_bo(f, RBF(), np.zeros(2), 300, rng=rng_for(0, "design"))
        >>> res.evaluations <= 300
        True
    """
    settings = settings or LocalBOSettings()
    d = x0.shape[0]
    if design is None:
        if rng is None:
            raise ValueError("pass a design or an rng to optimize one")
        design = optimal_design(kernel, d, d + 1, settings.min_noise_var, True, rng, settings)
    objective = NoisyObjective(path, 0.0, budget)
    return run_noiseless(objective, kernel, x0, settings, design)
