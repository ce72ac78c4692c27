"""The paper-vs-reproduced table: slopes, verdicts, and which runs count as the paper's scale."""

import csv
import math
from pathlib import Path

import pytest
import yaml
from snakemake.utils import update_config, validate

from localbo.gradient_estimation import PAPER_ESTIMATES
from localbo.pipeline.gradient_estimation import Cases
from localbo.pipeline.paper_comparison import (
    CLAIMS,
    as_stated,
    comparable_sections,
    compare,
    ours,
)
from localbo.pipeline.settings import load_settings

REPO = Path(__file__).resolve().parents[2]


def settings_of(*overrides):
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for path in overrides:
        update_config(config, yaml.safe_load(path.read_text()))
    validate(config, str(REPO / "config" / "schemas" / "config.schema.yaml"))
    s = load_settings(config)
    return comparable_sections(s.fig1, s.fig2, s.fig3, s.gradient_estimation)


def test_paper_scale_is_comparable_and_the_quick_run_is_not():
    assert settings_of() == dict.fromkeys(("fig1", "fig2", "fig3", "gradient_estimation"), True)
    quick = settings_of(REPO / "config" / "quick.yaml")
    assert not any(quick.values()), quick


def table(fig1=(), fig2=(), fig3=(), cases=()):
    return ours(list(fig1), list(fig2), list(fig3), list(cases))


def test_verdicts_match_miss_missing_and_not_comparable():
    fig1 = [
        {"method": "local_bo", "sigma": "0.0", "d": "50", "value": str(v)}
        for v in (-12.8, -12.9, -13.1)
    ]
    fig3 = [{"restarts": "1", "median": "-19.5"}]
    values = table(fig1=fig1, fig3=fig3)
    rows = compare(values, dict.fromkeys(("fig1", "fig2", "fig3", "gradient_estimation"), True))
    verdicts = {(r["quantity"], r["at"]): r["verdict"] for r in rows}
    assert verdicts[(CLAIMS[0].quantity, "")] == "match"  # median -12.9
    assert verdicts[(CLAIMS[1].quantity, "")] == "match"  # log10 n = 36.1
    assert verdicts[(CLAIMS[4].quantity, "")] == "miss"  # -19.5 against -18.30 +- 0.5
    assert verdicts[(CLAIMS[5].quantity, "")] == "missing"  # no k = 10 in this run
    rows = compare(values, dict.fromkeys(("fig1", "fig2", "fig3", "gradient_estimation"), False))
    assert {r["verdict"] for r in rows} == {"not comparable: this run is not the paper's scale"}


def test_fig2_slopes_are_per_noise_level_and_estimates_are_distances():
    fig2 = [
        {"panel": "a", "d": "10", "b": str(b), "sigma": s, "estimate": str(c * b**-0.6)}
        for b in (20, 200, 2000)
        for s, c in (("0.1", 1.0), ("1.0", 5.0))
    ]
    case = {
        "case": "l1_n10",
        "grad_1": "0.0",
        "grad_2": "1.0",
        "paper_grad_1": "-0.031",
        "paper_grad_2": "1.053",
    }
    values = table(fig2=fig2, cases=[case])
    assert values["fig2_slope_in_b"] == [
        ("sigma = 0.1", pytest.approx(-0.6)),
        ("sigma = 1.0", pytest.approx(-0.6)),
    ]
    assert values["case:l1_n10"] == [("", pytest.approx(math.hypot(0.031, 0.053)))]
    assert "case:quadratic_n5" not in values  # no row, so its claim is "missing"


def test_fig3_claims_are_the_published_curve():
    with open(REPO / "config" / "paper" / "fig3_published.csv") as handle:
        published = {int(r["restarts"]): float(r["median"]) for r in csv.DictReader(handle)}
    fig3 = [c for c in CLAIMS if c.figure == "fig3"]
    assert len(fig3) == 3
    for claim in fig3:
        k = int(claim.key.removeprefix("fig3_best_of_"))
        assert (claim.low + claim.high) / 2 == pytest.approx(published[k], abs=1e-12), claim


def test_a_figure_without_rows_is_missing_not_dropped():
    values = table()
    rows = compare(values, dict.fromkeys(("fig1", "fig2", "fig3", "gradient_estimation"), True))
    assert {r["quantity"] for r in rows} == {c.quantity for c in CLAIMS}
    assert {r["verdict"] for r in rows} == {"missing"}


def test_every_claim_finds_its_value_in_a_run_that_has_its_rows():
    """One row of each table the claims read gives every claim a value under its own key (a
    mistyped key would read as "missing"), and each Fig. 3 claim its own k's."""
    keys = [c.key for c in CLAIMS]
    assert len(set(keys)) == len(keys)
    fig1 = [{"method": "local_bo", "sigma": "0.0", "d": "50", "value": "-12.5"}]
    points = [("a", 10, 20, 1.0), ("a", 10, 200, 0.3), ("b", 1, 500, 0.01), ("b", 10, 500, 0.3)]
    fig2 = [
        {"panel": p, "d": str(d), "b": str(b), "sigma": "0.1", "estimate": str(e)}
        for p, d, b, e in points
    ]
    fig3 = [{"restarts": str(k), "median": str(-18.0 - k / 1000)} for k in (1, 10, 100)]
    cases = [{"case": name, "grad_1": "0.0", "paper_grad_1": "0.1"} for name in Cases().cases]
    values = table(fig1, fig2, fig3, cases)
    assert set(keys) <= set(values)
    rows = compare(values, dict.fromkeys(("fig1", "fig2", "fig3", "gradient_estimation"), True))
    assert "missing" not in {r["verdict"] for r in rows}
    for claim in CLAIMS:
        if claim.figure == "fig3":
            k = int(claim.key.removeprefix("fig3_best_of_"))
            assert values[claim.key] == [("", -18.0 - k / 1000)]


def test_gradient_claims_state_the_papers_estimate_of_their_case():
    """Each gradient-estimation claim's key is a case of the default config, and the numbers
    it quotes are `PAPER_ESTIMATES` of that case's setting."""
    cases = Cases().cases
    for claim in CLAIMS:
        if claim.figure != "gradient_estimation":
            continue
        case = cases[claim.key.removeprefix("case:")]
        quoted = tuple(float(v) for v in claim.paper.strip("()").split(","))
        assert quoted == PAPER_ESTIMATES[case.function, case.x, case.n], claim.key


def test_the_paper_column_of_figs_4_and_5_is_printed_from_the_estimates_the_distances_use():
    """Each gradient-estimation claim's 'paper' is PAPER_ESTIMATES' entry as the paper prints it
    (they were typed twice, so a correction of one left the column and the distance apart), and
    every entry has a claim."""
    stated = {as_stated(f, point, n) for f, point, n in PAPER_ESTIMATES}
    texts = {c.paper for c in CLAIMS if c.figure == "gradient_estimation"}
    assert texts == stated
    assert as_stated("relu", (0.0,), 2) == "2.06e-5"
    assert as_stated("l1", (0.0, 1.0), 10) == "(-0.031, 1.053)"
