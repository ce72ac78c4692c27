"""The progress curves: the grid, the thinning, the median curves and the reach table on small
hand-made traces whose answers are known, and the labels every figure and table receives."""

import copy

import numpy as np
import pandas as pd
import pytest

from localbo.methods.local_bo import LocalBO
from localbo.pipeline.method_comparison import method_params
from localbo.pipeline.progress import (
    NOT_REACHED,
    at_counts,
    evaluation_grid,
    median_curves,
    reach_table,
    run_curves,
    thinned,
)
from localbo.pipeline.settings import load_settings
from tests.unit.test_pipeline_settings import CONFIG, SCHEMA


@pytest.mark.parametrize("budget, points", [(5000, 60), (1000, 60), (60, 60), (1000, 4)])
def test_the_grid_runs_from_one_to_the_budget_log_spaced(budget, points):
    grid = evaluation_grid(budget, points)
    assert grid[0] == 1 and grid[-1] == budget and len(grid) <= points
    assert np.all(np.diff(grid) > 0)
    # the large counts are the log-spaced points themselves (the small ones round together)
    assert grid[-1] / grid[-2] == pytest.approx(budget ** (1 / (points - 1)), rel=0.01)


def random_trace(rng: np.random.Generator, budget: int) -> tuple[np.ndarray, np.ndarray]:
    """(k,) non-decreasing evaluation counts from 0 to at most budget, some repeated, and (k,)
    values."""
    steps = rng.integers(0, 4, size=rng.integers(5, 400))
    evaluations = np.minimum(np.cumsum(steps), budget)
    return evaluations, rng.normal(size=evaluations.size)


def test_thinning_keeps_the_ends_is_monotone_and_equals_the_trace_on_its_grid():
    rng = np.random.default_rng(7)
    for _ in range(200):
        budget = int(rng.integers(5, 2000))
        evaluations, values = random_trace(rng, budget)
        grid = evaluation_grid(budget, 30)
        kept = thinned(evaluations, grid)
        assert kept[0] == 0 and kept[-1] == evaluations.size - 1
        assert np.all(np.diff(kept) > 0) and np.all(np.diff(evaluations[kept]) >= 0)
        curve = pd.DataFrame({"evaluations": evaluations[kept], "value": values[kept]})
        trace = pd.DataFrame({"evaluations": evaluations, "value": values})
        np.testing.assert_array_equal(at_counts(curve, grid), at_counts(trace, grid))


def test_a_curve_is_a_step_function_nan_before_its_first_record():
    curve = pd.DataFrame({"evaluations": [3, 5, 5, 9], "value": [4.0, 3.0, 2.0, 1.0]})
    values = at_counts(curve, np.array([1, 3, 4, 5, 8, 9, 100]))
    np.testing.assert_array_equal(values, [np.nan, 4.0, 4.0, 2.0, 2.0, 1.0, 1.0])


def test_run_curves_name_each_run_and_keep_its_records():
    summaries = [{"method": "m", "d": 2, "sigma": 0.0, "path": 7, "value": -1.0}]
    traces = {"p7_evaluations": np.array([1, 2, 3, 10]), "p7_values": np.array([0, -1, -2, -3.0])}
    rows = run_curves(summaries, traces, budget=10, points=3)  # grid 1, 3, 10
    assert [(r["evaluations"], r["value"]) for r in rows] == [(1, 0.0), (3, -2.0), (10, -3.0)]
    assert {(r["method"], r["d"], r["sigma"], r["path"]) for r in rows} == {("m", 2, 0.0, 7)}


def curves(method: str, runs: list[list[tuple[int, float]]]) -> pd.DataFrame:
    """A curve table of one method at (d, sigma) = (3, 0): run p's rows from runs[p]."""
    cell = {"method": method, "d": 3, "sigma": 0.0}
    rows = [{**cell, "path": p, "evaluations": e, "value": v}
            for p, run in enumerate(runs) for e, v in run]  # fmt: skip
    return pd.DataFrame(rows)


METHODS = {
    "local_bo": {"label": "local BO", "budget": 100, "optimizer": LocalBO.name},
    "fast": {"label": "fast", "budget": 100, "optimizer": "other"},
    "slow": {"label": "slow", "budget": 100, "optimizer": "other"},
    "alone": {"label": "alone", "budget": 50, "optimizer": "other"},
}


def test_the_medians_and_quartiles_are_over_paths_at_each_count():
    table = curves("fast", [[(1, 4.0), (10, 0.0)], [(1, 2.0), (10, 1.0)], [(1, 0.0)]])
    medians = median_curves(table, {"fast": 100}, points=3).set_index("evaluations")
    assert medians.loc[1, "median"] == 2.0 and medians.loc[10, "median"] == 0.0
    assert medians.loc[1, "q25"] == 1.0 and medians.loc[1, "q75"] == 3.0
    assert (medians["paths"] == 3).all()


def test_the_reach_table_reads_the_first_count_at_local_bos_final_median():
    table = pd.concat(
        [
            curves("local_bo", [[(1, 0.0), (50, -2.0)], [(1, 0.0), (60, -4.0)]]),  # final -3
            curves("fast", [[(1, 0.0), (10, -3.0)], [(1, 0.0), (10, -3.5)]]),
            curves("slow", [[(1, 0.0), (100, -2.9)], [(1, 0.0), (100, -2.9)]]),
            curves("alone", [[(1, 0.0), (50, -9.0)]]),  # no local BO at its budget
        ]
    )
    rows = {r["method"]: r for r in reach_table(table, METHODS, 5, LocalBO.name)}
    assert set(rows) == {"local_bo", "fast", "slow"}
    assert rows["fast"]["target"] == -3.0 and rows["fast"]["reached_at"] == 10
    assert rows["slow"]["reached_at"] == NOT_REACHED and rows["slow"]["final_median"] == -2.9
    assert rows["local_bo"]["reached_at"] == 100 and rows["local_bo"]["paths"] == 2


def test_every_figure_and_table_names_a_method_by_its_sections_label():
    """One owner of a method's name: its `fig1.methods` section's label (with its budget where it
    is not fig1.budget), whatever figure or table takes it; a method with its authors' variant
    beside it is "our choices"."""
    settings = load_settings(copy.deepcopy(CONFIG), SCHEMA)
    jobs, sections = settings.fig1_jobs(), CONFIG["fig1"]["methods"]
    params = method_params(jobs)
    for name, about in params.items():
        label = sections[name].get("label") or jobs.settings.method(name).optimizer.label
        budget = settings.fig1.budget_of(name)
        suffix = "" if budget == settings.fig1.budget else f" ({budget} evaluations)"
        assert about["label"] == jobs.label(name) == label + suffix
    assert jobs.labels() == {n: a["label"] for n, a in params.items() if a["drawn"]}
    for variant, ours in settings.method_comparison.pairs.items():
        optimizer = jobs.settings.method(variant).optimizer.name
        if optimizer == jobs.settings.method(ours).optimizer.name:  # a method as its authors run it
            assert "our choices" in params[ours]["label"]
            assert "our choices" in params[optimizer]["label"]
            assert "our choices" not in params[variant]["label"]


def test_the_target_is_local_bos_final_median_on_the_methods_own_paths():
    """Local BO ran paths 0-2, the method paths 0-1: the target is local BO's median on 0-1."""
    table = pd.concat(
        [
            curves("local_bo", [[(1, -1.0)], [(1, -3.0)], [(1, -100.0)]]),
            curves("fast", [[(1, 0.0), (5, -2.0)], [(1, 0.0), (5, -2.5)]]),
        ]
    )
    rows = {r["method"]: r for r in reach_table(table, METHODS, 5, LocalBO.name)}
    assert rows["fast"]["target"] == -2.0 and rows["fast"]["reached_at"] == 10  # grid 1, 3, 10
    assert rows["local_bo"]["target"] == -3.0  # its own three paths
