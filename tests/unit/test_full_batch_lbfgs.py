"""The paper code's optimizer (`localbo.full_batch_lbfgs`): step for step the code's own
FullBatchLBFGS on Rosenbrock, it converges on convex functions, every accepted step meets the
weak Wolfe conditions, a line search that cannot meet them leaves x where it was, and the
plateau rule stops where the code's loop stops."""

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from localbo.full_batch_lbfgs import FullBatchLBFGSSettings, PlateauStop, minimize

# The code's FullBatchLBFGS (kayween/local-bo-convergence at ee8c032, zoofoo/BFGS/LBFGS.py) run
# in its pinned environment by `bench/paper_code_driver.py optimizer`
CODE_RUNS = Path(__file__).parent / "data" / "paper_code" / "optimizer.jsonl"


def rosenbrock(x):
    a, b = x
    value = (1 - a) ** 2 + 100 * (b - a**2) ** 2
    grad = np.array([-2 * (1 - a) - 400 * a * (b - a**2), 200 * (b - a**2)])
    return float(value), grad


@pytest.mark.parametrize("run", [json.loads(line) for line in CODE_RUNS.open()])
def test_steps_as_the_code_s_optimizer_on_rosenbrock(run):
    """The value after each of 60 steps within 1e-11 of the code's, the stall included: with
    lr 1 both stop moving after 4 steps, every later line search failing (the code's
    safeguard caps a bracketed trial at (beta - alpha) / 2, below alpha once alpha > 0)."""
    settings = FullBatchLBFGSSettings(
        initial_step=run["initial_step"], max_line_search=run["max_line_search"]
    )
    result = minimize(rosenbrock, np.array(run["start"]), len(run["values"]), settings)
    np.testing.assert_allclose(result.values, run["values"], rtol=0, atol=1e-11)
    np.testing.assert_allclose(result.x, run["x"], rtol=0, atol=1e-11)
    assert result.failed_line_searches == run["failed_line_searches"]


def test_converges_on_convex_functions():
    A = np.diag([1.0, 10.0, 100.0])
    result = minimize(lambda x: (0.5 * float(x @ A @ x), A @ x), np.ones(3), 50)
    assert result.value < 1e-20
    c = np.array([1.0, -2.0, 0.5])

    def log_sum_exp(x):  # sum of log(2 cosh(x - c)): convex, least at x = c
        e = np.exp(x - c) + np.exp(c - x)
        return float(np.sum(np.log(e))), (np.exp(x - c) - np.exp(c - x)) / e

    result = minimize(log_sum_exp, np.zeros(3), 100)
    np.testing.assert_allclose(result.x, c, atol=1e-7)
    assert result.failed_line_searches == 0


@pytest.mark.parametrize("initial_step", [0.1, 1.0])
def test_every_step_meets_the_weak_wolfe_conditions(initial_step):
    """The iterate after k steps is the run of k steps (the method is deterministic); each step
    from the one before meets sufficient decrease and curvature along it."""
    settings = FullBatchLBFGSSettings(initial_step=initial_step, max_line_search=20)
    A = np.array([[3.0, 1.0], [1.0, 2.0]])

    def convex(x):  # a quadratic plus a quartic: convex, not quadratic
        return 0.5 * float(x @ A @ x) + float(np.sum(x**4)), A @ x + 4 * x**3

    iterates = [minimize(convex, np.array([2.0, -1.5]), k, settings).x for k in range(12)]
    for before, after in itertools.pairwise(iterates):
        (f0, g0), (f1, g1) = convex(before), convex(after)
        step = after - before
        assert f1 <= f0 + settings.c1 * (g0 @ step) + 1e-14
        assert g1 @ step >= settings.c2 * (g0 @ step) - 1e-14


def test_a_failed_line_search_stays_at_x():
    """A function that grows along every direction the method tries (its gradient points the
    wrong way): after `max_line_search` trials the run stays where it started."""

    def misleading(x):
        return float(np.sum(x**2)), -2 * x

    settings = FullBatchLBFGSSettings(max_line_search=5)
    result = minimize(misleading, np.array([1.0, 2.0]), 3, settings)
    np.testing.assert_array_equal(result.x, [1.0, 2.0])
    assert result.failed_line_searches == 3
    assert result.evaluations == 1 + 3 * (1 + 5 + 1)


def test_the_plateau_rule_stops_as_the_code_s_loop():
    """Values falling by 1e-6 an iteration: from iteration 6 on each counts, the third in a row
    (iteration 8) stops the run."""
    stop = PlateauStop()
    values, count, stopped_at = [], 0, None
    for i in range(20):
        values.append(1.0 - 1e-6 * i)
        halt, count = stop.stops(values, count)
        if halt:
            stopped_at = i
            break
    assert stopped_at == 8
    halt, count = stop.stops([1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4], 2)
    assert (halt, count) == (False, 0)


def test_the_first_direction_is_minus_the_gradient_at_the_initial_step():
    """With no pairs yet the direction is -g, tried at t = initial_step first; on a quadratic
    with that step meeting both conditions the first iterate is x - 0.1 g."""
    A = np.diag([1.0, 2.0])
    x0 = np.array([1.0, 1.0])
    settings = FullBatchLBFGSSettings(initial_step=0.1)
    result = minimize(lambda x: (0.5 * float(x @ A @ x), A @ x), x0, 1, settings)
    np.testing.assert_allclose(result.x, x0 - 0.1 * (A @ x0), rtol=1e-15)
