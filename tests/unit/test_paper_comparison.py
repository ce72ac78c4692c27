"""The paper-vs-reproduced table: our values with their uncertainty, the verdict rules, and which
runs count as the paper's scale."""

import csv
import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from snakemake.utils import update_config

from localbo.gradient_estimation import PAPER_ESTIMATES
from localbo.pipeline.paper_claims import CLAIMS, FIG3_PUBLISHED, as_stated
from localbo.pipeline.paper_comparison import (
    NOT_COMPARABLE,
    RULES,
    comparable_sections,
    compare,
    ours,
)
from localbo.pipeline.settings import load_settings

REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "config" / "schemas" / "config.schema.yaml"
SECTIONS = ("fig1", "fig2", "fig3", "gradient_estimation")


def settings_of(*overrides):
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    for path in overrides:
        update_config(config, yaml.safe_load(path.read_text()))
    s = load_settings(config, SCHEMA)
    return comparable_sections(s.fig1, s.fig2, s.fig3, s.gradient_estimation)


def test_paper_scale_is_comparable_and_the_quick_run_is_not():
    assert settings_of() == dict.fromkeys(SECTIONS, True)
    quick = settings_of(REPO / "config" / "quick.yaml")
    assert not any(quick.values()), quick


def values_of(fig1=(), fig2=(), fig3=(), others=(), distribution=(), draws=None):
    return ours(
        list(fig1), list(fig2), list(fig3), list(others), list(distribution), draws or {}, 7
    )


def rows_by_key(values, comparable=True):
    rows = compare(values, dict.fromkeys(SECTIONS, comparable))
    return {(claim.key, row["at"]): row for claim, row in zip(claims_of(rows), rows, strict=True)}


def claims_of(rows):
    """The claim of each row (rows come claim by claim, one per place)."""
    by_quantity = {c.quantity: c for c in CLAIMS}
    return [by_quantity[row["quantity"]] for row in rows]


def test_fig1s_median_is_consistent_within_root_two_half_widths_of_its_interval():
    """Both numbers are medians: the paper's may lie sqrt(2) half-widths from ours."""
    local = [{"method": "local_bo", "sigma": "0.0", "d": "50", "value": str(v)} for v in
             np.linspace(-13.2, -12.4, 9)]  # fmt: skip
    rows = rows_by_key(values_of(fig1=local))
    median = rows["fig1_median", ""]
    assert median["ours"] == pytest.approx(-12.8)
    assert median["ours_low"] < -12.8 < median["ours_high"]
    reach = math.sqrt(2) * (median["ours_high"] - median["ours_low"]) / 2
    assert (median["low"], median["high"]) == pytest.approx((-12.8 - reach, -12.8 + reach))
    assert median["verdict"] == ("consistent" if reach >= 0.1 else "inconsistent")
    assert median["rule"] == "medians"
    narrow = [{**r, "value": str(-12.0 + 1e-3 * k)} for k, r in enumerate(local)]
    assert rows_by_key(values_of(fig1=narrow))["fig1_median", ""]["verdict"] == "inconsistent"


def test_fig2_slopes_are_per_noise_level_with_their_standard_errors():
    fig2 = [
        {"panel": "a", "d": "10", "b": str(b), "sigma": s, "estimate": str(c * b**-0.6)}
        for b in (20, 200, 2000)
        for s, c in (("0.1", 1.0), ("1.0", 5.0))
    ]
    values = values_of(fig2=fig2)
    slopes = values["fig2_slope_in_b"]
    assert [s.at for s in slopes] == ["sigma = 0.1", "sigma = 1.0"]
    assert [s.value for s in slopes] == pytest.approx([-0.6, -0.6])
    assert [s.std_error for s in slopes] == pytest.approx([0.0, 0.0], abs=1e-9)  # exact lines
    rows = rows_by_key(values)
    assert rows["fig2_slope_in_b", "sigma = 0.1"]["verdict"] == "match"  # in [-0.75, -0.5]


def test_fig3_is_judged_by_the_spread_between_paths():
    """The paper's curve is one more path: consistent within our paths' central 90 %."""
    with open(REPO / "config" / "paper" / "fig3_published.csv") as handle:
        published = {int(r["restarts"]): float(r["median"]) for r in csv.DictReader(handle)}
    assert {k: published[k] for k in FIG3_PUBLISHED} == FIG3_PUBLISHED
    main = [{"restarts": "1", "median": "-18.0"}]
    others = [
        {"path": str(p), "restarts": "1", "median": str(-18.0 - 0.1 * p)} for p in range(1, 11)
    ]
    rows = rows_by_key(values_of(fig3=main, others=others))
    row = rows["fig3_best_of_1", ""]
    low, high = np.quantile([-18.0 - 0.1 * p for p in range(11)], [0.05, 0.95])
    assert (row["ours_low"], row["ours_high"]) == pytest.approx((low, high))
    assert row["verdict"] == ("consistent" if low <= -18.3005515304944 <= high else "inconsistent")
    assert rows["fig3_best_of_10", ""]["verdict"] == "missing"  # no k = 10 in this run


def test_a_gradient_estimate_is_one_draw_judged_by_our_band_and_shares_are_stated():
    distribution = [
        {"case": "relu_n4", "procedure": "ours", "component": "1", "median": "0.6", "low": "0.4",
         "high": "0.8", "share_near_paper": "0.3", "share_in_subdifferential": "0.95"},
        {"case": "relu_n2", "procedure": "ours", "component": "1", "median": "0.0", "low": "0.0",
         "high": "0.01", "share_near_paper": "1.0", "share_in_subdifferential": "1.0"},
    ]  # fmt: skip
    draws = {
        "l1_n10_ours": [{"error": e} for e in ("0.1", "0.3", "0.0", "0.2")],
        "l1_n5_ours": [{"error": e} for e in ("0.2", "0.2", "0.1", "0.1")],
    }
    rows = rows_by_key(values_of(distribution=distribution, draws=draws))
    assert rows["draws:relu_n4:ours:1", ""]["verdict"] == "consistent"  # 0.49 in [0.4, 0.8]
    assert rows["draws:relu_n4:ours:1", ""]["share"] == 0.3
    assert rows["draws:relu_n2:ours:1", ""]["verdict"] == "consistent"  # 2.06e-5 in [0, 0.01]
    assert rows["share:inside:relu_n4:ours", ""]["verdict"] == "95% of draws"
    assert rows["share:closer:l1_n10:l1_n5:ours", ""]["verdict"] == "50% of draws"
    assert rows["share:closer:l1_n10:l1_n5:paper", ""]["verdict"] == "missing"
    not_paper_scale = rows_by_key(values_of(distribution=distribution), comparable=False)
    assert {r["verdict"] for r in not_paper_scale.values()} == {NOT_COMPARABLE}


def test_a_run_without_rows_is_missing_everywhere_and_every_rule_is_known():
    rows = compare(values_of(), dict.fromkeys(SECTIONS, True))
    assert {r["verdict"] for r in rows} == {"missing"}
    assert len(rows) == len(CLAIMS)
    assert {c.rule for c in CLAIMS} == set(RULES)
    assert len({c.key for c in CLAIMS}) == len(CLAIMS)


def test_every_gradient_claim_states_the_papers_estimate_of_its_case():
    """The 'paper' column of Figs. 4 and 5 is PAPER_ESTIMATES' entry as the paper prints it,
    every entry has its claims, and each component's value is the entry's."""
    gradient = [c for c in CLAIMS if c.rule == "draws"]
    assert {c.paper for c in gradient} == {as_stated(f, p, n) for f, p, n in PAPER_ESTIMATES}
    for claim in gradient:
        component = int(claim.key.rsplit(":", 1)[1])
        quoted = [float(v) for v in claim.paper.strip("()").split(",")]
        assert claim.value == quoted[component - 1], claim.key
    assert as_stated("relu", (0.0,), 2) == "2.06e-5"
    assert as_stated("l1", (0.0, 1.0), 10) == "(-0.031, 1.053)"
