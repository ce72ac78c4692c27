"""Full-batch L-BFGS with a weak-Wolfe bracketing line search: the optimizer of the paper's code.

The paper's code (kayween/local-bo-convergence at ee8c032) optimizes both its query designs and
its GP hyperparameters with `FullBatchLBFGS` of Shi and Mudigere's PyTorch-LBFGS
(`zoofoo/BFGS/LBFGS.py`). Which local optimum a run reaches depends on the path the optimizer
takes, so the pipeline's "paper procedure" follows that algorithm step for step:

* the direction: the two-loop recursion on the last `history` pairs (s, y), with the initial
  inverse Hessian H0 = (y^T s) / (y^T y) I of the newest pair (1 before any); a pair is kept
  only when y^T s > eps s^T B s, where B s = -t g_prev (the code's curvature test), and no pair
  is formed after a failed line search;
* the line search: from t = `initial_step`, weak Wolfe conditions f(x + t d) <= f(x) + c1 t g^T d
  and g(x + t d)^T d >= c2 g^T d; a step that is too long (sufficient decrease fails) becomes the
  bracket's upper end beta, one too short (curvature fails) its lower end alpha; the next trial
  doubles t while beta is unset, then minimizes the quadratic through (alpha, f_a, g_a) and
  (beta, f_b), safeguarded to [alpha + 0.2 (beta - alpha), (beta - alpha) / 2] as the code
  writes it; after `max_line_search` trials it gives up, stays at x and marks the step failed.

Every step is one line search; the caller decides how many and when to stop (`PlateauStop` is
the design loop's rule). Float64 numpy throughout: the code runs in float64 too.

References:
    Nocedal & Wright (2006), Numerical Optimization, algorithms 7.4 (two-loop recursion) and
    3.5-3.6 (bracketing line search); H.-J. M. Shi and D. Mudigere, PyTorch-LBFGS (the
    implementation the paper's code ships).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Objective = Callable[[np.ndarray], tuple[float, np.ndarray]]
# The optimizers a design or a fit can take: scipy's L-BFGS-B (the pipeline's own), or this one
OPTIMIZERS = ("lbfgsb", "full_batch_lbfgs")


@dataclass(frozen=True)
class FullBatchLBFGSSettings:
    """The optimizer's constants; the defaults are PyTorch-LBFGS's (`LBFGS.__init__`, `_step`).

    Attributes:
        initial_step: the first trial step of every line search (the code's `lr`: 0.1 for its
            designs, utils.py line 37; 1 for its fits, line 81).
        history: pairs (s, y) kept. max_line_search: trials per line search (the code passes
            20, utils.py lines 52 and 96). c1, c2: the Wolfe constants. extrapolation: the
            factor t grows by while no trial was too long. curvature_eps: the pair test's eps.
    """

    initial_step: float = 1.0
    history: int = 10
    max_line_search: int = 10
    c1: float = 1e-4
    c2: float = 0.9
    extrapolation: float = 2.0
    curvature_eps: float = 1e-2


@dataclass(frozen=True)
class PlateauStop:
    """The code's stop rule of its design loop (utils.py lines 65-72): after iteration `after`,
    an iteration whose value lies less than `tolerance` below the value `window - 1` iterations
    earlier counts, any other resets the count, and `patience` counts in a row stop the run."""

    after: int = 5
    window: int = 5
    tolerance: float = 1e-5
    patience: int = 3

    def stops(self, values: list[float], count: int) -> tuple[bool, int]:
        """(stop now, the new count) after iteration len(values) - 1 with `values` so far."""
        if len(values) - 1 <= self.after:
            return False, count
        count = count + 1 if values[-self.window] - values[-1] < self.tolerance else 0
        return count >= self.patience, count


@dataclass(frozen=True)
class FullBatchLBFGSResult:
    """A run: the final point and value, the value after each iteration, the evaluations, and
    how many line searches failed."""

    x: np.ndarray
    value: float
    values: np.ndarray
    evaluations: int
    failed_line_searches: int


def _direction(gradient: np.ndarray, pairs: list[tuple[np.ndarray, np.ndarray]], h0: float):
    """-H g by the two-loop recursion over the pairs (s, y), oldest first."""
    q = -gradient
    alphas = []
    for s, y in reversed(pairs):
        alpha = float(s @ q) / float(y @ s)
        q = q - alpha * y
        alphas.append(alpha)
    r = h0 * q
    for (s, y), alpha in zip(pairs, reversed(alphas), strict=True):
        beta = float(y @ r) / float(y @ s)
        r = r + (alpha - beta) * s
    return r


def _quadratic_step(alpha: float, f_a: float, g_a: float, beta: float, f_b: float) -> float:
    """The minimizer of the quadratic with value f_a and slope g_a at alpha and value f_b at
    beta, clipped to [alpha, beta], in numpy's arithmetic as the code's `polyinterp` (a flat
    quadratic gives an infinite step, which the clip bounds; a NaN stays NaN)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        curvature = -(f_a - f_b - g_a * (alpha - beta)) / np.float64(alpha - beta) ** 2
        step = alpha - g_a / (2.0 * curvature)
    return float(np.minimum(np.maximum(min(alpha, beta), step), max(alpha, beta)))


def minimize(
    fun: Objective,
    x0: np.ndarray,
    iterations: int,
    settings: FullBatchLBFGSSettings | None = None,
    stop: PlateauStop | None = None,
) -> FullBatchLBFGSResult:
    """Minimize fun from x0 by `iterations` steps of full-batch L-BFGS (the module docstring),
    or fewer when `stop` says so.

    Args:
        fun: x (p,) -> (value, gradient (p,)).
        x0: (p,) start. iterations: line searches at most.
        settings: the optimizer's constants (None: PyTorch-LBFGS's defaults).
        stop: a stop rule on the values after each iteration (None: run them all).

    Returns:
        A `FullBatchLBFGSResult`; `values[i]` is the value after iteration i.

    Example:
        >>> result = minimize(lambda x: (float(x @ x), 2 * x), np.array([1.0, -2.0]), 20)
        >>> bool(result.value < 1e-12)
        True
    """
    s = settings or FullBatchLBFGSSettings()
    x = np.array(x0, dtype=float)
    value, gradient = fun(x)
    evaluations, failures, count = 1, 0, 0
    pairs: list[tuple[np.ndarray, np.ndarray]] = []
    h0, previous = 1.0, None  # previous: (gradient, step, B s) of the last successful search
    values: list[float] = []
    for _ in range(iterations):
        if previous is not None:
            g_prev, step, b_step = previous
            y = gradient - g_prev
            ys = float(y @ step)
            if ys > s.curvature_eps * float(step @ b_step):
                pairs = [*pairs, (step, y)][-s.history :]
                h0 = ys / float(y @ y)
        d = _direction(gradient, pairs, h0)
        slope = float(gradient @ d)
        t, alpha, beta = s.initial_step, 0.0, np.inf
        f_a, g_a, f_b = value, slope, np.nan
        new_value, new_gradient = fun(x + t * d)
        evaluations += 1
        trials, failed = 0, False
        while True:
            if trials >= s.max_line_search:
                t, failed = 0.0, True
                new_value, new_gradient = fun(x)
                evaluations += 1
                break
            if new_value > value + s.c1 * t * slope:
                beta, f_b = t, new_value
            else:
                new_slope = float(new_gradient @ d)
                if not new_slope < s.c2 * slope:  # as the code tests it: a NaN slope accepts
                    break
                alpha, f_a, g_a = t, new_value, new_slope
            if not np.isfinite(f_b):
                t = s.extrapolation * t if np.isinf(beta) else (alpha + beta) / 2.0
            else:
                t = _quadratic_step(alpha, f_a, g_a, beta, f_b)
                if t < alpha + 0.2 * (beta - alpha):
                    t = alpha + 0.2 * (beta - alpha)
                elif t > (beta - alpha) / 2.0:
                    t = (beta - alpha) / 2.0
                if t <= 0:
                    t = (beta - alpha) / 2.0
            new_value, new_gradient = fun(x + t * d)
            evaluations += 1
            trials += 1
        previous = None if failed else (gradient, t * d, -t * gradient)
        failures += failed
        x = x + t * d
        value, gradient = float(new_value), new_gradient
        values.append(value)
        if stop is not None:
            halt, count = stop.stops(values, count)
            if halt:
                break
    return FullBatchLBFGSResult(x, value, np.asarray(values), evaluations, failures)
