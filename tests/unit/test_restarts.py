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
    """For U[0, 1] values the best of k has CDF F_k(v) = 1 - (1 - v)^k: its q-quantile is
    v_q = 1 - (1 - q)^(1/k), density f_k = k (1 - q)^((k - 1) / k) there. From 3000 values and
    2000 orders the estimate of v_q errs by the orders' sample quantile, sqrt(q (1 - q) / 2000)
    / f_k, and by the 3000 values' own quantile at level v_q, sqrt(v_q (1 - v_q) / 3000): each k
    within five of their combined standard errors (0.001-0.015; the largest error is 2.2 of
    them)."""
    values = rng_for(1, "uniform").random(3000)
    r = best_after_restarts(values, 20, 2000, 0.9, rng_for(2, "orders"))
    k = r.restarts
    for q, estimate in ((0.5, r.median), (0.95, r.high), (0.05, r.low)):
        exact = 1 - (1 - q) ** (1 / k)
        density = k * (1 - q) ** ((k - 1) / k)
        se = np.sqrt(q * (1 - q) / 2000 / density**2 + exact * (1 - exact) / 3000)
        assert np.all(np.abs(estimate - exact) < 5 * se), (q, (estimate - exact) / se)


@pytest.mark.parametrize("block_elements", [1, 7 * 50 + 3, 10**9], ids=["row", "7-rows", "one"])
def test_blocks_of_orders_give_the_bits_of_all_orders_at_once(block_elements, monkeypatch):
    """The orders are drawn and sorted in blocks to bound memory; the result is the one of all
    orders drawn at once (the implementation before, inlined here), whatever the block."""
    values, orderings = rng_for(3, "values").normal(size=50), 40
    keys = rng_for(4, "orders").random((orderings, values.size))
    best = np.minimum.accumulate(values[np.argsort(keys, axis=1)[:, :12]], axis=1)
    tail = (1.0 - 0.9) / 2.0
    expected = np.quantile(best, [tail, 0.5, 1.0 - tail], axis=0)
    monkeypatch.setattr("localbo.restarts.ORDER_BLOCK_ELEMENTS", block_elements)
    r = best_after_restarts(values, 12, orderings, 0.9, rng_for(4, "orders"))
    np.testing.assert_array_equal(np.stack([r.low, r.median, r.high]), expected)


def test_bad_arguments():
    with pytest.raises(ValueError):
        best_after_restarts(np.array([]), 3, 10, 0.9, rng_for(0))
    for band in (1.5, 1.0, 0.0):  # numpy's quantile would take 0 and 1
        with pytest.raises(ValueError, match="0 < band < 1"):
            best_after_restarts(np.ones(3), 3, 10, band, rng_for(0))
