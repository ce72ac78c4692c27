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

from dataclasses import dataclass

import numpy as np

from localbo.designs import Design, minimize_trace, single_points
from localbo.hyperparameters import FitResult, FitSettings, fit_hyperparameters, fitted_gp
from localbo.kernels import make_kernel
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


@dataclass(frozen=True)
class QueryDesignSettings:
    """The design GP and its optimizer; the defaults are the paper-scale pipeline's
    (`gradient_estimation.design`).

    Attributes:
        lengthscale, outputscale: the design GP's hyperparameters (the paper's code: 1 and 1).
        noise_var: the design GP's noise variance (the paper's code: 2e-4).
        restarts: L-BFGS runs from random designs x + start_std * N(0, I); the least trace wins
            (our choice: the paper's code runs once from a 1e-4 perturbation of x, restarts 1 and
            start_std 7.1e-5, and stops in local minima with larger traces).
        start_std: size of the starting perturbations.
        max_iterations: L-BFGS iteration cap per run.
    """

    lengthscale: float = 1.0
    outputscale: float = 1.0
    noise_var: float = 2e-4
    restarts: int = 8
    start_std: float = 0.1
    max_iterations: int = 500

    def __post_init__(self) -> None:
        if self.restarts < 1:
            raise ValueError(f"restarts must be >= 1, got {self.restarts}")


def design_queries(
    kernel_name: str,
    x: np.ndarray,
    n: int,
    rng: np.random.Generator,
    settings: QueryDesignSettings | None = None,
) -> tuple[Design, np.ndarray]:
    """n queries minimizing alpha_trace(x, Z | {}), by L-BFGS over the whole (n, d) design.

    The kernel is stationary, so the design is optimized at the origin and its offsets hold
    around x. Each restart starts at x + start_std * N(0, I) (the paper's code starts at tiny
    perturbations of x); the restart with the least trace wins.

    Args:
        kernel_name: the design GP's kernel family. x: (d,) point. n: number of queries.
        rng: stream of the starting designs.
        settings: `QueryDesignSettings` (None: the defaults).

    Returns:
        (design, restart_values): the best `Design` (n offsets around x, each evaluated once,
        value = its trace) and (restarts,) the final trace of every restart.
    """
    if n < 1:
        raise ValueError(f"need n >= 1 queries, got {n}")
    s = settings or QueryDesignSettings()
    kernel = make_kernel(kernel_name, s.lengthscale, s.outputscale)
    d = np.asarray(x).shape[0]
    runs = [
        minimize_trace(
            kernel, s.start_std * rng.standard_normal((n, d)), s.noise_var, s.max_iterations
        )
        for _ in range(s.restarts)
    ]
    best = min(runs, key=lambda run: run.value)
    return single_points(best.design, best.value), np.array([run.value for run in runs])


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
