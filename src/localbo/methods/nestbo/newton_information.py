"""NeST-BO's acquisition: the Newton information, how much observing y(z) shrinks the posterior
variances of grad f(x) and of the entries of Hess f(x) (`localbo.methods.nestbo`, step 1), in
closed form with its analytic gradient in z, for the RBF kernel."""

from __future__ import annotations

import math
from functools import cached_property

import numpy as np

from localbo.gp import GP
from localbo.kernels import RBF
from localbo.linalg import solve_lower


def hessian_cross(kernel: RBF, x: np.ndarray, Z: np.ndarray) -> np.ndarray:
    """d^2 k(x, z_j) / dx dx^T for every row z_j of Z: (m, d, d), the prior covariance of
    Hess f(x) with f(Z), k(x, z) (u u^T / l^4 - I / l^2) with u = x - z."""
    U = x[None, :] - Z
    ell2 = kernel.lengthscale**2
    k = kernel(x[None, :], Z)[0]
    return k[:, None, None] * (U[:, :, None] * U[:, None, :] / ell2**2 - np.eye(len(x)) / ell2)


class NewtonInformation:
    """alpha(z) = (||c_g||^2 + h^2 ||C_H||_F^2) / s of one iteration at x (module docstring) and
    its gradient in z.

    With the GP's K = L L^T, B = L^-1 [G; h H]^T ((n, d + d^2): the prior covariances of
    grad f(x) and of Hess f(x)'s entries, times h, with f(X)) and r = L^-1 k(X, z):
    [c_g; h vec C_H] = [a_g; vec a_H] - B^T r, with a_g = -k(x, z) u / l^2 and
    a_H = h k(x, z) (u u^T / l^4 - I / l^2) (u = x - z),
    and s = k(z, z) + noise - r^T r: O(n (d + d^2)) a point. The gradient contracts every
    Jacobian with a vector first (as `localbo.methods.minucb.GradientInformation`). B is built
    once an iteration and gains a row a point the batch observes (`extend`).

    Args:
        gp: the posterior (RBF kernel). x: (d,) the iterate. room: rows set aside in B for the
            observations `extend` takes in. hessian_scale: h.
    """

    def __init__(self, gp: GP, x: np.ndarray, room: int = 0, hessian_scale: float = 1.0) -> None:
        if not isinstance(gp.kernel, RBF):
            raise ValueError(f"NeST-BO's acquisition needs the RBF kernel, got {gp.kernel.name}")
        self.gp, self.x, self.d, self.h = gp, x, len(x), hessian_scale
        self.ell2 = gp.kernel.lengthscale**2
        self.n = gp.n
        p = self.d + self.d**2
        self._B, self._K_inv_C = np.empty((gp.n + room, p)), np.empty((gp.n + room, p))
        self._B[: self.n] = solve_lower(gp.L, self._prior_cross(gp.X))
        self._K_inv_C[: self.n] = solve_lower(gp.L, self.B, trans=True)
        self.prior_var = gp.kernel.outputscale + gp.noise_var

    @cached_property
    def _eye_over_ell2(self) -> np.ndarray:
        """I / l^2, (d, d), for the Hessian's prior parts."""
        return np.eye(self.d) / self.ell2

    @property
    def B(self) -> np.ndarray:
        """L^-1 C, C = [G; H]^T on the observations taken in: (n, d + d^2)."""
        return self._B[: self.n]

    @property
    def K_inv_C(self) -> np.ndarray:
        """K^-1 C = L^-T B, for the gradient: (n, d + d^2)."""
        return self._K_inv_C[: self.n]

    def _prior_cross(self, X: np.ndarray) -> np.ndarray:
        """[G; h H]^T: the prior covariances of grad f(x) and of Hess f(x)'s entries (times h)
        with f at the (m, d) points X, (m, d + d^2)."""
        G = self.gp.kernel.grad_x(self.x, X)  # (d, m)
        H = hessian_cross(self.gp.kernel, self.x, X).reshape(len(X), -1)
        return np.hstack([G.T, self.h * H])

    def extend(self) -> None:
        """Take in the m observations the GP gained since (the iterate the same), from the new
        block row [L21, L22] of its factor: B gains the rows B' = L22^-1 (C_new - L21 B), and
        K^-1 C becomes [K^-1 C - W E; E] with E = L22^-T B' and W = L^-T L21^T (the bordered
        factor's inverse): O(m n (n + d + d^2)) where building both anew is O(n^2 (d + d^2)).
        `room` rows were set aside for them."""
        n, m = self.n, self.gp.n - self.n
        if m == 0:
            return
        if m > len(self._B) - n:
            raise ValueError(f"{m} new observations, room for {len(self._B) - n}")
        L = self.gp.L
        L21, L22 = L[n:, :n], L[n:, n:]
        rows = solve_lower(L22, self._prior_cross(self.gp.X[n:]) - L21 @ self.B)  # (m, p)
        E = solve_lower(L22, rows, trans=True)
        W = solve_lower(L[:n, :n], L21.T, trans=True)  # (n, m)
        self._K_inv_C[:n] -= W @ E
        self._K_inv_C[n : n + m], self._B[n : n + m] = E, rows
        self.n = n + m

    def _prior_parts(self, U: np.ndarray, k: np.ndarray) -> np.ndarray:
        """[a_g, vec a_H] at (m, d) differences u = x - z with k(x, z) (m,): (m, d + d^2)."""
        ell2, m = self.ell2, len(k)
        a_g = -U * k[:, None] / ell2
        a_H = (self.h * k)[:, None, None] * (
            U[:, :, None] * U[:, None, :] / ell2**2 - self._eye_over_ell2
        )
        return np.hstack([a_g, a_H.reshape(m, -1)])

    def values(self, Z: np.ndarray) -> np.ndarray:
        """alpha at (m, d) points; returns (m,)."""
        k_xz = self.gp.kernel(self.x[None, :], Z)[0]  # (m,)
        r = solve_lower(self.gp.L, self.gp.kernel(Z, self.gp.X).T)  # (n, m)
        c = self._prior_parts(self.x[None, :] - Z, k_xz) - r.T @ self.B  # (m, d + d^2)
        s = self.prior_var - np.einsum("im,im->m", r, r)
        return np.einsum("mj,mj->m", c, c) / s

    def __call__(self, z: np.ndarray) -> tuple[float, np.ndarray]:
        """alpha at a (d,) point and its (d,) gradient."""
        gp, ell2, d = self.gp, self.ell2, self.d
        diff, u = gp.X - z, self.x - z  # (n, d), (d,)
        kz = gp.kernel.outputscale * np.exp(-0.5 / ell2 * np.einsum("ij,ij->i", diff, diff))
        k_xz = gp.kernel.outputscale * math.exp(-0.5 / ell2 * float(u @ u))
        r = solve_lower(gp.L, kz)
        # `_prior_parts` at the one point, with the same operations in the same order
        a_H = (self.h * k_xz) * (np.multiply.outer(u, u) / ell2**2 - self._eye_over_ell2)
        prior = np.concatenate([-u * k_xz / ell2, a_H.ravel()])
        c = prior - self.B.T @ r
        a, s = float(c @ c), self.prior_var - float(r @ r)
        c_g, C_H = c[:d], c[d:].reshape(d, d)
        # k(X, z)'s Jacobian J = diff k(X, z) / l^2 is needed only against K^-1 k(X, z) and
        # K^-1 C c
        P = np.column_stack([solve_lower(gp.L, r, trans=True), self.K_inv_C @ c])
        JtP = diff.T @ (kz[:, None] * P) / ell2  # (d, 2)
        # the prior parts' Jacobians against c: a_g's as in MinUCB; a_H's (C_H here the scaled
        # h C_H) is u <C_H, a_H> / l^2 - h k(x, z) (C_H + C_H^T) u / l^4
        dprior_c = k_xz * (c_g / ell2 - u * float(u @ c_g) / ell2**2)
        dprior_c += (
            u * float(np.sum(C_H * a_H)) / ell2 - self.h * k_xz * (C_H + C_H.T) @ u / ell2**2
        )
        da, ds = 2.0 * (dprior_c - JtP[:, 1]), -2.0 * JtP[:, 0]
        return a / s, (da * s - a * ds) / s**2
