"""Estimating the (sub)gradient of a possibly non-differentiable function with grad mu_D(x).

The experiment of section 6.3 and appendix "Additional Experiments" (ReLU) of the paper:

1. the design: n queries Z minimizing alpha_trace(x, Z | {}) (eq. 2) for a GP with fixed design
   hyperparameters and no data, by L-BFGS from small random perturbations of x;
2. observations y_i = f(z_i) + eps_i with eps_i ~ N(0, noise_std^2) from their own stream;
3. ML-II hyperparameters (constant mean, lengthscale, outputscale, noise) on (Z, y);
4. the estimate grad mu_D(x) of the fitted GP, compared with the subdifferential of f at x.

The test functions and their subdifferentials live in localbo.subdifferentials; the error of
an estimate is its Euclidean distance to the subdifferential.

References:
    the paper, section 6.3 (Fig. 4) and appendix "Additional Experiments" (Fig. 5, ReLU);
    Mueller et al. (2021), GIBO, for the design criterion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from localbo import full_batch_lbfgs
from localbo.acquisition import gradient_trace, value_variance
from localbo.designs import LBFGS_OPTIONS, Design, minimize_trace, single_points
from localbo.full_batch_lbfgs import OPTIMIZERS, FullBatchLBFGSSettings, PlateauStop
from localbo.hyperparameters import FitResult, FitSettings, fit_hyperparameters, fitted_gp
from localbo.kernels import Kernel, make_kernel
from localbo.seeding import rng_for
from localbo.subdifferentials import TEST_FUNCTIONS, distance_to_box

# The estimates the paper reports (Fig. 4 captions, Fig. 5 subcaptions), keyed by
# (function, point, number of queries).
PAPER_ESTIMATES: dict[tuple[str, tuple[float, ...], int], tuple[float, ...]] = {
    ("quadratic", (0.0, 1.0), 5): (0.039, 1.018),
    ("l1", (0.0, 1.0), 5): (0.005, 0.318),
    ("l1", (0.0, 1.0), 10): (-0.031, 1.053),
    ("relu", (0.0,), 2): (2.06e-5,),
    ("relu", (0.0,), 4): (0.49,),
}


def paper_estimate(function: str, x: np.ndarray, n: int) -> tuple[float, ...] | None:
    """The paper's reported grad mu_D(x) for this setting, or None if the paper has none."""
    return PAPER_ESTIMATES.get((function, tuple(float(v) for v in x), int(n)))


DESIGN_CRITERIA = ("gradient", "joint")
# The paper code's design loop (utils.get_query_points): full-batch L-BFGS with lr 0.1 and at
# most 20 line-search trials (utils.py lines 37 and 52), stopped by its plateau rule (lines 65-72)
CODE_DESIGN_STEPS = FullBatchLBFGSSettings(initial_step=0.1, max_line_search=20)
CODE_DESIGN_STOP = PlateauStop()


@dataclass(frozen=True)
class QueryDesignSettings:
    """The design GP and its optimizer; the defaults are the paper-scale pipeline's
    (`gradient_estimation.design`).

    Attributes:
        lengthscale, outputscale: the design GP's hyperparameters (the paper's code: 1 and 1).
        noise_var: the design GP's noise variance (the paper's code: 2e-4).
        criterion: "gradient", alpha_trace(x, Z | {}) (eq. 2, the criterion the paper states),
            or "joint", alpha_trace plus the posterior variance of f(x): the trace of the joint
            posterior covariance of (f(x), grad f(x)), which the paper's code minimizes (its
            `posterior_covar` ignores `grad_only` when the model has no data,
            zoofoo/model.py lines 108-117).
        optimizer: "lbfgsb" (scipy's L-BFGS-B to convergence, `localbo.designs.LBFGS_OPTIONS`)
            or "full_batch_lbfgs" (the paper code's optimizer and stop rule,
            `CODE_DESIGN_STEPS`, `CODE_DESIGN_STOP`).
        restarts: runs from random designs; the least criterion wins (our choice: 8; the
            paper's code runs once).
        start_std: size of the starting perturbations of x: each coordinate N(0, start_std^2),
            or N(0, start_std^2 / d) with `start_over_sqrt_d` (the paper's code: 1e-4 / sqrt(d),
            utils.py line 34).
        max_iterations: iteration cap per run (the paper's code: 200, utils.py line 50).
    """

    lengthscale: float = 1.0
    outputscale: float = 1.0
    noise_var: float = 2e-4
    criterion: str = "gradient"
    optimizer: str = "lbfgsb"
    restarts: int = 8
    start_std: float = 0.1
    start_over_sqrt_d: bool = False
    max_iterations: int = 500

    def __post_init__(self) -> None:
        if self.restarts < 1:
            raise ValueError(f"restarts must be >= 1, got {self.restarts}")
        if self.criterion not in DESIGN_CRITERIA:
            raise ValueError(f"unknown criterion {self.criterion!r}; known: {DESIGN_CRITERIA}")
        if self.optimizer not in OPTIMIZERS:
            raise ValueError(f"unknown optimizer {self.optimizer!r}; known: {OPTIMIZERS}")


def design_criterion(
    kernel: Kernel, criterion: str, noise_var: float, shape: tuple[int, int]
) -> Callable[[np.ndarray], tuple[float, np.ndarray]]:
    """The criterion of a design of `shape` (n, d) offsets around x, as a function of the
    flattened offsets (n * d,) -> (value, gradient (n * d,))."""
    origin = np.zeros(shape[1])

    def value_and_gradient(z: np.ndarray) -> tuple[float, np.ndarray]:
        Z = z.reshape(shape)
        value, gradient = gradient_trace(kernel, origin, Z, noise_var)
        if criterion == "joint":
            variance, of_variance = value_variance(kernel, origin, Z, noise_var)
            value, gradient = value + variance, gradient + of_variance
        return value, gradient.ravel()

    return value_and_gradient


def _design_run(kernel: Kernel, Z0: np.ndarray, s: QueryDesignSettings) -> tuple[np.ndarray, float]:
    """One run of the design optimizer from the (n, d) offsets Z0: (offsets, criterion)."""
    from scipy.optimize import minimize

    if s.criterion == "gradient" and s.optimizer == "lbfgsb":
        run = minimize_trace(kernel, Z0, s.noise_var, s.max_iterations)
        return run.design, run.value
    fun = design_criterion(kernel, s.criterion, s.noise_var, Z0.shape)
    if s.optimizer == "full_batch_lbfgs":
        result = full_batch_lbfgs.minimize(
            fun, Z0.ravel(), s.max_iterations, CODE_DESIGN_STEPS, CODE_DESIGN_STOP
        )
        return result.x.reshape(Z0.shape), result.value
    res = minimize(
        fun,
        Z0.ravel(),
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": s.max_iterations, **LBFGS_OPTIONS},
    )
    return res.x.reshape(Z0.shape), float(res.fun)


def design_queries(
    kernel_name: str,
    x: np.ndarray,
    n: int,
    rng: np.random.Generator,
    settings: QueryDesignSettings | None = None,
) -> tuple[Design, np.ndarray]:
    """n queries minimizing the design criterion at x with no data (`QueryDesignSettings`).

    The kernel is stationary, so the design is optimized at the origin and its offsets hold
    around x. Each restart starts at x + start_std * N(0, I) (divided by sqrt(d) with
    `start_over_sqrt_d`); the restart with the least criterion wins.

    Args:
        kernel_name: the design GP's kernel family. x: (d,) point. n: number of queries.
        rng: stream of the starting designs.
        settings: `QueryDesignSettings` (None: the defaults).

    Returns:
        (design, restart_values): the best `Design` (n offsets around x, each evaluated once,
        value = its criterion) and (restarts,) the final criterion of every restart.
    """
    if n < 1:
        raise ValueError(f"need n >= 1 queries, got {n}")
    s = settings or QueryDesignSettings()
    kernel = make_kernel(kernel_name, s.lengthscale, s.outputscale)
    d = np.asarray(x).shape[0]
    scale = s.start_std / np.sqrt(d) if s.start_over_sqrt_d else s.start_std
    runs = [_design_run(kernel, scale * rng.standard_normal((n, d)), s) for _ in range(s.restarts)]
    best = min(runs, key=lambda run: run[1])
    return single_points(*best), np.array([value for _, value in runs])


@dataclass(frozen=True)
class GradientEstimate:
    """Result of `estimate_subgradient`.

    Attributes:
        x: (d,) point. queries: (n, d). observations: (n,) noisy values.
        fit: the ML-II fit.
        gradient: (d,) grad mu_D(x) of the fitted GP.
        gradient_std: (d,) posterior standard deviations of the partial derivatives at x.
        subdifferential: (d, 2) box of the true subdifferential at x.
        error: distance of the estimate to that box.
    """

    x: np.ndarray
    queries: np.ndarray
    observations: np.ndarray
    fit: FitResult
    gradient: np.ndarray
    gradient_std: np.ndarray
    subdifferential: np.ndarray
    error: float


def estimate_subgradient(
    function: str,
    x: np.ndarray,
    design: Design,
    kernel_name: str,
    noise_std: float,
    noise_rng: np.random.Generator,
    fit_rng: np.random.Generator,
    fit: FitSettings | None = None,
) -> GradientEstimate:
    """Observe f on a design with noise, fit the GP by ML-II and return grad mu_D(x).

    Args:
        function: a key of TEST_FUNCTIONS.
        x: (d,) point. design: queries around x from `design_queries`.
        kernel_name: kernel family of the fitted GP.
        noise_std: standard deviation of the observation noise.
        noise_rng: stream of the observation noise. fit_rng: stream of the ML-II starts.
        fit: `FitSettings` of the ML-II fit (None: the defaults).

    Returns:
        A `GradientEstimate`.
    """
    f = TEST_FUNCTIONS[function]
    x = np.asarray(x, dtype=float)
    Z = design.points(x)
    y = f.value(Z) + noise_std * noise_rng.standard_normal(len(Z))
    result = fit_hyperparameters(kernel_name, Z, y, fit_rng, fit)
    gp = fitted_gp(kernel_name, result.params, Z, y)
    g = gp.grad_mean(x)
    box = f.subdifferential(x)
    return GradientEstimate(
        x=x,
        queries=Z,
        observations=y,
        fit=result,
        gradient=g,
        gradient_std=np.sqrt(np.maximum(np.diagonal(gp.grad_cov(x)), 0.0)),
        subdifferential=box,
        error=distance_to_box(g, box),
    )


def posterior_curve(
    estimate: GradientEstimate, kernel_name: str, half_width: float, num: int
) -> dict[str, np.ndarray]:
    """The fitted posterior on a grid around a one-dimensional x, for drawing (Fig. 5).

    Args:
        estimate: a one-dimensional estimate. kernel_name: kernel family of its fit.
        half_width: the grid spans x +- half_width. num: grid points.

    Returns:
        {"grid": (num,) points, "mean": (num,) posterior mean, "std": (num,) posterior standard
        deviation, "mean_at_x": () posterior mean at x}.
    """
    if estimate.x.shape != (1,):
        raise ValueError(f"a curve needs a one-dimensional x, got {estimate.x.shape}")
    gp = fitted_gp(kernel_name, estimate.fit.params, estimate.queries, estimate.observations)
    t = np.linspace(estimate.x[0] - half_width, estimate.x[0] + half_width, num)[:, None]
    mean, var = gp.mean_and_variance(t)
    return {
        "grid": t[:, 0],
        "mean": mean,
        "std": np.sqrt(var),
        "mean_at_x": gp.mean(estimate.x[None])[0],
    }


def run_case(
    function: str,
    x: np.ndarray,
    n: int,
    noise_std: float,
    seed: int,
    kernel_name: str,
    design: QueryDesignSettings | None = None,
    fit: FitSettings | None = None,
    draw: int = 0,
) -> tuple[Design, np.ndarray, GradientEstimate]:
    """One Fig. 4/5 case as the pipeline runs it: design the n queries at x, observe f with
    noise, fit by ML-II, return grad mu_D(x).

    Streams are keyed by (x, n) only, so cases at the same point with the same n share queries
    and noise draws (the paper: the l1 panel with n = 5 uses "exactly the same samples" as the
    quadratic); the ML-II starts also depend on the function.

    Args:
        function: a key of TEST_FUNCTIONS. x: (d,) point. n: number of queries.
        noise_std: observation noise. seed: the base seed of every stream.
        kernel_name: kernel family of the design GP and of the fitted GP.
        design: `QueryDesignSettings`. fit: `FitSettings` (None: the defaults).
        draw: which draw of the case's random parts (the design's starts, the noise, the fit's
            starts); draw 0 is the figures' (its streams have no draw coordinate).

    Returns:
        (design, design_restart_values, estimate).
    """
    x = np.asarray(x, dtype=float)
    coords = ("gradient_estimation", n, *x.tolist())
    again = (draw,) if draw else ()
    queries, restart_values = design_queries(
        kernel_name, x, n, rng_for(seed, *coords, "design", *again), design
    )
    estimate = estimate_subgradient(
        function,
        x,
        queries,
        kernel_name,
        noise_std,
        rng_for(seed, *coords, "noise", *again),
        rng_for(seed, *coords, "fit", function, *again),
        fit,
    )
    return queries, restart_values, estimate
