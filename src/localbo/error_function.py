"""The error function E_{d,k,sigma}(b) (eq. 3 of the paper), its bounds and its estimate.

    E_{d,k,sigma}(b) = inf_{Z in R^{b x d}} alpha_trace(0, Z | {}),

the least trace of the posterior gradient covariance at the origin that b noisy observations can
buy. It is estimated by multi-start L-BFGS over the whole design Z with the analytic gradient of
`localbo.acquisition.gradient_trace`, started from the best finite-differencing design of
appendix D (so the estimate is never above that design's value), and compared with

* Lemma 2 (any kernel, sigma = 0):      E(b) <= C max(0, 1 + d - b), C = -d^2 phi(0);
* Lemma 3 (RBF):                        E(2md) <= d (1 + W(-m / (e (m + sigma^2))));
* Lemma 4 (Matern-5/2, appendix F):
      E(2md) <= d (15/2 sigma m^{-1/2} + 70/9 sigma^{3/2} m^{-3/4}),
      plotted as 15 sqrt(2) / 2 * sigma d^{3/2} b^{-1/2}.

The lemmas assume unit lengthscale and outputscale, as do the bound functions here.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import OptimizeResult, minimize, minimize_scalar
from scipy.special import lambertw

from localbo.acquisition import gradient_trace
from localbo.kernels import Kernel

log = logging.getLogger(__name__)

DESIGN_KINDS = ("central", "forward")
# L-BFGS-B settings of every design optimization (memory, relative decrease, projected gradient)
LBFGS_OPTIONS = {"maxcor": 20, "ftol": 1e-13, "gtol": 1e-10}


# --- closed-form bounds (unit hyperparameters) -------------------------------------------------


def noiseless_bound(kernel: Kernel, d: int, b: int) -> float:
    """Lemma 2: E_{d,k,0}(b) <= C max(0, 1 + d - b) with C the prior partial-derivative variance."""
    return kernel.grad_grad_diag() * max(0, 1 + d - b)


def rbf_lambertw_bound(d: int, m: float, sigma: float) -> float:
    """Lemma 3: bound on E_{d,RBF,sigma}(2 m d) via the principal branch of Lambert W."""
    return float(d * (1.0 + lambertw(-m / (np.e * (m + sigma**2))).real))


def matern_bound(d: int, m: float, sigma: float) -> float:
    """Lemma 4 with both terms of its proof (appendix): a bound on E_{d,Matern52,sigma}(2 m d)."""
    return d * (7.5 * sigma * m**-0.5 + (70.0 / 9.0) * sigma**1.5 * m**-0.75)


def matern_leading_bound(d: float, b: float, sigma: float) -> float:
    """The line the paper plots in Fig. 2: 15 sqrt(2) / 2 * sigma * d^{3/2} * b^{-1/2}."""
    return 7.5 * np.sqrt(2.0) * sigma * d**1.5 * b**-0.5


def paper_bound(kernel_name: str, d: int, b: int, sigma: float) -> float:
    """The bound drawn beside the estimate: Lemma 4's leading term for Matern-5/2, Lemma 3 with
    m = b / (2d) for RBF (noiseless: Lemma 2)."""
    if kernel_name == "matern52":
        return matern_leading_bound(d, b, sigma)
    if kernel_name == "rbf":
        return rbf_lambertw_bound(d, b / (2 * d), sigma)
    raise ValueError(f"no bound for kernel {kernel_name!r}")


# --- finite-differencing designs (appendix D) --------------------------------------------------


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


def differencing_design_value(
    kernel: Kernel, kind: str, d: int, b: int, noise_var: float
) -> DesignValue:
    """Exact alpha_trace(0, Z) of a differencing design, minimized over the step h.

    Repeated noisy observations of one point are equivalent to a single observation with the
    noise variance divided by the count, so the trace is computed on at most 2d unique points
    whatever b is.
    """
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


# --- the estimate ------------------------------------------------------------------------------


@dataclass
class ErrorFunctionEstimate:
    """Result of `estimate_error_function`.

    Attributes:
        value: the least trace found, an upper estimate of E_{d,k,sigma}(b).
        design: (b, d) the design attaining it.
        start_values: trace at each restart's starting design.
        restart_values: final trace of each restart.
        history: per L-BFGS iteration of every restart, rows (restart, iteration, trace).
        designs: the differencing designs with optimized steps.
        evaluations: objective+gradient evaluations over all restarts.
        seconds: wall time.
    """

    value: float
    design: np.ndarray
    start_values: list[float]
    restart_values: list[float]
    history: np.ndarray
    designs: list[DesignValue] = field(default_factory=list)
    evaluations: int = 0
    seconds: float = 0.0


def starting_designs(
    kernel: Kernel,
    d: int,
    b: int,
    noise_var: float,
    restarts: int,
    perturbation: float,
    rng: np.random.Generator,
) -> tuple[list[np.ndarray], list[DesignValue]]:
    """Starting designs for the restarts: jittered copies of the best differencing design.

    The better of the central and forward designs (optimal step) is the incumbent the estimate
    starts from, so the estimate is never worse than it. Started exactly there, L-BFGS would keep
    the repeated points tied by symmetry; each restart breaks the ties with Gaussian noise of
    `perturbation * step`.

    Returns:
        (starts, designs): `restarts` (b, d) starting designs, and the differencing designs with
        their optimized steps, the best first.
    """
    designs = [differencing_design_value(kernel, kind, d, b, noise_var) for kind in DESIGN_KINDS]
    designs.sort(key=lambda dv: dv.value)
    Z0 = incumbent_design(designs[0], d, b)
    noise = [rng.standard_normal(Z0.shape) for _ in range(restarts)]
    return [Z0 + perturbation * designs[0].step * e for e in noise], designs


def incumbent_design(design: DesignValue, d: int, b: int) -> np.ndarray:
    """The (b, d) differencing design with its optimized step."""
    P, counts = differencing_design(design.kind, d, b)
    return expand_design(P, counts, design.step)


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


def estimate_error_function(
    kernel: Kernel,
    d: int,
    b: int,
    sigma: float,
    rng: np.random.Generator,
    restarts: int = 2,
    max_iterations: int = 500,
    min_noise_var: float = 1e-10,
    perturbation: float = 0.3,
) -> ErrorFunctionEstimate:
    """Estimate E_{d,k,sigma}(b) by multi-start L-BFGS over the full (b, d) design.

    Args:
        kernel: kernel (the paper: unit Matern-5/2 for Fig. 2).
        d: dimension >= 1. b: batch size >= 1. sigma: noise standard deviation >= 0.
        rng: stream for the perturbed restarts.
        restarts: number of L-BFGS runs (>= 1).
        max_iterations: L-BFGS iteration cap per restart.
        min_noise_var: floor on the noise variance, so sigma = 0 stays factorizable without
            changing the objective between evaluations.
        perturbation: jitter of the restarts' starting designs, relative to the step.

    Returns:
        An `ErrorFunctionEstimate`.
    """
    if d < 1 or b < 1 or sigma < 0 or restarts < 1:
        raise ValueError(f"need d >= 1, b >= 1, sigma >= 0, restarts >= 1; got {d}, {b}, {sigma}")
    start_time = time.perf_counter()
    noise_var = max(sigma**2, min_noise_var)
    starts, designs = starting_designs(kernel, d, b, noise_var, restarts, perturbation, rng)
    history: list[np.ndarray] = []
    best_value, best_design = designs[0].value, incumbent_design(designs[0], d, b)
    start_values, restart_values, evaluations = [], [], 0
    for restart, Z0 in enumerate(starts):
        run = minimize_trace(kernel, Z0, noise_var, max_iterations)
        log.info("restart %d: %.6g -> %.6g", restart, run.trace[0], run.value)
        start_values.append(float(run.trace[0]))
        restart_values.append(run.value)
        evaluations += run.evaluations
        steps = np.arange(len(run.trace))
        history.append(np.column_stack([np.full(len(steps), restart), steps, run.trace]))
        if run.value < best_value:
            best_value, best_design = run.value, run.design

    return ErrorFunctionEstimate(
        value=best_value,
        design=best_design,
        start_values=start_values,
        restart_values=restart_values,
        history=np.vstack(history),
        designs=designs,
        evaluations=evaluations,
        seconds=time.perf_counter() - start_time,
    )
