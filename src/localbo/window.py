"""The data MPD and MinUCB keep: the GP on a run's newest observations, and its best one.

Both reference codes build on GIBO's model, which keeps the newest `N_max` observations (5 d in
both) and, in the codes, standardizes the targets over them (`standardized`) with a noise
variance of 0.01 of the standardized scale (`REFERENCE_NOISE_VAR`); our modes keep the path's
scale and noise sigma^2 plus a nugget.
"""

from __future__ import annotations

import math

import numpy as np

from localbo.gp import GP
from localbo.kernels import Kernel
from localbo.objective import NoisyObjective

# the model noise variance of both codes' synthetic experiments (GIBO's `hypers.noise`)
REFERENCE_NOISE_VAR = 0.01


def standardized(y: np.ndarray) -> np.ndarray:
    """y as the reference codes' model takes its targets (`DerivativeExactGPSEModel.
    append_train_data`): one observation as it is; more, centred and divided by their standard
    deviation (ddof 0) plus 1e-10.

    Example:
        >>> standardized(np.array([1.0, 3.0])).round(9).tolist(), standardized(np.array([2.0]))
        ([-1.0, 1.0], array([2.]))
    """
    if len(y) == 1:
        return y
    return (y - y.mean()) / (np.std(y) + 1e-10)


class Window:
    """A run's observations: the GP on the newest `size` of them and the best one so far.

    Attributes: X (k, d) and y (k,), the newest k <= size observations; best_x (d,) and
    best_y, the lowest observed value and its point (the start and inf before the first).

    Args:
        objective: the (noisy) objective the points are evaluated on.
        kernel: the GP's kernel. size: the observations the GP keeps.
        noise_var: the GP's noise variance.
        standardize: give the GP the window's targets `standardized` (the reference codes).
        start: (d,) the best point until the first observation (the run's start).
    """

    def __init__(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        size: int,
        noise_var: float,
        standardize: bool,
        start: np.ndarray,
    ) -> None:
        self.objective, self.kernel, self.size = objective, kernel, size
        self.noise_var, self.standardize = noise_var, standardize
        self.X, self.y = np.empty((0, len(start))), np.empty(0)
        self.best_x, self.best_y = start, math.inf

    def consider(self, point: np.ndarray, value: float) -> None:
        """Keep a (d,) point observed at `value` as the best if it is."""
        if value < self.best_y:
            self.best_x, self.best_y = point, value

    def observe(self, point: np.ndarray) -> GP:
        """Evaluate a (d,) point; the GP on the newest `size` observations."""
        value = self.objective(point[None, :])
        self.X = np.vstack([self.X, point])[-self.size :]
        self.y = np.append(self.y, value)[-self.size :]
        self.consider(point, float(value[0]))
        y = standardized(self.y) if self.standardize else self.y
        return GP(self.kernel, self.X, y, self.noise_var)
