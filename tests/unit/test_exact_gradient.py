"""Exact-gradient local search: L-BFGS-B ends at a first-order stationary point of the box, pays
one evaluation per call, and its box helpers (projected gradient, boundary flag) are exact."""

import numpy as np
import pytest

from localbo.kernels import RBF
from localbo.methods.exact_gradient import (
    BOUNDARY_TOL,
    ExactGradient,
    ExactGradientSettings,
    on_boundary,
    projected_gradient,
)
from localbo.objective import Box
from localbo.optimizers import optimizer_class, run_on_path
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for

TOL = 1e-6  # what the default settings promise: ||projected gradient||_2 <= 1e-6 at d <= 50


@pytest.mark.parametrize("d", [2, 5])
def test_ends_stationary_in_the_interior_or_on_the_boundary(d):
    """Interior: ||grad f|| <= TOL; boundary: ||projected gradient|| <= TOL. The box [-1.5, 1.5]
    is small enough that some of the eight runs per d end on its boundary."""
    box, kinds = Box(-1.5, 1.5, d), set()
    for i in range(8):
        path = FourierSamplePath.draw(RBF(), d, 512, rng_for(40, d, i))
        result = run_on_path(ExactGradient(), path, RBF(), 0.0, 5000, box, None, rng_for(0))
        grad = path.gradient(result.x[None, :])[0]
        boundary = bool(on_boundary(result.x, box))
        assert result.info["on_boundary"] == int(boundary)
        if boundary:
            assert np.linalg.norm(projected_gradient(result.x, grad, box)) <= TOL
        else:
            assert np.linalg.norm(grad) <= TOL
        assert result.info["projected_gradient_norm"] <= TOL
        assert result.evaluations < 5000 and result.value <= path(np.zeros((1, d)))[0]
        kinds.add(boundary)
    assert kinds == {True, False}, "both cases should be exercised"


def test_each_call_costs_one_evaluation_and_the_budget_stops_it():
    path = FourierSamplePath.draw(RBF(), 3, 256, rng_for(41, "path"))
    result = run_on_path(ExactGradient(), path, RBF(), 0.0, 4, Box(-5, 5, 3), None, rng_for(0))
    assert result.evaluations == 4 and result.info["stop"] == "budget"
    assert result.value == path(result.x[None, :])[0]
    assert result.trace.values[-1] <= result.trace.values[0]  # the last accepted iterate


def test_the_registry_finds_it_with_its_label_and_settings():
    cls = optimizer_class("exact_gradient")
    assert cls is ExactGradient and cls.label == "exact-gradient local search"
    assert cls.default_noise_levels == (0.0,)
    with pytest.raises(ValueError, match="gtol"):
        ExactGradientSettings(gtol=0.0)


def test_projected_gradient_and_boundary_flag():
    box = Box(-1.0, 2.0, 3)
    X = np.array([[0.0, 0.5, 1.0], [-1.0, 0.5, 2.0], [-1.0, 0.5, 2.0]])
    G = np.array([[0.3, -0.2, 0.1], [0.4, -0.2, -0.5], [-0.4, 0.1, 0.5]])
    # interior: the gradient; at a bound, the component pushing out of the box is dropped
    expected = np.array([[0.3, -0.2, 0.1], [0.0, -0.2, 0.0], [-0.4, 0.1, 0.5]])
    np.testing.assert_allclose(projected_gradient(X, G, box), expected, atol=1e-15)
    points = np.array(
        [
            [0.0, 0.0, 0.0],  # interior
            [-1.0, 0.0, 0.0],  # on the lower bound
            [0.0, 2.0 - BOUNDARY_TOL / 2, 0.0],  # within the tolerance of the upper one
            [0.0, 2.0 - 2 * BOUNDARY_TOL, 0.0],  # just inside it
            [0.0, 3.0, 0.0],  # outside: not on the boundary
        ]
    )
    np.testing.assert_array_equal(on_boundary(points, box), [False, True, True, False, False])
