"""Stationary isotropic kernels and the derivatives local BO needs.

A kernel here is k(x, z) = s2 * phi(r) with the scaled distance r = ||x - z|| / l, lengthscale l
and outputscale s2. Every derivative the library uses follows from three radial profiles:

    value(r) = phi(r)
    slope(r) = phi'(r) / r                      so  grad_x k(x, z) = s2 * slope(r) * (x - z) / l**2
    curve(r) = (phi''(r) - phi'(r) / r) / r**2  the derivative of slope, divided by r

All three are smooth at r = 0 for the RBF and Matern-5/2 kernels, which is why the gradient
formulas below never divide by a distance. The gradient-gradient block at coincident points is
d/dx d/dx' k(x, x') |_{x = x'} = -s2 * slope(0) / l**2 * I.

References:
    Rasmussen & Williams (2006), Gaussian Processes for Machine Learning, ch. 4 (the kernels);
    section 2 of the paper (the joint law of values and gradients).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

SQRT5 = np.sqrt(5.0)


@dataclass(frozen=True)
class Kernel(ABC):
    """A stationary isotropic kernel k(x, z) = outputscale * phi(||x - z|| / lengthscale).

    Args:
        lengthscale: l > 0.
        outputscale: s2 > 0, the prior variance k(x, x).
    """

    lengthscale: float = 1.0
    outputscale: float = 1.0

    def __post_init__(self) -> None:
        if not (self.lengthscale > 0 and self.outputscale > 0):
            raise ValueError(
                f"lengthscale and outputscale must be positive, got "
                f"{self.lengthscale} and {self.outputscale}"
            )

    name: ClassVar[str] = "kernel"
    gram_scale: ClassVar[float] = 1.0  # the profiles are evaluated on t = gram_scale * r**2

    @abstractmethod
    def value(self, r: np.ndarray) -> np.ndarray:
        """phi(r) for scaled distances r >= 0 (any shape)."""

    @abstractmethod
    def slope(self, r: np.ndarray) -> np.ndarray:
        """phi'(r) / r, finite at r = 0."""

    @abstractmethod
    def curve(self, r: np.ndarray) -> np.ndarray:
        """slope'(r) / r, finite at r = 0."""

    def value_and_slope(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(value(r), slope(r)); kernels override it to share the exponential."""
        return self.value(r), self.slope(r)

    def profiles_of_t(
        self, t: np.ndarray, value: np.ndarray, slope: np.ndarray, work: np.ndarray
    ) -> None:
        """Kernel entries and slopes from t = gram_scale * r**2 (the inner loop of
        `localbo.gram`, where every element of a b x b matrix passes through here).

        Args:
            t: contiguous array of t = gram_scale * r**2, possibly off by a few ulps of rounding,
                also below 0 (a clamp to |t| is then as good as to 0, since both profiles are
                Lipschitz in r**2); destroyed.
            value: array of t's shape (may be a strided view); receives s2 * value(r).
            slope: contiguous array of t's shape; receives slope(r).
            work: contiguous scratch of t's shape.

        Kernels override this with a fused version; this generic one is their test oracle.
        """
        np.multiply(np.abs(t, out=t), 1.0 / self.gram_scale, out=work)
        np.sqrt(work, out=work)  # r
        value_r, slope_r = self.value_and_slope(work)
        np.multiply(value_r, self.outputscale, out=value)
        slope[...] = slope_r

    def with_params(self, lengthscale: float, outputscale: float) -> Kernel:
        """The same kernel family with other hyperparameters."""
        return type(self)(lengthscale=lengthscale, outputscale=outputscale)

    def distance(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """Scaled distances r = ||x - z|| / l, from exact differences (no cancellation for
        nearly coincident points).

        Args:
            X: (n, d) array. Z: (m, d) array.

        Returns:
            (n, m) array of scaled distances.
        """
        # here: scipy.spatial takes 0.5 s to import, and every Snakemake start imports this module
        from scipy.spatial.distance import cdist

        R = cdist(X, Z)
        if self.lengthscale != 1.0:
            R /= self.lengthscale
        return R

    def __call__(self, X: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """Kernel matrix k(X, Z).

        Args:
            X: (n, d) array. Z: (m, d) array.

        Returns:
            (n, m) array.
        """
        return self.outputscale * self.value(self.distance(X, Z))

    def grad_x(self, x: np.ndarray, Z: np.ndarray) -> np.ndarray:
        """Gradient of k(x, z_j) in x, for every row z_j of Z.

        Args:
            x: (d,) point. Z: (m, d) array.

        Returns:
            (d, m) array G with G[i, j] = d k(x, z_j) / d x_i; the covariance between
            grad f(x) and f(Z) under the prior.
        """
        U = x[None, :] - Z  # (m, d)
        r = np.sqrt(np.sum(U**2, axis=1)) / self.lengthscale
        return (self.outputscale / self.lengthscale**2) * (self.slope(r)[:, None] * U).T

    def grad_grad_diag(self) -> float:
        """The diagonal of d/dx d/dx' k(x, x') at x = x' (the block is this times I).

        Returns:
            -s2 * slope(0) / l**2, the prior variance of each partial derivative.
        """
        return float(-self.outputscale * self.slope(np.zeros(1))[0] / self.lengthscale**2)

    def grad_grad(self, d: int) -> np.ndarray:
        """The prior covariance of grad f(x): (d, d) array, a multiple of the identity."""
        return self.grad_grad_diag() * np.eye(d)


@dataclass(frozen=True)
class RBF(Kernel):
    """Squared exponential kernel, phi(r) = exp(-r^2 / 2)."""

    name: ClassVar[str] = "rbf"
    gram_scale: ClassVar[float] = 0.5  # t = r^2 / 2

    def value(self, r: np.ndarray) -> np.ndarray:
        return np.exp(-0.5 * r**2)

    def slope(self, r: np.ndarray) -> np.ndarray:
        return -np.exp(-0.5 * r**2)

    def curve(self, r: np.ndarray) -> np.ndarray:
        return np.exp(-0.5 * r**2)

    def value_and_slope(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        e = np.exp(-0.5 * r**2)
        return e, -e

    def profiles_of_t(
        self, t: np.ndarray, value: np.ndarray, slope: np.ndarray, work: np.ndarray
    ) -> None:
        np.negative(t, out=t)
        np.exp(t, out=t)  # exp(-r^2 / 2)
        np.negative(t, out=slope)
        np.multiply(t, self.outputscale, out=value)


@dataclass(frozen=True)
class Matern52(Kernel):
    """Matern kernel with nu = 5/2, phi(r) = (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r)."""

    name: ClassVar[str] = "matern52"
    gram_scale: ClassVar[float] = 5.0  # t = 5 r^2 = rho^2

    def value(self, r: np.ndarray) -> np.ndarray:
        return (1.0 + SQRT5 * r + (5.0 / 3.0) * r**2) * np.exp(-SQRT5 * r)

    def slope(self, r: np.ndarray) -> np.ndarray:
        return -(5.0 / 3.0) * (1.0 + SQRT5 * r) * np.exp(-SQRT5 * r)

    def curve(self, r: np.ndarray) -> np.ndarray:
        return (25.0 / 3.0) * np.exp(-SQRT5 * r)

    def value_and_slope(self, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        e = np.exp(-SQRT5 * r)
        slope = (1.0 + SQRT5 * r) * e
        value = slope + (5.0 / 3.0) * r**2 * e
        slope *= -5.0 / 3.0
        return value, slope

    def profiles_of_t(
        self, t: np.ndarray, value: np.ndarray, slope: np.ndarray, work: np.ndarray
    ) -> None:
        # t = rho^2 with rho = sqrt5 r: value = (1 + rho + t / 3) e, slope = -5/3 (1 + rho) e,
        # e = exp(-rho): eleven passes over the block, two of them transcendental, one of them
        # the (possibly strided) write of the kernel entries.
        np.abs(t, out=t)  # the cheapest clamp of rounding below 0 (see `profiles_of_t`)
        np.sqrt(t, out=slope)  # rho
        np.negative(slope, out=work)
        np.exp(work, out=work)  # e
        slope += 1.0
        slope *= work  # (1 + rho) e
        t *= work
        t *= 1.0 / 3.0
        t += slope
        np.multiply(t, self.outputscale, out=value)
        slope *= -5.0 / 3.0


KERNELS: dict[str, type[Kernel]] = {"rbf": RBF, "matern52": Matern52}


def make_kernel(name: str, lengthscale: float = 1.0, outputscale: float = 1.0) -> Kernel:
    """Build a kernel by its config name ("rbf" or "matern52")."""
    try:
        cls = KERNELS[name]
    except KeyError:
        raise ValueError(f"unknown kernel {name!r}; known: {sorted(KERNELS)}") from None
    return cls(lengthscale=lengthscale, outputscale=outputscale)
