"""The landscape computations: the population is reproducible from its seed and made of box
minima, the exact BFGS descent keeps local BO's call budget, and the percentile's tie rule."""

import numpy as np
import pytest

from localbo.kernels import RBF
from localbo.landscape import (
    TIE_TOL,
    exact_bfgs_descent,
    local_minima,
    outside_box,
    percentile,
)
from localbo.methods.exact_gradient import ExactGradientSettings, on_boundary, projected_gradient
from localbo.objective import Box
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from tests.unit.quadratic import Quadratic


@pytest.fixture(scope="module")
def path():
    return FourierSamplePath.draw(RBF(), 3, 256, rng_for(50, "path"))


def test_population_is_reproducible_from_its_seed(path):
    box, settings = Box(-2, 2, 3), ExactGradientSettings()
    a = local_minima(path, box, 6, settings, rng_for(50, "landscape", 3, 0))
    b = local_minima(path, box, 6, settings, rng_for(50, "landscape", 3, 0))
    c = local_minima(path, box, 6, settings, rng_for(50, "landscape", 3, 1))
    for field in ("starts", "points", "values", "on_boundary", "iterations"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    assert not np.array_equal(a.starts, c.starts)
    assert a.points.shape == (6, 3) and np.all(np.abs(a.points) <= 2)
    np.testing.assert_array_equal(a.values, path(a.points))
    np.testing.assert_array_equal(a.on_boundary, on_boundary(a.points, box))
    grads = path.gradient(a.points)
    assert np.all(np.linalg.norm(projected_gradient(a.points, grads, box), axis=1) <= 1e-6)
    assert np.all(a.values <= path(a.starts))


def test_exact_bfgs_descent_converges_or_stops_at_its_call_budget():
    f = Quadratic([0.3, -4.0], [1.0, 2.0])
    done = exact_bfgs_descent(f, np.zeros(2), 1e-6, 100)
    assert done.stop == "converged" and done.calls < 100
    np.testing.assert_allclose(done.x, [0.3, -4.0], atol=1e-6)
    assert bool(outside_box(done.x, Box(-1, 1, 2)))  # unconstrained: it left the box
    capped = exact_bfgs_descent(f, np.zeros(2), 1e-6, 2)
    assert capped.stop == "budget" and capped.calls == 2
    assert capped.value == f(capped.x[None, :])[0] < f(np.zeros((1, 2)))[0]


def test_percentile_counts_ties_half_and_lower_is_better():
    population = np.array([1.0, 2.0, 2.0, 3.0])
    assert percentile(0.5, population) == 0.0
    assert percentile(3.5, population) == 100.0
    assert percentile(2.0, population) == 50.0  # (1 below + 2 ties / 2) / 4
    assert percentile(2.0 + TIE_TOL / 2, population) == 50.0  # within the tie tolerance
    assert percentile(1.0, population) == 12.5
    with pytest.raises(ValueError, match="empty"):
        percentile(1.0, np.zeros(0))


def test_outside_box():
    box = Box(-1, 1, 2)
    points = np.array([[0.0, 0.0], [1.0, -1.0], [1.0 + 1e-12, 0.0]])
    np.testing.assert_array_equal(outside_box(points, box), [False, False, True])
