"""The RBF error function against Lemma 3 on the tiny run: rows, the bound holds, the figure."""

import math

import pytest

from tests.workflow.helpers import read_csv

pytestmark = pytest.mark.workflow


def test_the_estimate_is_below_the_designs_and_lemma_3(tiny_run):
    rows = read_csv(tiny_run / "results/rbf_error/error_function.csv")
    # tiny.yaml: one noise level x (2 batch sizes in panel a + 2 dimensions in panel b)
    assert len(rows) == 4 and {r["sigma"] for r in rows} == {"0.1"}
    improved = 0
    for r in rows:
        estimate = float(r["estimate"])
        best_design = min(float(r["central_design"]), float(r["forward_design"]))
        # never above the best differencing design holds by construction (the search starts
        # there); L-BFGS must beat it somewhere (by 8 % and 15 % at b = 16, d = 2 and b = 8, d = 3)
        assert 0 < estimate <= best_design + 1e-12
        improved += estimate < 0.99 * best_design
        assert int(r["m"]) == int(r["b"]) // (2 * int(r["d"]))
        if int(r["m"]) > 0:
            assert float(r["ratio"]) >= 1.0  # Lemma 3 holds
            assert float(r["taylor_bound"]) >= float(r["lambert_bound"])
        else:
            assert math.isnan(float(r["lambert_bound"]))
    assert improved >= 1
    slopes = read_csv(tiny_run / "results/rbf_error/slopes.csv")
    assert {(s["panel"], s["variable"]) for s in slopes} == {("a", "b"), ("b", "d")}
    assert (tiny_run / "figures/rbf_error_function.png").stat().st_size > 1000
