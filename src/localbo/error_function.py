"""The error function E_{d,k,sigma}(b) (eq. 3 of the paper), its bounds and its estimate.

    E_{d,k,sigma}(b) = inf_{Z in R^{b x d}} alpha_trace(0, Z | {}),

the least trace of the posterior gradient covariance at the origin that b noisy observations can
buy. It is estimated by multi-start L-BFGS over the whole design Z with the analytic gradient of
`localbo.acquisition.gradient_trace`, started from the best finite-differencing design of
appendix B (so the estimate is never above that design's value), and compared with

* Lemma 2 (any kernel, sigma = 0):      E(b) <= C max(0, 1 + d - b), C = -d^2 phi(0);
* Lemma 3 (RBF):                        E(2md) <= d (1 + W(-m / (e (m + sigma^2))))
                                                 <= d sqrt(2 sigma^2 / (m + sigma^2));
* Lemma 4 (Matern-5/2, appendix B):
      E(2md) <= d (15/2 sigma m^{-1/2} + 70/9 sigma^{3/2} m^{-3/4}),
      plotted as 15 sqrt(2) / 2 * sigma d^{3/2} b^{-1/2}.

The lemmas assume unit lengthscale and outputscale, as do the bound functions here.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

import numpy as np
from scipy.special import lambertw

from localbo.designs import DesignValue, best_differencing_design, minimize_trace
from localbo.kernels import Kernel
from localbo.settings_checks import require

log = logging.getLogger(__name__)


# --- closed-form bounds (unit hyperparameters) -------------------------------------------------


def noiseless_bound(kernel: Kernel, d: int, b: int) -> float:
    """Lemma 2: E_{d,k,0}(b) <= C max(0, 1 + d - b) with C the prior partial-derivative variance."""
    return kernel.grad_grad_diag() * max(0, 1 + d - b)


def rbf_lambertw_bound(d: int, m: float, sigma: float) -> float:
    """Lemma 3: bound on E_{d,RBF,sigma}(2 m d) via the principal branch of Lambert W."""
    return float(d * (1.0 + lambertw(-m / (np.e * (m + sigma**2))).real))


def rbf_taylor_bound(d: int, m: float, sigma: float) -> float:
    """Lemma 3's O(sigma d m^{-1/2}) form: 1 + W(x) <= sqrt(2 (1 + e x)) at x = -m / (e (m +
    sigma^2)) (the paper's appendix lemma on W), so E(2md) <= d sqrt(2 sigma^2 / (m + sigma^2))."""
    return float(d * np.sqrt(2.0 * sigma**2 / (m + sigma**2)))


def rbf_pairs(d: int, b: int) -> int:
    """The m of Lemma 3 a batch of b evaluations pays for: floor(b / (2d)) copies of the 2d
    central points. The bound at 2md also bounds E(b), which never increases with b (a design
    of b points may repeat one of 2md); 0 means no bound."""
    return b // (2 * d)


def matern_bound(d: int, m: float, sigma: float) -> float:
    """Lemma 4 with both terms of its proof (appendix): a bound on E_{d,Matern52,sigma}(2 m d)."""
    return d * (7.5 * sigma * m**-0.5 + (70.0 / 9.0) * sigma**1.5 * m**-0.75)


def matern_leading_bound(d: float, b: float, sigma: float) -> float:
    """The line the paper plots in Fig. 2: 15 sqrt(2) / 2 * sigma * d^{3/2} * b^{-1/2}."""
    return 7.5 * np.sqrt(2.0) * sigma * d**1.5 * b**-0.5


# the lemma `paper_bound` draws for each kernel, as a figure's legend names it
PAPER_BOUND_LEMMAS = {"matern52": "Lemma 4", "rbf": "Lemma 3"}


def paper_bound(kernel_name: str, d: int, b: int, sigma: float) -> float:
    """The bound drawn beside the estimate: Lemma 4's leading term for Matern-5/2, Lemma 3 with
    m = `rbf_pairs(d, b)` for RBF (NaN when b < 2d)."""
    if kernel_name == "matern52":
        return matern_leading_bound(d, b, sigma)
    if kernel_name == "rbf":
        m = rbf_pairs(d, b)
        return rbf_lambertw_bound(d, m, sigma) if m > 0 else float("nan")
    raise ValueError(f"no bound for kernel {kernel_name!r}")


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
    designs = best_differencing_design(kernel, d, b, noise_var)
    Z0 = designs[0].expanded(d, b)
    noise = [rng.standard_normal(Z0.shape) for _ in range(restarts)]
    return [Z0 + perturbation * designs[0].step * e for e in noise], designs


@dataclass(frozen=True)
class ErrorFunctionSettings:
    """Knobs of the estimate of E_{d,k,sigma}(b) (the pipeline's `fig2` section holds these).

    Attributes:
        restarts: L-BFGS runs, each from a jittered copy of the best differencing design.
        max_iterations: L-BFGS iteration cap per restart.
        min_noise_var: floor on the noise variance, so sigma = 0 stays factorizable without
            changing the objective between evaluations (a nugget).
        perturbation: jitter of the restarts' starting designs, relative to the design's step.
    """

    restarts: int = 2
    max_iterations: int = 300
    min_noise_var: float = 1e-10
    perturbation: float = 0.3

    def __post_init__(self) -> None:
        require(self, lambda v: v >= 1, ">= 1", "restarts")
        require(self, lambda v: v >= 0, ">= 0", "max_iterations")
        require(self, lambda v: v > 0, "> 0", "min_noise_var", "perturbation")


def estimate_error_function(
    kernel: Kernel,
    d: int,
    b: int,
    sigma: float,
    rng: np.random.Generator,
    settings: ErrorFunctionSettings | None = None,
) -> ErrorFunctionEstimate:
    """Estimate E_{d,k,sigma}(b) by multi-start L-BFGS over the full (b, d) design.

    Args:
        kernel: kernel (the paper: unit Matern-5/2 for Fig. 2).
        d: dimension >= 1. b: batch size >= 1. sigma: noise standard deviation >= 0.
        rng: stream for the perturbed restarts.
        settings: `ErrorFunctionSettings` (None: the defaults, the paper-scale pipeline's).

    Returns:
        An `ErrorFunctionEstimate`.
    """
    s = settings or ErrorFunctionSettings()
    if d < 1 or b < 1 or sigma < 0:
        raise ValueError(f"need d >= 1, b >= 1, sigma >= 0; got {d}, {b}, {sigma}")
    start_time = time.perf_counter()
    noise_var = max(sigma**2, s.min_noise_var)
    starts, designs = starting_designs(kernel, d, b, noise_var, s.restarts, s.perturbation, rng)
    history: list[np.ndarray] = []
    best_value, best_design = designs[0].value, designs[0].expanded(d, b)
    start_values, restart_values, evaluations = [], [], 0
    for restart, Z0 in enumerate(starts):
        run = minimize_trace(kernel, Z0, noise_var, s.max_iterations)
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
