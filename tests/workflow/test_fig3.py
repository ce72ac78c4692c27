"""Fig. 3 on the tiny config: one row per run and per restart count, and the paper's d = 100
curve not drawn in the figure (nor listed in its legend) beside a path of another dimension; the
table keeps the published columns, for reference."""

import csv
import itertools

import pytest
import yaml

from tests.workflow.helpers import TINY

pytestmark = pytest.mark.workflow


def test_fig3_tables_and_a_legend_without_the_paper_off_d100(tiny_run):
    fig3 = yaml.safe_load(TINY.read_text())["fig3"]
    assert fig3["d"] != 100
    with open(tiny_run / "results/fig3/restarts.csv") as handle:
        runs = list(csv.DictReader(handle))
    with open(tiny_run / "results/fig3/best_after_restarts.csv") as handle:
        best = list(csv.DictReader(handle))
    assert len(runs) == fig3["num_restarts"] and len(best) == fig3["max_restarts"]
    medians = [float(r["median"]) for r in best]
    assert all(b <= a for a, b in itertools.pairwise(medians))
    legend = [
        line
        for line in (tiny_run / "logs/fig3_plot.log").read_text().splitlines()
        if "legend:" in line
    ]
    assert len(legend) == 1 and "this pipeline" in legend[0], legend
    assert "paper" not in legend[0].split("legend:")[1]
