"""Random search: the best of uniform points, at its true value."""

import numpy as np
import pytest

from localbo.kernels import RBF
from localbo.methods.random_search import RandomSearchSettings, random_search
from localbo.objective import Box, NoisyObjective
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


@pytest.fixture
def path():
    return FourierSamplePath.draw(RBF(), 3, 256, rng_for(30, "path"))


def test_value_is_the_minimum_over_the_evaluated_points(path):
    obj = NoisyObjective(path, 0.0, 1003)
    res = random_search(
        obj, RBF(), np.zeros(3), Box(-2, 2, 3), rng_for(31, "rs"), RandomSearchSettings(100)
    )
    X, y = res.observations
    assert res.evaluations == 1003 == len(y)
    values = path(X)  # batched evaluation may differ from a single row in the last bit
    np.testing.assert_array_equal(res.x, X[np.argmin(values)])
    assert res.value == pytest.approx(np.min(values), rel=1e-13)
    assert np.all(np.abs(X) <= 2)
    # one trace row per chunk (plus the start), incumbents never get worse without noise
    values = res.trace.arrays()["values"][1:]
    assert len(values) == 11 and np.all(np.diff(values) <= 0)


def test_noisy_run_returns_the_best_observation_at_its_true_value(path):
    obj = NoisyObjective(path, 0.3, 500, rng_for(32, "noise"))
    res = random_search(
        obj, RBF(), np.zeros(3), Box(-2, 2, 3), rng_for(33, "rs"), RandomSearchSettings()
    )
    X, y = res.observations
    np.testing.assert_array_equal(res.x, X[np.argmin(y)])
    assert res.value == path(res.x[None, :])[0]
