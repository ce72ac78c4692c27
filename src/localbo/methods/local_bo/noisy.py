"""Local BO with sigma > 0: projected gradient steps (Algorithm 1 with a projection, eq. 4).

x_{t+1} = proj_X(x_t - eta_t g_t) on a box with a batch schedule b_t in {constant, d log^2 t,
d t, d t^2} (section 5 of the paper) and either the fixed step g_t = grad mu or GIBO's normalized
step g_t = grad mu / ||grad mu||.
"""

from __future__ import annotations

from collections import deque

import numpy as np

from localbo.kernels import Kernel
from localbo.methods.local_bo.gradients import Batch, DesignCache, observe_gradient
from localbo.methods.local_bo.settings import LocalBOSettings, batch_size
from localbo.objective import Box, NoisyObjective, OptimizationResult, Trace, finish


def run_noisy(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    settings: LocalBOSettings,
    designs: DesignCache,
) -> OptimizationResult:
    """Local BO with projected gradient steps (Algorithm 1 with a projection, paper eq. 4).

    Iterates until the budget is spent; the last batch is cut to the remaining budget. Returned
    point: the final iterate (the optimizer cannot see true values).

    Args:
        objective: the noisy objective. kernel: GP kernel (known hyperparameters).
        x0: (d,) start. box: the domain of the projection.
        settings: `LocalBOSettings` (schedule, batch_factor, step_rule, step_size, data_window).
        designs: cache of optimal designs without the center (its noise variance is the
            objective's sigma^2 plus the nugget).
    """
    d = x0.shape[0]
    noise_var = designs.noise_var
    x = box.project(np.array(x0, dtype=float))
    trace = Trace()
    trace.record(objective, x)
    past: deque[Batch] = deque(maxlen=settings.data_window)
    t = 0
    while objective.remaining > 0:
        t += 1
        b = min(batch_size(settings.schedule, d, t, settings.batch_factor), objective.remaining)
        _, g = observe_gradient(
            objective, kernel, x, designs.get(b), designs.weights(b), noise_var, past, settings
        )
        if settings.step_rule == "normalized":
            norm = float(np.linalg.norm(g))
            g = g / norm if norm > 0 else g
        x = box.project(x - settings.step_size * g)
        trace.record(objective, x)
    return finish(objective, x, trace, iterations=t, stop="budget")
