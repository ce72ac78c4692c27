"""Exact-gradient local search: scipy's L-BFGS-B in the box with the path's own gradient.

An oracle method, not a black-box optimizer: the gradient comes from `objective.path` (the sample
path's exact gradient), which no Bayesian optimizer can see. It answers the paper's open question
1 (section 7, "landscape or algorithm?"): how good is the local solution that an exact local
search finds from x = 0 on the same path and box as Fig. 1? Each value-and-gradient call is
charged one evaluation through the objective, so Fig. 1's budget holds (L-BFGS-B converges long
before it); the value L-BFGS-B sees is that observation, exact at sigma = 0, the only noise level
at which the method means anything (the default). The returned point is the last L-BFGS-B iterate.

The minimizer itself, `minimize_in_box`, is shared with `localbo.landscape`, whose population of
local minima from uniform starts is this method run from many starts.

References:
    Byrd, Lu, Nocedal and Zhu (1995), "A limited memory algorithm for bound constrained
    optimization" (L-BFGS-B; scipy's `minimize(method="L-BFGS-B")`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from localbo.kernels import Kernel
from localbo.objective import (
    Box,
    BudgetExhausted,
    NoisyObjective,
    OptimizationResult,
    Trace,
    finish,
)
from localbo.optimizers import Cost, Optimizer, register
from localbo.settings_checks import require

if TYPE_CHECKING:
    from scipy.optimize import OptimizeResult

# A coordinate this close to a bound is on it (L-BFGS-B puts active coordinates exactly there).
BOUNDARY_TOL = 1e-6


@dataclass(frozen=True)
class ExactGradientSettings:
    """L-BFGS-B's stopping rule; the defaults reach ||projected gradient||_2 <= 1e-6 in d <= 50.

    Attributes:
        gtol: scipy's `gtol` (L-BFGS-B's pgtol): stop when the largest |component| of the
            projected gradient is <= gtol. 1e-7 bounds its 2-norm by 1e-7 sqrt(d) <= 7.1e-7 at
            d = 50.
        ftol: stop when the relative decrease of f in one iteration is <= ftol. With scipy's
            defaults (ftol 2.2e-9, gtol 1e-5) the median ||projected gradient||_2 at the end is
            1e-4 to 3e-4 on RBF paths at d = 20, 50 (M = 4096); with 1e-15 (a few machine
            epsilons) gtol decides: median 2.5e-7, largest 6.4e-7 at d = 50 (20 starts).
        max_iterations: L-BFGS-B iterations at most (a cap, not the stopping rule: the paths'
            runs take tens to a few hundred).
    """

    gtol: float = 1e-7
    ftol: float = 1e-15
    max_iterations: int = 2000

    def __post_init__(self) -> None:
        require(self, lambda v: v > 0, "> 0", "gtol", "ftol")
        require(self, lambda v: v >= 1, ">= 1", "max_iterations")


def minimize_in_box(
    value_and_gradient: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    box: Box,
    settings: ExactGradientSettings,
    callback: Callable[[np.ndarray], None] | None = None,
) -> OptimizeResult:
    """L-BFGS-B from x0 in the box with the given value and exact gradient.

    Args:
        value_and_gradient: (d,) x -> (f(x), (d,) grad f(x)).
        x0: (d,) start (projected onto the box by L-BFGS-B). box: the domain.
        settings: the stopping rule.
        callback: called with each accepted (d,) iterate.

    Returns:
        scipy's result: x (d,), fun, nit, message, success.
    """
    from scipy.optimize import minimize

    return minimize(
        value_and_gradient,
        np.asarray(x0, dtype=float),
        jac=True,
        method="L-BFGS-B",
        bounds=box.bounds(),
        callback=callback,
        options={
            "gtol": settings.gtol,
            "ftol": settings.ftol,
            "maxiter": settings.max_iterations,
            "maxfun": 10 * settings.max_iterations,
        },
    )


def projected_gradient(X: np.ndarray, G: np.ndarray, box: Box) -> np.ndarray:
    """The projected gradient X - P(X - G) (P: projection onto the box), any shape ending in d.

    Zero exactly at the box's first-order stationary points: an interior point with G = 0, or a
    boundary point whose gradient points out of the box in every active coordinate.

    Args:
        X: (..., d) points in the box. G: (..., d) gradients there.
    """
    return X - box.project(X - G)


def on_boundary(X: np.ndarray, box: Box, tol: float = BOUNDARY_TOL) -> np.ndarray:
    """Whether a point is on the box's boundary: some coordinate within tol of a bound.

    A point outside the box is not on it (`localbo.landscape.outside_box` says so).

    Args:
        X: (..., d) points.

    Returns:
        (...,) flags.
    """
    X = np.asarray(X, dtype=float)
    inside = np.all(np.abs(X - box.project(X)) <= tol, axis=-1)
    near = np.any((np.abs(X - box.lower) <= tol) | (np.abs(X - box.upper) <= tol), axis=-1)
    return inside & near


def exact_gradient_search(
    objective: NoisyObjective,
    x0: np.ndarray,
    box: Box,
    settings: ExactGradientSettings,
) -> OptimizationResult:
    """L-BFGS-B in the box from x0, one charged evaluation per value-and-gradient call.

    Args:
        objective: the objective with its budget; the gradient is its path's exact one.
        x0: (d,) start. box: the domain. settings: the stopping rule.

    Returns:
        The last iterate, with info iterations, stop (L-BFGS-B's message or "budget"),
        on_boundary (1/0) and projected_gradient_norm (2-norm, true f).
    """
    trace = Trace()
    x_last = box.project(np.asarray(x0, dtype=float))
    trace.record(objective, x_last)

    def value_and_gradient(x: np.ndarray) -> tuple[float, np.ndarray]:
        value = float(objective(x[None, :])[0])  # charged; exact at sigma = 0
        return value, objective.true_gradient(x)

    def accept(x: np.ndarray) -> None:
        nonlocal x_last
        x_last = np.array(x, dtype=float)
        trace.record(objective, x_last)

    try:
        res = minimize_in_box(value_and_gradient, x_last, box, settings, accept)
        x_last, iterations, stop = np.array(res.x, dtype=float), int(res.nit), str(res.message)
    except BudgetExhausted:
        iterations, stop = len(trace.evaluations) - 1, "budget"
    if not np.array_equal(trace.iterates[-1], x_last):
        trace.record(objective, x_last)
    grad = objective.true_gradient(x_last)
    return finish(
        objective,
        x_last,
        trace,
        iterations=iterations,
        stop=stop,
        on_boundary=int(on_boundary(x_last, box)),
        projected_gradient_norm=float(np.linalg.norm(projected_gradient(x_last, grad, box))),
    )


@register
class ExactGradient(Optimizer):
    """Exact-gradient local search as a Fig. 1 method (`exact_gradient`); an oracle, sigma = 0."""

    name = "exact_gradient"
    label = "exact-gradient local search"
    invalid_settings = ({"gtol": 0.0},)
    oracle = True  # the path's exact gradient
    Settings = ExactGradientSettings
    default_noise_levels = (0.0,)
    default_paths_per_job = 50
    uses_rng = False

    def minimize(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        x0: np.ndarray,
        box: Box,
        rng: np.random.Generator,
    ) -> OptimizationResult:
        """L-BFGS-B from x0 (the kernel and rng are unused: the method is deterministic)."""
        del kernel, rng
        return exact_gradient_search(objective, x0, box, self.settings)

    def spends_whole_budget(self, sigma: float) -> bool:
        """L-BFGS-B stops when it has converged, long before Fig. 1's budget."""
        return False

    def cost(self, d: int, budget: int) -> Cost:
        """Measured with M = 4096 (one core): about 20 ms per run at d = 50; 7x that here."""
        return Cost(seconds=0.05 + 2e-3 * d)
