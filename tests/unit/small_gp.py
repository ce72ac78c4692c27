"""The small GPs on which the acquisitions' closed forms are checked (MPD, MinUCB, NeST-BO)."""

import numpy as np

from localbo.gp import GP
from localbo.kernels import RBF
from localbo.seeding import rng_for

# the unit kernel of the paper and one whose lengthscale and outputscale differ from 1 and from
# each other, so that a wrong power of either in a closed form shows
KERNELS = [RBF(), RBF(0.6, 2.3)]


def small_gp(
    stream: str, seed: int, d: int = 3, n: int = 8, kernel: RBF = KERNELS[0]
) -> tuple[GP, np.random.Generator]:
    """A GP on n points near 0 in d dimensions, of sin(2 x_1) + x_2^2, and the stream that drew
    them (rng_for(seed, stream)), to draw more from."""
    rng = rng_for(seed, stream)
    X = 0.3 * rng.standard_normal((n, d))
    return GP(kernel, X, np.sin(2 * X[:, 0]) + X[:, 1] ** 2, noise_var=1e-3), rng
