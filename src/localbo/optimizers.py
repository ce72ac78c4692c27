"""One entry point for the optimizers of Fig. 1: local BO, GP-UCB and random search.

Every optimizer has the signature `(objective, kernel, x0, box, rng, settings) ->
OptimizationResult`: the objective carries the sample path, sigma, the budget and the noise
stream; `rng` is the optimizer's own stream. `run_method` builds both from a method name and a
config dict, so a pipeline job is one call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from localbo.gp_ucb import GPUCBSettings, gp_ucb
from localbo.kernels import Kernel
from localbo.local_bo import LocalBOSettings, local_bo
from localbo.objective import Box, NoisyObjective, OptimizationResult
from localbo.random_search import RandomSearchSettings, random_search
from localbo.sample_paths import FourierSamplePath

METHODS: dict[str, tuple[Callable[..., OptimizationResult], type]] = {
    "local_bo": (local_bo, LocalBOSettings),
    "gp_ucb": (gp_ucb, GPUCBSettings),
    "random_search": (random_search, RandomSearchSettings),
}


def run_method(
    method: str,
    path: FourierSamplePath,
    kernel: Kernel,
    sigma: float,
    budget: int,
    box: Box,
    settings: dict[str, Any],
    noise_rng: np.random.Generator,
    method_rng: np.random.Generator,
    x0: np.ndarray | None = None,
) -> OptimizationResult:
    """Run one optimizer on one sample path.

    Args:
        method: a key of METHODS.
        path: the objective f. kernel: the GP model's kernel (hyperparameters known).
        sigma: observation noise standard deviation. budget: evaluations allowed.
        box: the domain. settings: keyword arguments of the method's settings dataclass.
        noise_rng: the observation-noise stream. method_rng: the optimizer's stream.
        x0: (d,) start (default: the origin, as in the paper).
    """
    try:
        optimizer, settings_type = METHODS[method]
    except KeyError:
        raise ValueError(f"unknown method {method!r}; known: {sorted(METHODS)}") from None
    x0 = np.zeros(box.d) if x0 is None else np.asarray(x0, dtype=float)
    objective = NoisyObjective(path, sigma, budget, noise_rng)
    return optimizer(objective, kernel, x0, box, method_rng, settings_type(**settings))
