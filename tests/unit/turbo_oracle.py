"""TuRBO-1's Thompson draw as it was before its speedups (np.cos for the prior's values, scipy's
cdist for the kernel rows), kept whole as the oracle of the equality checks: the implementation
of `localbo.methods.turbo.thompson_values` at 590a61d, frozen here. Patched in for
`thompson_values`, it makes `localbo.methods.turbo.turbo` the TuRBO-1 of that commit.
`tests/unit/test_turbo.py` and `bench/turbo_thompson_draw.py` run it beside the library's.
"""

import math

import numpy as np

from localbo.gp import GP
from localbo.linalg import cho_solve
from localbo.sample_paths import FourierSamplePath


def thompson_values(
    gp: GP, C: np.ndarray, rng: np.random.Generator, num_features: int
) -> np.ndarray:
    """`localbo.methods.turbo.thompson_values` at 590a61d; returns (m,) at (m, d) points C."""
    prior = FourierSamplePath.draw(gp.kernel, C.shape[1], num_features, rng)
    eps = math.sqrt(gp.noise_var) * rng.standard_normal(gp.n)
    update = cho_solve(gp.L, gp.y - gp.prior_mean - prior(gp.X) - eps)
    return gp.prior_mean + prior(C) + gp.kernel(C, gp.X) @ update
