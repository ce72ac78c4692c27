"""The local minima of a sample path in a box, and where a method's solution ranks among them.

The paper's open question 1 (section 7): is local BO's solution good because of the landscape
(every local minimum of a GP sample path is good) or because of the algorithm? On one path:

- `local_minima`: exact-gradient L-BFGS-B (`localbo.methods.exact_gradient.minimize_in_box`) from R
  uniform starts in the box. Each start lands in one basin, so the R minima are a sample of the
  path's local minima weighted by the volume of their basins of attraction (under L-BFGS-B).
- `exact_bfgs_descent`: local BO's step rule at sigma = 0 (scipy BFGS, unconstrained, local BO's
  gtol, at most the gradient calls local BO's budget pays for, the best iterate returned) with
  the exact gradient in place of the GP estimate.
- `percentile`: the rank of a value within the population, lower is better.
- `outside_box`: unconstrained runs (local BO, the BFGS descent) may leave the box.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from localbo.methods.exact_gradient import ExactGradientSettings, minimize_in_box, on_boundary
from localbo.methods.local_bo.noiseless import best_point_bfgs
from localbo.objective import Box, BudgetExhausted
from localbo.sample_paths import FourierSamplePath

# Values this close count as the same minimum in `percentile` (converged minima agree to ~1e-12).
TIE_TOL = 1e-8


@dataclass(frozen=True)
class LocalMinima:
    """The population of one path: L-BFGS-B's minimum from each of R starts.

    Attributes:
        starts: (R, d) uniform starts. points: (R, d) minima. values: (R,) f there.
        on_boundary: (R,) whether each minimum is on the box's boundary.
        iterations: (R,) L-BFGS-B iterations.
    """

    starts: np.ndarray
    points: np.ndarray
    values: np.ndarray
    on_boundary: np.ndarray
    iterations: np.ndarray


def _value_and_gradient(path: FourierSamplePath, x: np.ndarray) -> tuple[float, np.ndarray]:
    """(f(x), (d,) grad f(x)) at a (d,) point."""
    value, grad = path.value_and_gradient(x[None, :])
    return float(value[0]), grad[0]


def local_minima(
    path: FourierSamplePath,
    box: Box,
    starts: int,
    settings: ExactGradientSettings,
    rng: np.random.Generator,
) -> LocalMinima:
    """Exact-gradient L-BFGS-B in the box from `starts` uniform points.

    Args:
        path: the sample path. box: the domain. starts: R >= 1.
        settings: L-BFGS-B's stopping rule (Fig. 1's exact_gradient method's).
        rng: the starts' stream, e.g. `rng_for(seed, "landscape", d, i)`.

    Example:
        >>> from localbo.kernels import RBF
        >>> from localbo.seeding import rng_for
        >>> f = FourierSamplePath.draw(RBF(), 2, 64, rng_for(0, "doc"))
        >>> pop = local_minima(f, Box(-2, 2, 2), 5, ExactGradientSettings(), rng_for(0, "starts"))
        >>> pop.points.shape, pop.values.shape
        ((5, 2), (5,))
    """
    X0 = box.uniform(starts, rng)
    results = [
        minimize_in_box(lambda x: _value_and_gradient(path, x), x0, box, settings) for x0 in X0
    ]
    points = np.array([r.x for r in results], dtype=float).reshape(starts, box.d)
    return LocalMinima(
        starts=X0,
        points=points,
        values=path(points),
        on_boundary=on_boundary(points, box),
        iterations=np.array([r.nit for r in results], dtype=np.int64),
    )


@dataclass(frozen=True)
class Descent:
    """The outcome of `exact_bfgs_descent`.

    Attributes:
        x: (d,) the best iterate. value: f(x). calls: gradient calls made.
        stop: "converged", "budget" or BFGS's message.
    """

    x: np.ndarray
    value: float
    calls: int
    stop: str


def exact_bfgs_descent(
    path: FourierSamplePath, x0: np.ndarray, gtol: float, max_calls: int
) -> Descent:
    """Local BO's sigma = 0 step rule with the exact gradient: scipy BFGS, unconstrained.

    `localbo.methods.local_bo.noiseless.best_point_bfgs`, local BO's own driver (BFGS with gtol, the
    best evaluated point returned), stopped after the gradient calls local BO's budget pays for.

    Args:
        path: the sample path. x0: (d,) start.
        gtol: local BO's `bfgs_gtol`.
        max_calls: value-and-gradient calls allowed (local BO's budget // (d + 1)).
    """
    calls = 0

    def value_and_gradient(x: np.ndarray) -> tuple[float, np.ndarray]:
        nonlocal calls
        if calls >= max_calls:
            raise BudgetExhausted(f"{max_calls} gradient calls used")
        calls += 1
        return _value_and_gradient(path, x)

    x, value, stop = best_point_bfgs(value_and_gradient, x0, gtol, 10 * max_calls + 10)
    return Descent(x=x, value=value, calls=calls, stop=stop)


def outside_box(X: np.ndarray, box: Box) -> np.ndarray:
    """(...,) whether each (..., d) point has a coordinate outside [lower, upper]."""
    X = np.asarray(X, dtype=float)
    return np.any(box.project(X) != X, axis=-1)


def percentile(value: float, population: np.ndarray, tol: float = TIE_TOL) -> float:
    """The mid-rank percentile of a value within a population, in [0, 100]; lower is better.

    100 (#{p < value - tol} + #{|p - value| <= tol} / 2) / R: a tie counts half, so a value
    drawn from the population itself has mean percentile 50 however many starts share a basin.
    0: better than every member; 100: worse than every member.

    Args:
        value: the method's f. population: (R,) values, R >= 1. tol: the tie tolerance.
    """
    population = np.asarray(population, dtype=float)
    if population.size == 0:
        raise ValueError("an empty population has no percentiles")
    below = np.count_nonzero(population < value - tol)
    ties = np.count_nonzero(np.abs(population - value) <= tol)
    return float(100.0 * (below + 0.5 * ties) / population.size)
