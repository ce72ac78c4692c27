"""Figs. 4 and 5 on the tiny config: the table beside the paper's values, both figures, shared
queries (the section's semantic checks: tests/unit/test_pipeline_settings.py)."""

import csv

import numpy as np
import pytest

from localbo.io import load_npz
from localbo.pipeline.gradient_estimation import GradientEstimationSettings

pytestmark = pytest.mark.workflow

TARGETS = (
    "results/gradient_estimation/summary.csv",
    "figures/fig4_l1norm.pdf",
    "figures/fig4_l1norm.png",
    "figures/fig5_relu.pdf",
    "figures/fig5_relu.png",
)
SECTION = GradientEstimationSettings()  # the tiny config keeps the default cases and bounds


def test_table_has_every_case_beside_the_paper(tiny_run):
    with open(tiny_run / "results/gradient_estimation/summary.csv") as handle:
        rows = {row["case"]: row for row in csv.DictReader(handle)}
    assert set(rows) == set(SECTION.cases.cases)
    assert float(rows["l1_n5"]["paper_grad_2"]) == 0.318
    assert float(rows["relu_n4"]["paper_grad_1"]) == 0.49
    for row in rows.values():
        assert np.isfinite(float(row["grad_1"])) and float(row["error"]) >= 0
        assert float(row["lengthscale"]) >= SECTION.fit.lengthscale_bounds[0] * (1 - 1e-9)


def test_figures_exist_and_are_not_empty(tiny_run):
    for target in TARGETS[1:]:
        assert (tiny_run / target).stat().st_size > 1000, target


def test_quadratic_and_l1_share_their_queries(tiny_run):
    """The paper's Fig. 4 (a) and (b) use exactly the same samples."""
    a = load_npz(tiny_run / "results/gradient_estimation/quadratic_n5.npz")
    b = load_npz(tiny_run / "results/gradient_estimation/l1_n5.npz")
    np.testing.assert_array_equal(a["queries"], b["queries"])
