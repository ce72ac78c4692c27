"""A long run keeps its state now and then; a run killed part way and taken up from its last
state ends with the same bits as one never stopped."""

import logging
import time

import numpy as np
import pytest

import localbo.pipeline.fig1_job as fig1_job
from localbo.checkpoint import Checkpoint, generator_state, restore_generator
from localbo.gp import GP
from localbo.kernels import RBF
from localbo.methods.gp_ucb import KEPT_INVERSE_BELOW_D, GPUCBSettings, gp_ucb
from localbo.objective import Box, NoisyObjective, Trace, without_times
from localbo.pipeline.finished_runs import FinishedRuns
from localbo.sample_paths import FourierSamplePath
from localbo.seeding import rng_for

LOG = logging.getLogger("test")
SETTINGS = GPUCBSettings(raw_samples=64, local_samples=64, restarts=2, refine_iterations=20)


class Killed(Exception):
    """What a test raises where a cluster would kill the job."""


def every_step_until_killed(checkpoint: Checkpoint, kill_at_save: int | None) -> Checkpoint:
    """`checkpoint` saving at every step; its save numbered `kill_at_save` (from 0) raises
    `Killed` instead, so the run stops steps after the state kept before it."""
    save, saves = checkpoint.save, []

    def save_or_die(state):
        if len(saves) == kill_at_save:
            raise Killed
        saves.append(1)
        save(state)

    checkpoint.save, checkpoint.every = save_or_die, 0.0
    return checkpoint


def memory_checkpoint(kill_at_save: int | None = None) -> tuple[Checkpoint, list[dict]]:
    """A checkpoint keeping its states in a list (`every_step_until_killed`)."""
    kept: list[dict] = []
    checkpoint = Checkpoint(lambda: kept[-1] if kept else None, kept.append)
    return every_step_until_killed(checkpoint, kill_at_save), kept


def run(sigma, checkpoint=None, budget=40, d=2, seed=31):
    kernel = RBF()
    path = FourierSamplePath.draw(kernel, d, 256, rng_for(seed, "path"))
    objective = NoisyObjective(path, sigma, budget, rng_for(seed, "noise") if sigma else None)
    box, rng = Box(-3, 3, d), rng_for(seed, "optimizer")
    return gp_ucb(objective, kernel, np.zeros(d), box, rng, SETTINGS, checkpoint=checkpoint)


def assert_same_run(a, b):
    assert without_times(a.summary()) == without_times(b.summary())
    np.testing.assert_array_equal(a.x, b.x)
    for name, array in a.trace.arrays().items():
        np.testing.assert_array_equal(b.trace.arrays()[name], array, err_msg=name)
    np.testing.assert_array_equal(a.model.L, b.model.L)
    assert (a.model.precision is None) == (b.model.precision is None)
    if a.model.precision is not None:
        np.testing.assert_array_equal(np.tril(a.model.precision.P), np.tril(b.model.precision.P))


@pytest.mark.parametrize(("sigma", "d"), [(0.0, 1), (0.0, 2), (0.1, 2), (0.0, 10), (0.0, 20)])
def test_a_gp_ucb_run_taken_up_from_its_checkpoint_ends_as_if_never_stopped(sigma, d):
    """At d = 1 the run drops its kept precision at n = 9, before the state is saved; at d = 20
    none is kept (`KEPT_INVERSE_BELOW_D`); the others keep it to the end, and the saved state
    carries it."""
    keeps = 1 < d < KEPT_INVERSE_BELOW_D
    whole = run(sigma, d=d)
    assert (whole.model.precision is not None) == keeps
    checkpoint, kept = memory_checkpoint(kill_at_save=12)
    with pytest.raises(Killed):
        run(sigma, checkpoint, d=d)
    assert int(kept[-1]["objective_used"]) == 13  # kept after x0 and 12 steps; the 13th is lost
    assert ("gp_P" in kept[-1]) == keeps
    resumed = run(sigma, Checkpoint(checkpoint.load, lambda state: None), d=d)
    assert_same_run(whole, resumed)
    # a checkpoint that never saves leaves the run as it is
    never = Checkpoint(lambda: None, lambda state: None, every=1e9)
    assert_same_run(whole, run(sigma, never, d=d))


def test_a_checkpoint_saves_only_when_its_seconds_have_passed():
    saved = []
    checkpoint = Checkpoint(lambda: None, saved.append, every=3600.0)
    built = []
    checkpoint.keep(lambda: built.append(1) or {})
    assert built == [] and saved == []  # not due: the state is not even built
    checkpoint.every = 0.0
    checkpoint.keep(lambda: {"a": np.ones(2)})
    assert len(saved) == 1


def test_a_gp_rebuilt_from_its_state_is_the_same_posterior_to_the_bit():
    rng = rng_for(32, "gp-state")
    gp = GP(RBF(0.8), rng.uniform(-1, 1, (5, 3)), rng.normal(size=5), 1e-6, capacity=20)
    gp.append(rng.uniform(-1, 1, (4, 3)), rng.normal(size=4))
    kept = GP(RBF(0.8), gp.X[:1], gp.y[:1], 1e-6, capacity=20, keep_precision=True)
    kept.append(gp.X[1:2], gp.y[1:2])
    kept_copy = GP.from_state(RBF(0.8), kept.state(), 1e-6)
    assert kept.precision is not None and kept_copy.precision is not None
    np.testing.assert_array_equal(kept.precision._P, kept_copy.precision._P)
    copy = GP.from_state(RBF(0.8), gp.state(), 1e-6)
    Xs = rng.uniform(-1, 1, (7, 3))
    for a, b in zip(gp.mean_and_variance(Xs), copy.mean_and_variance(Xs), strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(gp._L, copy._L)  # the whole buffer, capacity included
    X_new, y_new = rng.uniform(-1, 1, (2, 3)), rng.normal(size=2)
    gp.append(X_new, y_new)
    copy.append(X_new, y_new)
    np.testing.assert_array_equal(gp.L, copy.L)
    np.testing.assert_array_equal(gp.weights, copy.weights)
    assert copy.jitter == gp.jitter


def test_a_trace_and_the_streams_come_back_from_their_state():
    path = FourierSamplePath.draw(RBF(), 2, 64, rng_for(33, "path"))
    objective = NoisyObjective(path, 0.2, 10, rng_for(33, "noise"))
    trace = Trace()
    for x in ([0.0, 0.0], [0.5, -0.1]):
        objective(np.array([x]))
        trace.record(objective, np.array(x), tr_length=0.8)
    state = trace.state()
    assert 0 <= float(state["trace_seconds"]) < 60
    assert 0 <= float(state["trace_cpu_seconds"]) < 60
    copy = Trace.from_state(
        {**state, "trace_seconds": np.array(100.0), "trace_cpu_seconds": np.array(1000.0)}
    )
    for name, array in trace.arrays().items():
        np.testing.assert_array_equal(copy.arrays()[name], array, err_msg=name)
    assert 100 <= time.perf_counter() - copy.started < 160  # its seconds go on from the state's
    assert 1000 <= time.process_time() - copy.cpu_started < 1060  # and so does its CPU

    again = NoisyObjective(path, 0.2, 10, rng_for(33, "other noise"))
    again.restore(objective.state())
    assert again.remaining == objective.remaining == 8
    np.testing.assert_array_equal(again(np.zeros((3, 2))), objective(np.zeros((3, 2))))

    rng = rng_for(33, "optimizer")
    state = generator_state(rng)
    first = rng.standard_normal(4)
    restore_generator(rng, state)
    np.testing.assert_array_equal(rng.standard_normal(4), first)


@pytest.fixture
def gp_ucb_job(job):
    """(params, path file) of a GP-UCB job on the first of `job`'s paths, with fewer candidates."""
    params, files = job
    settings = {"raw_samples": 64, "local_samples": 64, "restarts": 2}
    return {**params, "paths": [0], "method_settings": settings}, files[:1]


def test_a_killed_gp_ucb_job_takes_up_its_run_where_its_checkpoint_left_it(
    gp_ucb_job, tmp_path, monkeypatch, caplog
):
    params, files = gp_ucb_job
    whole = fig1_job.run_chunk("gp_ucb", 2, 0.0, params, files, FinishedRuns(tmp_path / "a"), LOG)

    finished = FinishedRuns(tmp_path / "b")
    made = finished.checkpoint
    monkeypatch.setattr(
        finished, "checkpoint", lambda run, key: every_step_until_killed(made(run, key), 20)
    )
    with pytest.raises(Killed):
        fig1_job.run_chunk("gp_ucb", 2, 0.0, params, files, finished, LOG)
    assert [p.name for p in finished.directory.iterdir()] == ["p0.partial.npz"]

    monkeypatch.undo()
    with caplog.at_level(logging.INFO, logger="localbo.methods.gp_ucb"):
        resumed = fig1_job.run_chunk("gp_ucb", 2, 0.0, params, files, finished, LOG)
    assert "taken up from a checkpoint at 21 evaluations" in caplog.text
    assert [p.name for p in finished.directory.iterdir()] == ["p0.npz"]  # the state is gone
    assert [without_times(s) for s in resumed[0]] == [without_times(s) for s in whole[0]]
    # the CPU of the killed attempt up to its state counts in the run's, not in this attempt's
    assert 0 < resumed[0][0]["cpu_seconds_before"] < resumed[0][0]["cpu_seconds"]
    assert whole[0][0]["cpu_seconds_before"] == 0
    for name, array in whole[1].items():
        np.testing.assert_array_equal(resumed[1][name], array, err_msg=name)


def test_a_state_saved_with_another_fingerprint_or_unreadable_is_not_taken_up(tmp_path):
    finished = FinishedRuns(tmp_path / "runs")
    finished.checkpoint("p0", "key").save({"t": np.array(5)})
    assert int(finished.checkpoint("p0", "key").load()["t"]) == 5
    assert finished.checkpoint("p0", "other key").load() is None
    assert finished.checkpoint("p1", "key").load() is None
    (finished.directory / "p0.partial.npz").write_bytes(b"half a file")
    assert finished.checkpoint("p0", "key").load() is None
