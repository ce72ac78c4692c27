"""NeST-BO (Tang & Paulson, AISTATS 2026): local BO by Newton steps on the GP's mean.

Our numpy reading of PaulsonLab/NeST-BO (`src/optimization_loop_NeSTBO.py` and
`src/Acquisition_NeSTBO.py`, commit df51d33), for minimization with the path's known
hyperparameters. From x0 and `initial_points` scrambled Sobol points of the domain, one
iteration at x:

1. b = `batch` (None: d) times: choose z in the box x +- delta (clipped to the domain)
   maximizing the Newton information, the variance of grad f(x) and of the entries of
   Hess f(x) that observing y(z) explains,

       alpha(z) = (||c_g||^2 + h^2 ||C_H||_F^2) / s,
       c_g = Cov(grad f(x), y(z) | D),  C_H = Cov(Hess f(x), y(z) | D),  s = Var(y(z) | D) + noise

   (the traces of the gradient's and the Hessian's posterior covariances fall by exactly this,
   the Hessian's weighted by h^2, h = `hessian_scale`),
   by L-BFGS-B (analytic gradient, at most `acquisition_iterations` iterations) from the best
   `restarts` of `raw_samples` uniform points; evaluate f(z) and add it to the GP;
2. with g and H the posterior mean's gradient and Hessian at x: if H is positive semi-definite,
   the Newton direction p = -H^-1 g from step `newton_step`, else the normalized p = -g / ||g||
   from step `gradient_step`; the step shrinks (by `newton_shrink` or `gradient_shrink`) while
   mu(x) - mu(x + s p) < `armijo` s (-p^T g) and s exceeds its floor (`newton_min_step`,
   `gradient_min_step`), and x + s p is taken either way (as the code does), projected onto
   the domain;
3. evaluate f at the new x and add it to the GP.

The GP keeps every observation.

Where we depart from the reference code, and why:
- hyperparameters are the path's, known (the code refits ML-II with ARD lengthscales, twice an
  iteration: Fig. 1 gives every method the true ones);
- delta, the normalized gradient step and its floor are read in the path's units (lengthscale
  1), as MPD's and MinUCB's are; the code's (0.2, 0.5 and 0.05) are of its unit cube:
  `bench/nestbo_against_reference.py` sets them to the code's for its check (the Newton step's
  1, 0.8 and 0.05 multiply -H^-1 g and have no units);
- so is the acquisition's sum of variances: the code adds the gradient's and the Hessian's in
  its unit cube, where a domain W path units wide makes a derivative W times larger, so its
  alpha is ours with h = W (up to a factor W^2); ours weighs them in the path's units (h = 1);
- the budget counts every evaluation (the code counts its initial design of N_init + 1 points
  as one);
- the acquisition is the same variance reduction, computed with the posterior kept factored
  (one triangular solve a candidate, the solved covariances built once an iteration and
  extended a point) where the code inverts the kernel matrix with the candidate added at each
  evaluation;
- each of the acquisition's starts is refined by its own L-BFGS-B (`localbo.multistart`); the
  code refines them jointly (botorch's `optimize_acqf`);
- the model's noise is sigma^2 + `min_noise_var` (the code fits it, at least 1e-4).

Returned: the final iterate, at its true f (as local BO's); the info gives
`best_observation_value`, the true f at the best observation.

References:
    Tang & Paulson (2026), NeST-BO: Fast local Bayesian optimization via Newton-step targeting
    of gradient and Hessian information. AISTATS 2026.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np

from localbo.gp import GP
from localbo.hyperparameters import FitSettings, Hyperparameters, fit_hyperparameters
from localbo.kernels import Kernel, make_kernel
from localbo.methods.nestbo.newton_information import NewtonInformation, hessian_cross
from localbo.multistart import maximize
from localbo.objective import PROGRESS_EVERY, Box, NoisyObjective, OptimizationResult, Trace, finish
from localbo.optimizers import Cost, FunctionOptimizer, register
from localbo.settings_checks import require
from localbo.window import Best


@dataclass(frozen=True)
class NeSTBOSettings:
    """Knobs of NeST-BO; the defaults are the reference code's (its benchmark configs and the
    constants of its loop), read in the path's units, except min_noise_var, a nugget of ours.

    Attributes:
        delta: half-width of the box around the iterate where points are sampled.
        batch: points sampled an iteration (the code's M; None: d, as most of its configs).
        initial_points: scrambled Sobol points of the domain evaluated first, besides x0 (the
            code's N_init).
        restarts, raw_samples: L-BFGS-B starts of the acquisition, and the uniform points they
            are chosen from (the code's 5 and 20).
        acquisition_iterations: L-BFGS-B's cap on each refinement (the code's maxiter 300).
        armijo: the sufficient-decrease constant of the line search (the code's 0.1).
        newton_step, newton_shrink, newton_min_step: the Newton step's first multiple of
            p = -H^-1 g, its shrink factor and floor (the code's 1, 0.8, 0.05).
        gradient_step, gradient_shrink, gradient_min_step: the normalized gradient step's first
            length, its shrink factor and floor (the code's 0.5, 0.5, 0.05).
        min_noise_var: nugget added to sigma^2 in the GP.
        hessian_scale: h, the weight of the Hessian's covariances against the gradient's in the
            acquisition (1: both in the path's units; the code's, in its unit cube, is the
            domain's width).
        refit: fit the GP's hyperparameters by ML-II before each batch and before each move,
            as the reference code does (`REFIT`), instead of the path's known ones: for the
            check against that code, not for Fig. 1.
        fit_mean: with refit, fit the GP's constant mean by ML-II too, where the code holds it
            at the observations' mean (a zero mean on standardized targets).
    """

    delta: float = 0.2
    batch: int | None = None
    initial_points: int = 10
    restarts: int = 5
    raw_samples: int = 20
    acquisition_iterations: int = 300
    armijo: float = 0.1
    newton_step: float = 1.0
    newton_shrink: float = 0.8
    newton_min_step: float = 0.05
    gradient_step: float = 0.5
    gradient_shrink: float = 0.5
    gradient_min_step: float = 0.05
    min_noise_var: float = 1e-6
    hessian_scale: float = 1.0
    refit: bool = False
    fit_mean: bool = False

    def __post_init__(self) -> None:
        require(self, lambda v: v >= 1, ">= 1", "restarts", "raw_samples", "acquisition_iterations")
        require(self, lambda v: v >= self.restarts, "at least restarts", "raw_samples")
        require(self, lambda v: v is None or v >= 1, ">= 1 or null", "batch")
        require(self, lambda v: v >= 0, ">= 0", "initial_points", "min_noise_var")
        positive = ("delta", "newton_step", "gradient_step", "newton_min_step", "gradient_min_step",
                    "hessian_scale")  # fmt: skip
        require(self, lambda v: v > 0, "> 0", *positive)
        require(
            self, lambda v: 0 < v < 1, "in (0, 1)", "armijo", "newton_shrink", "gradient_shrink"
        )


# The reference code's fit, in the path's units: RBF lengthscale in [0.005, 10] of its unit cube
# (Fig. 1's box is 10 wide), GPyTorch's noise floor 1e-4 (of standardized targets), a zero mean
# on standardized targets, one start (`REFIT_START`). The code's lengthscales are ARD, ours one
# (`localbo.hyperparameters`).
REFIT = FitSettings(
    restarts=1, start="gpytorch", lengthscale_bounds=(0.05, 100.0), noise_var_bounds=(1e-4, 10.0)
)
# The code's model's initial values, from which its first fit of an iteration starts: GPyTorch's
# (softplus(0) = ln 2 for the outputscale, ln 2 + 1e-4 for the noise) but the lengthscale, which
# it sets to 0.6931 of its unit cube.
REFIT_START = Hyperparameters(0.0, 0.6931 * 10.0, math.log(2.0), math.log(2.0) + 1e-4)


def refitted(
    gp: GP,
    capacity: int,
    rng: np.random.Generator,
    fit_mean: bool = False,
    start: Hyperparameters | None = None,
) -> tuple[GP, Hyperparameters]:
    """The GP on gp's data with ML-II hyperparameters (`REFIT`) fitted to the standardized
    observations (y - mean) / std, as the code fits them: the prior mean is the observations'
    mean, or (fit_mean) fitted too; from `start` (hyperparameters of standardized targets, as
    returned) if given, as the code's second fit of an iteration starts from its first's, else
    from the code's initial values (`REFIT_START`).

    Returns:
        The GP (of y as observed) and the fitted hyperparameters of the standardized targets.
    """
    center, scale = float(np.mean(gp.y)), float(np.std(gp.y)) or 1.0
    standard = (gp.y - center) / scale
    params = fit_hyperparameters(
        "rbf", gp.X, standard, rng, REFIT, start or REFIT_START, fixed_mean=not fit_mean
    ).params
    kernel = make_kernel("rbf", params.lengthscale, params.outputscale * scale**2)
    mean = center + scale * params.mean
    noise_var = params.noise_var * scale**2
    return GP(kernel, gp.X, gp.y, noise_var, mean=mean, capacity=capacity), params


def mean_derivatives(gp: GP, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The posterior mean's (d,) gradient and (d, d) Hessian at a (d,) point."""
    w = gp.weights
    H = np.tensordot(w, hessian_cross(gp.kernel, x, gp.X), axes=1)
    return gp.grad_mean(x), H


def newton_direction(g: np.ndarray, H: np.ndarray) -> np.ndarray | None:
    """-H^-1 g where the (d, d) Hessian H is positive semi-definite and not singular, else None
    (the move then takes the gradient step)."""
    if not np.all(np.linalg.eigvalsh(H) >= 0):
        return None
    try:
        return -np.linalg.solve(H, g)
    except np.linalg.LinAlgError:  # singular: no Newton step, as the code's inverse fails
        return None


def newton_move(gp: GP, x: np.ndarray, box: Box, settings: NeSTBOSettings) -> np.ndarray:
    """Step 2 of the module docstring: the next iterate."""
    g, H = mean_derivatives(gp, x)
    p = newton_direction(g, H)
    if p is not None:
        step, shrink, floor = settings.newton_step, settings.newton_shrink, settings.newton_min_step
    else:
        norm = float(np.linalg.norm(g))
        p = -g / norm if norm > 0 else np.zeros_like(g)
        step = settings.gradient_step
        shrink, floor = settings.gradient_shrink, settings.gradient_min_step
    here = float(gp.mean(x[None, :])[0])
    slope = -float(p @ g)
    while here - float(gp.mean((x + step * p)[None, :])[0]) < settings.armijo * step * slope:
        if step <= floor:
            break
        step *= shrink
    return box.project(x + step * p)


def sobol_points(box: Box, n: int, rng: np.random.Generator) -> np.ndarray:
    """n scrambled Sobol points of the box, (n, d), from the stream rng."""
    from scipy.stats import qmc

    if n == 0:
        return np.empty((0, box.d))
    with warnings.catch_warnings():  # n need not be a power of 2 (the code's N_init is 10)
        warnings.simplefilter("ignore", UserWarning)
        unit = qmc.Sobol(box.d, scramble=True, seed=rng).random(n)
    return box.lower + (box.upper - box.lower) * unit


def nestbo(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: NeSTBOSettings | None = None,
) -> OptimizationResult:
    """Run NeST-BO until the budget is spent; returns the final iterate.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's RBF, hyperparameters known).
        x0: (d,) start. box: the domain. rng: the optimizer's own stream.
        settings: `NeSTBOSettings` (None: the defaults).
    """
    settings = settings or NeSTBOSettings()
    d = box.d
    batch = settings.batch or d
    noise_var = objective.sigma**2 + settings.min_noise_var
    x = box.project(np.array(x0, dtype=float))
    trace = Trace(progress_every=PROGRESS_EVERY)
    trace.record(objective, x)
    if objective.remaining == 0:
        return finish(objective, x, trace, iterations=0, stop="budget",
                      best_observation_value=float(objective.true_value(x)))  # fmt: skip
    design = np.vstack([x, sobol_points(box, settings.initial_points, rng)])
    design = design[: objective.remaining]
    y = objective(design)
    gp = GP(kernel, design, y, noise_var, capacity=objective.budget)
    best = Best(x)
    best.consider(design[np.argmin(y)], float(np.min(y)))
    iterations = 0

    def observe(point: np.ndarray) -> None:
        value = objective(point[None, :])
        gp.append(point[None, :], value)
        best.consider(point, float(value[0]))

    while objective.remaining > 0:
        if settings.refit:
            gp, fit = refitted(gp, objective.budget, rng, settings.fit_mean)
        lower = np.maximum(x - settings.delta, box.lower)
        upper = np.minimum(x + settings.delta, box.upper)
        acquisition = NewtonInformation(gp, x, room=batch, hessian_scale=settings.hessian_scale)
        for _ in range(min(batch, objective.remaining)):
            acquisition.extend()
            z = maximize(acquisition, lower, upper, rng, settings.restarts, settings.raw_samples,
                         settings.acquisition_iterations)  # fmt: skip
            observe(z)
        if objective.remaining == 0:
            break
        if settings.refit:
            gp, _ = refitted(gp, objective.budget, rng, settings.fit_mean, start=fit)
        x = newton_move(gp, x, box, settings)
        observe(x)
        iterations += 1
        trace.record(objective, x)
    return finish(
        objective,
        x,
        trace,
        iterations=iterations,
        stop="budget",
        best_observation_value=objective.true_value(best.x),
    )


@register
class NeSTBO(FunctionOptimizer):
    """NeST-BO as a pipeline method (`nestbo`)."""

    name = "nestbo"
    label = "NeST-BO"
    returned = "final iterate"
    # NaN compares false with any bound: refused
    invalid_settings = ({"restarts": 0}, {"delta": float("nan")}, {"armijo": 1.0})
    Settings = NeSTBOSettings
    function = staticmethod(nestbo)
    default_paths_per_job = 1  # a run at d = 50 and the paper's budget takes hours
    # sigma = 0 at the paper's budget: with noise a run at 5000 costs about 8x a noiseless one,
    # so Fig. 1 runs the noisy level at 1000 (config/config.yaml's nestbo_short)
    default_noise_levels = (0.0,)

    def cost(self, d: int, budget: int) -> Cost:
        """The GP keeps every observation, so a run's cost grows faster than its budget B:
        5.3e-4 B d s, B^2 d^3 3.5e-9 s, the acquisition's products with the (n, d + d^2)
        covariances (memory-bound once they leave the cache, and more evaluations a point as d
        grows), and B^3 8.2e-10 s, the solves with the (n, n) factor. Fitted to the medians of
        the paper-scale runs the pipeline logged (B = 5000 at d = 1, 5, 10; B = 1000 at d = 20,
        30, 50; sigma = 0) and to whole runs (bench/full_run.py) of over 100 s at B = 2000 and
        5000: within 0.81-1.27x of each (1.27x at d = 50, B = 1000); a noisy run takes less.
        With `refit`, the two ML-II fits an iteration add 1.8e-5 B^2.3 d^0.3 s, fitted to single
        runs of the reference mode at (d, B) = (10, 300), (20, 500), (10, 1000) (18, 70 and
        286 s, both cores busy). Memory: the factor (B, B) and the two (B, d + d^2)
        covariances of the gradient and the Hessian with the data."""
        seconds = 5.3e-4 * budget * d + 3.5e-9 * budget**2 * d**3 + 8.2e-10 * budget**3
        if self.settings.refit:
            seconds += 1.8e-5 * budget**2.3 * d**0.3
        return Cost(
            seconds=seconds * self.settings.restarts / 5 + 1.0,
            mem_mb=8 * (budget**2 + 3 * budget * (d + d**2)) // 2**20,
        )
