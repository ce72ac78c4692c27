"""Fig. 1 on the tiny config: the table has one row per run within budget, the figure exists,
and broken fig1 configs fail before any job runs."""

import csv

import pytest
import yaml

from tests.workflow.helpers import TINY

pytestmark = pytest.mark.workflow


def test_fig1_table_and_figure(tiny_run):
    fig1 = yaml.safe_load(TINY.read_text())["fig1"]
    with open(tiny_run / "results/fig1/local_solutions.csv") as handle:
        rows = list(csv.DictReader(handle))
    dims, paths = len(fig1["dims"]), fig1["num_paths"]
    counts = {
        m: sum(r["method"] == m for r in rows) for m in ("local_bo", "gp_ucb", "random_search")
    }
    # paper noise levels for local BO (3), sigma = 0 only for the global methods
    assert counts == {
        "local_bo": 3 * dims * paths,
        "gp_ucb": dims * paths,
        "random_search": dims * paths,
    }
    budgets = {
        "local_bo": fig1["budget"],
        "gp_ucb": fig1["gp_ucb"]["budget"],
        "random_search": fig1["budget"],
    }
    for row in rows:
        assert int(row["evaluations"]) <= budgets[row["method"]]
        if row["method"] != "local_bo" or float(row["sigma"]) > 0:
            assert int(row["evaluations"]) == budgets[row["method"]]
        assert float(row["value"]) < 10
    for ext in ("pdf", "png"):
        assert (tiny_run / f"figures/fig1_local_solutions.{ext}").stat().st_size > 10_000
    assert (tiny_run / "results/fig1/paths/d1/path0.npz").exists()
