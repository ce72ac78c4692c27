"""NeST-BO's acquisition as it was before `NewtonInformation.extend`, kept as the oracle of the
equality checks: B = L^-1 [G; H]^T built anew for every point the batch samples (O(n^2 (d + d^2))
each) with K^-1 [G; H]^T beside it for the gradient, the implementation of 98399d7 and
earlier. Patched in for `NewtonInformation`, it makes `nestbo` that implementation's run bit for
bit; `tests/unit/test_nestbo.py` and `bench/nestbo_acquisition.py` run it beside the library.
"""

import numpy as np

from localbo.gp import GP
from localbo.linalg import solve_lower
from localbo.methods.nestbo.newton_information import NewtonInformation, hessian_cross


class RebuiltNewtonInformation(NewtonInformation):
    """`NewtonInformation` with every `extend` a whole build of B and K^-1 C."""

    def __init__(self, gp: GP, x: np.ndarray, room: int = 0, hessian_scale: float = 1.0) -> None:
        self.gp, self.x, self.d, self.n, self.h = gp, x, len(x), gp.n, hessian_scale
        self.ell2 = gp.kernel.lengthscale**2
        G = gp.kernel.grad_x(x, gp.X)  # (d, n)
        H = hessian_scale * hessian_cross(gp.kernel, x, gp.X).reshape(gp.n, -1).T  # (d^2, n)
        self._B = solve_lower(gp.L, np.vstack([G, H]).T)  # (n, d + d^2)
        self._K_inv_C = solve_lower(gp.L, self._B, trans=True)
        self.prior_var = gp.kernel.outputscale + gp.noise_var

    def extend(self) -> None:
        """Build B and K^-1 C anew on the GP's observations."""
        self.__init__(self.gp, self.x, hessian_scale=self.h)
