"""Empirical rates: the driver, the running minimum on a grid, the slope fit and the bound."""

import dataclasses
import math

import numpy as np
import pytest

from localbo import convergence as cv
from localbo.kernels import RBF
from localbo.methods.local_bo import BATCH_SCHEDULES, DesignCache, LocalBOSettings, batch_size
from localbo.objective import Box
from localbo.pipeline.rates import SET_BY_RATES, evaluation_grid
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for
from localbo.smoothness import smoothness_constant


def run(d, sigma, schedule, budget, seed=0, rule="fixed"):
    """(path, L, trace arrays, design cache) of one rates run on a fresh d-dimensional path."""
    kernel = RBF()
    path = FourierSamplePath.draw(kernel, d, 512, rng_for(seed, "rates-test", d))
    L = smoothness_constant(path, Box(-5.0, 5.0, d), 2000, rng_for(seed, "L"))
    base = cv.schedule_settings(schedule, d, LocalBOSettings(design_max_iterations=50))
    settings = base.__class__(**{**base.__dict__, "step_rule": rule, "step_size": 1.0 / L})
    designs = DesignCache(kernel, d, sigma**2 + 1e-10, False, rng_for(seed, "design"), settings)
    noise = rng_for(seed, "noise") if sigma else None
    trace = cv.rate_run(path, kernel, sigma, budget, settings, designs, noise)
    return path, L, trace.arrays(), designs


@pytest.mark.parametrize("schedule", sorted(cv.THEORY_EXPONENTS))
def test_every_schedule_maps_to_local_bo_batches(schedule):
    d = 4
    settings = cv.schedule_settings(schedule, d, LocalBOSettings())
    sizes = [batch_size(settings.schedule, d, t, settings.batch_factor) for t in (1, 2, 5, 30)]
    expected = {
        "d_plus_1": [5, 5, 5, 5],
        "constant": [4, 4, 4, 4],
        "d_t": [4, 8, 20, 120],
        "d_t2": [4, 16, 100, 3600],
        "d_log2_t": [4, 4, 11, 47],
    }[schedule]
    assert sizes == expected


def test_an_unknown_schedule_is_refused():
    with pytest.raises(ValueError, match="unknown schedule"):
        cv.schedule_settings("d_t3", 2, LocalBOSettings())


def test_the_running_minimum_on_the_grid_never_increases_and_starts_at_x1():
    path, _, trace, _ = run(3, 0.1, "d_t", 3000)
    sq = trace["gradient_norms"] ** 2
    assert trace["evaluations"][0] == 0 and not np.all(np.diff(sq) <= 0)  # the raw trace does
    grid = evaluation_grid(1, 3000, 10)
    curve = cv.running_min_on_grid(trace["evaluations"], sq, grid)
    assert grid[0] == 1 and grid[-1] == 3000 and np.all(np.diff(grid) > 0)
    assert np.all(np.diff(curve) <= 0)
    assert curve[0] == sq[0]  # only x_1 is known before the first batch
    assert curve[-1] == sq.min()
    x0 = np.zeros((1, 3))
    assert np.isclose(sq[0], np.sum(path.gradient(x0) ** 2))


def test_before_the_first_record_the_running_minimum_is_missing():
    curve = cv.running_min_on_grid(np.array([3, 7]), np.array([2.0, 1.0]), np.array([1, 3, 9]))
    assert np.isnan(curve[0]) and curve[1:].tolist() == [2.0, 1.0]


def test_the_slope_fit_recovers_a_known_exponent():
    """n^-0.37 times log-normal noise of 5 % (seed 1): the fit over one decade of 41 grid
    points has a standard error of about 0.012, and is within 0.035 (3 of them) of -0.37; a
    plateau gives 0; the decade ends where asked."""
    n = evaluation_grid(1, 1e5, 40).astype(float)
    noisy = 3.0 * n**-0.37 * np.exp(0.05 * np.random.default_rng(1).standard_normal(n.size))
    assert abs(cv.fit_slope(n, noisy, 1e5) - (-0.37)) < 0.035
    assert abs(cv.fit_slope(n, np.full(n.size, 0.5), 1e5)) < 1e-12
    kink = np.where(n <= 1e3, n**-2.0, 1e-6)
    assert abs(cv.fit_slope(n, kink, 1e3) - (-2.0)) < 1e-9
    assert np.isnan(cv.fit_slope(n, kink, 1.5))  # under three points in [0.15, 1.5]


def test_the_fit_ends_where_the_floor_is_first_reached():
    n = np.array([1.0, 10, 100, 1000])
    values = np.array([1.0, 1e-3, 1e-6, 1e-6])
    assert cv.fit_end(n, values, 1e-5) == 100
    assert cv.fit_end(n, values, 0.0) == 1000


def test_noiseless_runs_stay_below_corollary_1s_bound_plus_the_floor():
    """Theorem 1: min ||grad f||^2 <= 2 L (f(x_1) - f*) / T + B^2 E(d + 1); with f* the least
    value found and the design's E(d + 1) as the floor, on three d = 2 paths, at every n."""
    for seed in range(3):
        _, L, trace, designs = run(2, 0.0, "d_plus_1", 600, seed)
        grid = evaluation_grid(3, 600, 10)
        curve = cv.running_min_on_grid(trace["evaluations"], trace["gradient_norms"] ** 2, grid)
        bound = cv.noiseless_bound(L, trace["values"][0], trace["values"].min(), grid, 2)
        assert np.all(curve <= bound + designs.get(3).value)
        assert curve[-1] < 1e-3 * curve[0]  # and it converges


def test_a_rates_run_sets_every_knob_it_does_not_take_from_fig1():
    """The rates jobs leave SET_BY_RATES out of their params: the schedule and the step rule
    (as scripts/rates_run.py sets them) must fix each of them."""
    other = {"schedule": "d_t2", "batch_factor": 3.0, "step_rule": "fixed", "step_size": 9.0}
    other["data_window"] = 4
    assert set(other) == set(SET_BY_RATES) - {"bfgs_gtol"}  # not read by run_noisy (test_local_bo)
    for schedule in cv.THEORY_EXPONENTS:
        for rule in ("fixed", "normalized"):
            runs = [
                dataclasses.replace(
                    cv.schedule_settings(schedule, 5, base), step_rule=rule, step_size=0.3
                )
                for base in (LocalBOSettings(), LocalBOSettings(**other))
            ]
            assert runs[0] == runs[1], (schedule, rule)


def test_slope_fit_recovers_a_known_exponent():
    rng = np.random.default_rng(0)
    b = np.geomspace(20, 1e4, 10)
    e = 3.0 * b**-0.56 * np.exp(1e-3 * rng.standard_normal(10))
    # noise 1e-3 over 10 log-spaced points: the slope's standard error is 1.6e-4 (5 of them)
    assert cv.log_log_slope(b, e) == pytest.approx(-0.56, abs=8e-4)
    assert math.isnan(cv.log_log_slope([5, 5], [1.0, 2.0]))


def test_every_rates_schedule_has_an_exponent_and_a_label():
    """The rates run local BO's batch schedules and Corollary 1's b_t = d + 1; each needs the
    theory's exponent (the table) and its formula (the figure)."""
    schedules = {*BATCH_SCHEDULES, cv.NOISELESS_SCHEDULE}
    assert set(cv.THEORY_EXPONENTS) == schedules
    assert set(cv.SCHEDULE_LABELS) == schedules
