"""Best value after k restarts: exact cases and the law of the minimum of k uniforms."""

import numpy as np
import pytest

from localbo.restarts import best_after_restarts
from localbo.seeding import rng_for


def test_all_runs_give_the_minimum_and_quantiles_are_ordered():
    values = np.array([3.0, -1.0, 2.0, 0.5])
    r = best_after_restarts(values, 10, 200, 0.9, rng_for(0, "restarts"))
    assert r.restarts.tolist() == [1, 2, 3, 4]  # capped at the number of runs
    assert r.median[-1] == r.low[-1] == r.high[-1] == -1.0
    assert np.all(r.low <= r.median) and np.all(r.median <= r.high)
    assert np.all(np.diff(r.median) <= 0)


def test_median_of_best_of_k_uniforms():
    """For U[0, 1] values the best of k has CDF 1 - (1 - v)^k, median 1 - 2^(-1/k).
    3000 runs and 2000 orders: the sample median has std about 1 / (2 f sqrt(2000)) < 0.015
    for k <= 20, plus the sampling of the 3000 values; tolerance 0.04."""
    values = rng_for(1, "uniform").random(3000)
    r = best_after_restarts(values, 20, 2000, 0.9, rng_for(2, "orders"))
    k = r.restarts
    np.testing.assert_allclose(r.median, 1 - 0.5 ** (1 / k), atol=0.04)
    np.testing.assert_allclose(r.high, 1 - 0.05 ** (1 / k), atol=0.04)


def test_bad_arguments():
    with pytest.raises(ValueError):
        best_after_restarts(np.array([]), 3, 10, 0.9, rng_for(0))
    with pytest.raises(ValueError):
        best_after_restarts(np.ones(3), 3, 10, 1.5, rng_for(0))
