"""The rates figure on the tiny run: every case, monotone curves, the bound, the figure."""

import itertools

import pytest

from tests.workflow.helpers import read_csv

pytestmark = pytest.mark.workflow


def test_every_case_has_a_slope_beside_its_theory(tiny_run):
    slopes = read_csv(tiny_run / "results/rates/slopes.csv")
    # tiny.yaml: d in {1, 3} x (sigma = 0: b_t = d + 1; sigma = 0.1: d t, constant) x 2 step rules
    cases = {(r["d"], r["sigma"], r["schedule"], r["step_rule"]) for r in slopes}
    assert len(slopes) == len(cases) == 12
    theory = {r["schedule"]: float(r["theory"]) for r in slopes}
    assert theory == {"d_plus_1": -1.0, "d_t": -0.25, "constant": 0.0}
    assert all(int(r["paths"]) == 2 for r in slopes)
    noiseless = [r for r in slopes if r["schedule"] == "d_plus_1" and r["step_rule"] == "fixed"]
    assert len(noiseless) == 2  # d = 1 and 3
    assert all(float(r["below_bound_share"]) == 1.0 for r in noiseless)
    assert all(float(r["slope_median"]) < -1 for r in noiseless)  # faster than O(1 / n) here


def test_curves_never_increase_and_runs_know_their_path(tiny_run):
    curves = read_csv(tiny_run / "results/rates/curves.csv")
    by_case = {}
    for r in curves:
        by_case.setdefault((r["d"], r["sigma"], r["schedule"], r["step_rule"]), []).append(r)
    assert len(by_case) == 12
    for rows in by_case.values():
        medians = [float(r["median"]) for r in rows]
        assert all(b <= a for a, b in itertools.pairwise(medians))
        assert [int(r["n"]) for r in rows][-1] == 400
    runs = read_csv(tiny_run / "results/rates/runs.csv")
    assert len(runs) == 24
    for r in runs:
        assert float(r["L"]) > 0 and float(r["f_star"]) <= float(r["f_start"])
        if r["step_rule"] == "fixed":
            assert float(r["step_size"]) == pytest.approx(1 / float(r["L"]))
    assert (tiny_run / "figures/rates.png").stat().st_size > 1000
