"""The rates figure on the tiny run: every case, monotone curves, the bound, the figure."""

import itertools

import pytest

from tests.workflow.helpers import read_csv, tiny_settings

pytestmark = pytest.mark.workflow


def tiny_cases() -> int:
    """The tiny run's cases: per d, sigma = 0 with b_t = d + 1 and each noisy schedule, times
    the step rules."""
    rates = tiny_settings().rates
    return len(rates.dims) * (1 + len(rates.schedules)) * len(rates.step_rules)


def test_every_case_has_a_slope_beside_its_theory(tiny_run):
    slopes = read_csv(tiny_run / "results/rates/slopes.csv")
    cases = {(r["d"], r["sigma"], r["schedule"], r["step_rule"]) for r in slopes}
    assert len(slopes) == len(cases) == tiny_cases()
    theory = {r["schedule"]: float(r["theory"]) for r in slopes}
    assert theory == {"d_plus_1": -1.0, "d_t": -0.25, "constant": 0.0}
    assert all(int(r["paths"]) == tiny_settings().rates.num_paths for r in slopes)
    noiseless = [r for r in slopes if r["schedule"] == "d_plus_1" and r["step_rule"] == "fixed"]
    assert len(noiseless) == len(tiny_settings().rates.dims)
    assert all(float(r["below_bound_share"]) == 1.0 for r in noiseless)
    assert all(float(r["slope_median"]) < -1 for r in noiseless)  # faster than O(1 / n) here


def test_curves_never_increase_and_runs_know_their_path(tiny_run):
    curves = read_csv(tiny_run / "results/rates/curves.csv")
    by_case = {}
    for r in curves:
        by_case.setdefault((r["d"], r["sigma"], r["schedule"], r["step_rule"]), []).append(r)
    assert len(by_case) == tiny_cases()
    for rows in by_case.values():
        medians = [float(r["median"]) for r in rows]
        assert all(b <= a for a, b in itertools.pairwise(medians))
        assert [int(r["n"]) for r in rows][-1] == 400
    runs = read_csv(tiny_run / "results/rates/runs.csv")
    assert len(runs) == tiny_cases() * tiny_settings().rates.num_paths
    for r in runs:
        assert float(r["L"]) > 0 and float(r["f_star"]) <= float(r["f_start"])
        if r["step_rule"] == "fixed":
            assert float(r["step_size"]) == pytest.approx(1 / float(r["L"]))
    assert (tiny_run / "figures/rates.png").stat().st_size > 1000
