"""MPD's acquisition as it was before its O(n d) rewrite, kept whole as the oracle of the
equality checks: per evaluation two solves with the window's factor and two with Sigma's, the
(d, d) Jacobian of c formed in full (an (n, d) x (n, d) product), and the raw samples scored one
by one. The implementation of `localbo.methods.mpd.DownhillQuadratic` at 5c6f058, frozen here;
passed to `localbo.methods.mpd.sample_point` as its `acquisition_type`, it is the sampler of that
commit. `tests/unit/test_mpd.py` and `bench/mpd_acquisition.py` run it beside the library's.
"""

import numpy as np

from localbo.gp import GP
from localbo.linalg import cho_solve, cholesky


class DenseDownhillQuadratic:
    """alpha(z) of one iteration at x and its gradient, as `localbo.methods.mpd.DownhillQuadratic`
    computed them at 5c6f058."""

    def __init__(self, gp: GP, x: np.ndarray, mean: np.ndarray) -> None:
        self.gp, self.x, self.mean = gp, x, mean
        cov = gp.grad_cov(x)
        self.L_sigma, _ = cholesky(0.5 * (cov + cov.T))
        self.sigma_inv_mean = cho_solve(self.L_sigma, mean)
        self.quadratic = float(mean @ self.sigma_inv_mean)
        self.G = gp.kernel.grad_x(x, gp.X)  # (d, n)
        self.K_inv_Gt = cho_solve(gp.L, self.G.T)  # (n, d)

    def values(self, Z: np.ndarray) -> np.ndarray:
        """alpha at (m, d) points, one at a time."""
        return np.array([self(z, with_grad=False)[0] for z in Z])

    def __call__(self, z: np.ndarray, with_grad: bool = True) -> tuple[float, np.ndarray | None]:
        gp, kernel = self.gp, self.gp.kernel
        ell2 = kernel.lengthscale**2
        kz = kernel(z[None, :], gp.X)[0]
        K_inv_kz = cho_solve(gp.L, kz)
        u_xz = self.x - z
        k_xz = float(kernel(self.x[None, :], z[None, :])[0, 0])
        c = -u_xz / ell2 * k_xz - self.G @ K_inv_kz
        s = kernel.outputscale + gp.noise_var - float(kz @ K_inv_kz)
        u = cho_solve(self.L_sigma, c)
        a, w = float(c @ u), float(self.mean @ u)
        D = s - a
        value = self.quadratic + (w * w + a) / D
        if not with_grad:
            return value, None
        J = (gp.X - z) / ell2 * kz[:, None]
        dc = (np.eye(len(z)) / ell2 - np.outer(u_xz, u_xz) / ell2**2) * k_xz
        dc -= self.K_inv_Gt.T @ J
        ds = -2.0 * J.T @ K_inv_kz
        da, dw = 2.0 * dc.T @ u, dc.T @ self.sigma_inv_mean
        grad = ((2.0 * w * dw + da) * D - (w * w + a) * (ds - da)) / D**2
        return value, grad
