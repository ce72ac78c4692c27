"""Fig. 1 on the tiny config: the table has one row per run within budget, the figure exists,
and a method added as one module plus one config entry gets its panel and rows."""

import csv
import re

import numpy as np
import pytest

from localbo.sample_paths import FourierSamplePath
from tests.workflow.helpers import TINY, snakemake, tiny_settings

pytestmark = pytest.mark.workflow


def test_fig1_table_and_figure(tiny_run):
    fig1 = tiny_settings().fig1
    with open(tiny_run / "results/fig1/local_solutions.csv") as handle:
        rows = list(csv.DictReader(handle))
    dims, paths = len(fig1.dims), fig1.num_paths
    methods = fig1.methods.methods
    counts = {m: sum(r["method"] == m for r in rows) for m in methods}
    # one row per (d, path, noise level) of every method in the config
    expected = {
        m: len(methods[m].jobs.noise_levels) * len(fig1.dims_of(m)) * paths for m in methods
    }
    assert counts == expected
    assert counts["local_bo"] == 3 * dims * paths  # the paper's three noise levels
    # the methods whose run evaluates x0 and keeps the best it saw (MPD: its best observation)
    from_x0 = {name for name, m in methods.items() if m.optimizer.evaluates_start}
    checked = set()
    for row in rows:
        budget = fig1.budget_of(row["method"])
        assert int(row["evaluations"]) <= budget
        if fig1.method(row["method"]).optimizer.spends_whole_budget(float(row["sigma"])):
            assert int(row["evaluations"]) == budget
        if float(row["sigma"]) == 0.0 and row["method"] in from_x0:
            found = [float(row[key]) for key in ("value", "best_observation_value") if row[key]]
            path = FourierSamplePath.load(
                tiny_run / f"results/fig1/paths/d{row['d']}/path{row['path']}.npz"
            )
            start = path(np.zeros((1, int(row["d"]))))[0]
            assert min(found) <= start + 1e-12, row
            checked.add(row["method"])
    assert checked == from_x0
    for ext in ("pdf", "png"):
        assert (tiny_run / f"figures/fig1_local_solutions.{ext}").stat().st_size > 10_000
    assert (tiny_run / "results/fig1/paths/d1/path0.npz").exists()


PLUG_IN = """
from localbo.objective import Trace, finish
from localbo.optimizers import NoSettings, Optimizer, register


@register
class StayAtStart(Optimizer):
    name = "stay_at_start"
    label = "stay at x0"
    Settings = NoSettings

    def minimize(self, objective, kernel, x0, box, rng):
        trace = Trace()
        objective(x0[None, :])
        trace.record(objective, x0)
        return finish(objective, x0, trace, stop="stayed")
"""


def test_a_throwaway_method_is_one_module_and_one_config_entry(tmp_path):
    """No rules file is edited: the config entry alone puts the method in Fig. 1."""
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "stay_plugin.py").write_text(PLUG_IN)
    extra = tmp_path / "stay.yaml"
    extra.write_text(
        "fig1:\n  methods:\n    stay_at_start: {module: stay_plugin, paths_per_job: 2}\n"
    )
    workdir = tmp_path / "run"
    snakemake(
        workdir,
        "--cores",
        "2",
        "results/fig1/local_solutions.csv",
        "figures/fig1_local_solutions.png",
        configfiles=(TINY, extra),
        env={"PYTHONPATH": str(tmp_path / "plugins")},
    )
    with open(workdir / "results/fig1/local_solutions.csv") as handle:
        rows = [r for r in csv.DictReader(handle) if r["method"] == "stay_at_start"]
    fig1 = tiny_settings().fig1
    assert len(rows) == len(fig1.dims) * fig1.num_paths
    assert {r["evaluations"] for r in rows} == {"1"} and {r["stop"] for r in rows} == {"stayed"}
    panels = (workdir / "logs/fig1_plot.log").read_text()
    # the compare layout's panel of every method (the label carries the budget when the methods'
    # budgets differ, as the tiny config's do)
    assert re.search(r"panel: every method, sigma = 0: .*\bstay at x0\b", panels), panels
