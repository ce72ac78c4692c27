"""Local BO with sigma = 0: BFGS driven by GP gradient estimates (the paper's Fig. 1 and 3 runs).

As in the paper, the estimates are passed to BFGS. One BFGS call at x costs b = d + 1
evaluations: x itself (whose exact value is the function value BFGS needs) and d design points
chosen by minimizing alpha_trace(x, Z | {x}). By Lemma 2 of the paper E_{d,k,0}(d + 1) = 0, so the
gradient is (up to the nugget) exact.

Two other step rules take the same estimates (`MINIMIZERS`), for the sensitivity study
(`localbo.pipeline.sensitivity`): L-BFGS with a history of 10 pairs and a Wolfe line search (the
paper's repository ships one, `zoofoo/BFGS/LBFGS.py`; here scipy's L-BFGS-B without bounds), and
Algorithm 1's gradient steps x - eta grad mu(x) with a fixed eta.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

import numpy as np

from localbo.designs import Design, optimal_design
from localbo.kernels import Kernel
from localbo.methods.local_bo.gradients import Batch, design_gradient_weights, observe_gradient
from localbo.methods.local_bo.settings import LocalBOSettings
from localbo.objective import BudgetExhausted, NoisyObjective, OptimizationResult, Trace, finish
from localbo.sample_paths import FourierSamplePath


def noiseless_design(
    kernel: Kernel, d: int, rng: np.random.Generator, settings: LocalBOSettings
) -> Design:
    """The design of the sigma = 0 driver: the iterate and d points, b = d + 1 evaluations.

    It does not depend on the iterate (stationary kernel), so many runs on one path share it.

    Args:
        kernel: the GP's kernel. d: dimension. rng: stream of the design optimizer's jitter.
        settings: `LocalBOSettings` (min_noise_var and the design knobs).
    """
    return optimal_design(
        kernel, d, d + 1, settings.min_noise_var, True, rng, **settings.design_options()
    )


def best_point_bfgs(
    value_and_gradient: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    gtol: float,
    max_iterations: int,
    callback: Callable[[np.ndarray], None] | None = None,
) -> tuple[np.ndarray, float, str]:
    """Local BO's sigma = 0 step rule: scipy BFGS from x0, unconstrained, until it converges or
    `value_and_gradient` raises `BudgetExhausted`.

    Args:
        value_and_gradient: (d,) x -> (f(x), (d,) gradient or its estimate).
        x0: (d,) start. gtol: BFGS's gradient tolerance. max_iterations: BFGS's cap.
        callback: called with each accepted (d,) iterate.

    Returns:
        (x, value, stop): the evaluated point with the least value (d,), that value, and
        "converged", "budget" or BFGS's message.
    """
    how = {"method": "BFGS", "options": {"gtol": gtol, "maxiter": max_iterations}}
    return _best_point(value_and_gradient, x0, callback, how)


def best_point_lbfgs(
    value_and_gradient: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    gtol: float,
    max_iterations: int,
    callback: Callable[[np.ndarray], None] | None = None,
) -> tuple[np.ndarray, float, str]:
    """`best_point_bfgs` with L-BFGS: scipy's L-BFGS-B without bounds, 10 correction pairs (the
    history of the paper repository's L-BFGS), its strong-Wolfe line search; it stops when the
    largest component of the estimated gradient is at most gtol."""
    return _best_point(
        value_and_gradient, x0, callback,
        {"method": "L-BFGS-B",
         "options": {"maxcor": 10, "gtol": gtol, "ftol": 0.0, "maxiter": max_iterations}},
    )  # fmt: skip


def best_point_gradient_steps(
    value_and_gradient: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    gtol: float,
    max_iterations: int,
    callback: Callable[[np.ndarray], None] | None = None,
    step: float = 0.1,
) -> tuple[np.ndarray, float, str]:
    """`best_point_bfgs` with Algorithm 1's step x - step * grad, from x0 until the estimated
    gradient norm is at most gtol, `max_iterations` steps, or the budget."""
    best, x = {"value": np.inf, "x": np.array(x0, dtype=float)}, np.array(x0, dtype=float)
    stop = "max_iterations"
    try:
        for _ in range(max_iterations):
            value, grad = value_and_gradient(x)
            if value < best["value"]:
                best["value"], best["x"] = value, x.copy()
            if np.linalg.norm(grad) <= gtol:
                stop = "converged"
                break
            x = x - step * grad
            if callback is not None:
                callback(x)
    except BudgetExhausted:
        stop = "budget"
    return best["x"], float(best["value"]), stop


def _best_point(
    value_and_gradient: Callable[[np.ndarray], tuple[float, np.ndarray]],
    x0: np.ndarray,
    callback: Callable[[np.ndarray], None] | None,
    how: dict,
) -> tuple[np.ndarray, float, str]:
    """scipy's `minimize` with `how` (method and options), the least evaluated point kept."""
    from scipy.optimize import minimize

    best = {"value": np.inf, "x": np.array(x0, dtype=float)}

    def tracked(x: np.ndarray) -> tuple[float, np.ndarray]:
        value, grad = value_and_gradient(x)
        if value < best["value"]:
            best["value"], best["x"] = value, np.array(x, dtype=float)
        return value, grad

    try:
        res = minimize(tracked, np.array(x0, dtype=float), jac=True, callback=callback, **how)
        stop = "converged" if res.success else f"{how['method'].lower()}: {res.message}"
    except BudgetExhausted:
        stop = "budget"
    return best["x"], float(best["value"]), stop


# local BO's sigma = 0 step rules: the paper's BFGS, and the sensitivity study's others
MINIMIZERS = {
    "bfgs": best_point_bfgs,
    "lbfgs": best_point_lbfgs,
    "gradient": best_point_gradient_steps,
}


def run_noiseless(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    settings: LocalBOSettings,
    design: Design,
    minimizer: str = "bfgs",
    **minimizer_options: float,
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
        design: a design that includes the center, e.g. from `noiseless_design`.
        minimizer: the step rule the estimates drive, a key of `MINIMIZERS` (the paper's: BFGS);
            `minimizer_options` go to it (the gradient steps' `step`).
    """
    if not design.includes_center:
        raise ValueError("the noiseless driver needs a design that includes the iterate")
    noise_var = objective.sigma**2 + settings.min_noise_var
    trace = Trace()
    trace.record(objective, x0)
    past: deque[Batch] = deque(maxlen=settings.data_window)
    weights = design_gradient_weights(kernel, design, noise_var)
    calls = 0

    def value_and_estimate(x: np.ndarray) -> tuple[float, np.ndarray]:
        nonlocal calls
        if objective.remaining < design.size:
            raise BudgetExhausted("budget cannot pay for another gradient")
        batch, grad = observe_gradient(
            objective, kernel, x, design, weights, noise_var, past, settings
        )
        calls += 1
        return float(batch.y[0]), grad

    def record(xk: np.ndarray) -> None:
        trace.record(objective, xk)

    x_final, _, stop = MINIMIZERS[minimizer](
        value_and_estimate,
        x0,
        settings.bfgs_gtol,
        10 * objective.budget + 10,
        record,
        **minimizer_options,
    )
    trace.record(objective, x_final)
    return finish(objective, x_final, trace, iterations=calls, stop=stop)


def run_noiseless_local_bo(
    path: FourierSamplePath,
    kernel: Kernel,
    x0: np.ndarray,
    budget: int,
    design: Design | None = None,
    settings: LocalBOSettings | None = None,
    rng: np.random.Generator | None = None,
    minimizer: str = "bfgs",
    **minimizer_options: float,
) -> OptimizationResult:
    """One noiseless local-BO run from x0 on a sample path (the building block of Figs. 1, 3).

    For many restarts on one path, compute the design once with `noiseless_design` and pass it:
    it does not depend on the start.

    Args:
        path: the objective f. kernel: the GP model's kernel. x0: (d,) start.
        budget: evaluations allowed.
        design: design around the iterate including it (None: optimized here, needs rng).
        settings: `LocalBOSettings` (None: defaults).
        rng: stream for the design optimizer's jitter (only used when design is None).
        minimizer, minimizer_options: the step rule (`run_noiseless`).

    Example:
        >>> from localbo.kernels import RBF
        >>> from localbo.sample_paths import FourierSamplePath
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
        design = noiseless_design(kernel, d, rng, settings)
    objective = NoisyObjective(path, 0.0, budget)
    return run_noiseless(objective, kernel, x0, settings, design, minimizer, **minimizer_options)
