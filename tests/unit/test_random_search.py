"""Random search and the common optimizer entry point."""

import numpy as np
import pytest

from localbo.kernels import RBF
from localbo.objective import Box, NoisyObjective
from localbo.optimizers import METHODS, run_method
from localbo.random_search import RandomSearchSettings, random_search
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


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.parametrize("sigma", [0.0, 0.1])
def test_every_method_respects_its_budget_and_is_reproducible(path, method, sigma):
    settings = {"gp_ucb": {"raw_samples": 32, "local_samples": 32, "restarts": 1}}.get(method, {})

    def run(seed):
        return run_method(
            method,
            path,
            RBF(),
            sigma,
            25,
            Box(-2, 2, 3),
            settings,
            noise_rng=rng_for(seed, "noise"),
            method_rng=rng_for(seed, "method"),
        )

    a, b = run(34), run(34)
    assert a.evaluations <= 25
    if not (method == "local_bo" and sigma == 0):
        assert a.evaluations == 25
    np.testing.assert_array_equal(a.x, b.x)
    assert a.value == b.value
    assert a.summary()["evaluations"] == a.evaluations


def test_unknown_method_is_an_error(path):
    with pytest.raises(ValueError, match="unknown method"):
        run_method("cma_es", path, RBF(), 0.0, 5, Box(-1, 1, 3), {}, rng_for(0), rng_for(1))
