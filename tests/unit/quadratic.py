"""A quadratic with the sample-path interface: the convergence check of every optimizer."""

import numpy as np


class Quadratic:
    """f(x) = 0.5 * sum a_i (x_i - c_i)^2 with the sample-path interface."""

    def __init__(self, center, curvature):
        self.c, self.a = np.asarray(center), np.asarray(curvature)

    @property
    def dim(self):
        return self.c.shape[0]

    def __call__(self, X):
        return 0.5 * np.sum(self.a * (np.atleast_2d(X) - self.c) ** 2, axis=1)

    def gradient(self, X):
        return self.a * (np.atleast_2d(X) - self.c)

    def value_and_gradient(self, X):
        return self(X), self.gradient(X)
