"""The progress curves on the tiny config: every run's curve keeps its trace's first and last
records, runs up its evaluations, ends at the run's value in Fig. 1's table, and equals its trace
at every count of its grid; the reach table and the figure are made; every table names a method
by its section's label."""

import glob

import numpy as np
import pandas as pd
import pytest

from localbo.io import load_json, load_npz
from localbo.pipeline.progress import at_counts, evaluation_grid
from tests.workflow.helpers import tiny_settings

pytestmark = pytest.mark.workflow


def test_each_curve_is_its_runs_trace_thinned(tiny_run):
    settings = tiny_settings()
    curves = pd.read_csv(tiny_run / "results/fig1/curves.csv")
    table = pd.read_csv(tiny_run / "results/fig1/local_solutions.csv")
    key = ["method", "sigma", "d", "path"]
    assert set(map(tuple, curves[key].drop_duplicates().to_numpy())) == set(
        map(tuple, table[key].to_numpy())
    )
    final = table.set_index(key)["value"]
    for summary in glob.glob(str(tiny_run / "results/fig1/runs/*/*.json")):
        traces = load_npz(summary.removesuffix(".json") + ".npz")
        for run in load_json(summary):
            mine = curves[(curves[key] == [run[k] for k in key]).all(axis=1)]
            evaluations = traces[f"p{run['path']}_evaluations"]
            values = traces[f"p{run['path']}_values"]
            assert mine["evaluations"].iloc[0] == evaluations[0]
            assert mine["evaluations"].iloc[-1] == evaluations[-1]
            assert np.all(np.diff(mine["evaluations"]) >= 0)
            assert mine["value"].iloc[-1] == final[tuple(run[k] for k in key)] == values[-1]
            grid = evaluation_grid(settings.fig1.budget_of(run["method"]), settings.progress.points)
            trace = pd.DataFrame({"evaluations": evaluations, "value": values})
            np.testing.assert_array_equal(at_counts(mine, grid), at_counts(trace, grid))


def test_the_reach_table_the_figure_and_every_label_column(tiny_run):
    jobs = tiny_settings().fig1_jobs()
    reach = pd.read_csv(tiny_run / "results/progress/reach.csv")
    assert (tiny_run / "figures/progress.png").stat().st_size > 0
    assert set(reach["method"]) >= {"local_bo", "minucb", "minucb_reference", "nestbo_reference"}
    summary = pd.read_csv(tiny_run / "results/method_comparison/summary.csv")
    for rows in (reach, summary):
        assert (rows["label"] == rows["method"].map(jobs.label)).all()
    pairs = set(zip(summary["method"], summary["against"], strict=True))
    assert {("minucb_reference", "minucb"), ("nestbo_reference", "nestbo_short")} <= pairs
