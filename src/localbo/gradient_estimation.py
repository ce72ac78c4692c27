"""Estimating the (sub)gradient of a possibly non-differentiable function with grad mu_D(x).

The experiment of section 5.3 and appendix "Additional Experiments" (ReLU) of the paper:

1. the design: n queries Z minimizing alpha_trace(x, Z | {}) (eq. 2) for a GP with fixed design
   hyperparameters and no data, by L-BFGS from small random perturbations of x;
2. observations y_i = f(z_i) + eps_i with eps_i ~ N(0, noise_std^2) from their own stream;
3. ML-II hyperparameters (constant mean, lengthscale, outputscale, noise) on (Z, y);
4. the estimate grad mu_D(x) of the fitted GP, compared with the subdifferential of f at x.

The test functions are convex, so their subdifferentials exist; each is a box here (a product of
intervals), and the error of an estimate is its Euclidean distance to that box:

    quadratic  f(x) = 1/2 ||x||^2      d f(x) = {x}
    l1         f(x) = ||x||_1          d f(x) = prod_i (sign x_i, or [-1, 1] where x_i = 0)
    relu       f(x) = sum_i max(0, x_i)  d f(x) = prod_i ({1} if x_i > 0, {0} if < 0, [0, 1] if 0)

References:
    the paper, section 5.3 (Fig. 4) and appendix "Additional Experiments" (Fig. 5, ReLU);
    Mueller et al. (2021), GIBO, for the design criterion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from localbo.error_function import minimize_trace
from localbo.hyperparameters import Bounds, FitResult, fit_hyperparameters, fitted_gp
from localbo.kernels import Kernel, make_kernel
from localbo.seeding import rng_for


def quadratic(X: np.ndarray) -> np.ndarray:
    """1/2 ||x||^2 of each row of an (m, d) array; returns (m,)."""
    return 0.5 * np.sum(X**2, axis=1)


def l1_norm(X: np.ndarray) -> np.ndarray:
    """||x||_1 of each row of an (m, d) array; returns (m,)."""
    return np.sum(np.abs(X), axis=1)


def relu(X: np.ndarray) -> np.ndarray:
    """sum_i max(0, x_i) of each row of an (m, d) array (the ReLU for d = 1); returns (m,)."""
    return np.sum(np.maximum(X, 0.0), axis=1)


def _quadratic_box(x: np.ndarray) -> np.ndarray:
    return np.column_stack([x, x])


def _l1_box(x: np.ndarray) -> np.ndarray:
    s = np.sign(x)
    return np.column_stack([np.where(x == 0, -1.0, s), np.where(x == 0, 1.0, s)])


def _relu_box(x: np.ndarray) -> np.ndarray:
    hi = np.where(x >= 0, 1.0, 0.0)
    lo = np.where(x > 0, 1.0, 0.0)
    return np.column_stack([lo, hi])


@dataclass(frozen=True)
class TestFunction:
    """A convex test function with its subdifferential as a box.

    Attributes:
        name: config name.
        value: maps (m, d) points to (m,) values.
        subdifferential: maps a (d,) point to a (d, 2) array of [low, high] per coordinate.
    """

    name: str
    value: Callable[[np.ndarray], np.ndarray]
    subdifferential: Callable[[np.ndarray], np.ndarray]


TEST_FUNCTIONS: dict[str, TestFunction] = {
    "quadratic": TestFunction("quadratic", quadratic, _quadratic_box),
    "l1": TestFunction("l1", l1_norm, _l1_box),
    "relu": TestFunction("relu", relu, _relu_box),
}

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


def distance_to_box(g: np.ndarray, box: np.ndarray) -> float:
    """Euclidean distance from a (d,) vector to the box given as (d, 2) [low, high] rows."""
    return float(np.linalg.norm(g - np.clip(g, box[:, 0], box[:, 1])))


@dataclass(frozen=True)
class Design:
    """The n queries around x and the trace they leave, best of the restarts."""

    queries: np.ndarray
    trace: float
    restart_traces: np.ndarray


def design_queries(
    kernel: Kernel,
    x: np.ndarray,
    n: int,
    noise_var: float,
    rng: np.random.Generator,
    restarts: int = 1,
    start_std: float = 0.1,
    max_iterations: int = 500,
) -> Design:
    """n queries minimizing alpha_trace(x, Z | {}), by L-BFGS over the whole (n, d) design.

    The kernel is stationary, so the design is optimized at the origin and shifted by x. Each
    restart starts at x + start_std * N(0, I) (the paper's code starts at tiny perturbations of
    x); the restart with the least trace wins.

    Args:
        kernel: the design GP's kernel (fixed hyperparameters).
        x: (d,) point. n: number of queries. noise_var: the design's noise variance.
        rng: stream of the starting designs.
        restarts: L-BFGS runs (>= 1). start_std: size of the starting perturbations.
        max_iterations: L-BFGS iteration cap per run.

    Returns:
        A `Design` with (n, d) queries.
    """
    x = np.asarray(x, dtype=float)
    runs = [
        minimize_trace(
            kernel, start_std * rng.standard_normal((n, x.shape[0])), noise_var, max_iterations
        )
        for _ in range(restarts)
    ]
    best = min(runs, key=lambda run: run.value)
    return Design(
        queries=x + best.design,
        trace=best.value,
        restart_traces=np.array([run.value for run in runs]),
    )


@dataclass(frozen=True)
class GradientEstimate:
    """Result of `estimate_gradient`.

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


def estimate_gradient(
    function: str,
    x: np.ndarray,
    design: Design,
    kernel_name: str,
    noise_std: float,
    noise_rng: np.random.Generator,
    fit_rng: np.random.Generator,
    fit_restarts: int = 10,
    bounds: Bounds | None = None,
    fit_max_iterations: int = 500,
) -> GradientEstimate:
    """Observe f on a design with noise, fit the GP by ML-II and return grad mu_D(x).

    Args:
        function: a key of TEST_FUNCTIONS.
        x: (d,) point. design: queries from `design_queries`.
        kernel_name: kernel family of the fitted GP.
        noise_std: standard deviation of the observation noise.
        noise_rng: stream of the observation noise. fit_rng: stream of the ML-II starts.
        fit_restarts, bounds, fit_max_iterations: passed to `fit_hyperparameters`.

    Returns:
        A `GradientEstimate`.
    """
    f = TEST_FUNCTIONS[function]
    x = np.asarray(x, dtype=float)
    Z = design.queries
    y = f.value(Z) + noise_std * noise_rng.standard_normal(len(Z))
    fit = fit_hyperparameters(kernel_name, Z, y, fit_rng, fit_restarts, bounds, fit_max_iterations)
    gp = fitted_gp(kernel_name, fit.params, Z, y)
    g = gp.grad_mean(x)
    box = f.subdifferential(x)
    return GradientEstimate(
        x=x,
        queries=Z,
        observations=y,
        fit=fit,
        gradient=g,
        gradient_std=np.sqrt(np.maximum(np.diagonal(gp.grad_cov(x)), 0.0)),
        subdifferential=box,
        error=distance_to_box(g, box),
    )


def run_case(
    section: dict,
    function: str,
    x: np.ndarray,
    n: int,
    noise_std: float,
    seed: int,
    design_restarts: int | None = None,
    fit_restarts: int | None = None,
) -> tuple[Design, GradientEstimate]:
    """One Fig. 4/5 case as the pipeline runs it: design the n queries at x, observe f with
    noise, fit by ML-II, return grad mu_D(x).

    Args:
        section: the config's `gradient_estimation` section (kernel, design, fit).
        function: a key of TEST_FUNCTIONS. x: (d,) point. n: number of queries.
        noise_std: observation noise. seed: the config's seed.
        design_restarts, fit_restarts: override the section's restarts (tests run fewer).

    Streams are keyed by (x, n) only, so cases at the same point with the same n share queries
    and noise draws; the ML-II starts also depend on the function.
    """
    design_cfg, fit_cfg = section["design"], section["fit"]
    x = np.asarray(x, dtype=float)
    coords = ("gradient_estimation", n, *x.tolist())
    kernel = make_kernel(section["kernel"], design_cfg["lengthscale"], design_cfg["outputscale"])
    design = design_queries(
        kernel,
        x,
        n,
        design_cfg["noise_var"],
        rng_for(seed, *coords, "design"),
        restarts=design_restarts or design_cfg["restarts"],
        start_std=design_cfg["start_std"],
        max_iterations=design_cfg["max_iterations"],
    )
    estimate = estimate_gradient(
        function,
        x,
        design,
        section["kernel"],
        noise_std,
        rng_for(seed, *coords, "noise"),
        rng_for(seed, *coords, "fit", function),
        fit_restarts=fit_restarts or fit_cfg["restarts"],
        bounds=Bounds(
            lengthscale=tuple(fit_cfg["lengthscale_bounds"]),
            outputscale=tuple(fit_cfg["outputscale_bounds"]),
            noise_var=tuple(fit_cfg["noise_var_bounds"]),
        ),
        fit_max_iterations=fit_cfg["max_iterations"],
    )
    return design, estimate
