"""Convex test functions whose subdifferentials are boxes, and the distance to such a box.

The functions of the gradient-estimation experiment (the paper's section 6.3 and its appendix
"Additional Experiments"). Each subdifferential is a product of intervals, given as (d, 2) rows of
[low, high]:

    quadratic  f(x) = 1/2 ||x||^2        d f(x) = {x}
    l1         f(x) = ||x||_1            d f(x) = prod_i (sign x_i, or [-1, 1] where x_i = 0)
    relu       f(x) = sum_i max(0, x_i)  d f(x) = prod_i ({1} if x_i > 0, {0} if < 0, [0, 1] if 0)

This module needs only numpy, so plots of these functions load quickly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


def quadratic(X: np.ndarray) -> np.ndarray:
    """1/2 ||x||^2 of each row of an (m, d) array; returns (m,)."""
    return 0.5 * np.sum(X**2, axis=1)


def l1_norm(X: np.ndarray) -> np.ndarray:
    """||x||_1 of each row of an (m, d) array; returns (m,)."""
    return np.sum(np.abs(X), axis=1)


def relu(X: np.ndarray) -> np.ndarray:
    """sum_i max(0, x_i) of each row of an (m, d) array (the ReLU for d = 1); returns (m,)."""
    return np.sum(np.maximum(X, 0.0), axis=1)


def _quadratic_box(x: np.ndarray) -> np.ndarray:
    return np.column_stack([x, x])


def _l1_box(x: np.ndarray) -> np.ndarray:
    s = np.sign(x)
    return np.column_stack([np.where(x == 0, -1.0, s), np.where(x == 0, 1.0, s)])


def _relu_box(x: np.ndarray) -> np.ndarray:
    hi = np.where(x >= 0, 1.0, 0.0)
    lo = np.where(x > 0, 1.0, 0.0)
    return np.column_stack([lo, hi])


@dataclass(frozen=True)
class TestFunction:
    """A convex test function with its subdifferential as a box.

    Attributes:
        name: config name.
        value: maps (m, d) points to (m,) values.
        subdifferential: maps a (d,) point to a (d, 2) array of [low, high] per coordinate.
    """

    name: str
    value: Callable[[np.ndarray], np.ndarray]
    subdifferential: Callable[[np.ndarray], np.ndarray]


TEST_FUNCTIONS: dict[str, TestFunction] = {
    "quadratic": TestFunction("quadratic", quadratic, _quadratic_box),
    "l1": TestFunction("l1", l1_norm, _l1_box),
    "relu": TestFunction("relu", relu, _relu_box),
}


def distance_to_box(g: np.ndarray, box: np.ndarray) -> float:
    """Euclidean distance from a (d,) vector to the box given as (d, 2) [low, high] rows."""
    return float(np.linalg.norm(g - np.clip(g, box[:, 0], box[:, 1])))
