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


class Best:
    """The lowest value observed so far and its (d,) point (`x`; the start before the first)."""

    def __init__(self, start: np.ndarray) -> None:
        self.x, self.y = start, math.inf

    def consider(self, point: np.ndarray, value: float) -> None:
        """Keep a (d,) point observed at `value` as the best if it is."""
        if value < self.y:
            self.x, self.y = point, value


class Window(Best):
    """A run's observations: the GP on the newest `size` of them and the best one so far.

    Attributes: X (k, d) and y_window (k,), the newest k <= size observations; x and y, the
    best observation (`Best`).

    Args:
        objective: the (noisy) objective the points are evaluated on.
        kernel: the GP's kernel. size: the observations the GP keeps.
        min_noise_var: the nugget added to sigma^2 in the GP's noise.
        reference: as the reference codes: the window's targets `standardized` and the noise
            variance `REFERENCE_NOISE_VAR`.
        start: (d,) the best point until the first observation (the run's start).
    """

    def __init__(
        self,
        objective: NoisyObjective,
        kernel: Kernel,
        size: int,
        min_noise_var: float,
        reference: bool,
        start: np.ndarray,
    ) -> None:
        super().__init__(start)
        self.objective, self.kernel, self.size, self.reference = objective, kernel, size, reference
        self.noise_var = REFERENCE_NOISE_VAR if reference else objective.sigma**2 + min_noise_var
        self.X, self.y_window = np.empty((0, len(start))), np.empty(0)

    def observe(self, point: np.ndarray) -> GP:
        """Evaluate a (d,) point; the GP on the newest `size` observations."""
        value = self.objective(point[None, :])
        self.X = np.vstack([self.X, point])[-self.size :]
        self.y_window = np.append(self.y_window, value)[-self.size :]
        self.consider(point, float(value[0]))
        y = standardized(self.y_window) if self.reference else self.y_window
        return GP(self.kernel, self.X, y, self.noise_var)
