"""The budget-counting noisy objective and the box."""

import numpy as np
import pytest

from localbo.kernels import RBF
from localbo.objective import Box, BudgetExhausted, NoisyObjective, Trace, finish
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for


@pytest.fixture
def path():
    return FourierSamplePath.draw(RBF(), 3, 128, rng_for(0, "test-objective"))


def test_refuses_requests_beyond_the_budget_without_counting_them(path):
    obj = NoisyObjective(path, 0.1, budget=5, rng=rng_for(1, "noise"))
    obj(np.zeros((3, 3)))
    with pytest.raises(BudgetExhausted):
        obj(np.zeros((3, 3)))
    assert obj.used == 3 and obj.remaining == 2
    obj(np.zeros((2, 3)))
    assert obj.remaining == 0
    with pytest.raises(BudgetExhausted):
        obj(np.zeros((1, 3)))


def test_noiseless_observations_are_the_path_and_truth_is_free(path):
    X = rng_for(2, "x").normal(size=(7, 3))
    obj = NoisyObjective(path, 0.0, budget=7)
    np.testing.assert_array_equal(obj(X), path(X))
    assert obj.true_value(X[0]) == path(X[:1])[0]
    np.testing.assert_array_equal(obj.true_gradient(X[0]), path.gradient(X[:1])[0])
    assert obj.used == 7


def test_noise_has_the_stated_standard_deviation(path):
    n, sigma = 4000, 0.2
    X = np.zeros((n, 3))
    obj = NoisyObjective(path, sigma, budget=n, rng=rng_for(3, "noise"))
    residual = obj(X) - path(X)
    # the standard error of the sample std is sigma / sqrt(2n) ~ 1.1% of sigma: 5% is 4.5 SE
    assert np.std(residual) == pytest.approx(sigma, rel=0.05)
    assert abs(np.mean(residual)) < 4 * sigma / np.sqrt(n)


def test_noisy_objective_needs_a_noise_stream(path):
    with pytest.raises(ValueError, match="noise stream"):
        NoisyObjective(path, 0.1, budget=1)


def test_box_projection_and_uniform_points():
    box = Box(-1.0, 2.0, 4)
    X = box.uniform(500, rng_for(4, "box"))
    assert X.shape == (500, 4) and X.min() >= -1.0 and X.max() <= 2.0
    np.testing.assert_array_equal(box.project(np.array([-3.0, 0.5, 5.0, 2.0])), [-1, 0.5, 2, 2])
    with pytest.raises(ValueError):
        Box(1.0, 1.0, 2)


def test_trace_records_true_value_and_gradient_norm(path):
    obj = NoisyObjective(path, 0.5, budget=2, rng=rng_for(5, "noise"))
    trace = Trace()
    x = np.array([0.1, -0.2, 0.3])
    obj(x[None, :])
    trace.record(obj, x)
    arrays = trace.arrays()
    assert arrays["evaluations"].tolist() == [1]
    assert arrays["values"][0] == path(x[None, :])[0]
    assert arrays["gradient_norms"][0] == pytest.approx(np.linalg.norm(path.gradient(x[None, :])))


def test_observe_design_sees_the_same_numbers_as_repeated_calls():
    from localbo.kernels import RBF
    from localbo.seeding import rng_for

    path = FourierSamplePath.draw(RBF(), 3, 128, rng_for(0, "observe"))
    offsets = np.array([[0.0, 0.0, 0.0], [0.01, 0.0, 0.0], [0.0, -0.02, 0.0]])
    counts = np.array([1, 3, 2])
    x = np.array([0.5, -1.0, 2.0])
    for sigma in (0.0, 0.1):
        a = NoisyObjective(path, sigma, 20, rng_for(1, "noise"))
        b = NoisyObjective(path, sigma, 20, rng_for(1, "noise"))
        means = a.observe_design(x, offsets, counts)
        raw = b(np.repeat(x + offsets, counts, axis=0))
        expected = [raw[0], raw[1:4].mean(), raw[4:6].mean()]
        np.testing.assert_allclose(means, expected, rtol=0, atol=1e-12)
        assert a.used == b.used == 6
    with pytest.raises(BudgetExhausted):
        a.observe_design(x, offsets, np.array([10, 10, 10]))
    assert a.used == 6


def test_a_trace_logs_progress_where_its_records_pass_a_multiple(path, caplog):
    """Records after 4, 8, 12, 25, 26 evaluations with progress every 10: lines at 12 and 25
    (past 10 and past 20, whatever the step), none without progress_every."""
    for every, expected in ((10, [12, 25]), (None, [])):
        objective = NoisyObjective(path, 0.0, 26)
        trace = Trace(progress_every=every)
        caplog.clear()
        with caplog.at_level("INFO", logger="localbo.objective"):
            for used in (4, 8, 12, 25, 26):
                objective(np.zeros((used - objective.used, 3)))
                trace.record(objective, np.zeros(3))
        lines = [r.getMessage() for r in caplog.records if r.name == "localbo.objective"]
        assert [int(line.split()[0]) for line in lines] == expected
        f0 = float(path(np.zeros((1, 3)))[0])
        assert all(f" f = {f0:.4f} at the current point" in line for line in lines)


def test_a_result_counts_its_seconds_from_when_its_trace_began(path):
    objective = NoisyObjective(path, 0.0, 2)
    trace = Trace()
    trace.started -= 5.0  # as if the method began five seconds ago
    objective(np.zeros((2, 3)))
    trace.record(objective, np.zeros(3))
    result = finish(objective, np.zeros(3), trace, stop="budget")
    assert 5.0 <= result.seconds < 65.0
    assert (result.evaluations, result.info) == (2, {"stop": "budget"})


@pytest.mark.parametrize("counts", [[3, -2, 0, 0], [1, 1, 1], [2, 2, 0, 1]])
def test_observe_design_refuses_counts_that_are_not_one_per_offset_and_positive(path, counts):
    objective = NoisyObjective(path, 0.0, budget=100)
    with pytest.raises(ValueError, match="count >= 1 per offset"):
        objective.observe_design(np.zeros(3), np.zeros((4, 3)), np.array(counts))
    assert objective.used == 0
