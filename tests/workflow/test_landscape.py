"""The landscape figure on the tiny run: one row per (d, path, method) and per start, percentiles
in [0, 100], Fig. 1's own runs reused (values equal to Fig. 1's table), the figure."""

import math

import pytest
import yaml
from snakemake.utils import update_config

from localbo.pipeline.settings import load_settings
from tests.workflow.helpers import REPO, TINY, read_csv

pytestmark = pytest.mark.workflow

METHODS = {"local_bo", "exact_gradient", "exact_bfgs"}


def tiny_landscape():
    """The landscape settings of the tiny run: config/config.yaml with tests/workflow/tiny.yaml."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    update_config(config, yaml.safe_load(TINY.read_text()))
    return load_settings(config).landscape


def test_tables_have_a_row_per_path_method_and_start(tiny_run):
    s = tiny_landscape()
    rows = read_csv(tiny_run / "results/landscape/percentiles.csv")
    keys = {(int(r["d"]), int(r["path"]), r["method"]) for r in rows}
    expected = {(d, i, m) for d in s.dims for i in range(s.num_paths) for m in METHODS}
    assert len(rows) == len(keys) and keys == expected
    for r in rows:
        assert 0.0 <= float(r["percentile"]) <= 100.0
        interior = float(r["interior_percentile"])  # the interior minima are fewer
        assert math.isnan(interior) or 0.0 <= interior <= 100.0
        assert float(r["gap"]) >= 0.0
        assert r["on_boundary"] in ("0", "1") and r["outside_box"] in ("0", "1")
        if r["method"] == "exact_gradient":  # L-BFGS-B stays in the box
            assert r["outside_box"] == "0"
    population = read_csv(tiny_run / "results/landscape/population.csv")
    assert len(population) == len(s.dims) * s.num_paths * s.starts
    assert min(float(r["gap"]) for r in population) >= 0.0
    summary = read_csv(tiny_run / "results/landscape/summary.csv")
    assert {(int(r["d"]), r["method"]) for r in summary} == {
        (d, m) for d in s.dims for m in METHODS | {"population"}
    }
    for r in summary:
        assert 0.0 <= float(r["boundary_share"]) <= 1.0
    for ext in ("pdf", "png"):
        assert (tiny_run / f"figures/landscape.{ext}").stat().st_size > 10_000


def test_fig1_runs_are_reused_not_rerun(tiny_run):
    """Methods 1 and 2 are Fig. 1's own sigma = 0 runs: the same values, to the last bit."""
    fig1 = {
        (r["method"], int(r["d"]), int(r["path"])): r
        for r in read_csv(tiny_run / "results/fig1/local_solutions.csv")
        if float(r["sigma"]) == 0.0
    }
    rows = read_csv(tiny_run / "results/landscape/percentiles.csv")
    for r in rows:
        if r["method"] == "exact_bfgs":  # computed by the landscape job itself
            continue
        run = fig1[r["method"], int(r["d"]), int(r["path"])]
        assert float(r["value"]) == float(run["value"])
        if r["method"] == "exact_gradient":
            assert r["on_boundary"] == run["on_boundary"]
    assert len(rows) == 3 * len({(r["d"], r["path"]) for r in rows})
