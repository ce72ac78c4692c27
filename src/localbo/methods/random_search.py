"""Random search: uniform points in a box, the best observation wins.

The baseline of Fig. 1 (paper section 3): the same budget as local BO, points drawn uniformly in
the box from the optimizer's own stream, evaluated in chunks; the returned point is the one with
the least (noisy) observation, reported at its true value.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from localbo.kernels import Kernel
from localbo.objective import Box, NoisyObjective, OptimizationResult, Trace, finish
from localbo.optimizers import Cost, FunctionOptimizer, register
from localbo.settings_checks import require


@dataclass(frozen=True)
class RandomSearchSettings:
    """Knobs of random search; the defaults are the paper-scale pipeline's.

    Attributes:
        chunk: points drawn and evaluated at once; the trace gets one row per chunk.
    """

    chunk: int = 250

    def __post_init__(self) -> None:
        require(self, lambda v: v >= 1, ">= 1", "chunk")


def random_search(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: RandomSearchSettings | None = None,
) -> OptimizationResult:
    """Spend the whole budget on uniform points in the box.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: unused (the common optimizer signature).
        x0: (d,) start, projected onto the box: only the trace's first row (not evaluated).
        box: the domain. rng: the optimizer's own stream.
        settings: `RandomSearchSettings` (None: the defaults).
    """
    del kernel
    settings = settings or RandomSearchSettings()
    trace = Trace()
    best_x, best_y = box.project(np.array(x0, dtype=float)), np.inf
    trace.record(objective, best_x)
    seen_X, seen_y = [], []
    while objective.remaining > 0:
        X = box.uniform(min(settings.chunk, objective.remaining), rng)
        y = objective(X)
        seen_X.append(X)
        seen_y.append(y)
        i = int(np.argmin(y))
        if y[i] < best_y:
            best_x, best_y = X[i], float(y[i])
        trace.record(objective, best_x)
    result = finish(objective, best_x, trace, stop="budget", best_observation=best_y)
    if seen_X:
        result.observations = (np.vstack(seen_X), np.concatenate(seen_y))
    return result


@register
class RandomSearch(FunctionOptimizer):
    """Random search as a pipeline method (`random_search`)."""

    name = "random_search"
    traced = "incumbent"
    evaluates_start = False  # uniform points only
    invalid_settings = ({"chunk": 0},)
    Settings = RandomSearchSettings
    function = staticmethod(random_search)
    default_paths_per_job = 50

    def cost(self, d: int, budget: int) -> Cost:
        """Under a second per run (one core)."""
        return Cost(seconds=2e-4 * budget)
