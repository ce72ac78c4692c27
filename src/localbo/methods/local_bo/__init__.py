"""Local Bayesian optimization: Algorithm 1 of the paper (GIBO with a batch-size schedule).

Each iteration t picks a design Z (b_t points) around the iterate x_t by minimizing
alpha_trace(x_t, Z | D) (eq. 2) with L-BFGS (`localbo.designs`), evaluates it, conditions the GP
(known hyperparameters, the kernel of the path, zero prior mean) and estimates the gradient by
the posterior mean grad mu_D(x_t) (`gradients`). Two drivers use that estimate:

* sigma = 0 (`noiseless.run_noiseless`): BFGS on the estimates, d + 1 evaluations per call;
* sigma > 0 (`noisy.run_noisy`): projected gradient steps with a batch schedule and a step rule.

`LocalBO` is the plug-in of the pipeline (`localbo.optimizers`); `local_bo` the same as a function.

References:
    Mueller, von Rohr & Trimpe (2021), Local policy search with Bayesian optimization (GIBO);
    the paper: Algorithm 1, eq. (2), Lemma 2, section 5 (batch schedules), appendix B.
"""

from __future__ import annotations

import numpy as np

from localbo.kernels import Kernel
from localbo.methods.local_bo.gradients import (
    DesignCache,
    design_gradient_weights,
    gradient_weights,
    posterior_gradient_mean,
)
from localbo.methods.local_bo.noiseless import (
    noiseless_design,
    run_noiseless,
    run_noiseless_local_bo,
)
from localbo.methods.local_bo.noisy import run_noisy
from localbo.methods.local_bo.settings import (
    BATCH_SCHEDULES,
    NOISY_KNOBS,
    STEP_RULES,
    LocalBOSettings,
    batch_size,
)
from localbo.objective import Box, NoisyObjective, OptimizationResult
from localbo.optimizers import Cost, FunctionOptimizer, register

__all__ = [
    "BATCH_SCHEDULES",
    "NOISY_KNOBS",
    "STEP_RULES",
    "DesignCache",
    "LocalBO",
    "LocalBOSettings",
    "batch_size",
    "design_gradient_weights",
    "gradient_weights",
    "local_bo",
    "noiseless_design",
    "posterior_gradient_mean",
    "run_noiseless",
    "run_noiseless_local_bo",
    "run_noisy",
]


def local_bo(
    objective: NoisyObjective,
    kernel: Kernel,
    x0: np.ndarray,
    box: Box,
    rng: np.random.Generator,
    settings: LocalBOSettings | None = None,
) -> OptimizationResult:
    """Algorithm 1: the BFGS driver for sigma = 0, projected gradient steps for sigma > 0.

    Args:
        objective: the (noisy) objective with its budget.
        kernel: the GP's kernel (the path's, hyperparameters known).
        x0: (d,) start. box: domain (used by the sigma > 0 projection).
        rng: the optimizer's own stream (design-optimizer jitter), not the noise stream.
        settings: `LocalBOSettings` (None: the defaults).
    """
    settings = settings or LocalBOSettings()
    d = x0.shape[0]
    if objective.sigma == 0:
        return run_noiseless(
            objective, kernel, x0, settings, noiseless_design(kernel, d, rng, settings)
        )
    noise_var = objective.sigma**2 + settings.min_noise_var
    cache = DesignCache(kernel, d, noise_var, False, rng, settings)
    return run_noisy(objective, kernel, x0, box, settings, cache)


@register
class LocalBO(FunctionOptimizer):
    """Local BO as a pipeline method (`local_bo`): Algorithm 1 / GIBO."""

    name = "local_bo"
    label = "local BO"
    invalid_settings = ({"step_size": -0.25}, {"batch_factor": 0.0}, {"min_noise_var": -1e-10})
    Settings = LocalBOSettings
    function = staticmethod(local_bo)
    default_noise_levels = (0.0, 0.05, 0.2)  # the paper's (section 3)
    default_paths_per_job = 10

    def spends_whole_budget(self, sigma: float) -> bool:
        """At sigma = 0 the BFGS driver stops when it has converged."""
        return sigma > 0

    def min_budget(self, d: int) -> int:
        """One gradient: d + 1 evaluations."""
        return d + 1

    def settings_read(self, sigma: float) -> tuple[str, ...]:
        return self.settings.read_at(sigma)

    def cost(self, d: int, budget: int) -> Cost:
        """A noisy run's CPU, 4.4e-4 budget / d^0.8 seconds: the steps a budget pays for fall
        with d (a gradient estimate takes about d evaluations), each cheap. At 5000 evaluations
        2.2 s at d = 1, 0.6 s at d = 5, 0.3 s at d = 10, 0.2 s at d = 20 and 30 by the jobs' logs
        (bench/results/forecast_check.jsonl); a noiseless run stops far sooner, at a tenth of it
        or less, so the model bounds those."""
        return Cost(seconds=4.4e-4 * budget / d**0.8)
