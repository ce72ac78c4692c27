"""Designs: finite-differencing designs and their exact values, the optimal design of one
gradient estimate, the cache that translates it, and the save/load round trip."""

import numpy as np
import pytest

from localbo.acquisition import gradient_trace
from localbo.designs import (
    DESIGN_KINDS,
    Design,
    differencing_design,
    differencing_design_value,
    optimal_design,
    single_points,
)
from localbo.kernels import RBF, Matern52
from localbo.methods.local_bo import DesignCache, LocalBOSettings
from localbo.seeding import rng_for


@pytest.mark.parametrize("include_center", [True, False], ids=["with-center", "no-center"])
def test_cached_design_equals_a_design_optimized_at_the_iterate(include_center):
    """The exact shortcut: optimal offsets do not depend on x for a stationary kernel."""
    kernel, d, b, noise = RBF(), 3, 4, 1e-4
    settings = LocalBOSettings(design_max_iterations=300)
    cache = DesignCache(kernel, d, noise, include_center, rng_for(7, "design"), settings)
    cached = cache.get(b)
    assert cache.get(b) is cached  # computed once
    x = np.array([1.3, -0.4, 2.2])
    fresh = optimal_design(
        kernel,
        d,
        b,
        noise,
        include_center,
        rng_for(7, "design"),
        **settings.design_options(),
        center=x,
    )
    assert fresh.value == pytest.approx(cached.value, rel=1e-7)
    np.testing.assert_allclose(fresh.offsets, cached.offsets, atol=1e-5)
    np.testing.assert_array_equal(fresh.counts, cached.counts)
    # and the cached value is alpha_trace at a translated iterate
    first = 1 if include_center else 0
    X_data = x[None, :] if include_center else None
    value, _ = gradient_trace(kernel, x, x + cached.offsets[first:], noise, X_data)
    assert value == pytest.approx(cached.value, rel=1e-7)


def test_optimized_design_beats_the_differencing_start():
    kernel, d = RBF(), 3
    settings = LocalBOSettings()
    optimized = optimal_design(
        kernel, d, 8, 0.04, False, rng_for(8, "d"), **settings.design_options()
    )
    start = optimal_design(
        kernel,
        d,
        8,
        0.04,
        False,
        rng_for(8, "d"),
        max_iterations=0,
        optimize_max_b=200,
        perturbation=0.1,
    )
    assert optimized.size == start.size == 8
    assert optimized.value < start.value


def test_large_batches_repeat_a_differencing_design():
    settings = LocalBOSettings(design_optimize_max_b=10)
    design = optimal_design(RBF(), 2, 40, 0.04, False, rng_for(9, "d"), **settings.design_options())
    assert design.size == 40 and design.offsets.shape[0] <= 4


def test_design_value_is_the_exact_trace_of_the_expanded_design():
    kernel, d, b, noise_var = Matern52(), 3, 14, 0.01
    for kind in DESIGN_KINDS:
        dv = differencing_design_value(kernel, kind, d, b, noise_var)
        Z = dv.expanded(d, b)
        assert Z.shape == (b, d)
        direct = gradient_trace(kernel, np.zeros(d), Z, noise_var, with_grad=False)[0]
        assert dv.value == pytest.approx(direct, rel=1e-8)


def test_differencing_designs_deal_points_round_robin():
    P, counts = differencing_design("central", 2, 9)
    assert counts.sum() == 9 and P.shape == (4, 2)
    np.testing.assert_array_equal(counts, [3, 2, 2, 2])
    P, counts = differencing_design("forward", 3, 5)
    np.testing.assert_array_equal(P[0], 0.0)
    np.testing.assert_array_equal(counts, [2, 1, 1, 1])
    with pytest.raises(ValueError, match="unknown design"):
        differencing_design("backward", 2, 4)


def test_design_round_trips_through_a_file(tmp_path):
    design = Design(np.array([[0.0, 0.0], [0.1, -0.2]]), np.array([2, 1]), 0.5, True)
    design.save(tmp_path / "design.npz")
    loaded = Design.load(tmp_path / "design.npz")
    np.testing.assert_array_equal(loaded.offsets, design.offsets)
    np.testing.assert_array_equal(loaded.counts, design.counts)
    assert (loaded.value, loaded.includes_center, loaded.size) == (0.5, True, 3)


def test_single_points_design_is_evaluated_once_each_around_x():
    Z = np.array([[0.1, 0.0], [0.0, 0.2], [-0.1, 0.0]])
    design = single_points(Z, 0.3)
    assert design.size == 3 and not design.includes_center
    np.testing.assert_array_equal(design.points(np.array([1.0, 2.0])), Z + np.array([1.0, 2.0]))


@pytest.mark.parametrize("d", [1, 3])
def test_a_design_of_the_center_alone_keeps_the_prior_trace(d):
    """b = 1 with the center leaves no point to optimize: the value is the trace given the
    center alone (L-BFGS-B reports 0 for an empty start, which was taken as the value)."""
    kernel, noise_var = RBF(), 1e-10
    design = optimal_design(kernel, d, 1, noise_var, True, rng_for(0, "center"), 50, 200, 0.1)
    center = np.zeros((1, d))
    direct = gradient_trace(kernel, np.zeros(d), center, noise_var, with_grad=False)[0]
    assert design.value == pytest.approx(direct, rel=1e-12)
    assert direct > 0.99 * d  # one value says nothing of the gradient: about the prior's d
